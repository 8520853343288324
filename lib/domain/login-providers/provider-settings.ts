import type { RealmTx } from '../../db/types';
import { validationError } from '../../errors/app-error';
import { addressPermitted, canonicalAddress } from '../../outbound/address-policy';
import { outboundAllowList } from '../../outbound/outbound-fetch';
import type { DomainContext } from '../../realm/context';
import { upstreamUrlProblem } from '../external-identity/oidc/upstream-oidc';
import { assertActorHoldsGroupGrants } from '../groups/grant-change-guard';
import { resolveIdp } from '../external-identity/saml/idp-settings';
import { userUpdateScriptProblem } from '../external-identity/user-update-script';
import type { ProviderConfig } from './provider-config';
import type { CreateLoginProviderInput, ExternalFlavor } from './schemas';

// The stored settings of a provider, built from a create or replace body (CONTRACT.md "External
// identity"): the Jit rule, the script and the flavor's section. Checked inside the writing
// transaction, so the default groups a provider will hand out are checked on the state that commits.

type SettingsBody = Pick<CreateLoginProviderInput, 'Jit' | 'UserUpdateScript' | 'Oidc' | 'Saml' | 'Ldap' | 'Kerberos'>;

export function configFromBody(flavor: ExternalFlavor, body: SettingsBody, keep: Pick<ProviderConfig, 'Saml'> | undefined): ProviderConfig {
  const groupIds = [...new Set(body.Jit?.DefaultGroupIds ?? [])];
  const script = body.UserUpdateScript?.trim() ? body.UserUpdateScript : null;
  return {
    Jit: { Enabled: body.Jit?.Enabled ?? true, DefaultGroupIds: groupIds },
    UserUpdateScript: script,
    Oidc: flavor === 'Oidc' ? body.Oidc : null,
    // The SP certificate is generated once and survives a replace of the IdP settings.
    Saml: flavor === 'Saml' && body.Saml ? { ...body.Saml, SpCertificate: keep?.Saml?.SpCertificate ?? null } : null,
    Ldap: flavor === 'Ldap' ? body.Ldap : null,
    Kerberos: flavor === 'Kerberos' ? body.Kerberos : null,
  };
}

/**
 * The default groups exist, and the administrator holds what they confer: whoever the upstream
 * vouches for joins them without anyone checking again.
 */
export async function checkDefaultGroups(ctx: DomainContext, tx: RealmTx, config: ProviderConfig): Promise<void> {
  const ids = config.Jit.DefaultGroupIds;
  if (ids.length) {
    const found = new Set((await tx.group.findMany({ where: { id: { in: ids } }, select: { id: true } })).map((g) => g.id));
    const missing = ids.filter((id) => !found.has(id));
    if (missing.length) throw validationError({ 'Jit.DefaultGroupIds': missing.map((id) => `No group has the id ${id}.`) });
  }
  await assertActorHoldsGroupGrants(ctx, tx, ids, 'The default groups confer permissions you do not hold');
}

/** A script that does not compile is refused when it is saved, not at someone's sign-in. */
export async function checkUserUpdateScript(config: ProviderConfig): Promise<void> {
  if (!config.UserUpdateScript) return;
  const problem = await userUpdateScriptProblem(config.UserUpdateScript);
  if (problem) throw validationError({ UserUpdateScript: [problem] });
}

/** A SAML provider's IdP settings must be usable (metadata parsed, certificates valid) when saved. */
export function checkSamlSettings(config: ProviderConfig): void {
  if (!config.Saml) return;
  try {
    resolveIdp(config.Saml);
  } catch (e) {
    const field = config.Saml.IdpMetadataXml ? 'Saml.IdpMetadataXml' : 'Saml.IdpCertificate';
    throw validationError({ [field]: [e instanceof Error ? e.message : String(e)] });
  }
}

const NOT_ALLOWED =
  'The server may not connect to this address: loopback, private, link-local and metadata addresses are reachable only when the operator lists them in GATEHOUSE_OUTBOUND_ALLOW.';

/**
 * An upstream the outbound policy will never let the server reach is refused when it is saved, not
 * at someone's sign-in (docs/security.md "Outbound requests"): an http Authority whose host the
 * operator does not list in GATEHOUSE_OUTBOUND_ALLOW (https is required elsewhere, and openid-client
 * refuses plain http anyway), and an Authority or directory URL written as an address the policy
 * refuses. A host name is checked when it is connected to: its addresses can change.
 */
export function checkUpstreamAddresses(config: ProviderConfig): void {
  const allow = outboundAllowList();
  if (config.Oidc) {
    const problem = upstreamUrlProblem(config.Oidc.Authority, allow);
    if (problem === 'https-required')
      throw validationError({
        'Oidc.Authority': ['Use https: plain http is only for hosts the operator lists in GATEHOUSE_OUTBOUND_ALLOW.'],
      });
    if (problem === 'not-allowed') throw validationError({ 'Oidc.Authority': [NOT_ALLOWED] });
  }
  if (config.Ldap && URL.canParse(config.Ldap.Url)) {
    const host = new URL(config.Ldap.Url).hostname;
    if (canonicalAddress(host) && !addressPermitted(allow, host, host)) throw validationError({ 'Ldap.Url': [NOT_ALLOWED] });
  }
}

/**
 * What a provider's upstream says decides who signs in: it can vouch for anyone's confirmed address
 * (and so sign in as them), and its UserUpdateScript can rename or re-address anyone who signs in
 * through it. Creating a provider, or changing its connection or script, is therefore managing
 * everyone: the administrator must hold every permission the realm's groups confer, checked on the
 * state that commits. Renaming, switching it on or off, or keeping the settings needs nothing more.
 */
export async function checkUpstreamAuthority(ctx: DomainContext, tx: RealmTx, config: ProviderConfig, previous: ProviderConfig | undefined): Promise<void> {
  const decisive = (c: ProviderConfig) =>
    JSON.stringify([c.Oidc, c.Saml && { ...c.Saml, SpCertificate: null }, c.Ldap, c.Kerberos, c.UserUpdateScript ?? null]);
  if (previous && decisive(previous) === decisive(config)) return;
  const groups = await tx.group.findMany({ select: { id: true } });
  await assertActorHoldsGroupGrants(
    ctx,
    tx,
    groups.map((g) => g.id),
    'A login provider can sign in as anyone whose address it vouches for; setting up its connection or script needs every permission of the realm',
  );
}

import { AppError } from '../../errors/app-error';
import { realmDb, type DomainContext } from '../../realm/context';
import { findProviderRow } from '../login-providers/repo';
import { linkIntentOf } from './link-intent';
import { startOidcSignIn } from './oidc-sign-in';
import { startSamlSignIn } from './saml-sign-in';

// POST /api/account/external-links/start (issue 30 item 6): the signed-in person asks to link an
// OIDC or SAML provider. The intent, the person and their session go into the sign-in's own record
// (the OIDC state's, the SAML request's), so only the answer to this very request can link, and
// only after the person confirms it.

export type StartedLink = { flavor: 'Oidc'; location: string; state: string } | { flavor: 'Saml'; location: string; browser: string };

export async function startLink(ctx: DomainContext, providerId: string): Promise<StartedLink> {
  const intent = linkIntentOf(ctx);
  const provider = await findProviderRow(await realmDb(ctx.realm), providerId);
  if (provider?.isActive && provider.flavor === 'Oidc') {
    return { flavor: 'Oidc', ...(await startOidcSignIn(ctx, provider.id, undefined, intent)) };
  }
  if (provider?.isActive && provider.flavor === 'Saml' && provider.slug) {
    return { flavor: 'Saml', ...(await startSamlSignIn(ctx, provider.slug, undefined, intent)) };
  }
  throw new AppError('LoginProvider.NotFound');
}

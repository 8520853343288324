import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../crypto/tokens';
import type { RealmDb } from '../../db/types';
import { domainContext, type DomainContext } from '../../realm/context';
import { tempRealmDb } from '../../testing/temp-realm-db';
import { unitRealm } from '../../testing/unit-realm';
import { signInWithUpstream } from '../external-sign-in/link-or-create';
import { upsertAdministrator } from '../invites/redeem-admin-invite';
import { requireProviderRow } from '../login-providers/repo';
import { seedRealm } from '../realms/seed-realm';
import { approveChangeRequest } from '../profile-requests/decide-change-request';
import { createJitAccount } from '../registration/jit-on-otp';
import { createUser } from './create-user';
import { updateUser } from './update-user';

// "No identifier of one person equals an identifier of another" (issue 30 item 5) as a property:
// random sequences of every path that writes a user name or an e-mail (the admin API's create and
// update, an approved change request, a JIT account from an e-mail code, a person created just in
// time by an upstream and changed by its UserUpdateScript at later sign-ins, the CLI's
// administrator recovery) over a small pool of names that collide often, across case, leave no user
// name or address of one person equal (case-insensitively) to one of another. Each step may be
// refused; none may break the rule. Against a real SQLite realm database (registration's verify
// link writes through the same insertUser as the admin create).

// Names that are also addresses, and addresses in other cases, so that every kind of clash is drawn.
const NAMES = ['ann', 'bob', 'ann@x.test', 'BOB@x.test', 'cat@x.test', 'Dan@X.Test'];
const EMAILS = ['ann@x.test', 'bob@x.test', 'CAT@x.test', 'dan@x.test', 'eve@x.test', 'Ann@X.TEST'];
const name = fc.constantFrom(...NAMES);
const email = fc.constantFrom(...EMAILS);
const who = fc.nat({ max: 7 });

type Op =
  | { kind: 'create'; userName: string; email: string }
  | { kind: 'update'; who: number; userName?: string; email?: string }
  | { kind: 'change-request'; who: number; email: string }
  | { kind: 'jit-code'; email: string }
  | { kind: 'upstream'; subject: number; userName: string; email: string }
  | { kind: 'recover'; userName: string; email: string };

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({ kind: fc.constant('create' as const), userName: name, email }),
  fc.record({ kind: fc.constant('update' as const), who, userName: name }),
  fc.record({ kind: fc.constant('update' as const), who, email }),
  fc.record({ kind: fc.constant('change-request' as const), who, email }),
  fc.record({ kind: fc.constant('jit-code' as const), email }),
  // A few subjects, so that later sign-ins of the same one run the script on an existing person.
  fc.record({ kind: fc.constant('upstream' as const), subject: fc.nat({ max: 3 }), userName: fc.oneof(name, email), email }),
  fc.record({ kind: fc.constant('recover' as const), userName: name, email }),
);

let db: RealmDb;
let dispose: () => Promise<void>;
let ctx: DomainContext;
let providerId: string;

beforeAll(async () => {
  let dbName: string;
  ({ db, name: dbName, dispose } = await tempRealmDb());
  ctx = domainContext(unitRealm(dbName), { kind: 'system', reason: 'identifier property' });
  await db.$transaction((tx) => seedRealm(tx, { isControlPlane: false, displayName: 'Unit' }));
  providerId = newId();
  // The script asks for the upstream's name and address at every sign-in (claims.u, claims.e).
  await db.loginProvider.create({
    data: {
      id: providerId,
      name: 'Upstream',
      flavor: 'Oidc',
      config: JSON.stringify({
        Oidc: { Authority: 'https://upstream.test', ClientId: 'c' },
        Jit: { Enabled: true, DefaultGroupIds: [] },
        UserUpdateScript: 'return { UserName: claims.u, Email: claims.e };',
      }),
    },
  });
}, 60_000);
afterAll(async () => dispose());

async function userIds(): Promise<string[]> {
  return (await db.user.findMany({ select: { id: true }, orderBy: { createdAt: 'asc' } })).map((u) => u.id);
}

async function run(op: Op): Promise<void> {
  const ids = await userIds();
  const target = ids.length ? ids[('who' in op ? op.who : 0) % ids.length] : undefined;
  switch (op.kind) {
    case 'create':
      await createUser(ctx, { UserName: op.userName, Email: op.email });
      return;
    case 'update':
      if (target) await updateUser(ctx, target, { UserName: op.userName, Email: op.email });
      return;
    case 'change-request': {
      if (!target) return;
      const id = newId();
      await db.userChangeRequest.create({ data: { id, userId: target, status: 'Open', changes: JSON.stringify({ Email: op.email }), newEmail: op.email } });
      await approveChangeRequest(ctx, id);
      return;
    }
    case 'jit-code': {
      const settings = { SelfRegistration: { Posture: 'JitOnOtp', RequireInviteCode: false } } as Parameters<typeof createJitAccount>[2];
      await db.$transaction((tx) => createJitAccount(ctx, tx, settings, { email: op.email, appId: 'main' }));
      return;
    }
    case 'upstream': {
      const provider = await requireProviderRow(db, providerId);
      const claims = { u: op.userName, e: op.email };
      await signInWithUpstream(ctx, provider, {
        issuer: 'https://upstream.test',
        subject: `s-${op.subject}`,
        claims,
        email: op.email,
        emailVerified: false,
        userName: op.userName,
      });
      return;
    }
    case 'recover':
      await db.$transaction((tx) => upsertAdministrator(tx, { userName: op.userName, email: op.email, passwordHash: 'not-a-real-hash' }));
      return;
  }
}

/** Every identifier of every person, lower-cased, and who holds it. */
async function clashes(): Promise<string[]> {
  const holders = new Map<string, Set<string>>();
  for (const u of await db.user.findMany({ select: { id: true, userNameNormalized: true, emailNormalized: true } })) {
    for (const key of new Set([u.userNameNormalized.toLowerCase(), u.emailNormalized.toLowerCase()])) {
      holders.set(key, (holders.get(key) ?? new Set()).add(u.id));
    }
  }
  return [...holders].filter(([, ids]) => ids.size > 1).map(([key]) => key);
}

describe('identifiers', () => {
  it('no identifier of one person equals an identifier of another, whatever the order of writes', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(opArb, { minLength: 1, maxLength: 14 }), async (ops) => {
        await db.externalLink.deleteMany();
        await db.userChangeRequest.deleteMany();
        await db.groupMember.deleteMany();
        await db.session.deleteMany();
        await db.user.deleteMany();
        for (const op of ops) {
          // A refusal (taken, invalid, refused sign-in) is an answer; only an unexpected error fails.
          await run(op).catch((e: { code?: string }) => {
            if (!e.code) throw e;
          });
          expect(await clashes()).toEqual([]);
        }
      }),
      { numRuns: 60 },
    );
  }, 240_000);
});

import { AppError } from '../../errors/app-error';
import type { DomainContext } from '../../realm/context';

// Linking an upstream identity to a person is an explicit act (issue 30 item 6): it starts from a
// CSRF-checked POST of the account page (POST /api/account/external-links/start), which seals this
// intent, the person and their session, into the sign-in in flight (the OIDC state's record, the
// SAML request's record). Anything started by a plain navigation is a sign-in, whoever's cookie
// comes along, and never links to the cookie's person.

/** A link asked for by this person, in this session. */
export type LinkIntent = { userId: string; sessionId: string };

/** The intent of the signed-in person in a browser session; a bearer token cannot link. */
export function linkIntentOf(ctx: DomainContext): LinkIntent {
  if (ctx.actor.kind !== 'user' || !ctx.actor.sessionId) throw new AppError('Auth.Unauthenticated');
  return { userId: ctx.actor.userId, sessionId: ctx.actor.sessionId };
}

/** Whether this request comes from the very session that asked for the link. */
export function isSameSession(ctx: DomainContext, intent: LinkIntent): boolean {
  return ctx.actor.kind === 'user' && ctx.actor.userId === intent.userId && !!ctx.actor.sessionId && ctx.actor.sessionId === intent.sessionId;
}

/** The person whose browser session came with a sign-in (undefined when none did). */
export function signedInPerson(ctx: DomainContext): string | undefined {
  return ctx.actor.kind === 'user' && ctx.actor.sessionId ? ctx.actor.userId : undefined;
}

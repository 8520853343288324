import { defineEndpoint } from '../http/endpoint';
import { pageSchema } from '../domain/paging';
import { listAppInviteCodes, listRealmInviteCodes } from '../domain/invite-codes/list-invite-codes';
import { mintInviteCodes } from '../domain/invite-codes/mint-invite-codes';
import { revokeInviteCode } from '../domain/invite-codes/revoke-invite-code';
import {
  adminInviteCodeListQuerySchema,
  appCodeParamsSchema,
  appParamsSchema,
  inviteCodeListQuerySchema,
  inviteCodeSchema,
  mintInviteCodesResponseSchema,
  mintInviteCodesSchema,
} from '../domain/invite-codes/schemas';

// Invite codes (spec 4.7 "Invite codes"): single-use registration codes of an App, addressed by the
// App's id (or slug). The plaintext code is in the mint answer only; lists never carry it.
//
// Spec 5.2 also admits bearer tokens with the App-bound scopes invite:read / invite:write: the
// wrapper skips `permission` for such tokens and lib/domain/invite-codes/access.ts checks the scope
// and that the token's client belongs to the App.
const tags = ['Invite codes'] as const;

export const mintInviteCodesEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/app/{id}/invite-codes',
  summary: 'Mint one invite code (answer: the code resource with `Code`) or `Count` codes (answer: `Codes`); the plaintext is shown once',
  tags,
  auth: 'user',
  bearer: 'invite-write',
  permission: 'invite-code:write',
  params: appParamsSchema,
  body: mintInviteCodesSchema,
  status: 201,
  response: mintInviteCodesResponseSchema,
  handler: async ({ ctx, params, body }) => mintInviteCodes(ctx, params.id, body),
});

export const listInviteCodesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/app/{id}/invite-codes',
  summary: "An App's invite codes, newest first, filterable by status (never the code itself)",
  tags,
  auth: 'user',
  bearer: 'invite-read',
  permission: 'invite-code:read',
  params: appParamsSchema,
  query: inviteCodeListQuerySchema,
  response: pageSchema(inviteCodeSchema),
  handler: async ({ ctx, params, query }) => listAppInviteCodes(ctx, params.id, query),
});

export const revokeInviteCodeEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/app/{id}/invite-codes/{codeId}',
  summary: 'Revoke an unused invite code (idempotent; a used code stays Used)',
  tags,
  auth: 'user',
  bearer: 'invite-write',
  permission: 'invite-code:write',
  params: appCodeParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => revokeInviteCode(ctx, params.id, params.codeId),
});

export const listRealmInviteCodesEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/admin/invite-codes',
  summary: 'Realm-wide overview of invite codes, filterable by appId and status',
  tags,
  auth: 'user',
  bearer: 'management',
  permission: 'invite-code:read',
  query: adminInviteCodeListQuerySchema,
  response: pageSchema(inviteCodeSchema),
  handler: async ({ ctx, query }) => listRealmInviteCodes(ctx, query),
});

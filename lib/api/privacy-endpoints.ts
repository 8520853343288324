import { z } from 'zod';
import { clearedSessionCookie } from '../auth/session-cookie';
import { confirmAccountDeletion } from '../domain/privacy/confirm-deletion';
import { accountDeletionStatus, cancelAccountDeletion, requestAccountDeletion } from '../domain/privacy/deletion-request';
import { eraseUser } from '../domain/privacy/erase-user';
import { exportMyData, type Archive } from '../domain/privacy/export-data';
import { confirmDeletionBodySchema, deleteAccountBodySchema, deletionStatusSchema, eraseUserBodySchema } from '../domain/privacy/schemas';
import { defineEndpoint } from '../http/endpoint';

// A person's privacy rights (spec 3.5, 4.6; CONTRACT.md "Apps, privacy and manifests"): the data
// export, the self-deletion workflow, and the administrator's permanent erasure (spec 4.7).
const tags = ['Privacy'];

/** The archive as a download, streamed (the ZIP is written while it is sent). */
function zipResponse(archive: Archive): Response {
  return new Response(archive.stream, {
    status: 200,
    headers: {
      'content-type': 'application/zip',
      'content-disposition': `attachment; filename="${archive.fileName}"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
}

export const exportDataEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/auth/export-data',
  summary: 'Your data as a ZIP (GDPR Article 20): profile.json and one JSON file per kind of personal data; never a hash or secret',
  tags,
  auth: 'user',
  rateLimit: 'data-export',
  handler: async ({ ctx }) => zipResponse(await exportMyData(ctx)),
});

export const deletionStatusEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/auth/deletion-status',
  summary: 'Whether a deletion of your account is pending, since when and until when its link works',
  tags,
  auth: 'user',
  response: deletionStatusSchema,
  handler: async ({ ctx }) => accountDeletionStatus(ctx),
});

export const deleteAccountEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/auth/delete-account',
  summary: 'Ask to delete your account (your password, when you have one): 202, and a confirmation link is mailed to you',
  tags,
  auth: 'user',
  rateLimit: 'account-deletion',
  body: deleteAccountBodySchema,
  response: deletionStatusSchema,
  status: 202,
  handler: async ({ ctx, body }) => requestAccountDeletion(ctx, body.Password),
});

export const cancelDeletionEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/auth/cancel-deletion',
  summary: 'Cancel the pending deletion of your account; 409 AccountDeletion.NotPending when none is',
  tags,
  auth: 'user',
  response: deletionStatusSchema,
  handler: async ({ ctx }) => cancelAccountDeletion(ctx),
});

export const confirmDeletionEndpoint = defineEndpoint({
  method: 'POST',
  path: '/api/auth/confirm-deletion',
  summary: 'Confirm the deletion with the mailed token: answers your data as a ZIP, then your personal data is masked and every session ends',
  tags,
  auth: 'anonymous',
  rateLimit: 'account-deletion-confirm',
  body: confirmDeletionBodySchema,
  handler: async ({ ctx, body, headers }) => {
    const archive = await confirmAccountDeletion(ctx, body.Token);
    // This browser's session ended with the account.
    headers.append('set-cookie', clearedSessionCookie());
    return zipResponse(archive);
  },
});

export const eraseUserEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/api/admin/users/{id}/permanent',
  summary: 'Erase a user permanently (irreversible); the Reason is kept in the security log, nothing about the person',
  tags: ['User administration'],
  auth: 'user',
  permission: 'gdpr:admin',
  params: z.object({ id: z.string().min(1).max(64) }),
  body: eraseUserBodySchema,
  status: 204,
  handler: async ({ ctx, params, body }) => eraseUser(ctx, params.id, body.Reason),
});

import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { lookupPrincipals } from '../domain/principals/lookup-principals';
import { principalSchema } from '../domain/principals/schemas';

// Principal endpoints (spec 4.7 "Principals").
export const lookupPrincipalsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/principal/lookup',
  summary: 'Active users, all groups and active service accounts, mixed, for assignment pickers (Kind User|Group|ServiceAccount)',
  tags: ['Principals'],
  auth: 'user',
  permission: 'authorization-group:read',
  response: z.array(principalSchema),
  handler: async ({ ctx }) => lookupPrincipals(ctx),
});

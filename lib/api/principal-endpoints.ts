import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { lookupPrincipals } from '../domain/principals/lookup-principals';
import { principalSchema } from '../domain/principals/schemas';

// Principal endpoints (spec 4.7 "Principals").
export const lookupPrincipalsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/principal/lookup',
  summary: 'Active users and all groups, mixed, for assignment pickers',
  tags: ['Principals'],
  auth: 'user',
  permission: 'authorization-group:read',
  response: z.array(principalSchema),
  handler: async ({ ctx }) => lookupPrincipals(ctx),
});

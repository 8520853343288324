import { appInfo } from '../domain/realms/app-info';
import { appInfoSchema } from '../domain/realms/schemas';
import { defineEndpoint } from '../http/endpoint';

export const appInfoEndpoint = defineEndpoint({
  method: 'GET',
  path: '/api/app-info',
  summary: 'Public realm metadata, branding and the registration-fields policy',
  tags: ['Public'],
  auth: 'anonymous',
  response: appInfoSchema,
  handler: async ({ ctx }) => appInfo(ctx),
});

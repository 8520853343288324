import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { toAppDto, toAppSummaryDto } from '../domain/apps/app-dto';
import { getApp, listApps, lookupApps } from '../domain/apps/read-apps';
import { appIdParamsSchema, appListQuerySchema, appLookupSchema, appSchema, appSummarySchema } from '../domain/apps/schemas';

// Application endpoints (spec 4.7 "Applications", resource `app`), read-only for now: create,
// update and delete come with the App-management work.
const common = { tags: ['Applications'], auth: 'user' } as const;

export const lookupAppsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/app/lookup',
  summary: 'Applications for pickers (any signed-in user)',
  response: z.array(appLookupSchema),
  handler: async ({ ctx }) => lookupApps(ctx),
});

export const listAppsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/app',
  summary: 'List applications (without Settings)',
  permission: 'app:read',
  query: appListQuerySchema,
  response: pageSchema(appSummarySchema),
  handler: async ({ ctx, query }) => mapPage(await listApps(ctx, query), toAppSummaryDto),
});

export const getAppEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/app/{id}',
  summary: 'Get an application (by id or slug) with its permission catalog and sparse Settings',
  permission: 'app:read',
  params: appIdParamsSchema,
  response: appSchema,
  handler: async ({ ctx, params }) => toAppDto(await getApp(ctx, params.id)),
});

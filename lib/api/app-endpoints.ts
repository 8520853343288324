import { z } from 'zod';
import { defineEndpoint } from '../http/endpoint';
import { mapPage, pageSchema } from '../domain/paging';
import { toAppDto, toAppSummaryDto } from '../domain/apps/app-dto';
import { createApp } from '../domain/apps/create-app';
import { deleteApp } from '../domain/apps/delete-app';
import { getApp, listApps, lookupApps } from '../domain/apps/read-apps';
import { appIdParamsSchema, appListQuerySchema, appLookupSchema, appSchema, appSummarySchema, appWriteSchema } from '../domain/apps/schemas';
import { updateApp } from '../domain/apps/update-app';

// Application endpoints (spec 4.7 "Applications", resource `app`; CONTRACT.md "Apps, privacy and
// manifests"). POST and PUT carry the whole App, Settings included (a replace); docs/apps.md.
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
  handler: async ({ ctx, params }) => toAppDto(await getApp(ctx, params.id), ctx.realm),
});

export const createAppEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/app',
  summary: 'Create an application (Settings.Origin.Subdomain routes <subdomain>.<realm primary domain> to it)',
  permission: 'app:write',
  body: appWriteSchema,
  response: appSchema,
  status: 201,
  handler: async ({ ctx, body }) => toAppDto(await createApp(ctx, body), ctx.realm),
});

export const updateAppEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/app/{id}',
  summary: 'Replace an application, Settings included (built-in ones: name, description and catalog only)',
  permission: 'app:write',
  params: appIdParamsSchema,
  body: appWriteSchema,
  response: appSchema,
  handler: async ({ ctx, params, body }) => toAppDto(await updateApp(ctx, params.id, body), ctx.realm),
});

export const deleteAppEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/app/{id}',
  summary: 'Delete an application (409 App.InUse lists every blocker: roles, OAuth APIs and clients, active invite codes)',
  permission: 'app:write',
  params: appIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deleteApp(ctx, params.id),
});

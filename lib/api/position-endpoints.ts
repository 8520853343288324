import { defineEndpoint } from '../http/endpoint';
import { pageSchema } from '../domain/paging';
import { createPosition } from '../domain/positions/create-position';
import { deletePosition } from '../domain/positions/delete-position';
import { positionTerminalsEnabled } from '../domain/positions/feature';
import { getPosition, listPositions } from '../domain/positions/read-positions';
import { createPositionSchema, positionIdParamsSchema, positionListQuerySchema, positionSchema, updatePositionSchema } from '../domain/positions/schemas';
import { updatePosition } from '../domain/positions/update-position';

// Positions (spec 4.7 "Positions", resource `position`). The reads also accept a Management API
// bearer token; the writes are cookie only. While the realm's Features.PositionTerminals switch is
// off every route answers a bare 404, before authentication (spec 3.6, 7).
const common = { tags: ['Positions'], auth: 'user', shownWhen: positionTerminalsEnabled } as const;

export const listPositionsEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/position',
  summary: 'List positions with their terminal counts (search on name; sortBy name|createdAt|isActive)',
  permission: 'position:read',
  bearer: 'management',
  query: positionListQuerySchema,
  response: pageSchema(positionSchema),
  handler: async ({ ctx, query }) => listPositions(ctx, query),
});

export const getPositionEndpoint = defineEndpoint({
  ...common,
  method: 'GET',
  path: '/api/position/{id}',
  summary: 'Get a position with the ClientIds of its terminals',
  permission: 'position:read',
  bearer: 'management',
  params: positionIdParamsSchema,
  response: positionSchema,
  handler: async ({ ctx, params }) => getPosition(ctx, params.id),
});

export const createPositionEndpoint = defineEndpoint({
  ...common,
  method: 'POST',
  path: '/api/position',
  summary: 'Create a position (Name unique regardless of case)',
  permission: 'position:write',
  body: createPositionSchema,
  response: positionSchema,
  status: 201,
  handler: async ({ ctx, body }) => createPosition(ctx, body),
});

export const updatePositionEndpoint = defineEndpoint({
  ...common,
  method: 'PUT',
  path: '/api/position/{id}',
  summary: 'Change a position (merge-patch; an inactive position takes no new terminals)',
  permission: 'position:write',
  params: positionIdParamsSchema,
  body: updatePositionSchema,
  response: positionSchema,
  handler: async ({ ctx, params, body }) => updatePosition(ctx, params.id, body),
});

export const deletePositionEndpoint = defineEndpoint({
  ...common,
  method: 'DELETE',
  path: '/api/position/{id}',
  summary: 'Delete a position; refused (409, listing them) while OAuth clients are its terminals',
  permission: 'position:write',
  params: positionIdParamsSchema,
  status: 204,
  handler: async ({ ctx, params }) => deletePosition(ctx, params.id),
});

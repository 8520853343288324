import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import type { ControlPlanePermission, GatehousePermission, MainAppPermission } from '../authz/catalog';
import type { requirePermission as RequirePermission } from '../authz/require-permission';
import type { can as Can } from '../../components/console/permissions';
import type { DomainContext } from '../realm/context';
import type { GrantChange } from '../domain/groups/grant-change-guard';
import { groupSchema } from '../domain/groups/schemas';
import { inEventAreas, type EventArea, type EventPayloads, type EventType } from '../events/catalog';
import type { eventFrom as EventFrom } from '../events/event-from';
import type { DomainEvent } from '../events/types';
import { defineEndpoint, type AnyEndpoint } from './endpoint';
import type { WireOf } from './wire';

// The contract is checked by the compiler (issue 9): these lines prove that a wrong result type, a
// permission outside the catalog and an unknown event name do not compile. `npx tsc --noEmit`
// covers this file (tsconfig includes every .ts); each `@ts-expect-error` fails the typecheck if the
// line below it ever compiles. The functions holding them are never called.

declare const ctx: DomainContext;
declare const requirePermission: typeof RequirePermission;
declare const eventFrom: typeof EventFrom;
declare const can: typeof Can;

const item = z.object({ Name: z.string(), At: z.date() });
const base = { method: 'GET', path: '/api/x', summary: 'x', tags: ['Test'], auth: 'user' } as const;

describe('endpoint results', () => {
  it('takes the input side of the response schema, or a Response', () => {
    const ok = defineEndpoint({ ...base, response: item, handler: async () => ({ Name: 'n', At: new Date() }) });
    const raw = defineEndpoint({ ...base, response: item, handler: async () => new Response(null, { status: 302 }) });
    const none = defineEndpoint({ ...base, status: 204, handler: async () => undefined });
    const erased: AnyEndpoint[] = [ok, raw, none];
    expect(erased).toHaveLength(3);

    // @ts-expect-error: At must be a Date (the schema's input), not a string
    defineEndpoint({ ...base, response: item, handler: async () => ({ Name: 'n', At: '2026-01-01' }) });
    // @ts-expect-error: a missing field
    defineEndpoint({ ...base, response: item, handler: async () => ({ Name: 'n' }) });
    // @ts-expect-error: no response schema, so no body to answer with
    defineEndpoint({ ...base, handler: async () => ({ Name: 'n' }) });
  });
});

describe('permissions', () => {
  it('are the catalog names, per App', () => {
    expectTypeOf<'user:read'>().toExtend<MainAppPermission>();
    expectTypeOf<'realm:read'>().toExtend<ControlPlanePermission>();
    expectTypeOf<'realm:read'>().not.toExtend<MainAppPermission>();
    expectTypeOf<string>().not.toExtend<GatehousePermission>();

    defineEndpoint({ ...base, permission: 'user:read', handler: async () => undefined });
    defineEndpoint({ ...base, app: 'control-plane', permission: 'realm:read', handler: async () => undefined });
    // @ts-expect-error: a misspelt permission
    defineEndpoint({ ...base, permission: 'user:reed', handler: async () => undefined });
    // @ts-expect-error: a control-plane permission checked in the main app
    defineEndpoint({ ...base, permission: 'realm:read', handler: async () => undefined });
  });

  it('are checked where code asks for them', () => {
    const uncalled = async () => {
      await requirePermission(ctx, 'user:write');
      await requirePermission(ctx, 'control-plane:platform-audit:read', 'control-plane');
      // @ts-expect-error: not a catalog name
      await requirePermission(ctx, 'users:write');
      // @ts-expect-error: a main-app permission in the control-plane App
      await requirePermission(ctx, 'user:write', 'control-plane');
      const change: GrantChange = { permission: 'authorization-group:write' };
      // @ts-expect-error: the no-escalation guard takes catalog names only
      const wrong: GrantChange = { permission: 'group:write' };
      const viewer = { Permissions: [], IsControlPlane: false };
      // @ts-expect-error: the console asks for catalog names of the right App too
      can(viewer, 'realm:read');
      return [change, wrong, can(viewer, 'realm:read', 'control-plane')];
    };
    expect(uncalled).toBeTypeOf('function');
  });
});

describe('events', () => {
  it('are the catalog names, each with its payload', () => {
    expectTypeOf<'group.updated'>().toExtend<EventType>();
    expectTypeOf<'group.renamed'>().not.toExtend<EventType>();
    expectTypeOf<'apps'>().not.toExtend<EventArea>();
    const uncalled = () => [
      eventFrom(ctx, 'auth.logout'),
      eventFrom(ctx, 'membership.added', 'u1', { userId: 'u1', groupId: 'g1' }),
      // @ts-expect-error: an unknown event name
      eventFrom(ctx, 'membership.addded', 'u1', { userId: 'u1', groupId: 'g1' }),
      // @ts-expect-error: the payload the catalog declares is required
      eventFrom(ctx, 'membership.added', 'u1'),
      // @ts-expect-error: and has the catalog's fields
      eventFrom(ctx, 'membership.added', 'u1', { userId: 'u1' }),
    ];
    expect(uncalled).toBeTypeOf('function');
  });

  it('narrow their payload by type', () => {
    const slugOf = (e: DomainEvent) => (e.type === 'realm.created' ? e.data.slug : undefined);
    expectTypeOf(slugOf).returns.toEqualTypeOf<string | undefined>();
    expectTypeOf<EventPayloads['realm.created']>().toEqualTypeOf<{ slug: string; initialAdmin: boolean }>();
  });

  it('match areas through the typed helper', () => {
    expect(inEventAreas('realm-settings.updated', ['realm'])).toBe(false);
    expect(inEventAreas('realm-settings.updated', ['realm-settings'])).toBe(true);
    expect(inEventAreas('oauth-client.secret-regenerated', ['oauth-client', 'group'])).toBe(true);
    // @ts-expect-error: no event has this area
    expect(inEventAreas('group.created', ['groups'])).toBe(false);
  });
});

describe('wire types', () => {
  it('are the response schema after toWire: Dates as strings, nulls omitted', () => {
    type Group = WireOf<typeof groupSchema>;
    expectTypeOf<Group['CreatedAt']>().toEqualTypeOf<string>();
    expectTypeOf<Group>().toHaveProperty('Description').toEqualTypeOf<string | undefined>();
    expectTypeOf<Group['UpdatedAt']>().toEqualTypeOf<string | undefined>();
    expectTypeOf<Group['RoleIds']>().toEqualTypeOf<string[]>();
    expect(groupSchema.shape.CreatedAt).toBeDefined();
  });
});

import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from '../../errors/app-error';
import type { RealmRecord } from '../../realm/realm-record';
import { className, contextual, defineFlagClass, evaluateProperty, findProperty, flag, FlagEvaluationError, plain, propertiesOf } from './registry';

const realm = { id: 'r1', slug: 'acme' } as RealmRecord;
const ctx = { realm };

const Demo = defineFlagClass('Demo', {
  On: plain(z.boolean(), () => true),
  Limit: plain(z.number().nullable(), async (c) => (c.realm.slug === 'acme' ? 5 : null)),
  ForApp: contextual(z.boolean(), z.object({ AppId: z.string().min(1) }), (_c, input) => input.AppId === 'a1'),
  Broken: plain(z.boolean(), () => {
    throw new Error('connection to db-internal-7 refused');
  }),
  Safe: plain(z.boolean(), () => {
    throw new FlagEvaluationError('The billing service did not answer.');
  }),
  Wrong: plain(z.boolean(), () => 'yes' as unknown as boolean),
  Missing: contextual(z.boolean(), z.object({ AppId: z.string() }), () => {
    throw new AppError('App.NotFound');
  }),
});

describe('flag registry', () => {
  it('declares a class once: names, keys and kinds', () => {
    expect(className(Demo)).toBe('Demo');
    expect(Demo.On.key).toBe('Demo/On');
    expect(Demo.ForApp.kind).toBe('contextual');
    expect(propertiesOf(Demo).map((p) => p.propertyName)).toEqual(['On', 'Limit', 'ForApp', 'Broken', 'Safe', 'Wrong', 'Missing']);
    expect(() => defineFlagClass('Bad Name', {})).toThrow();
  });

  it('reads plain and contextual properties through the typed accessor', async () => {
    const on: boolean = await flag(ctx, Demo.On);
    const limit: number | null = await flag(ctx, Demo.Limit);
    expect(on).toBe(true);
    expect(limit).toBe(5);
    expect(await flag({ realm: { ...realm, slug: 'other' } }, Demo.Limit)).toBeNull();
    expect(await flag(ctx, Demo.ForApp, { AppId: 'a1' })).toBe(true);
    expect(await flag(ctx, Demo.ForApp, { AppId: 'a2' })).toBe(false);
    // @ts-expect-error a contextual property needs its input
    await expect(flag(ctx, Demo.ForApp)).rejects.toThrow();
  });

  it('finds a property by its exact class and property name only', () => {
    expect(findProperty([Demo], 'Demo', 'On')).toBe(Demo.On);
    expect(findProperty([Demo], 'Demo', 'Nope')).toBeUndefined();
    expect(findProperty([Demo], 'Nope', 'On')).toBeUndefined();
    expect(findProperty([Demo], 'Demo', 'constructor')).toBeUndefined();
    expect(findProperty([Demo], 'Demo', '__proto__')).toBeUndefined();
  });

  it('evaluates for the routes: values, case-insensitive input, 400 on a bad body', async () => {
    expect(await evaluateProperty(ctx, Demo.On, undefined)).toEqual({ ok: true, value: true });
    expect(await evaluateProperty(ctx, Demo.ForApp, { appid: 'a1' })).toEqual({ ok: true, value: true });
    await expect(evaluateProperty(ctx, Demo.ForApp, { AppId: '' })).rejects.toMatchObject({ code: 'Validation.Failed', errors: { AppId: expect.any(Array) } });
    await expect(evaluateProperty(ctx, Demo.ForApp, undefined)).rejects.toMatchObject({ code: 'Validation.Failed' });
    await expect(evaluateProperty(ctx, Demo.ForApp, [1])).rejects.toMatchObject({ code: 'Validation.Failed' });
  });

  it('turns a failing resolver into a safe detail, and keeps deliberate problems', async () => {
    const broken = await evaluateProperty(ctx, Demo.Broken, undefined);
    expect(broken).toMatchObject({ ok: false, detail: 'The value could not be evaluated.' });
    expect(JSON.stringify(broken.ok ? '' : broken.detail)).not.toContain('db-internal');
    expect(await evaluateProperty(ctx, Demo.Safe, undefined)).toMatchObject({ ok: false, detail: 'The billing service did not answer.' });
    expect(await evaluateProperty(ctx, Demo.Wrong, undefined)).toMatchObject({ ok: false, detail: 'The value could not be evaluated.' });
    await expect(evaluateProperty(ctx, Demo.Missing, { AppId: 'x' })).rejects.toMatchObject({ code: 'App.NotFound' });
  });
});

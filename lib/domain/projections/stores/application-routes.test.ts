import { describe, expect, it } from 'vitest';
import { planRoutes, routeDifferences } from './application-routes';

describe('planRoutes', () => {
  it('routes <Subdomain>.<PrimaryDomain> to each App that asks, lower-cased, and reports two Apps asking for one host', () => {
    const { routes, clashes } = planRoutes(
      [
        { appId: 'b', subdomain: 'Shop' },
        { appId: 'a', subdomain: 'shop' },
        { appId: 'c', subdomain: null },
        { appId: 'd', subdomain: 'blog' },
      ],
      'acme.example',
    );
    expect([...routes]).toEqual([
      ['shop.acme.example', 'a'],
      ['blog.acme.example', 'd'],
    ]);
    expect(clashes).toEqual(['Applications a and b both ask for host shop.acme.example; only the first routes there.']);
  });
});

describe('routeDifferences', () => {
  it('finds missing, extra, re-pointed and foreign routes', () => {
    const wanted = new Map([
      ['a.x', 'app1'],
      ['b.x', 'app2'],
      ['c.x', 'app3'],
      ['d.x', 'app4'],
    ]);
    const current = new Map([
      ['a.x', 'app1'],
      ['b.x', 'app9'],
      ['z.x', 'app5'],
    ]);
    expect(routeDifferences(wanted, current, new Set(['d.x']))).toEqual([
      { kind: 'wrong', host: 'b.x', appId: 'app9', wantedAppId: 'app2' },
      { kind: 'missing', host: 'c.x', appId: 'app3' },
      { kind: 'foreign', host: 'd.x', appId: 'app4' },
      { kind: 'extra', host: 'z.x', appId: 'app5' },
    ]);
    expect(routeDifferences(wanted, new Map(wanted), new Set())).toEqual([]);
  });
});

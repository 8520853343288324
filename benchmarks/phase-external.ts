import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from 'ldapts';
import * as oidc from 'openid-client';
import { DEFAULT_UPSTREAM_USERS, loginAtUpstream, startOidcUpstream } from '../e2e/shared/peers/oidc-upstream';
import { startSlapd } from '../e2e/shared/peers/slapd';
import { controlPlaneAdmin } from './admin';
import { cookiesFrom, measureFlows } from './flows';
import { expectStatus } from './http';
import { startServer, type RunningServer } from './launch-server';
import type { BenchOptions } from './options';
import type { Report } from './report';
import { progress } from './table';

// Issue 10: external sign-in per second beside what its upstream does alone. A server of its own
// with GATEHOUSE_RATE_LIMIT_SCALE=0 (one client address; the limits are not measured here), SQLite,
// the control-plane realm.
// - OIDC: start (302) → the upstream's login (panva's oidc-provider, our test peer, in this process)
//   → our callback (302 with the session). Beside it, the upstream alone: the same login and a code
//   exchange by openid-client, no Gatehouse in between.
// - LDAP: POST /api/account/login for directory users (slapd) beside a bare ldapts bind (connect,
//   bind, unbind) of the same users against the same slapd.

export const EXTERNAL_PARTS = ['external-oidc', 'ldap'] as const;

const HOST = 'localhost';

async function oidcRows(server: RunningServer, cookie: string, o: BenchOptions, report: Report): Promise<void> {
  const port = server.port;
  const redirect = `http://${HOST}:${port}/api/account/external-login/finish`;
  const clientId = 'gatehouse-bench';
  const secret = randomBytes(24).toString('base64url');
  const bareRedirect = 'http://127.0.0.1:9/callback';
  const upstream = await startOidcUpstream({ clients: [{ client_id: clientId, client_secret: secret, redirect_uris: [redirect, bareRedirect] }] });
  try {
    const created = await expectStatus(201, {
      port,
      method: 'POST',
      path: '/api/admin/login-providers',
      cookie,
      body: { Name: 'Bench upstream', Flavor: 'Oidc', Oidc: { Authority: upstream.issuer, ClientId: clientId } },
    });
    const id = created.json<{ Id: string }>().Id;
    await expectStatus(204, { port, method: 'POST', path: `/api/admin/login-providers/${id}/secret`, cookie, body: { ClientSecret: secret } });
    const alice = DEFAULT_UPSTREAM_USERS[0];
    const workers = Math.max(2, Math.min(o.connections, 8));

    progress('external: OIDC sign-in through Gatehouse');
    report.flows.push(
      await measureFlows(
        {
          name: 'external OIDC sign-in: start + upstream login + callback (panva oidc-provider upstream)',
          workers,
          flow: async (_w, send) => {
            const start = await send('start', { port, path: `/api/account/external-login/${id}/start?returnUrl=/account` }, 302);
            const callback = new URL(await loginAtUpstream(String(start.headers.location), alice.login, alice.password));
            const finish = await send('callback', { port, path: callback.pathname + callback.search, cookie: cookiesFrom(start) }, 302);
            if (finish.headers.location !== '/account') throw new Error(`callback went to ${String(finish.headers.location)}`);
          },
        },
        { duration: o.duration, cpuMs: server.cpuMs },
      ),
    );

    progress('external: the upstream alone (login + code exchange with openid-client)');
    const client = await oidc.discovery(new URL(upstream.issuer), clientId, secret, undefined, { execute: [oidc.allowInsecureRequests] });
    report.flows.push(
      await measureFlows(
        {
          name: 'the same upstream alone: login + code exchange (openid-client), no Gatehouse',
          workers,
          flow: async () => {
            const verifier = oidc.randomPKCECodeVerifier();
            const state = oidc.randomState();
            const nonce = oidc.randomNonce();
            const url = oidc.buildAuthorizationUrl(client, {
              redirect_uri: bareRedirect,
              scope: 'openid email profile',
              code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
              code_challenge_method: 'S256',
              state,
              nonce,
            });
            const callback = new URL(await loginAtUpstream(url.href, alice.login, alice.password));
            await oidc.authorizationCodeGrant(client, callback, {
              expectedState: state,
              expectedNonce: nonce,
              pkceCodeVerifier: verifier,
              idTokenExpected: true,
            });
          },
        },
        { duration: o.duration },
      ),
    );
    report.notes.push(
      'External OIDC: the upstream (panva oidc-provider, the test peer) runs in the bench process and shares the machine; "the upstream alone" is the same login and code exchange without Gatehouse, so the ratio of the two rows is what Gatehouse adds.',
    );
  } finally {
    await upstream.stop();
  }
}

async function ldapRows(server: RunningServer, cookie: string, o: BenchOptions, report: Report): Promise<void> {
  const port = server.port;
  const slapd = await startSlapd();
  try {
    const created = await expectStatus(201, {
      port,
      method: 'POST',
      path: '/api/admin/login-providers',
      cookie,
      body: { Name: 'Bench directory', Flavor: 'Ldap', Ldap: { Url: slapd.url, BindDn: slapd.adminDn, UserSearchBase: slapd.peopleDn } },
    });
    const id = created.json<{ Id: string }>().Id;
    await expectStatus(204, { port, method: 'POST', path: `/api/admin/login-providers/${id}/secret`, cookie, body: { BindPassword: slapd.adminPassword } });
    const workers = Math.max(2, Math.min(o.connections, 8));
    // One directory user per worker, so no two flows sign the same account in at once.
    for (let i = 0; i < workers; i++) {
      await slapd.addUser({
        uid: `bench${i}`,
        password: `bench-${i}-${randomBytes(6).toString('hex')}`,
        mail: `bench${i}@dir.example`,
        givenName: 'Bench',
        sn: `User ${i}`,
      });
    }
    const users = slapd.users.filter((u) => u.uid.startsWith('bench'));

    progress('external: LDAP password sign-in through Gatehouse');
    report.flows.push(
      await measureFlows(
        {
          name: `LDAP password sign-in: POST /api/account/login (slapd, ${users.length} directory users)`,
          workers,
          flow: async (w, send) => {
            const u = users[w % users.length];
            await send('login', { port, method: 'POST', path: '/api/account/login', body: { UserName: u.uid, Password: u.password } });
          },
        },
        { duration: o.duration, cpuMs: server.cpuMs },
      ),
    );
    progress('external: bare ldapts bind against the same slapd');
    report.flows.push(
      await measureFlows(
        {
          name: 'bare ldapts bind (connect, bind, unbind) against the same slapd',
          workers,
          flow: async (w) => {
            const u = users[w % users.length];
            const c = new Client({ url: slapd.url });
            try {
              await c.bind(u.dn, u.password);
            } finally {
              await c.unbind();
            }
          },
        },
        { duration: o.duration },
      ),
    );
  } finally {
    await slapd.stop();
  }
}

export async function externalPhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void): Promise<void> {
  const dataDir = join(tmp, 'external');
  mkdirSync(dataDir, { recursive: true });
  const server = await startServer({ dataDir }, undefined, { GATEHOUSE_RATE_LIMIT_SCALE: '0' });
  track(server);
  const cookie = await controlPlaneAdmin(server.env, server.port, 'bench-admin');
  if (o.only.has('external-oidc')) await oidcRows(server, cookie, o, report);
  if (o.only.has('ldap')) await ldapRows(server, cookie, o, report);
  await server.stop();
}

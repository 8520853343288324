import { decodeJwt } from 'jose';
import * as oidc from 'openid-client';
import { beforeAll, describe, expect, it } from 'vitest';
import { CLIENTS } from '../oauth-admin/fixtures';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { discover } from '../support/oauth';
import { realmSql } from '../support/realm-sql';
import { grant, makeUser, signedIn } from '../users/fixtures';
import { makePosition, POSITIONS, setPositionTerminals, terminalBody } from './fixtures';

// Terminal intent (spec 4.7 "OAuth clients" and "Positions"): POST /api/admin/oauth/clients with
// PositionId makes the client that position's terminal. It needs position:write besides
// oauth-client:write, the switch on, an existing active position and a Confidential client with
// client_credentials; its client-credentials tokens carry position_id; the position lists it and
// cannot be deleted while it exists.

describe('terminals of positions', () => {
  let host: string;
  let slug: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, slug, admin } = await realmWithAdmin());
  });

  it('is refused with a clear 400 while the switch is off', async () => {
    const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: terminalBody('00000000-0000-4000-8000-00000000dead') });
    expectProblem(res, 400, 'Validation.Failed');
    expect(res.body.errors.PositionId).toEqual(['Positions are turned off in this realm.']);
  });

  describe('with the switch on', () => {
    beforeAll(async () => setPositionTerminals(host, admin.jar, true));

    it('makes a terminal whose tokens name the position; the position lists it and is not deleted while it exists', async () => {
      const position = await makePosition(host, admin.jar);
      const created = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body: terminalBody(position.id) });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ PositionId: position.id, ClientType: 'Confidential', GrantTypes: ['client_credentials'] });
      const { ClientId, ClientSecret, Id } = created.body;

      const config = await discover(host, ClientId, ClientSecret);
      const tokens = await oidc.clientCredentialsGrant(config, { scope: 'gatehouse.management', resource: 'urn:gatehouse:management-api' });
      expect(decodeJwt(tokens.access_token)).toMatchObject({ position_id: position.id, client_id: ClientId });

      const read = await api(host, 'GET', `${POSITIONS}/${position.id}`, { cookie: admin.jar });
      expect(read.body).toMatchObject({ TerminalCount: 1, TerminalClientIds: [ClientId] });
      const list = await api(host, 'GET', `${POSITIONS}?search=${encodeURIComponent(position.name)}`, { cookie: admin.jar });
      expect(list.body.items[0]).toMatchObject({ Id: position.id, TerminalCount: 1 });

      const blocked = await api(host, 'DELETE', `${POSITIONS}/${position.id}`, { cookie: admin.jar });
      expectProblem(blocked, 409, 'Position.InUse');
      expect(blocked.body.terminals).toEqual([ClientId]);
      expect(blocked.body.detail).toContain(ClientId);

      // A terminal keeps what makes it one.
      const stripped = await api(host, 'PUT', `${CLIENTS}/${Id}`, {
        cookie: admin.jar,
        body: { GrantTypes: ['authorization_code'], RedirectUris: ['https://t.example/cb'] },
      });
      expectProblem(stripped, 400, 'Validation.Failed');
      expect(stripped.body.errors.GrantTypes).toEqual(['A terminal of a position needs the client_credentials grant.']);

      // Switched off, the tokens stop naming positions (the client still works as a client).
      await setPositionTerminals(host, admin.jar, false);
      const plain = await oidc.clientCredentialsGrant(config, { scope: 'gatehouse.management', resource: 'urn:gatehouse:management-api' });
      expect(decodeJwt(plain.access_token)).not.toHaveProperty('position_id');
      await setPositionTerminals(host, admin.jar, true);

      expect((await api(host, 'DELETE', `${CLIENTS}/${Id}`, { cookie: admin.jar })).status).toBe(204);
      expect((await api(host, 'DELETE', `${POSITIONS}/${position.id}`, { cookie: admin.jar })).status).toBe(204);
    });

    it('refuses an unknown or inactive position, a public client and one without client_credentials, writing nothing', async () => {
      const inactive = await makePosition(host, admin.jar, { IsActive: false });
      const active = await makePosition(host, admin.jar);
      const cases: [Record<string, unknown>, string, string][] = [
        [terminalBody('00000000-0000-4000-8000-00000000beef', { ClientId: 'term-unknown' }), 'PositionId', 'No position has this id.'],
        [terminalBody(inactive.id, { ClientId: 'term-inactive' }), 'PositionId', 'This position is not active; activate it first.'],
        [
          terminalBody(active.id, {
            ClientId: 'term-public',
            ClientType: 'Public',
            GrantTypes: ['authorization_code'],
            RedirectUris: ['https://t.example/cb'],
          }),
          'ClientType',
          'A terminal of a position must be a Confidential client.',
        ],
        [
          terminalBody(active.id, { ClientId: 'term-code', GrantTypes: ['authorization_code'], RedirectUris: ['https://t.example/cb'] }),
          'GrantTypes',
          'A terminal of a position needs the client_credentials grant.',
        ],
      ];
      for (const [body, field, message] of cases) {
        const res = await api(host, 'POST', CLIENTS, { cookie: admin.jar, body });
        expectProblem(res, 400, 'Validation.Failed');
        expect(res.body.errors[field]).toContain(message);
        expect(await realmSql(slug, 'SELECT "id" FROM "OAuthClient" WHERE "clientId" = $1', [body.ClientId])).toEqual([]);
      }
    });

    it('needs position:write besides oauth-client:write (403)', async () => {
      const position = await makePosition(host, admin.jar);
      const user = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['oauth-client:write', 'position:read'], user.id);
      const jar = await signedIn(host, user);
      const res = await api(host, 'POST', CLIENTS, { cookie: jar, body: terminalBody(position.id, { Scopes: [] }) });
      expectProblem(res, 403, 'Auth.Forbidden');
      expect(res.body.detail).toContain('position:write');
      await grant(host, admin.jar, ['position:write'], user.id);
      const ok = await api(host, 'POST', CLIENTS, { cookie: jar, body: terminalBody(position.id, { Scopes: [] }) });
      expect(ok.status, ok.text).toBe(201);
      expect(ok.body.PositionId).toBe(position.id);
    });
  });
});

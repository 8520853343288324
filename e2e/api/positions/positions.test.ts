import { beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, realmWithAdmin, type SignedIn } from '../support/harness';
import { expectLogged } from '../mfa/fixtures';
import { grant, makeUser, signedIn } from '../users/fixtures';
import { makePosition, managementToken, positionName, POSITIONS, setPositionTerminals } from './fixtures';

// /api/position (spec 4.7 "Positions", 3.6, 7): hidden (bare 404, before authentication) while the
// realm's Features.PositionTerminals is off; reads take a cookie or a Management API bearer token,
// writes a cookie only; names are unique regardless of case; merge-patch updates.

describe('positions', () => {
  let host: string;
  let admin: SignedIn;

  beforeAll(async () => {
    ({ host, admin } = await realmWithAdmin());
  });

  it('every route answers a bare 404 while the switch is off, whoever asks', async () => {
    const anonymous = await api(host, 'GET', POSITIONS);
    expectProblem(anonymous, 404, null);
    for (const [method, path] of [
      ['GET', POSITIONS],
      ['POST', POSITIONS],
      ['GET', `${POSITIONS}/x`],
      ['PUT', `${POSITIONS}/x`],
      ['DELETE', `${POSITIONS}/x`],
    ] as const) {
      const res = await api(host, method, path, { cookie: admin.jar, body: method === 'POST' || method === 'PUT' ? { Name: 'x' } : undefined });
      expectProblem(res, 404, null);
    }
    // A bearer token does not reveal it either.
    const token = await managementToken(host, admin.jar, ['position:read']);
    expectProblem(await api(host, 'GET', POSITIONS, { headers: { authorization: `Bearer ${token}` } }), 404, null);
  });

  describe('with the switch on', () => {
    beforeAll(async () => setPositionTerminals(host, admin.jar, true));

    it('creates, reads, lists, searches, updates (merge-patch) and deletes a position', async () => {
      const name = positionName();
      const created = await api(host, 'POST', POSITIONS, { cookie: admin.jar, body: { name, Description: 'By the door' } });
      expect(created.status, created.text).toBe(201);
      expect(created.body).toMatchObject({ Name: name, Description: 'By the door', IsActive: true, TerminalCount: 0, TerminalClientIds: [] });
      const id: string = created.body.Id;
      expect(id).toMatch(/^[0-9a-f-]{36}$/);

      const one = await api(host, 'GET', `${POSITIONS}/${id}`, { cookie: admin.jar });
      expect(one.body).toMatchObject({ Id: id, Name: name, TerminalClientIds: [] });

      const other = await makePosition(host, admin.jar);
      const search = await api(host, 'GET', `${POSITIONS}?search=${encodeURIComponent(name.slice(-8).toUpperCase())}`, { cookie: admin.jar });
      expect(search.status).toBe(200);
      expect(search.body).toMatchObject({ totalCount: 1, page: 1, pageSize: 25 });
      expect(search.body.items.map((p: { Id: string }) => p.Id)).toEqual([id]);
      expect(search.body.items[0]).not.toHaveProperty('TerminalClientIds');

      const paged = await api(host, 'GET', `${POSITIONS}?pageSize=1&page=2&sortBy=name`, { cookie: admin.jar });
      expect(paged.body.totalCount).toBeGreaterThanOrEqual(2);
      expect(paged.body.items).toHaveLength(1);
      const all = await api(host, 'GET', `${POSITIONS}?sortBy=name&sortDescending=true`, { cookie: admin.jar });
      const names = all.body.items.map((p: { Name: string }) => p.Name.toLowerCase());
      expect(names).toEqual([...names].sort().reverse());

      // Merge-patch: omitted stays, null clears, blank Name is unchanged, IsActive only with a boolean.
      let res = await api(host, 'PUT', `${POSITIONS}/${id}`, { cookie: admin.jar, body: { Description: null, IsActive: false } });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toMatchObject({ Name: name, IsActive: false });
      expect(res.body).not.toHaveProperty('Description');
      res = await api(host, 'PUT', `${POSITIONS}/${id}`, { cookie: admin.jar, body: { Name: '', IsActive: null, Description: 'Back' } });
      expect(res.body).toMatchObject({ Name: name, IsActive: false, Description: 'Back' });
      const renamed = positionName();
      res = await api(host, 'PUT', `${POSITIONS}/${id}`, { cookie: admin.jar, body: { Name: renamed } });
      expect(res.body.Name).toBe(renamed);

      // Unique regardless of case, on create and on rename.
      expectProblem(await api(host, 'POST', POSITIONS, { cookie: admin.jar, body: { Name: renamed.toUpperCase() } }), 409, 'Position.NameTaken');
      expectProblem(await api(host, 'PUT', `${POSITIONS}/${other.id}`, { cookie: admin.jar, body: { Name: renamed } }), 409, 'Position.NameTaken');

      expect((await api(host, 'DELETE', `${POSITIONS}/${id}`, { cookie: admin.jar })).status).toBe(204);
      expectProblem(await api(host, 'GET', `${POSITIONS}/${id}`, { cookie: admin.jar }), 404, 'Position.NotFound');
      expectProblem(await api(host, 'DELETE', `${POSITIONS}/${id}`, { cookie: admin.jar }), 404, 'Position.NotFound');
      expectProblem(await api(host, 'PUT', `${POSITIONS}/${id}`, { cookie: admin.jar, body: { Name: 'x' } }), 404, 'Position.NotFound');

      await expectLogged(host, admin.jar, 'position.created');
      await expectLogged(host, admin.jar, 'position.deleted');
    });

    it('refuses bad input with friendly field messages and changes nothing', async () => {
      let res = await api(host, 'POST', POSITIONS, { cookie: admin.jar, body: { Name: '   ' } });
      expectProblem(res, 400, 'Validation.Failed');
      expect(res.body.errors.Name).toEqual(['Enter a name.']);
      res = await api(host, 'POST', POSITIONS, { cookie: admin.jar, body: { Name: 'a'.repeat(201) } });
      expectProblem(res, 400, 'Validation.Failed');
      res = await api(host, 'POST', POSITIONS, { cookie: admin.jar, body: { Name: 'ok', IsActive: 'yes' } });
      expectProblem(res, 400, 'Validation.Failed');
      const list = await api(host, 'GET', `${POSITIONS}?search=ok`, { cookie: admin.jar });
      expect(list.body.items.filter((p: { Name: string }) => p.Name === 'ok')).toEqual([]);
    });

    it('needs a session (401), position:read to read and position:write to write (403)', async () => {
      const position = await makePosition(host, admin.jar);
      expectProblem(await api(host, 'GET', POSITIONS), 401, 'Auth.Unauthenticated');
      expectProblem(await api(host, 'POST', POSITIONS, { body: { Name: positionName() } }), 401);

      const nobody = await signedIn(host, await makeUser(host, admin.jar));
      expectProblem(await api(host, 'GET', POSITIONS, { cookie: nobody }), 403, 'Auth.Forbidden');

      const readerUser = await makeUser(host, admin.jar);
      await grant(host, admin.jar, ['position:read'], readerUser.id);
      const reader = await signedIn(host, readerUser);
      expect((await api(host, 'GET', `${POSITIONS}/${position.id}`, { cookie: reader })).status).toBe(200);
      expectProblem(await api(host, 'POST', POSITIONS, { cookie: reader, body: { Name: positionName() } }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'PUT', `${POSITIONS}/${position.id}`, { cookie: reader, body: { Name: positionName() } }), 403, 'Auth.Forbidden');
      expectProblem(await api(host, 'DELETE', `${POSITIONS}/${position.id}`, { cookie: reader }), 403, 'Auth.Forbidden');
    });

    it('reads with a Management API bearer token; writes refuse it (cookie only)', async () => {
      const position = await makePosition(host, admin.jar);
      const token = await managementToken(host, admin.jar, ['position:read', 'position:write']);
      const bearer = { authorization: `Bearer ${token}` };
      const list = await api(host, 'GET', POSITIONS, { headers: bearer });
      expect(list.status, list.text).toBe(200);
      expect(list.body.items.some((p: { Id: string }) => p.Id === position.id)).toBe(true);
      expect((await api(host, 'GET', `${POSITIONS}/${position.id}`, { headers: bearer })).status).toBe(200);
      // The writes do not look at the token: without a session they are anonymous.
      expectProblem(await api(host, 'POST', POSITIONS, { headers: bearer, body: { Name: positionName() } }), 401, 'Auth.Unauthenticated');
      expectProblem(await api(host, 'PUT', `${POSITIONS}/${position.id}`, { headers: bearer, body: { Name: positionName() } }), 401);
      expectProblem(await api(host, 'DELETE', `${POSITIONS}/${position.id}`, { headers: bearer }), 401);
      // A token without the permission is refused.
      const weak = await managementToken(host, admin.jar, ['user:read']);
      expectProblem(await api(host, 'GET', POSITIONS, { headers: { authorization: `Bearer ${weak}` } }), 403, 'Auth.Forbidden');
    });

    it('hides the positions again when the switch goes off, and keeps them', async () => {
      const position = await makePosition(host, admin.jar);
      await setPositionTerminals(host, admin.jar, false);
      expectProblem(await api(host, 'GET', `${POSITIONS}/${position.id}`, { cookie: admin.jar }), 404, null);
      await setPositionTerminals(host, admin.jar, true);
      expect((await api(host, 'GET', `${POSITIONS}/${position.id}`, { cookie: admin.jar })).body.Name).toBe(position.name);
    });
  });
});

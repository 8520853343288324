import { describe, expect, it } from 'vitest';
import { api, CP_HOST, createRealm } from '../support/harness';

// The OpenAPI document the README points to: /swagger/v1/swagger.json, browsable at /swagger.
describe('OpenAPI document', () => {
  it('is served anonymously and describes the endpoints this suite exercises', async () => {
    const res = await api(CP_HOST, 'GET', '/swagger/v1/swagger.json');
    expect(res.status).toBe(200);
    expect(res.contentType).toMatch(/json/);
    expect(String(res.body.openapi)).toMatch(/^3\./);
    const paths = Object.keys(res.body.paths ?? {});
    for (const p of [
      '/api/admin/realms',
      '/api/admin/realms/{slug}',
      '/api/account/login',
      '/api/account/bootstrap-admin',
      '/api/account/me',
      '/api/app-info',
    ]) {
      expect(paths).toContain(p);
    }
    expect(Object.keys(res.body.paths['/api/admin/realms'])).toEqual(expect.arrayContaining(['get', 'post']));
  });

  it('is served on a tenant realm host too, and /swagger is an HTML page', async () => {
    const { host } = await createRealm();
    expect((await api(host, 'GET', '/swagger/v1/swagger.json')).status).toBe(200);
    const page = await api(CP_HOST, 'GET', '/swagger', { headers: { accept: 'text/html' } });
    expect(page.status).toBe(200);
    expect(page.contentType).toMatch(/text\/html/);
  });
});

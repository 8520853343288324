import { request } from 'node:http';
import { unzip, type ZipEntry } from '../../../lib/testing/unzip';
import { CookieJar, suite, type ApiResponse } from '../support/harness';
import { realmSql } from '../support/realm-sql';
import { waitForMail } from '../support/mailbox';

// For the privacy tests: the export and the confirmed deletion answer a ZIP, which the harness's
// text-decoding client would garble, so these requests keep the bytes.

export type Download = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer; setCookies: string[] };

export function download(host: string, method: 'GET' | 'POST', path: string, options: { cookie?: CookieJar | string; body?: unknown } = {}): Promise<Download> {
  const payload = options.body === undefined ? undefined : Buffer.from(JSON.stringify(options.body));
  const headers: Record<string, string> = { host, accept: 'application/zip, application/problem+json' };
  if (payload) {
    headers['content-type'] = 'application/json';
    headers['content-length'] = String(payload.length);
  }
  const cookie = options.cookie?.toString();
  if (cookie) headers.cookie = cookie;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port: suite().port, method, path, headers, setHost: false, agent: false, timeout: 60_000 }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () => {
        const setCookies = res.headers['set-cookie'] ?? [];
        if (options.cookie instanceof CookieJar) options.cookie.update(setCookies);
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks), setCookies });
      });
    });
    req.on('timeout', () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on('error', reject);
    if (payload) req.write(payload);
    req.end();
  });
}

/** The download as a problem answer, for expectProblem. */
export function asProblem(d: Download): ApiResponse {
  const text = d.body.toString('utf8');
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: d.status, headers: d.headers, body, text, contentType: String(d.headers['content-type'] ?? ''), setCookies: d.setCookies };
}

/** The archive's entries, insisting on a 200 ZIP download. */
export function archiveOf(d: Download): Map<string, ZipEntry> {
  if (d.status !== 200) throw new Error(`expected the archive, got ${d.status}: ${d.body.toString('utf8').slice(0, 400)}`);
  return unzip(d.body);
}

/** Every entry's text, for scanning. */
export function archiveText(entries: Map<string, ZipEntry>): string {
  return [...entries.values()].map((e) => e.text()).join('\n');
}

/** The token of the newest deletion link mailed to `email` after `after` mails. */
export async function deletionToken(email: string, after: number): Promise<string> {
  const mail = await waitForMail(email, { after, subject: /deletion/i });
  const link = mail.links.find((l) => new URL(l).pathname === '/confirm-deletion');
  if (!link) throw new Error(`no /confirm-deletion link in: ${mail.text}`);
  return new URL(link).searchParams.get('token')!;
}

/** The values of every credential column of the user's rows (what an archive must never hold). */
export async function credentialValues(slug: string, userId: string): Promise<string[]> {
  const rows = [
    ...(await realmSql(slug, `SELECT "passwordHash" AS v, "securityStamp" AS w FROM "User" WHERE "id" = $1`, [userId])),
    ...(await realmSql(slug, `SELECT "tokenHash" AS v, "upstreamIdTokenEncrypted" AS w FROM "Session" WHERE "userId" = $1`, [userId])),
    ...(await realmSql(slug, `SELECT "secretHash" AS v FROM "OneTimeSecret" WHERE "userId" = $1`, [userId])),
    ...(await realmSql(slug, `SELECT "secretEncrypted" AS v FROM "TotpAuthenticator" WHERE "userId" = $1`, [userId])),
    ...(await realmSql(slug, `SELECT "publicKey" AS v, "credentialId" AS w FROM "Passkey" WHERE "userId" = $1`, [userId])),
    ...(await realmSql(slug, `SELECT "emailTokenHash" AS v FROM "UserChangeRequest" WHERE "userId" = $1`, [userId])),
    ...(await realmSql(slug, `SELECT "id" AS v, "payload" AS w FROM "OidcPayload" WHERE "accountId" = $1`, [userId])),
  ];
  const values = rows.flatMap((r) => [r.v, r.w]).filter((v): v is string => typeof v === 'string' && v.length >= 16);
  // The engine's JSON: its sealed values.
  return values.flatMap((v) => (v.startsWith('{') ? [...v.matchAll(/"sealed:[^"]+"/g)].map((m) => m[0].slice(1, -1)) : [v]));
}

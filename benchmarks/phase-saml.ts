import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { generateSpKeyPair } from '../lib/domain/external-identity/saml/sp-key-pair';
import { controlPlaneAdmin } from './admin';
import { expectStatus, request } from './http';
import { startServer, type RunningServer } from './launch-server';
import type { BenchOptions } from './options';
import type { Report } from './report';
import { median, progress } from './table';

// Issue 30 item 1: what a hostile post to the SAML ACS costs the server, and what it does to
// everyone else's requests. A server of its own with the rate limits off (one client address; with
// them on, the 11th failed post in a minute is a 429 and the checks below would not be reached),
// SQLite, the control-plane realm, a SAML provider with a typed-in IdP (nothing reaches the IdP).
// - CPU per post: each kind posted one after another; the CPU time of the server's main thread (its
//   event loop, /proc/<pid>/task/<pid>/stat) and of the whole process (all threads: GC, the parse
//   worker) over the posts, divided by their number. The clock ticks in 10 ms: it is read once
//   around all the posts of a kind.
// - /health while they arrive: one client asks GET /health in a loop (5 ms apart), alone, then
//   while 4 clients post hostile responses back to back (the case).

export const SAML_PARTS = ['saml-acs'] as const;

const HOST = 'localhost';
const SLUG = 'bench-saml';
const PROTOCOL_NS = 'urn:oasis:names:tc:SAML:2.0:protocol';
const POSTERS = 4;

type Kind = { name: string; expect: number; body: () => Promise<string> };
export type SamlAcsResult = {
  posts: { name: string; status: number; count: number; mainThreadMsPerPost: number; cpuMsPerPost: number; clientP50: number }[];
  health: { name: string; count: number; p50: number; p99: number; max: number; posts: number; seconds: number }[];
};

/** CPU time of the server's main thread (its event loop; the thread id is the process id), in ms. */
function mainThreadCpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(sorted.length * p) - 1))] ?? NaN;

export async function samlPhase(tmp: string, o: BenchOptions, report: Report, track: (s: RunningServer) => void): Promise<void> {
  const dataDir = join(tmp, 'saml');
  mkdirSync(dataDir, { recursive: true });
  const server = await startServer({ dataDir }, undefined, { GATEHOUSE_RATE_LIMIT_SCALE: '0' });
  track(server);
  const port = server.port;
  const cookie = await controlPlaneAdmin(server.env, port, 'bench-admin');
  const idpKeys = await generateSpKeyPair('bench idp');
  await expectStatus(201, {
    port,
    method: 'POST',
    path: '/api/admin/login-providers',
    cookie,
    body: {
      Name: 'Bench IdP',
      Flavor: 'Saml',
      Slug: SLUG,
      Saml: { IdpEntityId: 'https://idp.example/saml', IdpSsoUrl: 'https://idp.example/sso', IdpCertificate: idpKeys.certificatePem },
    },
  });
  const acsUrl = `http://${HOST}:${port}/saml/${SLUG}/acs`;
  const deep = (inResponseTo: string, depth: number) =>
    Buffer.from(
      `<samlp:Response xmlns:samlp="${PROTOCOL_NS}" ID="_b" Version="2.0" IssueInstant="2026-12-01T00:00:00Z" Destination="${acsUrl}" InResponseTo="${inResponseTo}">` +
        '<a>'.repeat(depth) +
        '</a>'.repeat(depth) +
        '</samlp:Response>',
    ).toString('base64');
  /** Flat: `count` small elements, within the limits, so the worker parses it (and finds no signature). */
  const flat = (inResponseTo: string, count: number) =>
    Buffer.from(
      `<samlp:Response xmlns:samlp="${PROTOCOL_NS}" ID="_f" Version="2.0" IssueInstant="2026-12-01T00:00:00Z" Destination="${acsUrl}" InResponseTo="${inResponseTo}">` +
        '<b>attribute-value-text</b>'.repeat(count) +
        '</samlp:Response>',
    ).toString('base64');
  const big = deep('_nobody-asked', 68_000);
  const withinLimit = deep('_nobody-asked', 18_000);
  const pendingId = async () => {
    const start = await expectStatus(302, { port, path: `/saml/${SLUG}/login` });
    const sent = inflateRawSync(Buffer.from(new URL(String(start.headers.location)).searchParams.get('SAMLRequest')!, 'base64')).toString();
    return /\bID="([^"]+)"/.exec(sent)![1];
  };
  // Bodies are encoded once: URLSearchParams takes tens of ms for 600 KB, on the bench's side of the same two cores.
  const formOf = (samlResponse: string) => new URLSearchParams({ SAMLResponse: samlResponse }).toString();
  const bigForm = formOf(big);
  const withinLimitForm = formOf(withinLimit);
  const post = (form: string) => request({ port, method: 'POST', path: `/saml/${SLUG}/acs`, form, headers: { origin: 'https://idp.example' } });

  const kinds: Kind[] = [
    { name: `deep nesting, ${Math.round(Buffer.from(big, 'base64').length / 1024)} KiB of XML, unknown InResponseTo`, expect: 413, body: async () => bigForm },
    {
      name: `deep nesting, ${Math.round(Buffer.from(withinLimit, 'base64').length / 1024)} KiB of XML (within the limit), unknown InResponseTo`,
      expect: 302,
      body: async () => withinLimitForm,
    },
    {
      name: `the same naming a pending request (the poster started a sign-in; the login itself not counted)`,
      expect: 302,
      body: async () => formOf(deep(await pendingId(), 18_000)),
    },
    {
      name: `1,000 flat elements (the limit is 1,024), ${Math.round(Buffer.from(flat('_x', 1_000), 'base64').length / 1024)} KiB of XML, naming a pending request: parsed on the worker`,
      expect: 302,
      body: async () => formOf(flat(await pendingId(), 1_000)),
    },
  ];
  const count = o.quick ? 20 : 60;
  const result: SamlAcsResult = { posts: [], health: [] };
  for (const kind of kinds) {
    progress(`saml-acs: ${count} posts, ${kind.name}`);
    for (let i = 0; i < 3; i++) await post(await kind.body()); // warm-up
    // Every body first (a pending request costs a login): the CPU clock counts the posts alone. It
    // ticks in 10 ms steps, so it is read once around all of them.
    const bodies: string[] = [];
    for (let i = 0; i < count; i++) bodies.push(await kind.body());
    const times: number[] = [];
    let status = 0;
    await new Promise((r) => setTimeout(r, 200));
    const c0 = server.cpuMs();
    const m0 = mainThreadCpuMs(server.pid);
    for (const body of bodies) {
      const t0 = performance.now();
      const res = await post(body);
      times.push(performance.now() - t0);
      status = res.status;
      if (res.status !== kind.expect) throw new Error(`saml-acs: ${kind.name} answered ${res.status}, expected ${kind.expect}: ${res.text.slice(0, 300)}`);
    }
    // The security-log entry of each refusal is written off the request: its CPU lands just after.
    await new Promise((r) => setTimeout(r, 300));
    const cpu = server.cpuMs() - c0;
    const main = mainThreadCpuMs(server.pid) - m0;
    result.posts.push({ name: kind.name, status, count, mainThreadMsPerPost: main / count, cpuMsPerPost: cpu / count, clientP50: median(times) });
  }

  const seconds = Math.max(3, Math.min(o.duration, 10));
  const probe = async (name: string, during: (until: number) => Promise<number>) => {
    progress(`saml-acs: GET /health for ${seconds} s, ${name}`);
    const until = performance.now() + seconds * 1000;
    const latencies: number[] = [];
    const probing = (async () => {
      while (performance.now() < until) {
        const t0 = performance.now();
        const res = await request({ port, path: '/health' });
        latencies.push(performance.now() - t0);
        if (res.status !== 200) throw new Error(`/health answered ${res.status}`);
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const [posts] = await Promise.all([during(until), probing]);
    latencies.sort((a, b) => a - b);
    result.health.push({
      name,
      count: latencies.length,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      max: latencies.at(-1)!,
      posts,
      seconds,
    });
  };
  await probe('alone', async () => 0);
  await probe(`while ${POSTERS} clients post hostile responses back to back (the four kinds in turn)`, async (until) => {
    let posts = 0;
    await Promise.all(
      Array.from({ length: POSTERS }, async (_, w) => {
        for (let i = w; performance.now() < until; i++) {
          await post(await kinds[i % kinds.length].body());
          posts++;
        }
      }),
    );
    return posts;
  });
  report.saml = result;
  await server.stop();
}

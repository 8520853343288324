import type { Measurement } from './load';
import type { ConnectionCount } from './postgres';
import type { FlowMeasurement } from './flows';
import type { Argon2Rate } from './scenario-argon2';
import type { ForgotTiming } from './scenario-forgot-password';
import type { ExportMeasurement } from './scenario-export';
import type { ManifestMeasurement } from './scenario-manifest';
import type { OAuthRow } from './scenario-oauth';
import type { HubResult } from './phase-hub';
import type { SamlAcsResult } from './phase-saml';
import type { BulkCreate, CreateTiming, FleetResult } from './scenario-realms';
import { markdownTable, median, type Row } from './table';

// The bench's printed report: markdown tables on stdout.

export type FleetSnapshot = { storage: string; realms: number; fleet: FleetResult; rssMiB: number; peakMiB: number; bulk?: BulkCreate };

export type Report = {
  header: string[];
  rows: Measurement[];
  argon2: Argon2Rate[];
  ratios: { name: string; value: number; target?: number }[];
  creates: { storage: string; timing: CreateTiming }[];
  fleets: FleetSnapshot[];
  connections: ({ when: string } & ConnectionCount)[];
  /** Multi-request sign-in flows (phase-auth.ts). */
  flows: FlowMeasurement[];
  forgot?: ForgotTiming;
  /** Gatehouse beside a bare oidc-provider (phase-oauth.ts). */
  oauth: OAuthRow[];
  /** The data-export ZIP built in-process (scenario-export.ts). */
  exports: ExportMeasurement[];
  /** Realm manifests planned, applied and exported in-process (scenario-manifest.ts). */
  manifests: ManifestMeasurement[];
  /** The real-time hub: connections held, deliveries to consoles (phase-hub.ts). */
  hub?: HubResult;
  /** Hostile posts to the SAML ACS (phase-saml.ts). */
  saml?: SamlAcsResult;
  notes: string[];
};

export const emptyReport = (): Report => ({
  header: [],
  rows: [],
  argon2: [],
  ratios: [],
  creates: [],
  fleets: [],
  connections: [],
  flows: [],
  oauth: [],
  exports: [],
  manifests: [],
  notes: [],
});

const statusText = (m: Measurement) =>
  m.non2xx === 0 && m.errors === 0
    ? '0'
    : `${m.non2xx} (${Object.entries(m.statusCodes)
        .filter(([c]) => !c.startsWith('2'))
        .map(([c, n]) => `${c}×${n}`)
        .join(', ')})${m.errors ? `, ${m.errors} errors` : ''}`;

const measurementRow = (m: Measurement): Row => [m.name, m.rps, m.p50, m.p99, m.cpuMsPerRequest, statusText(m), m.load];
const MEASUREMENT_HEADER = ['scenario', 'req/s (2xx)', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'non-2xx', 'load avg'];

export function renderReport(r: Report): string {
  const out: string[] = ['# Gatehouse benchmark', '', ...r.header.map((h) => `- ${h}`), ''];
  if (r.rows.length || r.argon2.length) {
    out.push('## Throughput', '');
    const argonRows: Row[] = r.argon2.map((a) => [
      `argon2id verify in-process, concurrency ${a.concurrency}${a.round ? `, round ${a.round}` : ''}`,
      a.perSecond,
      NaN,
      NaN,
      a.cpuMsEach,
      '–',
      a.load,
    ]);
    out.push(markdownTable(MEASUREMENT_HEADER, [...r.rows.map(measurementRow), ...argonRows]), '');
  }
  if (r.flows.length) {
    out.push('## Sign-in flows (rate limits off)', '');
    const raw = r.argon2.length ? Math.max(...r.argon2.map((a) => a.perSecond)) : NaN;
    const failures = (f: FlowMeasurement) =>
      Object.entries(f.failures)
        .map(([k, n]) => `${k} ×${n}`)
        .join(', ') || '0';
    const steps = (f: FlowMeasurement) =>
      Object.entries(f.steps)
        .map(([k, p]) => `${k} ${p.p50.toFixed(0)}/${p.p99.toFixed(0)}`)
        .join(', ');
    out.push(
      markdownTable(
        [
          'flow',
          'workers',
          'flows/s',
          '× argon2 raw',
          'p50 ms',
          'p90 ms',
          'p99 ms',
          'steps p50/p99 ms',
          'server CPU ms/flow',
          'CPU ms/req',
          'failed',
          'load avg',
        ],
        r.flows.map((f) => [
          f.name,
          f.workers,
          f.flowsPerSecond,
          f.flowsPerSecond / raw,
          f.flow.p50,
          f.flow.p90,
          f.flow.p99,
          steps(f),
          f.cpuMsPerFlow,
          f.cpuMsPerRequest,
          failures(f),
          f.load,
        ]),
      ),
      '',
    );
  }
  if (r.forgot) {
    const f = r.forgot;
    out.push('## forgot-password: existing vs missing address', '');
    out.push(
      markdownTable(
        ['address', 'answers', 'p50 ms', 'p90 ms', 'p99 ms'],
        [
          ['existing', f.existing.n, f.existing.p50, f.existing.p90, f.existing.p99],
          ['missing', f.missing.n, f.missing.p50, f.missing.p90, f.missing.p99],
        ],
      ),
      '',
    );
    const off = Math.abs(f.ratio - 1);
    out.push(`Median ratio missing / existing: ${f.ratio.toFixed(3)} (target within 10 %: ${off <= 0.1 ? 'met' : 'MISSED'}).`, '');
  }
  if (r.oauth.length) out.push(...renderOAuth(r.oauth));
  if (r.exports.length) {
    out.push('## Data export (in-process builder, SQLite)', '');
    out.push(
      markdownTable(
        ['security-log entries', 'V8 old space', 'ZIP KiB', 'time ms', 'entries/s', 'RSS before MiB', 'peak RSS MiB', 'growth MiB'],
        r.exports.map((e) => [
          e.entries,
          e.heapCapMiB ? `≤ ${e.heapCapMiB} MiB` : 'default',
          e.bytes / 1024,
          e.ms,
          (e.entries * 1000) / e.ms,
          e.baselineMiB,
          e.peakMiB,
          e.peakMiB - e.baselineMiB,
        ]),
      ),
      '',
      'The archive is written while it is read, the security log in keyset pages of 500 entries. Uncapped, V8 collects lazily, so RSS grows by garbage; the capped run finishing with a small old space shows that the export holds a page at a time, not the log.',
      '',
    );
  }
  for (const m of r.manifests) {
    out.push(`## Realm manifest (in-process, SQLite): ${m.apps} Apps, ${m.roles} roles, ${m.groups} groups, ${m.clients} clients`, '');
    out.push(
      markdownTable(
        ['operation', 'time ms', 'items'],
        [
          ['plan (dry run) into an empty realm', m.planEmptyMs, m.items],
          ['apply into an empty realm (one transaction)', m.applyEmptyMs, m.items],
          ['plan (dry run) into the matching realm', m.planMatchMs, 0],
          ['apply into the matching realm (no-op)', m.applyMatchMs, 0],
          ['export', m.exportMs, m.items],
        ],
      ),
      '',
      `The apply into the empty realm created ${m.items} items and ${m.secrets} client secrets; the second apply found ${m.unchanged} items unchanged and wrote nothing. The export is ${(m.exportBytes / 1024).toFixed(0)} KiB of JSON.`,
      '',
    );
  }
  if (r.hub) out.push(...renderHub(r.hub));
  if (r.ratios.length) {
    out.push('## Ratios', '');
    out.push(
      markdownTable(
        ['ratio', 'measured', 'target', 'result'],
        r.ratios.map((x) => [
          x.name,
          `${x.value.toFixed(2)}×`,
          x.target === undefined ? '–' : `≥ ${x.target}×`,
          x.target === undefined ? '–' : x.value >= x.target ? 'met' : 'MISSED',
        ]),
      ),
      '',
    );
  }
  if (r.creates.length) {
    out.push('## Realm creation over the API (sequential)', '');
    out.push(
      markdownTable(
        ['storage', 'creates', 'median ms', 'min ms', 'max ms'],
        r.creates.map((c) => [c.storage, c.timing.count, c.timing.medianMs, c.timing.minMs, c.timing.maxMs]),
      ),
      '',
    );
  }
  if (r.fleets.length) {
    out.push('## Fleet size', '');
    const rows: Row[] = [];
    for (const f of r.fleets) {
      const bulk = f.bulk
        ? `${f.bulk.created} in ${f.bulk.seconds.toFixed(0)} s (${f.bulk.perSecond.toFixed(1)}/s${f.bulk.failed ? `, ${f.bulk.failed} failed` : ''})`
        : '–';
      rows.push([
        `${f.storage}, ${f.realms} realms: app-info over ${f.fleet.hostSample} hosts`,
        f.fleet.appInfo.rps,
        f.fleet.appInfo.p50,
        f.fleet.appInfo.p99,
        f.fleet.appInfo.cpuMsPerRequest,
        statusText(f.fleet.appInfo),
        f.rssMiB,
        f.peakMiB,
        rssVerdict(f),
        bulk,
      ]);
      if (f.fleet.me)
        rows.push([
          `${f.storage}, ${f.realms} realms: me over ${f.fleet.sessionRealms} realms`,
          f.fleet.me.rps,
          f.fleet.me.p50,
          f.fleet.me.p99,
          f.fleet.me.cpuMsPerRequest,
          statusText(f.fleet.me),
          NaN,
          NaN,
          '',
          '',
        ]);
    }
    out.push(
      markdownTable(
        ['measurement', 'req/s', 'p50 ms', 'p99 ms', 'server CPU ms/req', 'non-2xx', 'RSS MiB', 'peak RSS MiB', 'RSS target', 'bulk creation'],
        rows,
      ),
      '',
    );
    for (const f of r.fleets) {
      for (const [reason, n] of Object.entries(f.bulk?.failures ?? {})) out.push(`- ${f.storage} creation failures: ${n} × ${reason}`);
    }
  }
  if (r.connections.length) {
    out.push('## PostgreSQL connections', '');
    out.push(
      markdownTable(
        ['when', "bench's databases", 'all databases', 'max_connections'],
        r.connections.map((c) => [c.when, c.bench, c.all, c.max]),
      ),
      '',
    );
  }
  if (r.saml) out.push(...renderSamlAcs(r.saml));
  if (r.notes.length) out.push('## Notes', '', ...r.notes.map((n) => `- ${n}`), '');
  return out.join('\n');
}

/** Issue 14: RSS under 1 GiB at 1,000 realms and under 2 GiB up to 10,000 (the control plane counts as a realm). */
function rssVerdict(f: FleetSnapshot): string {
  const realms = f.realms - 1;
  if (realms < 1_000) return '–';
  const target = realms <= 1_000 ? 1024 : 2048;
  return `< ${target.toLocaleString('en-US')}: ${f.rssMiB < target ? 'met' : 'missed'}`;
}

/** A metric's figures over its rounds: each side's medians, and the medians of the rounds' own ratios. */
function oauthSummary(x: OAuthRow) {
  const of = (f: (r: OAuthRow['rounds'][number]) => number) => median(x.rounds.map(f));
  const cpuRatios = x.rounds.map((r) => r.bare.cpuMsPerRequest / r.gatehouse.cpuMsPerRequest);
  return {
    gRps: of((r) => r.gatehouse.rps),
    bRps: of((r) => r.bare.rps),
    gCpu: of((r) => r.gatehouse.cpuMsPerRequest),
    bCpu: of((r) => r.bare.cpuMsPerRequest),
    ratio: of((r) => r.gatehouse.rps / r.bare.rps),
    cpuRatio: median(cpuRatios),
    cpuRatios,
  };
}

/** The OAuth comparison: one row per metric, Gatehouse beside the bare engine, then the verdicts. */
function renderOAuth(rows: OAuthRow[]): string[] {
  const out = ['## OAuth engine: Gatehouse vs bare oidc-provider (same run, same machine)', ''];
  out.push(
    markdownTable(
      [
        'metric',
        'Gatehouse req/s',
        'bare req/s',
        'ratio',
        'Gatehouse p50/p99 ms',
        'bare p50/p99 ms',
        'CPU ms/req G / bare',
        'per CPU-s G / bare',
        'CPU ratio',
        'CPU ratio by round',
        'target',
        'non-2xx G / bare',
        'load avg',
      ],
      rows.map((x) => {
        const m = oauthSummary(x);
        const last = x.rounds[x.rounds.length - 1];
        const statuses = (side: 'gatehouse' | 'bare') =>
          x.rounds
            .map((r) => statusText(r[side]))
            .filter((t) => t !== '0')
            .join('; ') || '0';
        const target =
          [x.ratioTarget ? `≥ ${x.ratioTarget}× bare` : '', x.perCoreTarget ? `≥ ${x.perCoreTarget.toLocaleString('en-US')}/s/core` : '']
            .filter(Boolean)
            .join(', ') || '–';
        return [
          x.metric,
          Math.round(m.gRps),
          Math.round(m.bRps),
          `${m.ratio.toFixed(2)}×`,
          `${median(x.rounds.map((r) => r.gatehouse.p50)).toFixed(1)} / ${median(x.rounds.map((r) => r.gatehouse.p99)).toFixed(1)}`,
          `${median(x.rounds.map((r) => r.bare.p50)).toFixed(1)} / ${median(x.rounds.map((r) => r.bare.p99)).toFixed(1)}`,
          `${m.gCpu.toFixed(2)} / ${m.bCpu.toFixed(2)}`,
          `${Math.round(1000 / m.gCpu).toLocaleString('en-US')} / ${Math.round(1000 / m.bCpu).toLocaleString('en-US')}`,
          `${m.cpuRatio.toFixed(2)}×`,
          m.cpuRatios.map((r) => r.toFixed(2)).join(', '),
          target,
          `${statuses('gatehouse')} / ${statuses('bare')}`,
          `${last.gatehouse.load.toFixed(2)} / ${last.bare.load.toFixed(2)}`,
        ];
      }),
    ),
    '',
    '"ratio" is Gatehouse req/s over bare req/s; "CPU ratio" is bare CPU ms/req over Gatehouse CPU ms/req (the same comparison from server CPU time, which other load on the machine disturbs less). Each metric ran in rounds, Gatehouse and the bare engine back to back in each: the rates and CPU times are the medians of the rounds, and both ratios the medians of the rounds\' own ratios. Targets (issue 4):',
    '',
  );
  for (const x of rows) {
    const m = oauthSummary(x);
    if (x.ratioTarget) {
      out.push(
        `- ${x.metric}: ${m.ratio.toFixed(2)}× the bare engine (target ≥ ${x.ratioTarget}×: ${m.ratio >= x.ratioTarget ? 'met' : 'MISSED'}; by CPU time ${m.cpuRatio.toFixed(2)}×).`,
      );
    }
    if (x.perCoreTarget) {
      const cpu = 1000 / m.gCpu;
      out.push(
        `- ${x.metric}: ${Math.round(m.gRps).toLocaleString('en-US')}/s on one core (one Node process; target ≥ ${x.perCoreTarget.toLocaleString('en-US')}/s: ${m.gRps >= x.perCoreTarget ? 'met' : 'MISSED'}); ${Math.round(cpu).toLocaleString('en-US')} per CPU-second (${cpu >= x.perCoreTarget ? 'met' : 'MISSED'} by CPU time).`,
      );
    }
  }
  out.push('');
  return out;
}

const HUB_RSS_TARGET_MIB = 500;

/** The real-time hub: idle connections held on one instance, then deliveries to connected consoles. */
function renderHub(h: HubResult): string[] {
  const out = ['## Real-time hub `/signalr/ui` (WebSockets, JSON protocol)', ''];
  if (h.held) {
    const x = h.held;
    const perKiB = ((x.rssAfterMiB - x.rssBeforeMiB) * 1024) / x.connections;
    out.push(
      markdownTable(
        ['idle connections', 'sessions', 'opened in s', 'RSS before MiB', 'RSS after MiB', 'KiB per connection', 'ended by the server', 'target'],
        [
          [
            x.connections,
            x.sessions,
            x.openSeconds,
            x.rssBeforeMiB,
            x.rssAfterMiB,
            perKiB,
            x.lost,
            x.source
              ? `growth < ${HUB_RSS_TARGET_MIB} MiB: ${x.rssAfterMiB - x.rssBeforeMiB < HUB_RSS_TARGET_MIB ? 'met' : 'MISSED'} (total: build needed)`
              : `< ${HUB_RSS_TARGET_MIB} MiB: ${x.rssAfterMiB < HUB_RSS_TARGET_MIB ? 'met' : 'MISSED'}`,
          ],
        ],
      ),
      '',
      ...Object.entries(x.openFailures).map(([reason, n]) => `- opening failed and was tried again: ${n} × ${reason}`),
      ...(Object.keys(x.openFailures).length ? [''] : []),
      `Server ${x.source ? "from source (server.ts through tsx, development mode: the RSS includes Next's development server, so only the growth is judged, and a garbage collection in between can hide part of the connections' cost)" : 'production build'}; RSS (VmRSS) read after a 20 s hold with client and server pings. Open files limit: ${x.fdLimit}.`,
      '',
    );
  }
  if (h.deliveries.length) {
    out.push(
      markdownTable(
        [
          'deliveries',
          'consoles',
          'changes',
          'changes/s (API)',
          'deliveries/s',
          'heard / expected',
          'API answer p50 ms',
          'from request p50/p99 ms',
          'from answer p50/p99 ms',
          'connections lost',
        ],
        h.deliveries.map((d) => [
          d.label,
          d.consoles,
          d.changes,
          d.changesPerSecond,
          d.perSecond,
          `${d.delivered.toLocaleString('en-US')} / ${d.expected.toLocaleString('en-US')}`,
          d.answerP50,
          `${d.fromStart.p50.toFixed(0)} / ${d.fromStart.p99.toFixed(0)}`,
          `${d.fromAnswer.p50.toFixed(0)} / ${d.fromAnswer.p99.toFixed(0)}`,
          d.lost,
        ]),
      ),
      '',
      "Each change is a user created over the API (`POST /api/user`, 4 in flight); every console is one of the realm administrator's connections and hears each as `changed`. Deliveries/s count from the first request to the last delivery, so the API's own rate bounds them. \"From answer\" may be negative: the hub delivers off the request's path, sometimes before the answer is written.",
      '',
    );
  }
  return out;
}

function renderSamlAcs(r: SamlAcsResult): string[] {
  const posts: Row[] = r.posts.map((p) => [p.name, p.status, p.count, p.mainThreadMsPerPost, p.cpuMsPerPost, p.clientP50]);
  const health: Row[] = r.health.map((h) => [h.name, h.count, h.p50, h.p99, h.max, h.seconds ? h.posts / h.seconds : NaN]);
  return [
    '## SAML ACS: hostile posts (rate limits off)',
    '',
    markdownTable(['post', 'status', 'posts', 'main-thread CPU ms/post', 'server CPU ms/post (all threads)', 'client p50 ms'], posts),
    '',
    markdownTable(['GET /health', 'requests', 'p50 ms', 'p99 ms', 'max ms', 'hostile posts/s'], health),
    '',
  ];
}

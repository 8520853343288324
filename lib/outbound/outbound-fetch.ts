import type { Socket } from 'node:net';
import { settings } from '../config/env';
import type { AllowList } from './address-policy';
import { connectOutbound, isOutboundRefusal } from './guarded-socket';

// `fetch` under the outbound policy (address-policy.ts): every connection it opens, the first and
// each one a redirect leads to, goes through connectOutbound. Used by the OAuth engine for what a
// client names (lib/oidc/outbound-fetch.ts) and by the upstream OIDC client for what a login
// provider names (lib/domain/external-identity/oidc/upstream-client.ts).

/** An HTTP request to an address a tenant chose, under the operator's GATEHOUSE_OUTBOUND_ALLOW. */
export type OutboundFetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

type ConnectOptions = { hostname: string; protocol: string; port: string; servername?: string | null };
type ConnectCallback = (error: Error | null, socket: Socket | null) => void;
type Dispatcher = object;
type AgentConstructor = new (options: { connect: (options: ConnectOptions, callback: ConnectCallback) => void }) => Dispatcher;

const CONNECT_TIMEOUT_MS = 10_000;

/**
 * The Agent class of the undici inside Node, which `fetch` uses (the package is not a dependency of
 * ours: its own Agent would not be accepted by Node's fetch across versions). Touching `Response`
 * loads it, and it keeps its global dispatcher on globalThis under these documented symbols.
 */
function nodeUndiciAgent(): AgentConstructor {
  void Response;
  const global = globalThis as Record<symbol, { constructor: AgentConstructor } | undefined>;
  const agent = global[Symbol.for('undici.globalDispatcher.2')] ?? global[Symbol.for('undici.globalDispatcher.1')];
  if (!agent) throw new Error("Node's fetch dispatcher was not found: outbound requests cannot be guarded");
  return agent.constructor;
}

/** undici's connector: one guarded socket per connection, handed over once connected (TLS: once secured). */
function guardedConnector(allow: AllowList) {
  return (options: ConnectOptions, callback: ConnectCallback) => {
    const https = options.protocol === 'https:';
    const port = Number(options.port) || (https ? 443 : 80);
    const socket = connectOutbound(allow, {
      host: options.hostname,
      port,
      tls: https ? { ...(options.servername ? { servername: options.servername } : {}), ALPNProtocols: ['http/1.1'] } : undefined,
    });
    let settled = false;
    const settle = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) callback(error, null);
      else callback(null, socket);
    };
    const timer = setTimeout(() => {
      const error = Object.assign(new Error('connect timed out'), { code: 'UND_ERR_CONNECT_TIMEOUT' });
      socket.destroy(error);
      settle(error);
    }, CONNECT_TIMEOUT_MS);
    socket.setNoDelay(true);
    socket.once('error', (error) => settle(error));
    socket.once(https ? 'secureConnect' : 'connect', () => {
      // The policy's own 'connect' check ran first and may have destroyed the socket: its error follows.
      if (!socket.destroyed) settle(null);
    });
  };
}

const dispatchers = new WeakMap<AllowList, Dispatcher>();

function dispatcherFor(allow: AllowList): Dispatcher {
  let dispatcher = dispatchers.get(allow);
  if (!dispatcher) {
    const Agent = nodeUndiciAgent();
    dispatcher = new Agent({ connect: guardedConnector(allow) });
    dispatchers.set(allow, dispatcher);
  }
  return dispatcher;
}

/** The operator's allow list (GATEHOUSE_OUTBOUND_ALLOW). */
export function outboundAllowList(): AllowList {
  return settings().outboundAllow;
}

/**
 * `fetch` whose connections obey the policy with `allow`. `base` is the fetch to call (Node's own by
 * default): it receives the guarded dispatcher in its options, whatever dispatcher the caller set.
 */
export function outboundFetch(allow: AllowList = outboundAllowList(), base: OutboundFetch = globalThis.fetch): OutboundFetch {
  return (input, init) => base(input, { ...init, dispatcher: dispatcherFor(allow) } as RequestInit);
}

/** Why an outbound request failed, in words that say nothing about the far side's network. */
export type OutboundFailure = 'not-allowed' | 'unreachable';

/**
 * 'not-allowed' when the policy refused the address; 'unreachable' for any failure below HTTP (no
 * route, refused or reset connection, closed socket, TLS, time-out); undefined for anything else.
 * Kept this coarse on purpose: which of these happened is what a port scan would read.
 */
export function outboundFailureOf(error: unknown): OutboundFailure | undefined {
  if (isOutboundRefusal(error)) return 'not-allowed';
  const e = error as { name?: string; message?: string; code?: unknown };
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'unreachable';
  if (error instanceof TypeError && e.message === 'fetch failed') return 'unreachable';
  return undefined;
}

/** What an administrator is told about a failed outbound request. */
export const OUTBOUND_FAILURE_TEXT: Record<OutboundFailure, string> = {
  'not-allowed': 'the address is not allowed',
  unreachable: 'the provider could not be reached',
};

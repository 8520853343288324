// The SignalR JSON hub protocol as the unchanged `@microsoft/signalr` client speaks it (docs/realtime.md):
// every message is a JSON text followed by the record separator 0x1e; the first message each way is
// the handshake. Pure: no sockets, no timers, so the framing is tested on its own.

export const RECORD_SEPARATOR = '\x1e';

/** Message types of the hub protocol the server sends or understands. */
export const MessageType = {
  Invocation: 1,
  StreamItem: 2,
  Completion: 3,
  StreamInvocation: 4,
  CancelInvocation: 5,
  Ping: 6,
  Close: 7,
} as const;

export type HubMessage =
  | { type: typeof MessageType.Invocation; target: string; arguments: unknown[]; invocationId?: string }
  | { type: typeof MessageType.Completion; invocationId: string; error?: string; result?: unknown }
  | { type: typeof MessageType.Ping }
  | { type: typeof MessageType.Close; error?: string; allowReconnect?: boolean };

/** One message as it goes on the wire. */
export function frame(message: HubMessage | Record<string, never> | { error: string }): string {
  return JSON.stringify(message) + RECORD_SEPARATOR;
}

export const pingFrame = (): string => frame({ type: MessageType.Ping });

export function closeFrame(error?: string, allowReconnect?: boolean): string {
  return frame({ type: MessageType.Close, ...(error ? { error } : {}), ...(allowReconnect !== undefined ? { allowReconnect } : {}) });
}

export function invocationFrame(target: string, args: unknown[]): string {
  return frame({ type: MessageType.Invocation, target, arguments: args });
}

/** Longest text a connection may leave unterminated (a client of this hub sends only small messages). */
export const MAX_PENDING_CHARS = 64 * 1024;

/**
 * Splits a stream of text into records. Text may arrive in any pieces (a record split over two
 * WebSocket frames or POST bodies, several records in one piece); a record is complete at its
 * separator, the rest waits for the next piece.
 */
export class RecordReader {
  private pending = '';

  /** The complete records in `chunk` (and what was pending before it), without their separators. */
  push(chunk: string): string[] {
    const text = this.pending + chunk;
    const parts = text.split(RECORD_SEPARATOR);
    this.pending = parts.pop() ?? '';
    if (this.pending.length > MAX_PENDING_CHARS) throw new ProtocolError('Message too large.');
    return parts;
  }
}

export class ProtocolError extends Error {}

export type HandshakeResult = { ok: true } | { ok: false; error: string };

/** Checks the client's handshake request: only the JSON protocol, version 1, is spoken here. */
export function readHandshake(record: string): HandshakeResult {
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch {
    return { ok: false, error: 'The handshake request is not JSON.' };
  }
  if (!isObject(value) || typeof value.protocol !== 'string' || typeof value.version !== 'number')
    return { ok: false, error: 'The handshake request names no protocol and version.' };
  if (value.protocol !== 'json') return { ok: false, error: `The protocol '${value.protocol}' is not supported.` };
  if (value.version !== 1) return { ok: false, error: `Version ${value.version} of the protocol 'json' is not supported.` };
  return { ok: true };
}

/** The handshake answer: `{}` when accepted, `{ error }` when not. */
export function handshakeResponseFrame(result: HandshakeResult): string {
  return result.ok ? frame({}) : frame({ error: result.error });
}

/** What a message from the client asks of the server. */
export type ClientMessage =
  | { kind: 'ping' }
  | { kind: 'close' }
  /** An invocation of a hub method: this hub has none, so one that waits for an answer gets an error. */
  | { kind: 'invocation'; invocationId?: string }
  | { kind: 'ignored' };

export function readClientMessage(record: string): ClientMessage {
  let value: unknown;
  try {
    value = JSON.parse(record);
  } catch {
    throw new ProtocolError('A message is not JSON.');
  }
  if (!isObject(value) || typeof value.type !== 'number') throw new ProtocolError('A message has no type.');
  switch (value.type) {
    case MessageType.Ping:
      return { kind: 'ping' };
    case MessageType.Close:
      return { kind: 'close' };
    case MessageType.Invocation:
    case MessageType.StreamInvocation:
      return { kind: 'invocation', invocationId: typeof value.invocationId === 'string' ? value.invocationId : undefined };
    default:
      // Stream items, cancellations and the stateful-reconnect acks ask nothing of a hub without methods.
      return { kind: 'ignored' };
  }
}

/** The answer to an invocation that waits for a result: this hub has no methods to call. */
export function unknownMethodFrame(invocationId: string): string {
  return frame({ type: MessageType.Completion, invocationId, error: 'This hub has no methods to invoke.' });
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

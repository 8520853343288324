import type { RealmRecord } from '../realm/realm-record';
import { closeFrame, handshakeResponseFrame, pingFrame, ProtocolError, readClientMessage, readHandshake, RecordReader, unknownMethodFrame } from './protocol';
import type { HubSession } from './session';

// One hub connection: created by negotiate, bound to one transport by its first transport request,
// then the hub protocol (handshake first, then messages). Transports only move text; this class
// decides what it means.

export type TransportKind = 'WebSockets' | 'ServerSentEvents' | 'LongPolling';

/** Where the server's text goes: a WebSocket, an event stream, or the long-polling queue. */
export interface TransportSink {
  write(text: string): void;
  end(): void;
}

export class HubConnection {
  readonly createdAt = Date.now();
  transport: TransportKind | null = null;
  handshaken = false;
  closed = false;
  lastReceivedAt = Date.now();
  lastSentAt = Date.now();
  /** The person's grants per App, read lazily and dropped when the group graph changes. */
  readonly grants = new Map<string, { at: number; grants: Promise<ReadonlySet<string>> }>();
  private sink: TransportSink | null = null;
  private readonly reader = new RecordReader();

  constructor(
    readonly connectionId: string,
    readonly connectionToken: string,
    readonly realm: RealmRecord,
    readonly session: HubSession,
    private readonly onEnded: (connection: HubConnection) => void,
  ) {}

  attach(kind: TransportKind, sink: TransportSink): void {
    this.transport = kind;
    this.sink = sink;
    this.lastReceivedAt = Date.now();
  }

  /** Text from the client: records of the hub protocol, in any pieces. */
  receive(text: string): void {
    if (this.closed) return;
    this.lastReceivedAt = Date.now();
    try {
      for (const record of this.reader.push(text)) {
        if (this.closed) return;
        if (!this.handshaken) {
          const result = readHandshake(record);
          this.write(handshakeResponseFrame(result));
          if (!result.ok) return this.end();
          this.handshaken = true;
          continue;
        }
        const message = readClientMessage(record);
        if (message.kind === 'close') return this.end();
        if (message.kind === 'invocation' && message.invocationId) this.write(unknownMethodFrame(message.invocationId));
      }
    } catch (e) {
      if (e instanceof ProtocolError) return this.close(e.message, false);
      throw e;
    }
  }

  /** A hub message for the client; dropped until the handshake is done (the client cannot read it yet). */
  send(text: string): void {
    if (this.handshaken && !this.closed) this.write(text);
  }

  ping(): void {
    this.send(pingFrame());
  }

  /** Ends the connection with a close message the client reads (error, and whether it may reconnect). */
  close(error?: string, allowReconnect?: boolean): void {
    if (this.closed) return;
    if (this.handshaken) this.write(closeFrame(error, allowReconnect));
    this.end();
  }

  /** Ends the connection without a message (the client said goodbye, or the handshake failed). */
  end(): void {
    if (this.closed) return;
    this.closed = true;
    this.sink?.end();
    this.onEnded(this);
  }

  /** The transport went away underneath (socket closed, stream aborted). */
  transportLost(): void {
    if (this.closed) return;
    this.closed = true;
    this.onEnded(this);
  }

  private write(text: string): void {
    this.lastSentAt = Date.now();
    this.sink?.write(text);
  }
}

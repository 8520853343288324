import type { ServerResponse } from 'node:http';
import type { TransportSink } from './connection';

// The long-polling transport's side of a connection: what the server sends waits in a queue until
// the client's next GET takes it. A poll is held at most POLL_MS and then answered empty (the client
// polls again); once the connection has ended and the queue is drained, a poll is answered 204,
// which the client reads as "closed by the server".

export const POLL_MS = 20_000;
/** Messages a client that stopped polling may leave behind before it is disconnected. */
export const MAX_QUEUED = 1_000;

export class LongPollingSink implements TransportSink {
  private queue: string[] = [];
  private waiting: { res: ServerResponse; timer: NodeJS.Timeout } | null = null;
  private ended = false;

  constructor(private readonly overflow: () => void) {}

  write(text: string): void {
    if (this.queue.length >= MAX_QUEUED) return this.overflow();
    this.queue.push(text);
    this.flush();
  }

  end(): void {
    this.ended = true;
    this.flush();
  }

  /** A GET of the client: answered now when there is something to say, else held. */
  poll(res: ServerResponse): void {
    if (this.waiting) this.answer(200, ''); // one poll at a time: the older one returns empty
    const timer = setTimeout(() => {
      if (this.waiting?.res === res) this.answer(200, '');
    }, POLL_MS);
    timer.unref();
    this.waiting = { res, timer };
    res.on('close', () => {
      if (this.waiting?.res === res) {
        clearTimeout(timer);
        this.waiting = null;
      }
    });
    this.flush();
  }

  private flush(): void {
    if (!this.waiting) return;
    if (this.queue.length) {
      const body = this.queue.join('');
      this.queue = [];
      this.answer(200, body);
    } else if (this.ended) this.answer(204, '');
  }

  private answer(status: number, body: string): void {
    const waiting = this.waiting;
    if (!waiting) return;
    this.waiting = null;
    clearTimeout(waiting.timer);
    if (status === 204) waiting.res.writeHead(204, { 'cache-control': 'no-store' }).end();
    else
      waiting.res
        .writeHead(status, { 'content-type': 'text/plain; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(body) })
        .end(body);
  }
}

import { generate } from 'otplib';

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * An authenticator app for the HTTP and browser tests. The server accepts the codes of the
 * previous, current and next 30-second step, each once and never one older than the last it
 * accepted (replay guard). `code()` hands out the oldest step still acceptable after the last one
 * used, so that three codes fit in one step. The previous step's code lapses when the current step
 * ends, and a request (or a browser's typing and click) can take seconds on a loaded machine: near
 * that end it is passed over for the current step's.
 */
export class TotpDevice {
  last = -Infinity;
  constructor(readonly key: string) {}

  static step(): number {
    return Math.floor(Date.now() / 30_000);
  }

  async codeAt(step: number): Promise<string> {
    return generate({ secret: this.key.replace(/\s+/g, ''), epoch: step * 30 });
  }

  /** A code the server accepts now (the caller uses it at once). */
  async code(): Promise<string> {
    for (;;) {
      const now = TotpDevice.step();
      const msLeft = 30_000 - (Date.now() % 30_000);
      let step = Math.max(now - 1, this.last + 1);
      if (step === now - 1 && msLeft < 8_000) step = now;
      // Two steps ahead is never accepted: wait for the clock.
      if (step > now + 1) {
        await sleep(msLeft + 200);
        continue;
      }
      this.last = step;
      return this.codeAt(step);
    }
  }

  /** The last code used again (a replay). */
  async replay(): Promise<string> {
    return this.codeAt(this.last);
  }
}

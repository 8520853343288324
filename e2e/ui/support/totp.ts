import { generate } from 'otplib';

/**
 * An authenticator app for the browser tests. The server accepts the codes of the previous,
 * current and next 30-second step, each once and never one older than the last it accepted.
 * `code()` hands out the oldest step still acceptable after the last one used, so that three codes
 * fit in one step. The previous step's code lapses when the current step ends, and a browser step
 * (typing, a click, the request) can take seconds on a loaded machine: near that end it is passed
 * over for the current step's.
 */
export class TotpDevice {
  private last = -Infinity;
  constructor(readonly key: string) {}

  async code(): Promise<string> {
    for (;;) {
      const now = Math.floor(Date.now() / 30_000);
      const msLeft = 30_000 - (Date.now() % 30_000);
      let step = Math.max(now - 1, this.last + 1);
      if (step === now - 1 && msLeft < 8_000) step = now;
      // Two steps ahead is never accepted: wait for the clock.
      if (step > now + 1) {
        await new Promise((r) => setTimeout(r, msLeft + 200));
        continue;
      }
      this.last = step;
      return generate({ secret: this.key.replace(/\s+/g, ''), epoch: step * 30 });
    }
  }
}

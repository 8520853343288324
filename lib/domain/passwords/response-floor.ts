// Anti-enumeration (spec 5.6): forgot-password answers the same whether or not the mailbox has an
// account, and it must take the same time too. Rather than guess how long the real path takes and
// sleep that long on the other one, both paths wait until a fixed floor after they started, with a
// little jitter so the floor itself cannot be subtracted. The real path's work (a token write and
// handing the mail to the transport) fits well inside the floor; the mail is not awaited past it.

export const RESPONSE_FLOOR_MS = 500;
export const RESPONSE_JITTER_MS = 25;

export type FloorOptions = {
  floorMs?: number;
  /** The deadline lands uniformly within ±jitterMs of the floor. */
  jitterMs?: number;
  now?: () => number;
  random?: () => number;
  sleep?: (ms: number) => Promise<void>;
};

export type ResponseFloor = {
  /** Milliseconds after the start at which `wait()` returns. */
  readonly targetMs: number;
  /** Resolves once the floor has passed (at once when it already has). */
  wait(): Promise<void>;
};

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Starts the clock now; `wait()` pads whatever happened since up to the floor. */
export function startResponseFloor(options: FloorOptions = {}): ResponseFloor {
  const now = options.now ?? Date.now;
  const random = options.random ?? Math.random;
  const sleep = options.sleep ?? defaultSleep;
  const floor = options.floorMs ?? RESPONSE_FLOOR_MS;
  const jitter = options.jitterMs ?? RESPONSE_JITTER_MS;
  const started = now();
  const targetMs = Math.max(0, floor + (random() * 2 - 1) * jitter);
  return {
    targetMs,
    async wait() {
      const remaining = started + targetMs - now();
      if (remaining > 0) await sleep(remaining);
    },
  };
}

/** Runs `work`, then waits for the floor, whether `work` returned or threw. */
export async function withResponseFloor<T>(work: () => Promise<T>, options: FloorOptions = {}): Promise<T> {
  const floor = startResponseFloor(options);
  try {
    return await work();
  } finally {
    await floor.wait();
  }
}

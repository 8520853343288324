import { randomInt } from 'node:crypto';
import { shared } from '../../runtime/shared';

// Anti-enumeration by time (spec 5.6): the answer to "send a code / a link / a reset to this address" must
// take as long whether or not an account has the address. Both paths do the same database work as
// far as possible, and both are padded to one target duration: a floor (400 ms) or, when the real
// path has lately been slower, a margin above its measured median — plus random jitter drawn the
// same way on both paths. The mail itself is sent beside the wait, never inside the measured work.

const UNIFORM_FLOOR_MS = 400;
const UNIFORM_JITTER_MS = 60;
const CEILING_MS = 5_000;
const MARGIN = 1.5;
const WINDOW = 16;

// The last real-path durations per operation. Their median (robust to one slow outlier, such as a
// cold database connection) times a margin becomes the target when it exceeds the floor.
type Tracker = { recent: Map<string, number[]> };

function tracker(): Tracker {
  return shared('uniform-duration', () => ({ recent: new Map<string, number[]>() }));
}

function median(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? s[mid] : (s[mid - 1] + s[mid]) / 2;
}

/** The duration every call of `name` is padded to (before jitter). */
export function uniformTarget(name: string, floorMs = UNIFORM_FLOOR_MS): number {
  const recent = tracker().recent.get(name);
  const typical = recent?.length ? median(recent) * MARGIN : 0;
  return Math.min(CEILING_MS, Math.max(floorMs, typical));
}

function observe(name: string, ms: number): void {
  const t = tracker();
  const recent = t.recent.get(name) ?? [];
  recent.push(ms);
  if (recent.length > WINDOW) recent.shift();
  t.recent.set(name, recent);
}

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs `work` and answers no sooner than the target duration, on success and on failure alike.
 * `work` says whether it took the real path (an account exists); only those durations are measured.
 */
export async function withUniformDuration<T>(
  name: string,
  work: () => Promise<{ value: T; real: boolean }>,
  options: { floorMs?: number; jitterMs?: number } = {},
): Promise<T> {
  const started = performance.now();
  const target = uniformTarget(name, options.floorMs) + randomInt(0, (options.jitterMs ?? UNIFORM_JITTER_MS) + 1);
  try {
    const { value, real } = await work();
    if (real) observe(name, performance.now() - started);
    return value;
  } finally {
    // Timers may fire a little early by this clock: wait until the target has really passed.
    for (let left = target - (performance.now() - started); left > 0; left = target - (performance.now() - started)) await sleep(Math.ceil(left));
  }
}

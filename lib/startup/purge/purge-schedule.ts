import { settings } from '../../config/env';
import { logError, logInfo } from '../../log/logger';
import { withPurgeLock } from './purge-lock';
import { purgeExpiredRows } from './purge-pass';

// The purge job's timer in the server process (server.ts starts and stops it). Each pass is
// scheduled when the previous one ends, so passes never overlap; the timer is unref'd, so it never
// keeps the process alive; stop() lets a running pass end at its next batch and waits for it.
// GATEHOUSE_PURGE_INTERVAL_SECONDS sets the period; 0 turns the job off.
const FIRST_PASS_DELAY_MS = 60_000; // not during start-up, when the first requests arrive

export type PurgeSchedule = { stop(): Promise<void> };

export function startPurgeSchedule(intervalMs = settings().purgeIntervalSeconds * 1000): PurgeSchedule {
  if (intervalMs <= 0) return { stop: async () => {} };
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;

  async function pass(): Promise<void> {
    const started = Date.now();
    const run = await withPurgeLock(() => purgeExpiredRows({ stopped: () => stopped }));
    if (!run.ran) return; // another instance is purging
    const { deleted, platformAudit, realms, failed } = run.value;
    if (Object.values(deleted).some((n) => n > 0) || platformAudit > 0 || failed > 0)
      logInfo('expired rows purged', { ...deleted, platformAudit, realms, failed, ms: Date.now() - started });
  }

  function schedule(delayMs: number): void {
    timer = setTimeout(() => {
      running = pass()
        .catch((e: unknown) => logError('purge of expired rows failed', e))
        .finally(() => {
          running = undefined;
          if (!stopped) schedule(intervalMs);
        });
    }, delayMs);
    timer.unref();
  }

  schedule(Math.min(intervalMs, FIRST_PASS_DELAY_MS));
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}

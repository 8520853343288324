import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './launch-server';

// The data export (issue 11, lib/domain/privacy/export-archive.ts): the ZIP of a person with many
// security-log entries, built by the product's own code in a process of its own (export-worker.ts;
// the realm is seeded by another), so its resident set size is the export's and nothing else's.
// Time is from the first read to the last byte; RSS is sampled while the archive is written.

export type ExportMeasurement = { entries: number; heapCapMiB?: number; bytes: number; ms: number; baselineMiB: number; peakMiB: number };

/**
 * The old-space ceiling of the capped run: far below what the log would take in memory at once, so
 * the export finishing under it shows that it holds a page at a time (the uncapped RSS growth is
 * mostly garbage V8 has not collected yet).
 */
export const HEAP_CAP_MIB = 48;

function worker(args: string[], heapCapMiB?: number): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--expose-gc', ...(heapCapMiB ? [`--max-old-space-size=${heapCapMiB}`] : []), '--import', 'tsx', join(ROOT, 'benchmarks', 'export-worker.ts'), ...args],
      { cwd: ROOT, timeout: 10 * 60_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`the export worker (${args[0]}) failed: ${stderr || error.message}`));
        try {
          resolve(JSON.parse(stdout.trim().split('\n').pop() ?? '') as Record<string, unknown>);
        } catch {
          reject(new Error(`the export worker (${args[0]}) printed no result: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

/** One export uncapped, and with `capped` also one under HEAP_CAP_MIB, of the same seeded realm. */
export async function measureExport(tmp: string, entries: number, capped = false): Promise<ExportMeasurement[]> {
  const dataDir = mkdtempSync(join(tmp, 'export-'));
  try {
    const seeded = await worker(['seed', dataDir, String(entries)]);
    const args = ['export', dataDir, String(seeded.database), String(seeded.warmId), String(seeded.userId)];
    const runs: ExportMeasurement[] = [{ entries, ...((await worker(args)) as Omit<ExportMeasurement, 'entries'>) }];
    if (capped) runs.push({ entries, heapCapMiB: HEAP_CAP_MIB, ...((await worker(args, HEAP_CAP_MIB)) as Omit<ExportMeasurement, 'entries'>) });
    return runs;
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

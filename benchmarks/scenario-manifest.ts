import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './launch-server';

// Realm manifests (issue 12, lib/domain/manifests/): plan and apply of a large manifest into an empty
// realm and into one that already matches it (which must be a fast no-op), and export, measured by
// manifest-worker.ts in a process of its own on a temporary SQLite realm.

export type ManifestSizes = { apps: number; roles: number; groups: number; clients: number };
export type ManifestMeasurement = ManifestSizes & {
  items: number;
  secrets: number;
  unchanged: number;
  exportBytes: number;
  planEmptyMs: number;
  applyEmptyMs: number;
  planMatchMs: number;
  applyMatchMs: number;
  exportMs: number;
};

export const MANIFEST_SIZES: ManifestSizes = { apps: 50, roles: 500, groups: 500, clients: 200 };

export function measureManifest(sizes: ManifestSizes = MANIFEST_SIZES): Promise<ManifestMeasurement> {
  const args = [sizes.apps, sizes.roles, sizes.groups, sizes.clients].map(String);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      ['--import', 'tsx', join(ROOT, 'benchmarks', 'manifest-worker.ts'), ...args],
      { cwd: ROOT, timeout: 10 * 60_000, maxBuffer: 1 << 20 },
      (error, stdout, stderr) => {
        if (error) return reject(new Error(`the manifest worker failed: ${stderr || error.message}`));
        try {
          resolve({ ...sizes, ...(JSON.parse(stdout.trim().split('\n').pop() ?? '') as Omit<ManifestMeasurement, keyof ManifestSizes>) });
        } catch {
          reject(new Error(`the manifest worker printed no result: ${stdout}\n${stderr}`));
        }
      },
    );
  });
}

import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './server-process';

// `npx gatehouse ...` with a server's environment. The bin script is run with node directly: npx
// would look the name up on the registry when the package is not linked.
export type CliResult = { code: number; stdout: string; stderr: string };

/** Runs the CLI in `cwd` (the repository unless given: where `./gatehouse.key` and `./data` are looked for). */
export function runCli(env: Record<string, string>, args: string[], timeoutMs = 120_000, cwd = repoRoot): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [join(repoRoot, 'bin', 'gatehouse.mjs'), ...args],
      { cwd, env: env as NodeJS.ProcessEnv, timeout: timeoutMs, maxBuffer: 4 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === 'number' ? error.code : 1) : 0;
        resolve({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** The last non-empty line of the CLI's stdout (where `recover bootstrap-admin` prints the URL). */
export function lastLine(stdout: string): string {
  const lines = stdout
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return lines[lines.length - 1] ?? '';
}

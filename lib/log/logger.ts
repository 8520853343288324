import { settings } from '../config/env';

// Minimal structured logging to stdout/stderr: one JSON line per event. Callers must never pass
// secrets, tokens or passwords; errors are reduced to name, message and stack.
type Fields = Record<string, unknown>;

function line(level: 'info' | 'warn' | 'error', msg: string, fields?: Fields): string {
  return JSON.stringify({ time: new Date().toISOString(), level, msg, ...fields });
}

export function logInfo(msg: string, fields?: Fields): void {
  if (settings().logQuiet) return;
  process.stdout.write(line('info', msg, fields) + '\n');
}

export function logWarn(msg: string, fields?: Fields): void {
  process.stderr.write(line('warn', msg, fields) + '\n');
}

export function logError(msg: string, error: unknown, fields?: Fields): void {
  const err = error instanceof Error ? { name: error.name, message: error.message, stack: error.stack } : { value: String(error) };
  process.stderr.write(line('error', msg, { ...fields, error: err }) + '\n');
}

// A small, strict argv parser: `--name value` and `--flag` only, unknown options refused.
export type Parsed = { positional: string[]; options: Record<string, string | true> };

export function parseArgs(argv: string[], known: ReadonlySet<string>): Parsed {
  const positional: string[] = [];
  const options: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) {
      positional.push(a);
      continue;
    }
    const eq = a.indexOf('=');
    const name = a.slice(2, eq > 0 ? eq : undefined);
    if (!known.has(name)) throw new Error(`unknown option --${name}`);
    if (eq > 0) options[name] = a.slice(eq + 1);
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) options[name] = argv[++i];
    else options[name] = true;
  }
  return { positional, options };
}

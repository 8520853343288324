// A realm's public origin (CONTRACT.md "Running it"): `<scheme>://<host>[:<port>]`, the port left out
// when it is the scheme's default. Pure, so the console builds the same URLs the server writes
// (the realm page shows the sign-in address) from the scheme and port the page hands it.

export type PublicBase = { scheme: 'http' | 'https'; port: number };

export function originOf(base: PublicBase, host: string): string {
  const defaultPort = base.scheme === 'https' ? 443 : 80;
  return `${base.scheme}://${host}${base.port === defaultPort ? '' : `:${base.port}`}`;
}

// Paths served by handlers that server.ts dispatches to directly, outside Next (docs/architecture.md
// "One process, four doors"). Declared once: the OAuth provider config and the dispatcher use it.
export const HEALTH_PATHS = new Set(['/health', '/health/ready']);

export function isOAuthEnginePath(pathname: string): boolean {
  return pathname.startsWith('/connect/') || pathname === '/connect' || pathname.startsWith('/.well-known/');
}

export function isRealtimePath(pathname: string): boolean {
  return pathname.startsWith('/signalr/');
}

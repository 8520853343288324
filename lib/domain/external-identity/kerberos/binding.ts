import { shared } from '@/lib/runtime/shared';

// The `kerberos` package (MongoDB's GSSAPI binding) is an optional dependency: its install builds
// against libkrb5-dev, and where that fails npm leaves it out. So it is loaded on first use, never at
// start-up, and a missing or unloadable package becomes a reason the Kerberos flavor shows instead of
// a crash. The specifier is a variable and the import carries the bundlers' ignore comments, so
// neither Next nor esbuild tries to bundle a native module that may not exist, and the type check
// does not depend on it being installed: the few members used are typed here.

/** The acceptor side of one GSSAPI context (`initializeServer`). */
export type KerberosServer = {
  step(token: string): Promise<string>;
  /** The authenticated client principal (`gss_display_name`), e.g. alice@EXAMPLE.COM. */
  username: string;
  /** The base64 token to return to the client (mutual authentication), or empty. */
  response: string;
  contextComplete: boolean;
};

/** The initiator side (tests, and anything that signs in to a Kerberos service). */
export type KerberosClient = {
  step(challenge: string): Promise<string>;
  response: string;
  contextComplete: boolean;
};

export type KerberosBinding = {
  /** `service` is a GSS host-based name, `HTTP@host`; the acceptor keytab comes from KRB5_KTNAME. */
  initializeServer(service: string): Promise<KerberosServer>;
  /** The option is `flags` (the package's index.d.ts says `gssFlag`, which its C++ never reads). */
  initializeClient(service: string, options?: { principal?: string; flags?: number; mechOID?: number }): Promise<KerberosClient>;
  GSS_C_MUTUAL_FLAG: number;
  GSS_MECH_OID_SPNEGO: number;
  GSS_MECH_OID_KRB5: number;
};

export type LoadedBinding = { binding: KerberosBinding } | { reason: string };

/** Loads the package named `specifier` (another name only in tests: the answer when it is missing). */
export async function loadBinding(specifier = 'kerberos'): Promise<LoadedBinding> {
  try {
    const mod = (await import(/* webpackIgnore: true */ /* turbopackIgnore: true */ specifier)) as { default?: KerberosBinding } & KerberosBinding;
    const binding = mod.default ?? mod;
    if (typeof binding.initializeServer !== 'function') return { reason: 'the kerberos package loaded without initializeServer (unexpected version)' };
    return { binding };
  } catch (e) {
    const code = (e as NodeJS.ErrnoException).code;
    if (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND')
      return { reason: 'the optional kerberos package is not installed (it needs libkrb5-dev when npm ci runs)' };
    // The package is there but its native part failed: typically libgssapi_krb5.so.2 is missing at
    // run time (it opens the system's MIT libraries with dlopen).
    return { reason: `the kerberos package cannot load: ${(e as Error).message}` };
  }
}

/** The package, loaded once per process (the promise is shared by server.ts and Next's bundles). */
export function loadKerberosBinding(): Promise<LoadedBinding> {
  return shared('kerberos.binding', () => loadBinding());
}

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and ESM-only server packages stay outside the bundles (one copy, loaded by Node).
  // The external-identity libraries too: the optional GSSAPI binding, QuickJS's WebAssembly, and
  // @peculiar/x509, which needs reflect-metadata loaded before it (an order bundling does not keep).
  serverExternalPackages: [
    '@node-rs/argon2',
    'better-sqlite3',
    'pg',
    'ioredis',
    'rate-limiter-flexible',
    'oidc-provider',
    'openid-client',
    '@node-saml/node-saml',
    '@peculiar/x509',
    'reflect-metadata',
    '@xmldom/xmldom',
    'ldapts',
    'kerberos',
    'quickjs-emscripten',
  ],
  // A separate build folder per development server (GATEHOUSE_NEXT_DIST_DIR=.next-a): Next allows one
  // dev server per folder, and parallel test runs each need their own. Production uses .next.
  distDir: process.env.GATEHOUSE_NEXT_DIST_DIR || '.next',
  // Next rewrites the tsconfig it uses (adding its build folders' types); it gets its own generated
  // copy (scripts/next-tsconfig.mjs) so tsconfig.json stays as committed. `tsc --noEmit` in the
  // test script is the type check, so the build does not run a second one.
  typescript: { tsconfigPath: 'tsconfig.next.json', ignoreBuildErrors: true },
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};
export default nextConfig;

/** @type {import('next').NextConfig} */
const nextConfig = {
  // Native and ESM-only server packages stay outside the bundles (one copy, loaded by Node).
  serverExternalPackages: ['@node-rs/argon2', 'better-sqlite3', 'pg', 'ioredis', 'rate-limiter-flexible', 'oidc-provider'],
  poweredByHeader: false,
  reactStrictMode: true,
  typedRoutes: false,
};
export default nextConfig;

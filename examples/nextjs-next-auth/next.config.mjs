/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  // This folder sits inside the Gatehouse repository, which has a lockfile of its own: without a
  // root, Next would take the repository as the workspace root and warn about it.
  turbopack: { root: import.meta.dirname },
  outputFileTracingRoot: import.meta.dirname,
};

export default nextConfig;

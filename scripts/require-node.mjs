// Gatehouse runs on the Node.js of its `node` dependency (node_modules/.bin/node), which npm scripts
// and npx put first on PATH; the machine's own Node may be older and only runs npm. So the version is
// checked where Gatehouse runs (the CLI, the server), not in package.json `engines`, which npm checks
// against the Node that runs npm and would warn about on every install (README "Install").
const MINIMUM = [24, 11];

/** Exits with a message when this Node is older than the one Gatehouse installs and runs on. */
export function requireGatehouseNode(what) {
  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > MINIMUM[0] || (major === MINIMUM[0] && minor >= MINIMUM[1])) return;
  process.stderr.write(
    `${what} runs on Node.js ${MINIMUM.join('.')} or newer, not ${process.version}: start it through npm (npm start, npx gatehouse), which runs the Node.js 24 that npm ci installed (node_modules/.bin/node).\n`,
  );
  process.exit(1);
}

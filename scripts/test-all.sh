#!/usr/bin/env bash
# The whole test suite (`npm test`): typecheck, lint, unit tests, production build, the HTTP suite against
# the real server on SQLite and on PostgreSQL (+ Redis), the OAuth and sign-in suites on two instances
# behind a round-robin proxy; the browser tests, when they exist, run beside the HTTP suites (their
# own server, port and data directory: they share nothing with them), and their output is shown
# when they end. Stops at the first failing stage. The last line sums the test runners:
# "N passed, N failed".
#
#   SKIP_POSTGRES=1   leave out the PostgreSQL runs of the HTTP suite (one instance and two)
#   SKIP_E2E_UI=1     leave out the Playwright run
set -uo pipefail

cd "$(dirname "$0")/.."
ROOT=$PWD
REPORTS=$(mktemp -d "${TMPDIR:-/tmp}/gatehouse-test-all.XXXXXX")
trap 'rm -rf "$REPORTS"' EXIT
export NEXT_TELEMETRY_DISABLED=1

PASSED=0
FAILED=0
START=$(date +%s)

say() { printf '\n\033[1m== %s\033[0m\n' "$*"; }

summary() {
  local elapsed=$(( $(date +%s) - START ))
  echo
  echo "took $((elapsed / 60))m$((elapsed % 60))s"
  echo "$PASSED passed, $FAILED failed"
}

# The browser tests' process group while they run beside the HTTP suites (see below).
E2E_PGID=""

die() {
  printf '\n\033[31mFAILED: %s\033[0m\n' "$*" >&2
  [ -n "$E2E_PGID" ] && kill -- "-$E2E_PGID" 2>/dev/null
  summary
  exit 1
}

# Adds a vitest JSON report's counts to the totals.
count_vitest() {
  local file=$1
  [ -s "$file" ] || return 0
  local counts
  counts=$(node -e 'const r = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")); console.log(`${r.numPassedTests ?? 0} ${(r.numFailedTests ?? 0)}`)' "$file") || return 0
  PASSED=$((PASSED + ${counts% *}))
  FAILED=$((FAILED + ${counts#* }))
}

# Adds a Playwright JSON report's counts to the totals (flaky tests passed on retry).
count_playwright() {
  local file=$1
  [ -s "$file" ] || return 0
  local counts
  counts=$(node -e 'const s = JSON.parse(require("fs").readFileSync(process.argv[1], "utf8")).stats ?? {}; console.log(`${(s.expected ?? 0) + (s.flaky ?? 0)} ${s.unexpected ?? 0}`)' "$file") || return 0
  PASSED=$((PASSED + ${counts% *}))
  FAILED=$((FAILED + ${counts#* }))
}

as_root() {
  if [ "$(id -u)" = 0 ]; then "$@"; elif command -v sudo >/dev/null; then sudo -n "$@"; else "$@"; fi
}

ensure_postgres() {
  pg_isready -h 127.0.0.1 -q 2>/dev/null && return 0
  command -v pg_ctlcluster >/dev/null || die "PostgreSQL is not running on 127.0.0.1:5432 and pg_ctlcluster is not installed (or set SKIP_POSTGRES=1)"
  local version
  version=$(ls /etc/postgresql 2>/dev/null | sort -V | tail -n 1)
  [ -n "$version" ] || die "PostgreSQL is not running and no cluster exists under /etc/postgresql"
  echo "starting PostgreSQL $version"
  as_root pg_ctlcluster --skip-systemctl-redirect "$version" main start || die "could not start PostgreSQL ($version main)"
  for _ in $(seq 1 30); do pg_isready -h 127.0.0.1 -q && return 0; sleep 1; done
  die "PostgreSQL did not become ready on 127.0.0.1:5432"
}

ensure_redis() {
  [ "$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" = PONG ] && return 0
  command -v redis-server >/dev/null || die "Redis is not running on 127.0.0.1:6379 and redis-server is not installed"
  echo "starting Redis"
  as_root mkdir -p /var/lib/redis /var/log/redis
  as_root redis-server --daemonize yes --bind 127.0.0.1 -::1 --port 6379 --save "" --appendonly no --dir /var/lib/redis --logfile /var/log/redis/ci.log \
    || die "could not start Redis"
  for _ in $(seq 1 30); do [ "$(redis-cli -h 127.0.0.1 ping 2>/dev/null)" = PONG ] && return 0; sleep 1; done
  die "Redis did not answer PING on 127.0.0.1:6379"
}

ensure_chromium() {
  [ -x /usr/bin/chromium ] && return 0
  echo "installing Chromium for the browser tests"
  as_root apt-get update -qq || die "apt-get update failed (needed to install chromium)"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null || die "apt-get install chromium failed"
  [ -x /usr/bin/chromium ] || die "/usr/bin/chromium is still missing after installing chromium"
}

# The real peers the external-identity tests start themselves (issue 10): OpenLDAP's slapd,
# SimpleSAMLphp under `php -S` (with php-xml, which Debian's package does not pull in), an MIT KDC
# with kinit and curl --negotiate, and the GSSAPI headers the optional `kerberos` package builds
# against. Installed like Chromium when missing.
# The optional kerberos package, built in a directory of its own and moved in: an `npm install` in
# the project would reify the whole tree and prune what the `node` dependency installed for itself
# (its platform package: the Node.js binary's headers, mid-build). It needs nothing else at run time.
build_kerberos() {
  local spec tmp
  spec="$(node -p 'require("./package.json").optionalDependencies.kerberos')"
  tmp="$(mktemp -d)"
  printf '{"name":"gatehouse-kerberos-build","private":true,"allowScripts":{"kerberos":true}}' >"$tmp/package.json"
  if (cd "$tmp" && npm install --no-package-lock --no-audit --no-fund --ignore-scripts=false "kerberos@$spec") >"$tmp.log" 2>&1 \
    && [ -f "$tmp/node_modules/kerberos/build/Release/kerberos.node" ]; then
    rm -rf node_modules/kerberos && cp -r "$tmp/node_modules/kerberos" node_modules/kerberos
  else
    tail -20 "$tmp.log"
  fi
  rm -rf "$tmp" "$tmp.log"
}

PEER_PACKAGES="slapd ldap-utils simplesamlphp php-cli php-xml krb5-kdc krb5-admin-server krb5-user libkrb5-dev curl openssl"
ensure_peers() {
  local missing=""
  for p in $PEER_PACKAGES; do dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing="$missing $p"; done
  if [ -n "$missing" ]; then
    echo "installing test peers:$missing"
    as_root apt-get update -qq || die "apt-get update failed (needed to install$missing)"
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $missing >/dev/null || die "apt-get install$missing failed"
  fi
  # npm ci skips the optional kerberos package when the headers were missing at the time: build it now.
  if ! node -e 'require("kerberos")' 2>/dev/null; then
    echo "building the optional kerberos package against libkrb5-dev"
    # `npm rebuild` succeeds doing nothing when npm ci dropped the package altogether: check, then build it.
    npm rebuild kerberos >/dev/null 2>&1 || true
    node -e 'require("kerberos")' 2>/dev/null || build_kerberos
    node -e 'require("kerberos")' 2>/dev/null || die "the kerberos package cannot load (GSSAPI); see docs/environment.md, Kerberos"
  fi
  echo "test peers ready: $PEER_PACKAGES"
}

[ -d node_modules ] || die "node_modules is missing: run npm ci first"
# Native addons built here (the optional kerberos package below) must match the Node.js the suite runs
# on, the `node` dependency's (scripts/native-addons.mjs), not the one npm was installed with.
NODE_HEADERS="$PWD/node_modules/node/node_modules/node-$(node -p 'process.platform + "-" + process.arch')"
[ -f "$NODE_HEADERS/include/node/node_version.h" ] && export npm_config_nodedir="$NODE_HEADERS"
echo "Node.js $(node --version) ($(command -v node))"

say "services"
if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  ensure_postgres
  ensure_redis
  echo "PostgreSQL and Redis are up"
else
  echo "SKIP_POSTGRES=1: the HTTP suite runs on SQLite only"
fi

ensure_peers

say "typecheck (tsc --noEmit)"
npx tsc --noEmit || die "typecheck"

say "lint (eslint: types, layers, data access; prettier --check)"
npm run lint || die "lint"

say "unit tests"
npx vitest run --project unit --reporter=default --reporter=json --outputFile="$REPORTS/unit.json"
status=$?
count_vitest "$REPORTS/unit.json"
[ $status = 0 ] || die "unit tests"

say "production build"
npm run build || die "npm run build"

# The browser tests mostly wait (on Chromium, on the server's answers), as do the HTTP suites, so
# they run beside them: on a slow 2-core machine the PostgreSQL suite and the browser tests took
# 10.5 minutes side by side against 18 one after the other. Their own session (setsid, whose pid is
# then the group's), so that a failing stage stops all of their processes.
if [ -f playwright.config.ts ] && [ "${SKIP_E2E_UI:-0}" != 1 ]; then
  say "browser tests (Playwright): started beside the HTTP suites, shown when they end"
  ensure_chromium
  PLAYWRIGHT_JSON_OUTPUT_NAME="$REPORTS/playwright.json" setsid npx playwright test --reporter=list,json >"$REPORTS/playwright.log" 2>&1 &
  E2E_PGID=$!
fi

say "HTTP suite on SQLite"
GATEHOUSE_TEST_SERVER=prod GATEHOUSE_TEST_DB=sqlite \
  npx vitest run --project 'api*' --reporter=default --reporter=json --outputFile="$REPORTS/api-sqlite.json"
status=$?
count_vitest "$REPORTS/api-sqlite.json"
[ $status = 0 ] || die "HTTP suite on SQLite"

if [ "${SKIP_POSTGRES:-0}" != 1 ]; then
  say "HTTP suite on PostgreSQL (+ Redis)"
  GATEHOUSE_TEST_SERVER=prod GATEHOUSE_TEST_DB=postgres \
    npx vitest run --project 'api*' --reporter=default --reporter=json --outputFile="$REPORTS/api-postgres.json"
  status=$?
  count_vitest "$REPORTS/api-postgres.json"
  [ $status = 0 ] || die "HTTP suite on PostgreSQL"

  # Several instances behave as one (issue 14): the OAuth and sign-in suites against two instances on
  # one PostgreSQL store and one Redis, behind a round-robin proxy, so consecutive requests of a test
  # land on different instances (sessions, rate limits, cache changes, refresh-token reuse).
  say "OAuth and sign-in suites on two instances behind a round-robin proxy (PostgreSQL + Redis)"
  GATEHOUSE_TEST_SERVER=prod GATEHOUSE_TEST_DB=postgres GATEHOUSE_TEST_INSTANCES=2 \
    npx vitest run --project 'api*' --reporter=default --reporter=json --outputFile="$REPORTS/api-pair.json" \
    e2e/api/oauth e2e/api/account e2e/api/mfa e2e/api/email-otp e2e/api/magic-link e2e/api/passkeys e2e/api/passwords e2e/api/external-identity
  status=$?
  count_vitest "$REPORTS/api-pair.json"
  [ $status = 0 ] || die "OAuth and sign-in suites on two instances"
fi

if [ -n "$E2E_PGID" ]; then
  say "browser tests (Playwright)"
  wait "$E2E_PGID"
  status=$?
  E2E_PGID=""
  cat "$REPORTS/playwright.log"
  [ -s "$REPORTS/playwright.json" ] || die "browser tests: Playwright wrote no report"
  count_playwright "$REPORTS/playwright.json"
  [ $status = 0 ] || die "browser tests"
else
  say "browser tests: none to run (no playwright.config.ts, or SKIP_E2E_UI=1)"
fi

cd "$ROOT"
printf '\n\033[32mall stages passed\033[0m\n'
summary

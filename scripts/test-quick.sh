#!/usr/bin/env bash
# The inner loop (`npm run test:quick`): typecheck, lint, the unit tests, and the HTTP test folders
# this branch touches (e2e/api/<folder>/ with a changed file, compared with main, uncommitted
# changes included) on SQLite, against the production build when it is newer than the code, else
# the development server. `npm test` remains the whole suite.
#
#   QUICK_API="e2e/api/users e2e/api/groups"   run these HTTP folders instead of the touched ones
set -uo pipefail
cd "$(dirname "$0")/.."

step() { printf '\n\033[1m== %s\033[0m\n' "$*"; }
fail() { printf '\n\033[31mFAILED: %s\033[0m\n' "$*" >&2; exit 1; }

step "typecheck"
npx tsc --noEmit || fail "typecheck"

if npm run | grep -q '^  lint$'; then
  step "lint"
  npm run --silent lint || fail "lint"
fi

step "unit tests"
npx vitest run --project unit || fail "unit tests"

base=$(git merge-base HEAD main 2>/dev/null || git rev-parse HEAD)
folders=${QUICK_API:-$( { git diff --name-only "$base"; git ls-files --others --exclude-standard; } | sed -n 's#^\(e2e/api/[^/]*\)/.*#\1#p' | grep -v '^e2e/api/support$' | sort -u | tr '\n' ' ')}
if [ -z "${folders// /}" ]; then
  step "HTTP tests: no e2e/api folder touched (QUICK_API=... to pick some)"
  exit 0
fi
# A production build older than the code would test stale code: use the development server then.
if [ -f .next/BUILD_ID ] && [ -z "$(find app lib components server.ts -newer .next/BUILD_ID -name '*.ts*' -print -quit 2>/dev/null)" ]; then
  export GATEHOUSE_TEST_SERVER=prod
else
  export GATEHOUSE_TEST_SERVER=dev GATEHOUSE_NEXT_DIST_DIR=${GATEHOUSE_NEXT_DIST_DIR:-.next-quick}
fi
step "HTTP tests ($GATEHOUSE_TEST_SERVER server, SQLite): $folders"
# shellcheck disable=SC2086
npx vitest run --project 'api*' $folders || fail "HTTP tests"

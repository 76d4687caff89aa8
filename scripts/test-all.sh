#!/usr/bin/env bash
# Quick start, step 2: install what the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1 FORCE_COLOR=0
bash scripts/install-system-deps.sh
source scripts/node-runtime.sh
bash scripts/install.sh

# Each step's line says when it started (seconds since the start, installation included).
step() { echo "== [$((SECONDS / 60))m$((SECONDS % 60))s] $*"; }

step "lint and format check (ESLint, Prettier)"
npm run lint

logs=$(mktemp -d)
admin_build=""
# A failed step ends the script: the background admin build (its own process group) goes too
# (the plain kill: in case it fails so early that the group does not exist yet).
trap '[ -z "$admin_build" ] || kill -- "-$admin_build" 2>/dev/null || kill "$admin_build" 2>/dev/null; rm -rf "$logs"' EXIT

# The Strapi admin UI (cms/build: about 50 s of CPU on a clean checkout) is needed by one
# end-to-end spec only (tests/e2e/admin-button.spec.ts; every other test runs Strapi without
# it). It is built once, here, in the background at the lowest CPU priority, so it takes the
# CPU the steps below leave idle instead of adding its time to the run; the end-to-end set-up
# finds it current and skips it.
step "CMS admin panel build started in the background"
setsid nice -n 19 node_modules/.bin/tsx tests/support/ensure-admin-build.ts "$logs/cms-admin-build.log" \
  >"$logs/admin-build.out" 2>&1 &
admin_build=$!

step "typecheck"
npm run typecheck
step "production build (the integration and end-to-end tests run it)"
npm run build
step "CMS unit tests (node --test)"
npm test --prefix cms 2>&1 | tee "$logs/cms.log"
step "unit and integration tests (vitest)"
# Every Strapi start is counted, one line each (tests/support/cms-server.ts): a figure timing noise cannot blur.
TEST_CMS_START_LOG="$logs/cms-starts-vitest" npm test 2>&1 | tee "$logs/vitest.log"
step "CMS admin panel build (waiting for it)"
waited=$SECONDS
# Nothing else runs now: back to normal priority (allowed for root; otherwise it stays niced).
renice -n 0 -g "$admin_build" >/dev/null 2>&1 || true
if ! wait "$admin_build"; then
  admin_build=""
  cat "$logs/admin-build.out"
  exit 1
fi
admin_build=""
echo "$(cat "$logs/admin-build.out") (waited $((SECONDS - waited)) s for it)"
step "end-to-end tests (Playwright, Chromium, JavaScript on and off)"
# The site was built above and nothing since changed it: the end-to-end set-up skips its build.
E2E_SITE_BUILT=1 TEST_CMS_START_LOG="$logs/cms-starts-e2e" npm run test:e2e 2>&1 | tee "$logs/e2e.log"

# One closing line for the whole run (each runner above fails the script on its own).
# node --test's closing lines: "ℹ pass N" (spec reporter, Node 22+) or "# pass N" (TAP).
cms=$(grep -aoE '^(ℹ|#) pass [0-9]+' "$logs/cms.log" | awk '{s+=$3} END {print s+0}')
unit=$(grep -oE 'Tests +[0-9]+ passed' "$logs/vitest.log" | grep -oE '[0-9]+' | tail -1)
e2e=$(grep -oE '^ +[0-9]+ passed' "$logs/e2e.log" | grep -oE '[0-9]+' | tail -1)
starts() { sort "$@" 2>/dev/null | uniq -c | awk '{n=$1; $1=""; printf "%s%d%s", (NR>1?", ":""), n, $0} END {if (!NR) printf "none"}'; }
echo "Strapi starts: vitest $(cat "$logs/cms-starts-vitest" 2>/dev/null | wc -l) ($(starts "$logs/cms-starts-vitest")), end-to-end $(cat "$logs/cms-starts-e2e" 2>/dev/null | wc -l) ($(starts "$logs/cms-starts-e2e"))"
echo "$((cms + ${unit:-0} + ${e2e:-0})) passed, 0 failed, in $((SECONDS / 60))m$((SECONDS % 60))s"

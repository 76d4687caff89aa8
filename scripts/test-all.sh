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

logs=$(mktemp -d)
admin_build=""
declare -A beside=()
# A failed step ends the script: what runs in the background (each in its own process group) goes
# too (the plain kill: in case it fails so early that the group does not exist yet).
stop_background() {
  for pid in $admin_build "${beside[@]}"; do kill -- "-$pid" 2>/dev/null || kill "$pid" 2>/dev/null || true; done
}
trap 'stop_background; rm -rf "$logs"' EXIT

# Two steps that each keep one core busy run side by side (this machine kind has two): the second
# starts in the background (its output to a file, printed when it is waited for) while the first
# runs in the foreground. Neither writes what the other reads.
start_beside() { # key, what, command...
  local key=$1 what=$2
  shift 2
  step "$what: started beside the next step"
  setsid --wait "$@" >"$logs/$key.log" 2>&1 &
  beside[$key]=$!
}
finish_beside() { # key, what
  local key=$1 what=$2 status=0
  step "$what (waiting for it)"
  wait "${beside[$key]}" || status=$?
  unset "beside[$key]"
  cat "$logs/$key.log"
  if [ "$status" != 0 ]; then
    echo "$what failed (exit status $status)"
    exit "$status"
  fi
}

# ESLint and Prettier (one core) beside the typecheck and the build (one core; they write only
# build/ and .react-router/, which lint ignores). Lint ends before the admin build and the CMS's
# tests start: they write files in cms/ while they run.
start_beside lint "lint and format check (ESLint, Prettier)" npm run lint
step "typecheck"
npm run typecheck
step "production build (the integration and end-to-end tests run it)"
npm run build
finish_beside lint "lint and format check (ESLint, Prettier)"

# The Strapi admin UI (cms/build: about 50 s of CPU on a clean checkout) is needed by one
# end-to-end spec only (tests/e2e/admin-button.spec.ts; every other test runs Strapi without
# it). It is built once, here, in the background at the lowest CPU priority, so it takes the
# CPU the steps below leave idle instead of adding its time to the run; the end-to-end set-up
# finds it current and skips it.
step "CMS admin panel build started in the background"
setsid nice -n 19 node_modules/.bin/tsx tests/support/ensure-admin-build.ts "$logs/cms-admin-build.log" \
  >"$logs/admin-build.out" 2>&1 &
admin_build=$!

# The CMS's own tests (node --test, one file after another: about one core) beside the site's
# unit tests (vitest, no services). Both use no network service of the other's and write only
# temporary folders.
start_beside cms "CMS unit tests (node --test)" npm test --prefix cms
step "unit tests (vitest)"
npm run test:unit 2>&1 | tee "$logs/unit.log"
finish_beside cms "CMS unit tests (node --test)"
step "integration tests (vitest)"
# Alone on the machine: real Strapi, the built site, Redis, Varnish, PostgreSQL; two files at a time,
# then the files that must run alone one at a time (vitest.config.ts, tests/support/integration-groups.ts).
# Every Strapi start is counted, one line each (tests/support/cms-server.ts): a figure timing noise cannot blur.
TEST_CMS_START_LOG="$logs/cms-starts-vitest" npx vitest run --project 'integration-*' 2>&1 | tee "$logs/vitest.log"
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
unit=$(cat "$logs/unit.log" "$logs/vitest.log" | grep -oE 'Tests +[0-9]+ passed' | grep -oE '[0-9]+' | awk '{s+=$1} END {print s+0}')
e2e=$(grep -oE '^ +[0-9]+ passed' "$logs/e2e.log" | grep -oE '[0-9]+' | tail -1)
starts() { sort "$@" 2>/dev/null | uniq -c | awk '{n=$1; $1=""; printf "%s%d%s", (NR>1?", ":""), n, $0} END {if (!NR) printf "none"}'; }
echo "Strapi starts: vitest $(cat "$logs/cms-starts-vitest" 2>/dev/null | wc -l) ($(starts "$logs/cms-starts-vitest")), end-to-end $(cat "$logs/cms-starts-e2e" 2>/dev/null | wc -l) ($(starts "$logs/cms-starts-e2e"))"
echo "$((cms + ${unit:-0} + ${e2e:-0})) passed, 0 failed, in $((SECONDS / 60))m$((SECONDS % 60))s"

#!/usr/bin/env bash
# Quick start, step 2: install what the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
export NO_COLOR=1 FORCE_COLOR=0
bash scripts/install-system-deps.sh
bash scripts/install.sh

logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

echo "== typecheck"
npm run typecheck
echo "== production build (the integration and end-to-end tests run it)"
npm run build
echo "== CMS unit tests (node --test)"
npm test --prefix cms 2>&1 | tee "$logs/cms.log"
echo "== unit and integration tests (vitest)"
npm test 2>&1 | tee "$logs/vitest.log"
echo "== end-to-end tests (Playwright, Chromium, JavaScript on and off)"
npm run test:e2e 2>&1 | tee "$logs/e2e.log"

# One closing line for the whole run (each runner above fails the script on its own).
cms=$(grep -oE '^# pass [0-9]+' "$logs/cms.log" | awk '{s+=$3} END {print s+0}')
unit=$(grep -oE 'Tests +[0-9]+ passed' "$logs/vitest.log" | grep -oE '[0-9]+' | tail -1)
e2e=$(grep -oE '^ +[0-9]+ passed' "$logs/e2e.log" | grep -oE '[0-9]+' | tail -1)
echo "$((cms + ${unit:-0} + ${e2e:-0})) passed, 0 failed"

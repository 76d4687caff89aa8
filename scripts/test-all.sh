#!/usr/bin/env bash
# Quick start, step 2: install what the tests need, then run every test.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-system-deps.sh
bash scripts/install.sh

echo "== typecheck"
npm run typecheck
echo "== production build (the integration and end-to-end tests run it)"
npm run build
echo "== CMS unit tests (node --test)"
npm test --prefix cms
echo "== unit and integration tests (vitest)"
npm test
echo "== end-to-end tests (Playwright, Chromium, JavaScript on and off)"
npm run test:e2e

#!/usr/bin/env bash
# Quick start, step 1: install everything, then run the CMS (seeded on first start) and a
# production build of the site with its page cache, revalidated by the CMS on every publish
# (scripts/quickstart.mjs; `node scripts/quickstart.mjs` alone skips the installation).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh
bash scripts/install.sh
exec node scripts/quickstart.mjs

#!/usr/bin/env bash
# Quick start, step 1: install everything, then run the CMS (seeded on first start) and the site.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install.sh
exec npm run dev

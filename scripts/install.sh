#!/usr/bin/env bash
# Installs the site's and the CMS's npm packages exactly as locked.
set -euo pipefail
cd "$(dirname "$0")/.."

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error(`Node >= 20.19 is needed, this is ${process.versions.node}`); process.exit(1) }'
npm ci --no-audit --no-fund
npm ci --no-audit --no-fund --prefix cms

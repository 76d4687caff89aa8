#!/usr/bin/env bash
# Installs the site's and the CMS's npm packages exactly as locked.
set -euo pipefail
cd "$(dirname "$0")/.."

node -e 'const [a,b]=process.versions.node.split(".").map(Number); if (a<20||(a===20&&b<19)) { console.error(`Node >= 20.19 is needed, this is ${process.versions.node}`); process.exit(1) }'
npm ci --no-audit --no-fund
# Not `npm ci` for the CMS: the registry this project uses lacks some other platforms'
# optional binaries (@swc/core-darwin-*, ...), so the lock file cannot list them and `npm ci`
# refuses it. `npm install --no-save` installs exactly the locked versions all the same.
# See docs/decisions/0004-npm-install-quirks.md.
npm install --no-save --no-audit --no-fund --prefix cms

#!/usr/bin/env bash
# Installs the site's and the CMS's npm packages exactly as locked, on a supported Node.js
# (scripts/node-runtime.sh: the machine's when it is 22.22+ or 24, otherwise Node 24 from the
# npm registry).
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/node-runtime.sh

npm ci --no-audit --no-fund
# Not `npm ci` for the CMS: the registry this project uses lacks some other platforms'
# optional binaries (@swc/core-darwin-*, ...), so the lock file cannot list them and `npm ci`
# refuses it. `npm install --no-save` installs exactly the locked versions all the same.
# See docs/decisions/0004-npm-install-quirks.md.
# The CMS's packages from ../packages (@cms-site/*) are installed as copies (cms/.npmrc:
# install-links), which npm does not refresh while their version stays the same: removed first, so
# the CMS always runs them as they are in packages/ (docs/decisions/0047).
rm -rf cms/node_modules/@cms-site
npm install --no-save --no-audit --no-fund --prefix cms

# `npm run` and `npx` put node_modules/.bin first on PATH: with Node 24 linked there, a script
# started later from a shell whose `node` is the machine's old one still runs on Node 24
# (and so does the CMS, whose better-sqlite3 was just compiled for it).
for bin in node_modules/.bin cms/node_modules/.bin; do
  if [ -n "${NODE_RUNTIME_DIR:-}" ]; then
    ln -sfn "$NODE_RUNTIME_DIR/bin/node" "$bin/node"
  else
    rm -f "$bin/node"
  fi
done

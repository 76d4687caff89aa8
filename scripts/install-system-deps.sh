#!/usr/bin/env bash
# Installs what the tests need from Debian's packages when it is missing: Chromium for
# the Playwright end-to-end tests, Varnish for the CDN purge test, Redis for the
# several-instances tests, PostgreSQL for the CMS-on-several-machines test (scripts/postgres.mjs
# starts its own server in a data directory of its own; the package's cluster is left alone),
# Groonga and its stem filter for the site search's Groonga store (tests/support/groonga-server.ts
# starts its own `groonga --protocol http` on a database of its own; groonga-server-http, the
# system service a site runs, is not needed for the tests).
# Needs root (or sudo);
# does nothing when all is there.
set -euo pipefail

missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/sbin/varnishd ] || missing+=(varnish)
[ -x /usr/bin/redis-server ] || missing+=(redis-server)
compgen -G "/usr/lib/postgresql/*/bin/postgres" >/dev/null || missing+=(postgresql)
[ -x /usr/bin/groonga ] || missing+=(groonga-bin)
compgen -G "/usr/lib/*/groonga/plugins/token_filters/stem.so" >/dev/null || missing+=(groonga-token-filter-stem)
[ ${#missing[@]} -eq 0 ] && exit 0

echo "Installing from Debian's packages: ${missing[*]}"
sudo=""
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || { echo "Need root (or sudo) to apt-get install ${missing[*]}" >&2; exit 1; }
  sudo="sudo"
fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"

#!/usr/bin/env bash
# Installs nginx (Debian's package) when it is missing, for the end-to-end test of the http op. The test
# starts its own private nginx on a free loopback port; nothing is started here.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
echo ".ci/nginx.sh: installing nginx" >&2
export DEBIAN_FRONTEND=noninteractive
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
$sudo_ apt-get update -qq >/dev/null
$sudo_ apt-get install -y -qq --no-install-recommends nginx >/dev/null
# the package may start a default server on port 80; the tests do not need it
$sudo_ nginx -s stop >/dev/null 2>&1 || true

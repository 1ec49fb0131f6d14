#!/usr/bin/env bash
# Installs nginx (Debian's package) when it is missing, for the end-to-end test of the http op. The test
# starts its own private nginx on a free loopback port; nothing is started here.
set -euo pipefail
if command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]; then
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install nginx
# the package may start a default server on port 80; the tests do not need it
nginx -s stop >/dev/null 2>&1 || true

#!/usr/bin/env bash
# Installs Prometheus (Debian's package) when it is missing, for the test of pacer's metrics endpoint. The
# test starts its own private server on a free loopback port; the package's own service is stopped.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1 || [ -x /usr/bin/prometheus ]; then
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install prometheus
# the package may start its own server on :9090; the test does not need it
(systemctl stop prometheus || pkill -x prometheus || true) >/dev/null 2>&1

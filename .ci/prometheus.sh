#!/usr/bin/env bash
# Installs Prometheus (Debian's package) when it is missing, for the test of pacer's metrics endpoint. The
# test starts its own private server on a free loopback port; the package's own service is stopped.
set -euo pipefail
if command -v prometheus >/dev/null 2>&1 || [ -x /usr/bin/prometheus ]; then
  exit 0
fi
echo ".ci/prometheus.sh: installing prometheus" >&2
export DEBIAN_FRONTEND=noninteractive
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
$sudo_ apt-get update -qq >/dev/null
$sudo_ apt-get install -y -qq --no-install-recommends prometheus >/dev/null
# the package may start its own server on :9090; the test does not need it
($sudo_ systemctl stop prometheus || $sudo_ pkill -x prometheus || true) >/dev/null 2>&1

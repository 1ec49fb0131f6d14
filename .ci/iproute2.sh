#!/usr/bin/env bash
# Installs iproute2 (Debian's package) when `ip` is missing: the shards-as-hosts test puts each process in its own network namespace.
set -euo pipefail
if command -v ip >/dev/null 2>&1; then
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install iproute2

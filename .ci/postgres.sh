#!/usr/bin/env bash
# Installs PostgreSQL (Debian's package: the server binaries under /usr/lib/postgresql/N/bin and pgbench) when it is
# missing, for the postgres driver's end-to-end tests. Each test makes its own private cluster (initdb in a temp
# folder, run as the package's 'postgres' system user, a free loopback port); the package's default cluster is
# stopped, as nothing uses it.
set -euo pipefail
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 && command -v pgbench >/dev/null 2>&1 \
    && getent passwd postgres >/dev/null 2>&1; then
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install postgresql
# the package may start its default cluster on port 5432; the tests do not need it
if command -v pg_ctlcluster >/dev/null 2>&1; then
  for v in /usr/lib/postgresql/*; do
    pg_ctlcluster "$(basename "$v")" main stop >/dev/null 2>&1 || true
  done
fi

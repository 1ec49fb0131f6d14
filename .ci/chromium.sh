#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing, for the test that renders the plot page headless.
set -euo pipefail
if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install chromium

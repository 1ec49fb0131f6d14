#!/usr/bin/env bash
# Installs Debian's Chromium when it is missing, for the test that renders the plot page headless.
set -euo pipefail
if [ -x /usr/bin/chromium ] || command -v chromium >/dev/null 2>&1; then
  exit 0
fi
echo ".ci/chromium.sh: installing chromium" >&2
export DEBIAN_FRONTEND=noninteractive
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
$sudo_ apt-get update -qq >/dev/null
$sudo_ apt-get install -y -qq --no-install-recommends chromium >/dev/null

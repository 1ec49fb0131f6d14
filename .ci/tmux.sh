#!/usr/bin/env bash
# Installs tmux (Debian's package) when it is missing: the live-view test drives pacer in its pseudo-terminal.
set -euo pipefail
if command -v tmux >/dev/null 2>&1; then
  exit 0
fi
. "$(dirname "$0")/apt.sh"
apt_install tmux

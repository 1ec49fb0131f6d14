#!/usr/bin/env bash
# Installs tmux (Debian's package) when it is missing: the live-view test drives pacer in its pseudo-terminal.
set -euo pipefail
if command -v tmux >/dev/null 2>&1; then
  exit 0
fi
echo ".ci/tmux.sh: installing tmux" >&2
export DEBIAN_FRONTEND=noninteractive
sudo_=""
[ "$(id -u)" -eq 0 ] || sudo_="sudo"
$sudo_ apt-get update -qq >/dev/null
$sudo_ apt-get install -y -qq --no-install-recommends tmux >/dev/null

#!/usr/bin/env bash
# The README's console picture: pacer paces sleep:1ms through a scenario (a warm-up, then 2 000 ops/s) with
# --control; mid-run the rate is changed with the request the page sends (POST /command with its Pacer-Page header,
# so the change is marked 'page'; without the header it would be 'http') and over HTTP as 'pacer control' does
# (POST /rate, marked 'http'), then headless Chromium takes a screenshot of the console page. Writes
# docs/console.png (and docs/console-dark.png, the dark color scheme).
#   benchmarks/console-screenshot.sh        # needs chromium (.ci/chromium.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
port="${CONTROL_PORT:-17070}"
cat > "$dir/console.yaml" <<YAML
phases:
  - {name: warm, duration: 5s, rate: 1000, warmup: true}
  - {name: steady, duration: 55s, rate: 2000}
YAML
./pacer --version >/dev/null
./pacer run "$dir/console.yaml" --threads 8 --op sleep:1ms --control "127.0.0.1:$port" --hlog "$dir/run.hlog" \
  -q --no-console </dev/null >"$dir/pacer.txt" 2>&1 &
pacer_pid=$!
trap 'kill $pacer_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
sleep 14
curl -fsS -X POST -H 'Pacer-Page: 1' --data 'rate 3000' "http://127.0.0.1:$port/command" >/dev/null
sleep 6
curl -fsS -X POST --data '2500' "http://127.0.0.1:$port/rate" >/dev/null
sleep 6
mkdir -p docs
shot() { # scheme file
  chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1500 --timeout=8000 \
    --blink-settings=preferredColorScheme="$1" --user-data-dir="$dir/profile-$1" --screenshot="$PWD/docs/$2" \
    "http://127.0.0.1:$port/" >/dev/null 2>&1
}
shot 1 console.png      # 1: light
shot 0 console-dark.png # 0: dark
echo "wrote docs/console.png and docs/console-dark.png: the console page of a run, mid-run"

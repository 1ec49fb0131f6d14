#!/usr/bin/env bash
# docs/metrics.md's Prometheus picture: pacer paces sleep:1ms at 2 000 ops/s with --metrics for a minute, a private
# Prometheus (Debian's package, native histograms on) scrapes it every second, and headless Chromium takes a
# screenshot of Prometheus's graph page for the response p99 and the op rate. Writes docs/prometheus.png.
#   benchmarks/prometheus-screenshot.sh        # needs prometheus and chromium (.ci/prometheus.sh, .ci/chromium.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
dir="$(mktemp -d)"
mport="${METRICS_PORT:-19464}"; pport="${PROM_PORT:-19090}"
cat > "$dir/prometheus.yml" <<YAML
global:
  scrape_interval: 1s
scrape_configs:
  - job_name: pacer
    static_configs:
      - targets: ["127.0.0.1:$mport"]
YAML
./pacer --version >/dev/null
./pacer run --rate 2000 --threads 8 --op sleep:1ms --duration 70s --metrics "127.0.0.1:$mport" -q --no-console \
  </dev/null >"$dir/pacer.txt" 2>&1 &
pacer_pid=$!
prometheus --config.file="$dir/prometheus.yml" --storage.tsdb.path="$dir/data" --web.listen-address="127.0.0.1:$pport" \
  --enable-feature=native-histograms >"$dir/prometheus.txt" 2>&1 &
prom_pid=$!
trap 'kill $pacer_pid $prom_pid 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
sleep 55
q1='histogram_quantile(0.99, rate(pacer_response_seconds[10s]))'
q2='sum(rate(pacer_ops_total[10s]))'
enc() { python3 -c 'import sys, urllib.parse; print(urllib.parse.quote(sys.argv[1]))' "$1"; }
url="http://127.0.0.1:$pport/graph?g0.expr=$(enc "$q1")&g0.tab=0&g0.range_input=1m&g1.expr=$(enc "$q2")&g1.tab=0&g1.range_input=1m"
mkdir -p docs
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --window-size=1280,1300 --virtual-time-budget=8000 \
  --user-data-dir="$dir/profile" --screenshot="$PWD/docs/prometheus.png" "$url" >/dev/null 2>&1
echo "wrote docs/prometheus.png: $q1 and $q2, scraped every 1 s from pacer --metrics"

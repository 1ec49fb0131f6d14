#!/usr/bin/env bash
# Uniform against Poisson arrivals on short runs with no warm-up phase (issue #25): the README's command, fresh JVM
# each run, against a server of known capacity (benchmarks/CapacityServer.java: 4 workers × 10 ms = 400 req/s) at
# 300 req/s. A metronome never finds all four workers busy, so its response p99 is about the service time; Poisson
# arrivals bunch up and queue, so their tail is longer. Runs alternate uniform, poisson, RUNS times each; prints each
# run's response p50/p90/p99/max and the medians. One run first, not counted, warms the server (not pacer).
# By hand, on a quiet machine:
#   benchmarks/poisson-vs-uniform.sh        # RUNS=5 DURATION=3s RATE=300 PORT=18093
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-5}" DURATION="${DURATION:-3s}" RATE="${RATE:-300}" port="${PORT:-18093}"
./pacer --version >/dev/null   # build once, outside the runs
. bin/jdk.sh && pacer_find_jdk
dir="$(mktemp -d)"
"$JAVA_HOME/bin/java" benchmarks/CapacityServer.java 4 10 "$port" > "$dir/server.txt" 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; wait $server 2>/dev/null; rm -rf "$dir"' EXIT
for _ in $(seq 100); do grep -q listening "$dir/server.txt" 2>/dev/null && break; sleep 0.1; done
# the server's own code is compiled first (one run not counted): each measured pacer run is a fresh JVM
./pacer run --rate "$RATE" --duration 3s --threads 32 --op http --url "http://127.0.0.1:$port/" -q --no-console \
  > /dev/null 2>&1 </dev/null
echo "poisson-vs-uniform $(date -u +%Y-%m-%dT%H:%MZ): $RATE req/s for $DURATION against 4 workers × 10 ms, no warm-up phase, $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg)"
for i in $(seq "$RUNS"); do
  for arrivals in uniform poisson; do
    ./pacer run --rate "$RATE" --duration "$DURATION" --threads 32 --op http --url "http://127.0.0.1:$port/" \
      --arrivals "$arrivals" $( [ "$arrivals" = poisson ] && echo "--seed $i" ) -q --no-console \
      --summary "$dir/$arrivals-$i.json" > /dev/null 2>&1 </dev/null
  done
done
python3 - "$dir" "$RUNS" <<'PY'
import json, statistics, sys
d, runs = sys.argv[1], int(sys.argv[2])
for a in ('uniform', 'poisson'):
    rows = []
    for i in range(1, runs + 1):
        s = json.load(open(f'{d}/{a}-{i}.json'))
        r = s['response']
        rows.append([r['percentiles']['50'] / 1e6, r['percentiles']['90'] / 1e6, r['percentiles']['99'] / 1e6,
                     r['max'] / 1e6, s['ops']])
    for row in rows:
        print(f"  {a:8} p50 {row[0]:6.2f}  p90 {row[1]:6.2f}  p99 {row[2]:6.2f}  max {row[3]:7.2f} ms  ({row[4]} ops)")
    med = [statistics.median(c) for c in zip(*rows)]
    print(f"{a:8} median  p50 {med[0]:6.2f}  p90 {med[1]:6.2f}  p99 {med[2]:6.2f}  max {med[3]:7.2f} ms")
PY

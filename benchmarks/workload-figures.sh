#!/usr/bin/env bash
# Workloads against a local nginx (issue #26), nginx's access log as judge. By hand, on a quiet machine:
#   benchmarks/workload-figures.sh        # RATE=20000 DURATION=20s FAST_RATE=40000 PORT=18091
# 1. exact: `pacer run shop.yaml --rate RATE --duration DURATION` (the 70/25/5 shop of docs/workloads.md: four
#    bindings, a JSON check, a two-step checkout); nginx's log counted by path against RATE × DURATION × weight, and
#    each whole second's cycles (first requests) against RATE;
# 2. shards: the same with --shard i/4 in four processes started together (--start-at), judged the same way;
# 3. as fast as the single op: at FAST_RATE, the workload beside the plain http op on the same nginx location
#    (`--op http --url .../items/{cycle}`), each run's response p99 (its --summary), CPU of a core over the log's whole
#    seconds (/proc/PID/stat) and allocation per request (JFR jdk.ThreadAllocationStatistics over the steady window).
# Client and server share this machine's cores. Needs nginx, python3 and the JDK's jfr.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "workload-figures: needs nginx" >&2; exit 1; }
RATE="${RATE:-20000}" DURATION="${DURATION:-20s}" FAST_RATE="${FAST_RATE:-40000}" port="${PORT:-18091}"
dir="$(mktemp -d)"
. benchmarks/nginx-server.sh
nginx_start "$dir" "$port" \
  "log_format timed '\$msec \$request_method \$uri \$status';
  access_log $dir/access.log timed buffer=256k flush=500ms;" \
  "$SHOP_LOCATIONS"
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
sed "s|^base: .*|base: http://127.0.0.1:$port|" docs/shop.yaml > "$dir/shop.yaml"
./pacer --version >/dev/null   # build once, outside the runs
. bin/jdk.sh && pacer_find_jdk

sample_cpu() { # the process's CPU ticks (utime + stime) every 0.5 s until it exits, into $2; then reaps it
  : > "$2"
  while [ -d "/proc/$1" ]; do
    echo "$(date +%s.%N) $(awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo -)" >> "$2"
    sleep 0.5
  done
  wait "$1" || true
}

judge() { # label: nginx's log against RATE over DURATION, by path and by whole second
  sleep 1.2   # nginx flushes its log buffer
  python3 - "$dir" "$1" "$RATE" "$DURATION" <<'PY'
import sys, collections
d, label, rate, dur = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
secs = float(dur[:-1]) * {'s': 1, 'm': 60}[dur[-1]]
kinds = collections.Counter(); first = []
for line in open(f'{d}/access.log'):
    t, method, uri, status = line.split()
    kind = ('browse' if uri.startswith('/items/') else 'add-to-cart' if uri.endswith('/cart')
            else 'checkout' if uri.endswith('/orders') else 'pay' if uri.endswith('/pay') else 'other ' + status)
    kinds[kind] += 1
    if kind != 'pay':
        first.append(float(t))
want = {'browse': 0.70, 'add-to-cart': 0.25, 'checkout': 0.05, 'pay': 0.05}
per = collections.Counter(int(x) for x in first)
whole = sorted(per)[1:-1]
off = [per[s] / rate - 1 for s in whole]
print(f"| {label:<14} | " + " | ".join(f"{k} {kinds[k]} ({kinds[k] - rate * secs * w:+.0f})" for k, w in want.items())
      + f" | {len(whole)} whole s, cycles/s {min(per[s] for s in whole)}–{max(per[s] for s in whole)}"
      f" (worst {max(abs(x) for x in off) * 100:.2f} %) |" + (f" other: {dict((k, v) for k, v in kinds.items() if k.startswith('other'))}" if any(k.startswith('other') for k in kinds) else ''))
PY
}

echo "workload-figures $(date -u +%Y-%m-%dT%H:%MZ): nginx 1 worker, $(nproc) cores shared with the client, JDK $(pacer_jdk_version "$JAVA_HOME"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo
echo "exact: docs/shop.yaml at $RATE cycles/s for $DURATION; counts by path (difference from rate × duration × weight)"
: > "$dir/access.log"
./pacer run "$dir/shop.yaml" --rate "$RATE" --duration "$DURATION" -q --no-console --summary "$dir/one.json" \
  > "$dir/one.txt" 2>&1 </dev/null || { cat "$dir/one.txt"; exit 1; }
judge "one process"
: > "$dir/access.log"
at="$(date -u -d '+8 seconds' +%Y-%m-%dT%H:%M:%SZ)"
pids=()
for i in 0 1 2 3; do
  ./pacer run "$dir/shop.yaml" --rate "$RATE" --duration "$DURATION" --shard "$i/4" --start-at "$at" -q --no-console \
    > "$dir/shard$i.txt" 2>&1 </dev/null &
  pids+=($!)
done
for p in "${pids[@]}"; do wait "$p" || true; done
judge "four shards"

echo
echo "as fast as the single op: $FAST_RATE req/s for $DURATION, the workload and the plain http op on /items/{cycle}"
fast() { # label, then pacer run's arguments
  local label="$1"; shift
  : > "$dir/access.log"
  PACER_JAVA_OPTS="-Xmx1g -XX:StartFlightRecording=filename=$dir/run.jfr,settings=default,jdk.ThreadAllocationStatistics#period=1s" \
    ./pacer run "$@" --rate "$FAST_RATE" --duration "$DURATION" -q --no-console --summary "$dir/fast.json" \
    > "$dir/fast.txt" 2>&1 </dev/null &
  local pid=$!
  sample_cpu "$pid" "$dir/cpu.txt"
  sleep 1.2
  "$JAVA_HOME/bin/jfr" print --json --events jdk.ThreadAllocationStatistics "$dir/run.jfr" > "$dir/alloc.json"
  python3 - "$dir" "$label" "$(getconf CLK_TCK)" <<'PY'
import sys, json, collections, datetime
d, label, tck = sys.argv[1], sys.argv[2], int(sys.argv[3])
s = json.load(open(f'{d}/fast.json'))
t = sorted(float(l.split()[0]) for l in open(f'{d}/access.log') if l.strip())
per = collections.Counter(int(x) for x in t)
whole = sorted(per)[1:-1]
lo, hi = whole[0], whole[-1] + 1
cpu = [(float(a), int(b)) for a, b in (l.split() for l in open(f'{d}/cpu.txt')) if b != '-']
inside = [x for x in cpu if lo <= x[0] <= hi]
core = (inside[-1][1] - inside[0][1]) / tck / (inside[-1][0] - inside[0][0])
reqs = sum(per[x] for x in whole) / (hi - lo)
ev = json.load(open(f'{d}/alloc.json'))['recording']['events']
def ts(e): return datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')).timestamp()
def total(at):
    last = {}
    for e in ev:
        if ts(e) <= at + 0.01:
            th = e['values']['thread']
            last[th['javaThreadId'] if th else None] = e['values']['allocated']
    return sum(last.values())
times = sorted({ts(e) for e in ev})
a = min(x for x in times if x >= lo + 2); b = max(x for x in times if x <= hi - 1)
alloc = (total(b) - total(a)) / (reqs * (b - a))
r = s['response']
print(f"| {label:<14} | nginx {len(t)} | response p50 {r['percentiles']['50'] / 1e6:.2f} ms, p99 "
      f"{r['percentiles']['99'] / 1e6:.2f} ms, max {r['max'] / 1e6:.1f} ms | CPU {core * 100:.1f} % of a core, "
      f"{core / reqs * 1e6:.1f} µs/request | {alloc:.0f} B/request |")
PY
}
fast "workload" "$dir/shop.yaml"
fast "plain http op" --op http --url "http://127.0.0.1:$port/items/{cycle}" --expect 2xx

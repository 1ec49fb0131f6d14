#!/usr/bin/env bash
# Allocation per request of workload ops against a local nginx, by thread group (issue #26's budgets: 256 B for
# status-only ops, 1 KB with a JSON check). Bytes allocated do not depend on the machine's load, so this may run at
# a low rate on a busy machine:
#   benchmarks/workload-alloc.sh        # RATE=5000 DURATION=12s PORT=18092
# Each case is `pacer run` at RATE for DURATION with JFR's jdk.ThreadAllocationStatistics every second; the bytes
# every thread allocated between the run's second 3 and its second-to-last whole second, divided by the requests
# nginx logged in that window. "run" counts the run's own threads (workers, event loops: the per-request cost),
# "all" every thread of the JVM (the reporter, JFR itself: a fixed cost per second that a higher rate spreads thinner).
#   status   GET /items/{item} with check {status: 200}
#   json     GET /items/{item} with check {status: 200, json: {/id: "{item}"}}
#   shop     docs/shop.yaml (70 % json, 25 % a POST with a body check, 5 % two steps with a save)
#   plain    --op http --url .../items/{cycle} --expect 2xx
# Needs nginx, python3 and the JDK's jfr.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "workload-alloc: needs nginx" >&2; exit 1; }
RATE="${RATE:-5000}" DURATION="${DURATION:-12s}" port="${PORT:-18092}" CASES="${CASES:-status json shop plain}"
dir="$(mktemp -d)"
. benchmarks/nginx-server.sh
nginx_start "$dir" "$port" \
  "log_format timed '\$msec \$request_method \$uri \$status';
  access_log $dir/access.log timed buffer=256k flush=500ms;" \
  "location ~ ^/items/([0-9]+)$ { default_type application/json; return 200 '{\"id\": \$1, \"name\": \"item \$1\"}'; }
    location ~ ^/users/([0-9]+)/cart$ { return 201 'added'; }
    location ~ ^/users/([0-9]+)/orders$ { default_type application/json; return 201 '{\"orderId\": \"o-\$1\"}'; }
    location ~ ^/orders/o-([0-9]+)/pay$ { return 200 'paid'; }
    location / { return 404; }"
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
sed "s|^base: .*|base: http://127.0.0.1:$port|" docs/shop.yaml > "$dir/shop.yaml"
for kind in status json; do
  check='{status: 200}'
  [ "$kind" = json ] && check='{status: 200, json: {/id: "{item}"}}'
  cat > "$dir/$kind.yaml" <<YAML
base: http://127.0.0.1:$port
bindings: {item: "uniform(1, 100000)"}
ops:
  browse: {weight: 1, request: "GET /items/{item}", check: $check}
YAML
done
./pacer --version >/dev/null   # build once, outside the runs
. bin/jdk.sh && pacer_find_jdk

echo "workload-alloc $(date -u +%Y-%m-%dT%H:%MZ) $(git rev-parse --short HEAD): $RATE req/s for $DURATION, JDK" \
  "$(pacer_jdk_version "$JAVA_HOME"), nginx 1 worker; B/request, JFR jdk.ThreadAllocationStatistics"
echo "| case   | requests in window | run's threads | workers | I/O (pacer-http) | all threads |"
echo "|--------|--------------------|---------------|---------|------------------|-------------|"
for c in $CASES; do
  case "$c" in
    plain) args=(--op http --url "http://127.0.0.1:$port/items/{cycle}" --expect 2xx) ;;
    *) args=("$dir/$c.yaml") ;;
  esac
  : > "$dir/access.log"
  PACER_JAVA_OPTS="-Xmx1g -XX:StartFlightRecording=filename=$dir/run.jfr,settings=default,jdk.ThreadAllocationStatistics#period=1s" \
    ./pacer run "${args[@]}" --rate "$RATE" --duration "$DURATION" -q --no-console > "$dir/out.txt" 2>&1 </dev/null \
    || { cat "$dir/out.txt"; exit 1; }
  sleep 1.2   # nginx flushes its log buffer
  "$JAVA_HOME/bin/jfr" print --json --events jdk.ThreadAllocationStatistics "$dir/run.jfr" > "$dir/alloc.json"
  python3 - "$dir" "$c" <<'PY'
import sys, json, collections, datetime
d, label = sys.argv[1], sys.argv[2]
t = sorted(float(l.split()[0]) for l in open(f'{d}/access.log') if l.strip())
per = collections.Counter(int(x) for x in t)
whole = sorted(per)[1:-1]
lo, hi = whole[0], whole[-1] + 1
ev = json.load(open(f'{d}/alloc.json'))['recording']['events']
def ts(e): return datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')).timestamp()
def group(th):
    n = (th or {}).get('javaName') or ''
    if n.startswith('pacer-http'): return 'io'
    if n.startswith('pacer-worker') or n.startswith('pacer-w'): return 'worker'
    return 'other'
def totals(at):
    last = {}
    for e in ev:
        if ts(e) <= at + 0.01:
            th = e['values']['thread']
            last[(th or {}).get('javaThreadId')] = (group(th), e['values']['allocated'])
    out = collections.Counter()
    for g, v in last.values():
        out[g] += v
    return out
times = sorted({ts(e) for e in ev})
a = min(x for x in times if x >= lo + 2); b = max(x for x in times if x <= hi - 1)
reqs = sum(1 for x in t if a <= x < b)
ta, tb = totals(a), totals(b)
g = {k: (tb[k] - ta[k]) / reqs for k in ('worker', 'io', 'other')}
print(f"| {label:<6} | {reqs:>18} | {g['worker'] + g['io']:>13.0f} | {g['worker']:>7.0f} | {g['io']:>16.0f} | "
      f"{sum(g.values()):>11.0f} |")
PY
done

#!/usr/bin/env bash
# What the JIT does after a run's clock starts (issue 25): ROUNDS fresh JVMs each run
#   pacer run --op http --url http://127.0.0.1:PORT/{cycle} --rate RATE --duration DURATION --interval 100ms --csv
# against a private nginx (1 worker, return 200) with a flight recording of every compilation and deoptimisation
# (JFR, threshold 0), and print, per round, those in the run's first WINDOW seconds (from the end of the full
# collection pacer makes just before its clock starts): each deoptimisation (where its trap was and why) and each
# compilation of 1 ms or more, then counts, compile milliseconds (all, and C2's) and the first second's 100 ms
# response p99s; then, over the whole run, the 100 ms intervals in which the JIT compiled for 3 ms or more against
# those in which it hardly did (under 0.5 ms): how many, their median response p99, how many over 3 ms.
# PACER_JAVA_OPTS is passed on (e.g. the JDK's own trap limits: PACER_JAVA_OPTS="-XX:PerMethodTrapLimit=100
# -XX:PerBytecodeTrapLimit=4"); PACER_FLAGS adds pacer flags to each run (e.g. "--hlog run.hlog", as
# benchmarks/http-figures.sh runs pacer; "--jit-priority normal"). Needs nginx, python3 and the JDK's jfr.
#   benchmarks/jit-in-run.sh      # RATE=60000 DURATION=3s WINDOW=2 ROUNDS=1 PORT=18092
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${RATE:-60000}" DURATION="${DURATION:-3s}" WINDOW="${WINDOW:-2}" ROUNDS="${ROUNDS:-1}" port="${PORT:-18092}"
dir="$(mktemp -d)"
nginx_pid=""
trap '[ -n "$nginx_pid" ] && { kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; }; rm -rf "$dir"' EXIT
. benchmarks/nginx-server.sh
nginx_start "$dir" "$port" "access_log off;" "location / { return 200 \"ok\\n\"; }"
./pacer --version >/dev/null   # build once, outside the runs
. bin/jdk.sh && pacer_find_jdk
cat > "$dir/jit.jfc" <<'JFC'
<?xml version="1.0" encoding="UTF-8"?>
<configuration version="2.0">
  <event name="jdk.Compilation"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
  <event name="jdk.Deoptimization"><setting name="enabled">true</setting><setting name="stackTrace">false</setting></event>
  <event name="jdk.GarbageCollection"><setting name="enabled">true</setting><setting name="threshold">0 ms</setting></event>
</configuration>
JFC
echo "jit-in-run $(date -u +%Y-%m-%dT%H:%MZ): $(nproc) cores, JDK $(pacer_jdk_version "$JAVA_HOME"), RATE=$RATE, PACER_JAVA_OPTS=${PACER_JAVA_OPTS:-}, PACER_FLAGS=${PACER_FLAGS:-}"
for round in $(seq "$ROUNDS"); do
  PACER_SKIP_BUILD=1 PACER_JAVA_OPTS="${PACER_JAVA_OPTS:-} -XX:StartFlightRecording=filename=$dir/run.jfr,settings=$dir/jit.jfc" \
    ./pacer run --op http --url "http://127.0.0.1:$port/{cycle}" --rate "$RATE" --duration "$DURATION" \
    --interval 100ms --csv "$dir/run.csv" --no-console ${PACER_FLAGS:-} > "$dir/out.txt" 2>&1 || { cat "$dir/out.txt" >&2; exit 1; }
  "$JAVA_HOME/bin/jfr" print --json --events jdk.Compilation,jdk.Deoptimization,jdk.GarbageCollection "$dir/run.jfr" \
    > "$dir/run.json"
  echo "round $round: $(grep -E '^  response' "$dir/out.txt" | sed 's/  */ /g')"
  python3 - "$dir/run.json" "$WINDOW" "$dir/run.csv" <<'PY'
import csv, datetime, json, math, re, sys
events = json.load(open(sys.argv[1]))['recording']['events']
window = float(sys.argv[2])
def at(s):  # JFR prints nanoseconds; fromisoformat before Python 3.11 takes at most microseconds
    return datetime.datetime.fromisoformat(re.sub(r'(\.\d{6})\d+', r'\1', s).replace('Z', '+00:00')).timestamp()
def secs(d): return float(d.replace('PT', '').rstrip('S'))
# the clock starts right after the full collection pacer asks for (System.gc()) once its warm-ups are done
ends = [at(e['values']['startTime']) + secs(e['values']['duration']) for e in events
        if e['type'] == 'jdk.GarbageCollection' and e['values']['cause'] == 'System.gc()']
if not ends:
    sys.exit('jit-in-run: no System.gc() in the recording, so no clock start to count from '
             '(no engine warm-up, or -XX:+DisableExplicitGC?)')
t0 = max(ends)
rows = []
for e in events:
    v = e['values']
    t = at(v['startTime']) - t0
    if not 0 <= t < window or e['type'] == 'jdk.GarbageCollection':
        continue
    m = v['method']
    name = m['type']['name'].split('/')[-1] + '::' + m['name']
    if e['type'] == 'jdk.Compilation':
        rows.append((t, 'compiled', v['compileLevel'], 'osr' if v['isOsr'] else '', secs(v['duration']) * 1000, name))
    else:
        rows.append((t, 'deoptimised', v['reason'], v['action'], name, v.get('lineNumber')))
rows.sort(key=lambda r: r[0])
for r in rows:
    if r[1] == 'deoptimised':
        print('  %6.3f s  deoptimised  %s (%s) at %s line %s' % (r[0], r[2], r[3], r[4], r[5]))
    elif r[4] >= 1.0:
        print('  %6.3f s  compiled     tier %s %s %.1f ms  %s' % (r[0], r[2], r[3], r[4], r[5]))
c = [r for r in rows if r[1] == 'compiled']
p99 = [int(row['response_p99_ns'] or 0) / 1e6 for row in csv.DictReader(open(sys.argv[3]))][:10]  # empty: no op
print('  first %.0f s: %d deoptimisations, %d compilations, %.1f ms compiling (C2 %.1f ms); 100 ms p99s of the '
      'first second: %s ms' % (window, len(rows) - len(c), len(c), sum(r[4] for r in c),
                               sum(r[4] for r in c if r[2] == 4), ' '.join('%.1f' % x for x in p99)))
# over the whole run: the compiling time in each 100 ms interval (a compilation's time spread over the intervals it
# spans) against the interval's response p99
spent = {}
for e in events:
    if e['type'] != 'jdk.Compilation':
        continue
    t, end = at(e['values']['startTime']) - t0, at(e['values']['startTime']) - t0 + secs(e['values']['duration'])
    while t < end:
        i = math.floor(t * 10)
        step = min(end, (i + 1) / 10) - t
        if i >= 0:
            spent[i] = spent.get(i, 0) + step * 1000
        t += max(step, 1e-9)
all_p99 = [int(row['response_p99_ns'] or 0) / 1e6 for row in csv.DictReader(open(sys.argv[3]))]
busy = sorted(p for i, p in enumerate(all_p99) if spent.get(i, 0) >= 3)
quiet = sorted(p for i, p in enumerate(all_p99) if spent.get(i, 0) < 0.5)
def median(v): return v[len(v) // 2] if v else float('nan')
print('  whole run: %.0f ms compiling; 100 ms intervals compiling for 3 ms or more: %d, response p99 median %.2f ms, '
      'over 3 ms in %d; under 0.5 ms: %d, median %.2f ms, over 3 ms in %d' % (
          sum(v for i, v in spent.items() if i < len(all_p99)), len(busy), median(busy), sum(p > 3 for p in busy),
          len(quiet), median(quiet), sum(p > 3 for p in quiet)))
PY
done

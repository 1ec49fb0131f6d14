#!/usr/bin/env bash
# The http op against a local nginx (issue #13), as wrk2 users would measure it: nginx 1 worker, `return 200`,
# its access log ($msec per request) the judge. For each rate, one pacer run: a scenario with a WARMUP phase at
# the rate (after the op's own warm-up against a private server, which nginx never sees), then DURATION measured;
# {cycle} in the URL tells the phases apart in nginx's log. Per rate:
#   nginx: total requests vs the target, and the min/max of its whole seconds (the partial first and last
#          seconds of the log are left out);
#   pacer: response and wait p50/p99/max (its --summary), its CPU during the run (/proc/PID/stat, sampled
#          every 0.5 s, over the log's whole seconds), GC pauses over 10 ms in the run (-Xlog:gc);
#   whole run: response p50/p99/p99.9 over every op from the first (warm-up phase included: the run's start as a
#          user of the README's command meets it), from the run's --hlog;
#   first second: a table per rate of each 100 ms interval's achieved rate and response p99 (the run's --csv);
# and, for ALLOC_RATE, the allocation per request: JFR's jdk.ThreadAllocationStatistics (every thread's
# allocated bytes, sampled each second) over the run's steady window, divided by nginx's requests in it.
# Client and server share this machine's cores. Needs nginx, python3, and the JDK's jfr. Run on a quiet machine:
#   benchmarks/http-figures.sh         # RATES="5000 10000 20000 40000" DURATION=20s ALLOC_RATE=20000 PORT=18089
# Extra pacer flags: PACER_FLAGS="--connections 32" (or "--pacing-tick 1ms": less CPU per request);
# extra JVM options: JAVA_OPTS_EXTRA="...". WARMUP=0: no warm-up
# phase (the README's command; the measured phase is then the whole run). CYCLE_IN_URL=0 (with WARMUP=0 only) sends
# the README's fixed URL, without {cycle} (a fixed request takes the client's other path: one encoded head per
# connection, resent).
# The peer in the same session: WRK2=/path/to/wrk2/wrk adds, after each pacer row, a wrk2 row at the same rate
# (wrk2 -t2 -c64 -R rate --latency for WARMUP + DURATION; nginx's log from WARMUP on is judged the same way, and
# wrk2's own corrected latency stands in for response; wrk2 reports no wait). wrk2: github.com/giltene/wrk2, `make`.
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in nginx python3; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "http-figures: needs $tool (apt-get install nginx python3)" >&2; exit 1; }
done
RATES="${RATES:-5000 10000 20000 40000}"
DURATION="${DURATION:-20s}"
WARMUP="${WARMUP:-5s}"
ALLOC_RATE="${ALLOC_RATE:-20000}"
PACER_FLAGS="${PACER_FLAGS:-}"
CYCLE_IN_URL="${CYCLE_IN_URL:-1}"
if [ "$CYCLE_IN_URL" = "0" ] && [ "$WARMUP" != "0" ]; then
  echo "http-figures: CYCLE_IN_URL=0 needs WARMUP=0 ({cycle} tells the warm-up's requests apart in nginx's log)" >&2
  exit 2
fi
cycle_part="{cycle}"
[ "$CYCLE_IN_URL" = "0" ] && cycle_part=""
dir="$(mktemp -d)"
port="${PORT:-18089}"
. benchmarks/nginx-server.sh
nginx_start "$dir" "$port" \
  "log_format timed '\$msec \$status \$request_uri';
  access_log $dir/access.log timed buffer=256k flush=500ms;" \
  "location / { return 200 \"ok\\n\"; }"
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; [ -n "${KEEP:-}" ] && echo "kept $dir" || rm -rf "$dir"' EXIT
url="http://127.0.0.1:$port/"
# the client's CPU time (utime + stime, clock ticks) every 0.5 s until it exits, into cpu.txt; then reaps it
sample_cpu() {
  : > "$dir/cpu.txt"
  while [ -d "/proc/$1" ]; do
    echo "$(date +%s.%N) $(awk '{print $14+$15}' "/proc/$1/stat" 2>/dev/null || echo -)" >> "$dir/cpu.txt"
    sleep 0.5
  done
  wait "$1" || true
}
./pacer --version >/dev/null   # build once, outside the runs
. bin/jdk.sh && pacer_find_jdk

echo "http-figures $(date -u +%Y-%m-%dT%H:%MZ): nginx $("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///') (1 worker, return 200, access log), $(nproc) cores shared with the client, JDK $(pacer_jdk_version "$JAVA_HOME"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "each rate: ./pacer run rate.yaml --summary s.json $PACER_FLAGS, where rate.yaml is:"
echo "  {op: http, url: '$url$cycle_part', expect: 2xx, phases: [{duration: $WARMUP, rate: R, warmup: true}, {duration: $DURATION, rate: R}]}"
echo "  (with --interval 100ms --hlog run.hlog --csv i.csv; WARMUP=0 leaves the warm-up phase out)"
echo
printf '| %-6s | %-24s | %-22s | %-28s | %-28s | %-9s | %-9s | %-28s |\n' "rate" "nginx total (vs target)" "nginx whole s min–max" \
  "response p50 / p99 / max" "wait p50 / p99 / max" "pacer CPU" "GC >10ms" "whole run resp p50/p99/p99.9"
printf '|%s|%s|%s|%s|%s|%s|%s|%s|\n' "--------" "--------------------------" "------------------------" "------------------------------" \
  "------------------------------" "-----------" "-----------" "------------------------------"
first_second=""
alloc_line=""
for rate in $RATES; do
  : > "$dir/access.log"
  jfr_opt=""
  if [ "$rate" = "$ALLOC_RATE" ]; then
    jfr_opt="-XX:StartFlightRecording=filename=$dir/run.jfr,settings=default,jdk.ThreadAllocationStatistics#period=1s"
  fi
  warm_phase="  - {name: warm, duration: $WARMUP, rate: $rate, warmup: true}"
  [ "$WARMUP" = "0" ] && warm_phase=""
  cat > "$dir/rate.yaml" <<YAML
op: http
url: "${url}${cycle_part}"
expect: 2xx
phases:
$warm_phase
  - {name: measure, duration: $DURATION, rate: $rate}
YAML
  PACER_JAVA_OPTS="-Xmx1g --enable-native-access=ALL-UNNAMED -Xlog:gc:file=$dir/gc.log:time $jfr_opt ${JAVA_OPTS_EXTRA:-}" \
    ./pacer run "$dir/rate.yaml" $PACER_FLAGS -q --no-console --summary "$dir/s.json" \
    --interval 100ms --hlog "$dir/run.hlog" --csv "$dir/i.csv" >"$dir/out.txt" 2>&1 </dev/null &
  pid=$!
  sample_cpu "$pid"
  sleep 1.2   # nginx flushes its log buffer
  PACER_SKIP_BUILD=1 ./pacer report "$dir/run.hlog" --json > "$dir/whole.json" 2>/dev/null || echo '{}' > "$dir/whole.json"
  python3 - "$dir" "$rate" "$DURATION" "$(getconf CLK_TCK)" "$WARMUP" <<'PY'
import json, sys, os, re, datetime, collections
d, rate, dur, tck, warmup = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5]
secs = float(dur[:-1]) * {'s': 1, 'm': 60}[dur[-1]] if dur[-1] in 'sm' else float(dur)
try:
    s = json.load(open(f'{d}/s.json'))
except Exception:
    print(f'| {rate:<6} | pacer failed: ' + open(f'{d}/out.txt').read().strip().replace('\n', ' ')[:200]); sys.exit(0)
warm = 0 if warmup == '0' else s['phases'][0]['ops']
# the measured phase: cycles after the warm-up's (the phase cut is a hair after the boundary: off by a few requests)
t = [float(f[0]) for f in (l.split() for l in open(f'{d}/access.log') if l.strip()) if warm == 0 or int(f[2][1:]) >= warm]
per = collections.Counter(int(x) for x in t)
whole = sorted(per)[1:-1]
counts = [per[s] for s in whole]
target = rate * secs
def ms(tag, p): return s[tag]['percentiles'][p] / 1e6 if p != 'max' else s[tag]['max'] / 1e6
def trio(tag): return f"{ms(tag, '50'):.2f} / {ms(tag, '99'):.2f} / {ms(tag, 'max'):.1f} ms"
# CPU over the whole seconds of the log
lo, hi = (whole[0], whole[-1] + 1) if whole else (min(t), max(t))
samples = [(float(a), int(b)) for a, b in (l.split() for l in open(f'{d}/cpu.txt')) if b != '-']
inside = [x for x in samples if lo <= x[0] <= hi]
cpu = (inside[-1][1] - inside[0][1]) / tck / (inside[-1][0] - inside[0][0]) * 100 if len(inside) > 1 else float('nan')
# GC pauses over 10 ms inside the run's window
pauses = []
for line in open(f'{d}/gc.log'):
    m = re.match(r'\[(\S+)\].*Pause.* (\d+\.\d+)ms', line)
    if m:
        when = datetime.datetime.strptime(m.group(1), '%Y-%m-%dT%H:%M:%S.%f%z').timestamp()
        if min(t) <= when <= max(t) and float(m.group(2)) > 10:
            pauses.append(float(m.group(2)))
print(f"| {rate:<6} | {len(t):>9} ({100 * (len(t) - target) / target:+.2f} %)     "
      f"| {min(counts) if counts else 0:>6} – {max(counts) if counts else 0:<6} ({len(counts)} s) "
      f"| {trio('response'):<28} | {trio('wait'):<28} | {cpu:6.1f} %  | {len(pauses)}{(' max %.0f ms' % max(pauses)) if pauses else ''}".ljust(9) + " | "
      + (lambda w: f"{w['50'] / 1e6:.2f} / {w['99'] / 1e6:.2f} / {w['99.9'] / 1e6:.1f} ms" if w else "(no log)")(
          json.load(open(f'{d}/whole.json')).get('response', {}).get('percentiles')).ljust(28) + " |")
# the first second, per 100 ms interval: achieved req/s and response p99
import csv
rows = list(csv.DictReader(open(f'{d}/i.csv')))[:10]
def cell(r):
    secs = float(r['end_s']) - float(r['start_s'])
    p99 = r['response_p99_ns']
    return f"{int(r['ops']) / secs / 1000:.1f}k {int(p99) / 1e6 if p99 else float('nan'):.2f}ms" if secs > 0 else '-'
open(f'{d}/first.txt', 'a').write(f"| {rate:<6} | " + " | ".join(f"{cell(r):<14}" for r in rows) + " |\n")
open(f'{d}/window.txt', 'w').write(f'{lo + 2} {hi - 1} {sum(1 for x in t if lo + 2 <= x < hi - 1)}')
PY
  if [ -n "${WRK2:-}" ]; then
    : > "$dir/access.log"
    # wrk2 has no whole-run figures: it resets its histograms after its calibration (10 s)
    total_s=$(python3 -c "import sys
def sec(x): return 0.0 if x == '0' else float(x[:-1]) * {'s': 1, 'm': 60}[x[-1]]
print(int(sec('$WARMUP') + sec('$DURATION')))")
    "$WRK2" -t2 -c64 -d"${total_s}s" -R"$rate" --latency "$url" > "$dir/wrk2.txt" 2>&1 &
    wpid=$!
    sample_cpu "$wpid"
    sleep 1.2
    python3 - "$dir" "$rate" "$WARMUP" "$DURATION" "$(getconf CLK_TCK)" <<'PY'
import sys, re, collections
d, rate, warm, dur, tck = sys.argv[1], int(sys.argv[2]), sys.argv[3], sys.argv[4], int(sys.argv[5])
def sec(x): return 0.0 if x == '0' else float(x[:-1]) * {'s': 1, 'm': 60}[x[-1]]
t = sorted(float(l.split()[0]) for l in open(f'{d}/access.log') if l.strip())
if not t:
    print(f'| {"wrk2":<6} | no requests reached nginx: ' + open(f'{d}/wrk2.txt').read().strip().replace(chr(10), ' ')[:150]); sys.exit(0)
start = t[0] + sec(warm)
t = [x for x in t if x >= start]
per = collections.Counter(int(x) for x in t)
whole = sorted(per)[1:-1]
counts = [per[s] for s in whole]
target = rate * sec(dur)
text = open(f'{d}/wrk2.txt').read()
def pct(p):
    m = re.search(r'^\s*' + re.escape(p) + r'\s+(\S+?)(us|ms|s)\s*$', text, re.M)
    return float(m.group(1)) * {'us': 1e-3, 'ms': 1, 's': 1e3}[m.group(2)] if m else float('nan')
lo, hi = (whole[0], whole[-1] + 1) if whole else (min(t), max(t))
samples = [(float(a), int(b)) for a, b in (l.split() for l in open(f'{d}/cpu.txt')) if b != '-']
inside = [x for x in samples if lo <= x[0] <= hi]
cpu = (inside[-1][1] - inside[0][1]) / tck / (inside[-1][0] - inside[0][0]) * 100 if len(inside) > 1 else float('nan')
print(f"| wrk2   | {len(t):>9} ({100 * (len(t) - target) / target:+.2f} %)     "
      f"| {min(counts) if counts else 0:>6} – {max(counts) if counts else 0:<6} ({len(counts)} s) "
      f"| {pct('50.000%'):.2f} / {pct('99.000%'):.2f} / {pct('100.000%'):.1f} ms".ljust(31) + " | (not reported)               "
      f"| {cpu:6.1f} %  | -         | (calibrated: not reported)   |")
PY
  fi
  if [ -n "$jfr_opt" ] && [ -f "$dir/run.jfr" ]; then
    "$JAVA_HOME/bin/jfr" print --json --events jdk.ThreadAllocationStatistics "$dir/run.jfr" > "$dir/alloc.json"
    alloc_line="$(python3 - "$dir" "$rate" <<'PY'
import json, sys, datetime, collections
d, rate = sys.argv[1], sys.argv[2]
lo, hi, n = open(f'{d}/window.txt').read().split()
lo, hi, n = float(lo), float(hi), int(n)
ev = json.load(open(f'{d}/alloc.json'))['recording']['events']
def ts(e): return datetime.datetime.fromisoformat(e['values']['startTime'].replace('Z', '+00:00')).timestamp()
times = sorted({ts(e) for e in ev})
a = min((x for x in times if x >= lo), default=None); b = max((x for x in times if x <= hi), default=None)
def total(at):
    last = {}
    for e in ev:
        if ts(e) <= at + 0.01:
            last[e['values']['thread']['javaThreadId'] if e['values']['thread'] else e['values'].get('thread')] = e['values']['allocated']
    return sum(last.values())
if a is None or b is None or b <= a:
    print(f'allocation at {rate} req/s: no JFR samples inside the run'); sys.exit(0)
req = n * (b - a) / (hi - lo)
print(f'allocation at {rate} req/s: {(total(b) - total(a)) / req:.0f} B/request ({(total(b) - total(a)) / 1e6:.1f} MB by all threads over {b - a:.1f} s, ~{req:.0f} requests; JFR jdk.ThreadAllocationStatistics)')
PY
)"
  fi
done
echo
echo "the first second of each pacer run, per 100 ms interval from the run's first op: achieved req/s, response p99"
printf '| %-6s |' "rate"; for i in 0 1 2 3 4 5 6 7 8 9; do printf ' %-14s |' "$((i * 100))–$((i * 100 + 100)) ms"; done; echo
printf '|--------|'; for i in 0 1 2 3 4 5 6 7 8 9; do printf '%s|' "----------------"; done; echo
cat "$dir/first.txt" 2>/dev/null || true
echo
[ -n "$alloc_line" ] && echo "$alloc_line"
exit 0

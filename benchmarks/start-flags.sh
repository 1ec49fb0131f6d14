#!/usr/bin/env bash
# What the JDK's start-up options buy the README's http command from its first op (issue 25): for each JVM
# option set below, ROUNDS fresh JVMs (the sets interleaved round by round) each run
#   pacer run --op http --url http://127.0.0.1:PORT/{cycle} --rate RATE --duration DURATION --interval 100ms --csv
# against a private nginx (1 worker, return 200), with no warm-up phase, so every op from the first counts. Per set,
# the median over its rounds of: the whole run's response p99 and p99.9, the first 100 ms interval's response p99,
# the worst 100 ms interval's p99 in the first second, the client's CPU (% of a core over the run, /proc/PID/stat),
# and the time from the JVM's launch to the run's first op (the summary's start line minus the launch).
# The sets (SETS to choose, space-separated names):
#   default  the launcher as it is (the serial collector since 2026-11-26, C2's profile-based traps off since
#            2026-11-27; every other set runs through the launcher too, so without those traps since then as well)
#   g1       -XX:+UseG1GC: the JDK's own default collector on a machine of 2 cores or more
#   aot      the JDK's AOT cache (JEP 483/514/515): a training run of TRAIN at the same rate writes it
#            (-XX:AOTCacheOutput), every round reads it (-XX:AOTCache); needs JDK 25
#   c1       -XX:TieredStopAtLevel=1: C1 only, no C2 compilations during the run (less peak speed)
#   serial   -XX:+UseSerialGC: no concurrent GC threads, one-thread young collections
#   parallel -XX:+UseParallelGC
#   cprio    -XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=1: the JIT's threads at nice 4, below the run's
#            threads (the JVM warns when not run as root; lowering a priority needs no permission)
#   traps    -XX:PerMethodTrapLimit=100 -XX:PerBytecodeTrapLimit=4: the JDK's own trap limits (the launcher before
#            2026-11-27)
#   notraps  -XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0: C2 compiles the branches its profile never saw
#            instead of trapping on them (what the launcher runs since 2026-11-27: the same as default now)
#   nospec   -XX:-UseTypeSpeculation: no C2 speculation on argument and return types either (its traps are not
#            governed by the trap limits)
#   jitnormal  pacer's --jit-priority normal: the JIT's compiler threads keep their scheduling class after the
#            warm-up (by default, since 2026-11-27, they move to the idle class; docs/measuring.md)
# PACER_FLAGS adds pacer flags to every round (e.g. "--hlog run.hlog", as benchmarks/http-figures.sh runs it).
# Needs nginx and python3. Run on a quiet machine; one timing measurement at a time.
#   benchmarks/start-flags.sh     # RATE=40000 DURATION=10s ROUNDS=5 SETS="default g1 aot c1" PORT=18091
#   SETS="traps default" benchmarks/start-flags.sh     # the JDK's trap limits against the launcher's
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${RATE:-40000}"
DURATION="${DURATION:-10s}"
ROUNDS="${ROUNDS:-5}"
SETS="${SETS:-default g1 aot c1}"
TRAIN="${TRAIN:-4s}"
port="${PORT:-18091}"
dir="$(mktemp -d)"
. benchmarks/nginx-server.sh
nginx_start "$dir" "$port" "access_log off;" "location / { return 200 \"ok\\n\"; }"
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
./pacer --version >/dev/null   # build once, outside the runs
. bin/jdk.sh && pacer_find_jdk
url="http://127.0.0.1:$port/{cycle}"

opts() {
  case "$1" in
    default) echo "" ;;
    g1) echo "-XX:+UseG1GC" ;;
    aot) echo "-XX:AOTCache=$dir/pacer.aot" ;;
    c1) echo "-XX:TieredStopAtLevel=1" ;;
    serial) echo "-XX:+UseSerialGC" ;;
    parallel) echo "-XX:+UseParallelGC" ;;
    cprio) echo "-XX:ThreadPriorityPolicy=1 -XX:CompilerThreadPriority=1" ;;
    notraps) echo "-XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0" ;;
    traps) echo "-XX:PerMethodTrapLimit=100 -XX:PerBytecodeTrapLimit=4" ;;
    nospec) echo "-XX:-UseTypeSpeculation" ;;
    jitnormal) echo "" ;;
    *) echo "start-flags: unknown set $1" >&2; exit 2 ;;
  esac
}

# pacer's own flags for a set (most sets are JVM options only)
set_flags() {
  case "$1" in
    jitnormal) echo "--jit-priority normal" ;;
    *) echo "" ;;
  esac
}

if [[ " $SETS " == *" aot "* ]]; then
  PACER_SKIP_BUILD=1 PACER_JAVA_OPTS="-Xmx1g -XX:AOTCacheOutput=$dir/pacer.aot" \
    ./pacer run --op http --url "$url" --rate "$RATE" --duration "$TRAIN" -q --no-console >"$dir/train.txt" 2>&1 \
    || { cat "$dir/train.txt" >&2; exit 1; }
  [ -f "$dir/pacer.aot" ] || { echo "start-flags: the training run wrote no AOT cache" >&2; cat "$dir/train.txt" >&2; exit 1; }
fi

echo "start-flags $(date -u +%Y-%m-%dT%H:%MZ): $(nproc) cores shared with nginx $(nginx -v 2>&1 | sed 's/.*nginx\///'), JDK $(pacer_jdk_version "$JAVA_HOME"), load average $(cut -d' ' -f1-3 /proc/loadavg)"
echo "each round: ./pacer run --op http --url $url --rate $RATE --duration $DURATION --interval 100ms --csv ${PACER_FLAGS:-}(no warm-up phase)"
: > "$dir/rows.txt"
for round in $(seq "$ROUNDS"); do
  for set in $SETS; do
    rm -f "$dir/s.json" "$dir/i.csv"
    launched=$(date +%s.%N)
    PACER_SKIP_BUILD=1 PACER_JAVA_OPTS="-Xmx1g $(opts "$set")" \
      ./pacer run --op http --url "$url" --rate "$RATE" --duration "$DURATION" -q --no-console \
      --summary "$dir/s.json" --interval 100ms --csv "$dir/i.csv" $(set_flags "$set") ${PACER_FLAGS:-} \
      >"$dir/out.txt" 2>&1 </dev/null &
    pid=$!
    first=""; t0=""; c0=""; last=""
    while [ -d "/proc/$pid" ]; do
      c=$(awk '{print $14+$15}' "/proc/$pid/stat" 2>/dev/null || true)
      [ -n "$c" ] && last="$(date +%s.%N) $c" && { [ -z "$first" ] && [ "$(wc -l 2>/dev/null < "$dir/i.csv" || echo 0)" -ge 2 ] && first="$last"; true; }
      sleep 0.25
    done
    wait "$pid" || true
    python3 - "$dir" "$set" "$launched" "$first" "$last" "$(getconf CLK_TCK)" >> "$dir/rows.txt" <<'PY'
import json, sys, csv
d, name, launched, first, last, tck = sys.argv[1], sys.argv[2], float(sys.argv[3]), sys.argv[4], sys.argv[5], int(sys.argv[6])
try:
    s = json.load(open(f'{d}/s.json'))
    rows = list(csv.DictReader(open(f'{d}/i.csv')))
except Exception:
    print(name, 'failed'); sys.exit(0)
p = s['response']['percentiles']
first_ms = int(rows[0]['response_p99_ns']) / 1e6
worst_ms = max(int(r['response_p99_ns']) for r in rows[:10]) / 1e6
cpu = float('nan')
if first and last:
    (a, ca), (b, cb) = [tuple(map(float, x.split())) for x in (first, last)]
    cpu = (cb - ca) / tck / (b - a) * 100 if b > a else float('nan')
# the csv's first line is written at the end of the first interval: the run started 0.1 s before it was seen
start = (float(first.split()[0]) - 0.1 - launched) if first else float('nan')
print(name, s['ops'], p['99'] / 1e6, p['99.9'] / 1e6, first_ms, worst_ms, cpu, start)
PY
  done
done
python3 - "$dir/rows.txt" "$SETS" "$RATE" "$DURATION" <<'PY'
import sys, statistics
rows, sets = [l.split() for l in open(sys.argv[1])], sys.argv[2].split()
print(f'\n{sys.argv[3]} req/s for {sys.argv[4]}, median of the rounds (each round\'s value in brackets)')
print('| set      | ops (min) | whole resp p99 ms | whole resp p99.9 ms | first 100 ms p99 | worst 100 ms p99, 1st s | CPU % | start s |')
print('|----------|-----------|-------------------|---------------------|------------------|-------------------------|-------|---------|')
for name in sets:
    r = [x for x in rows if x[0] == name and x[1] != 'failed']
    failed = sum(1 for x in rows if x[0] == name and x[1] == 'failed')
    if not r:
        print(f'| {name:<8} | all {failed} failed |'); continue
    col = lambda i: [float(x[i]) for x in r]
    med = lambda i: statistics.median(col(i))
    each = lambda i, f: f"{med(i):{f}} [{' '.join(format(v, f) for v in col(i))}]"
    print(f"| {name:<8} | {int(min(col(1)))} | {each(2, '.2f')} | {each(3, '.2f')} | {each(4, '.2f')} | {each(5, '.2f')} | {med(6):.1f} | {med(7):.2f} |"
          + (f' {failed} failed' if failed else ''))
PY

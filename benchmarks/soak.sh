#!/usr/bin/env bash
# The soak (issue 14): 10 minutes at 200 k ops/s from 64 threads with --hlog, then pass/fail against its bounds:
#   - the live heap after a full GC (jcmd GC.run, then GC.heap_info) at minute 10 is within HEAP_GROWTH_KB of
#     minute 1's;
#   - every minute's rate (pacer report --from/--to over the .hlog) is within ±0.5 % of the target.
# By hand, on a quiet machine, never in CI (cli's SoakTest is its 30-second version):
#   benchmarks/soak.sh                 # RATE=200k THREADS=64 MINUTES=10 HEAP_GROWTH_KB=4096 to change
#   - the limiter's accounting at the end (the summary's "limiter"): allocated = permits × slice + idle + reserved,
#     to a few nanoseconds of rounding.
set -euo pipefail
cd "$(dirname "$0")/.."
RATE="${RATE:-200k}"
THREADS="${THREADS:-64}"
MINUTES="${MINUTES:-10}"
HEAP_GROWTH_KB="${HEAP_GROWTH_KB:-4096}"
out="${OUT:-$(mktemp -d)}"
./pacer --version >/dev/null   # build once, before the clock starts
. bin/jdk.sh && pacer_find_jdk

./pacer run --rate "$RATE" --threads "$THREADS" --duration "${MINUTES}m" --hlog "$out/soak.hlog" \
    --summary "$out/soak.json" -q --no-console </dev/null >"$out/soak.txt" 2>&1 &
pid=$!   # ./pacer execs java: this is the JVM
start=$(date +%s)

# the heap in use right after a full GC, in KB: G1's one "heap ... used NK" line, or the serial collector's (the
# launcher's) two generations, "DefNew total ..., used NK" and "Tenured total ..., used NK", summed
live_kb() {
  "$JAVA_HOME/bin/jcmd" "$pid" GC.run >/dev/null
  "$JAVA_HOME/bin/jcmd" "$pid" GC.heap_info \
    | awk '/^ *(garbage-first heap|DefNew|Tenured|PSYoungGen|ParOldGen) +total/ {
             for (i = 1; i <= NF; i++) if ($i == "used") { v = $(i + 1); sub(/K.*/, "", v); kb += v } }
           END { print kb + 0 }'
}
at() { local s=$(( $1 - ($(date +%s) - start) )); [ "$s" -le 0 ] || sleep "$s"; }

at 60
first_kb="$(live_kb)"
echo "minute 1: live heap ${first_kb} KB"
at $(( MINUTES * 60 - 15 ))   # before the end, while it still runs
last_kb="$(live_kb)"
echo "minute $MINUTES: live heap ${last_kb} KB"
wait "$pid" || { echo "FAIL: pacer run exited $?"; cat "$out/soak.txt"; exit 1; }

failed=0
growth=$(( last_kb - first_kb ))
if [ "$growth" -le "$HEAP_GROWTH_KB" ]; then
  echo "PASS heap: grew ${growth} KB (bound ${HEAP_GROWTH_KB} KB)"
else
  echo "FAIL heap: grew ${growth} KB (bound ${HEAP_GROWTH_KB} KB)"; failed=1
fi

target="$(python3 -c "import json,sys; print(json.load(open(sys.argv[1]))['targetRate'])" "$out/soak.json")"
for m in $(seq 0 $(( MINUTES - 1 ))); do
  ./pacer report "$out/soak.hlog" --from "$(( m * 60 ))s" --to "$(( (m + 1) * 60 ))s" --json >"$out/minute.json"
  verdict="$(python3 - "$out/minute.json" "$target" <<'PY'
import json, sys
r = json.load(open(sys.argv[1])); target = float(sys.argv[2])
off = 100 * (r["rate"] - target) / target
print(("PASS" if abs(off) <= 0.5 else "FAIL") + " minute %d-%d s: %.1f ops/s (%+.3f %%)" % (r["from"], r["to"], r["rate"], off))
PY
)"
  echo "$verdict"
  case "$verdict" in FAIL*) failed=1 ;; esac
done
verdict="$(python3 - "$out/soak.json" <<'PY'
import json, sys
l = json.load(open(sys.argv[1]))["limiter"]
slice_ns = 1e9 / l["rate"]
accounted = l["permitsGranted"] * slice_ns + l["idleNanos"] + l["reservedNanos"]
diff = l["allocatedNanos"] - accounted
print(("PASS" if abs(diff) <= 3 + l["permitsGranted"] * (slice_ns % 1 > 0) else "FAIL")
      + " accounting: allocated %d ns, granted x slice + idle + reserved %.0f ns (%+.0f ns)" % (l["allocatedNanos"], accounted, diff))
PY
)"
echo "$verdict"
case "$verdict" in FAIL*) failed=1 ;; esac
echo "files in $out"
exit "$failed"

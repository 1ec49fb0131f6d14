#!/usr/bin/env bash
# Does watching a run slow it? A/B in one session: a noop run at RATE (default 200 000 ops/s) for DURATION with
# --control, alternately with no page open (A) and with VIEWERS (default 50) streams of the console page open (B),
# all read by one client process, plus one stream that connects and never reads. ROUNDS (default 3) interleaved
# pairs; prints each run's achieved rate and wait p99 and the medians per side, and the viewers the endpoint counted
# (open, dropped) near each B run's end.
# Memory: 2 s into each run and 2 s before its end, the run's heap after a full collection (jcmd GC.run, then
# GC.heap_info); "memory stays flat" PASSes when no B run's end exceeds its start by more than 20 % + 4 MB. A gets
# the same two collections, so that their pauses weigh on both sides' wait p99 alike.
#   benchmarks/console-viewers.sh                 # RATE=200k VIEWERS=50 ROUNDS=3 DURATION=20s THREADS=2
#   RATE=1k VIEWERS=3 ROUNDS=1 DURATION=6s benchmarks/console-viewers.sh     # a dry run of the script itself
set -euo pipefail
cd "$(dirname "$0")/.."
rate="${RATE:-200k}"; viewers="${VIEWERS:-50}"; rounds="${ROUNDS:-3}"; duration="${DURATION:-20s}"
threads="${THREADS:-2}"; port="${CONTROL_PORT:-17080}"
dir="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null || true; wait 2>/dev/null || true; rm -rf "$dir"' EXIT
./pacer --version >/dev/null
. bin/jdk.sh && pacer_find_jdk
export PACER_SKIP_BUILD=1 # the jar just built: an edit while this runs must not rebuild it mid-measurement
secs="${duration%s}"
secs="${secs%.*}"
case "$secs" in
  '' | *[!0-9]* | [0-4]) echo "console-viewers.sh: DURATION '$duration': expected whole seconds, at least 5s (e.g. 20s)"
                         exit 2 ;;
esac

heap() { # pid: the heap in use after a full collection, in MB, or "-" when the JVM cannot be asked
  { "$JAVA_HOME/bin/jcmd" "$1" GC.run >/dev/null && "$JAVA_HOME/bin/jcmd" "$1" GC.heap_info; } 2>/dev/null \
    | python3 -c 'import re, sys
units = {"K": 1 / 1024, "M": 1, "G": 1024}
used = [float(m.group(1)) * units[m.group(2)] for line in sys.stdin
        if not re.search("Metaspace|class space", line) for m in [re.search(r"used (\d+)([KMG])", line)] if m]
print("%.1f" % sum(used) if used else "-")' || echo -
}

one() { # side round
  local side="$1" round="$2" out="$dir/$1-$2.json"
  ./pacer run --rate "$rate" --threads "$threads" --op noop --duration "$duration" --control "127.0.0.1:$port" \
    --summary "$out" -q --no-console </dev/null >/dev/null 2>"$dir/$side-$round.err" &
  local run=$!
  pids=("$run")
  for _ in $(seq 100); do curl -fsS "http://127.0.0.1:$port/status" >/dev/null 2>&1 && break; sleep 0.1; done
  local viewers_seen="-"
  if [ "$side" = B ]; then
    # one process holds every stream (no burst of 50 process starts beside the run): VIEWERS read, one never does
    python3 -c 'import selectors, socket, sys
port, n = int(sys.argv[1]), int(sys.argv[2])
request = b"GET /events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
sel = selectors.DefaultSelector()
for _ in range(n):
    s = socket.create_connection(("127.0.0.1", port)); s.sendall(request); sel.register(s, selectors.EVENT_READ)
stalled = socket.socket(); stalled.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
stalled.connect(("127.0.0.1", port)); stalled.sendall(request)
while sel.get_map():
    for key, _ in sel.select():
        if not key.fileobj.recv(65536):
            sel.unregister(key.fileobj)' "$port" "$viewers" & pids+=($!)
  fi
  sleep 2
  local heap_start heap_end
  heap_start="$(heap "$run")"
  sleep $((secs - 4))
  if [ "$side" = B ]; then
    viewers_seen="$(curl -fsS "http://127.0.0.1:$port/status" | python3 -c 'import json, sys
v = json.load(sys.stdin)["viewers"]; print("open %d dropped %d" % (v["open"], v["dropped"]))' || echo unknown)"
  fi
  heap_end="$(heap "$run")"
  wait "$run" || true
  kill "${pids[@]:1}" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ ! -s "$out" ]; then echo "$side round $round: no summary; pacer said:"; cat "$dir/$side-$round.err"; return; fi
  python3 - "$out" "$side" "$round" "$viewers_seen" "$heap_start" "$heap_end" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("%s round %s: achieved %.0f ops/s of %.0f, wait p99 %.3f ms  (viewers: %s; heap after GC %s -> %s MB)"
      % (sys.argv[2], sys.argv[3], d["achievedRate"], d["targetRate"], d["wait"]["percentiles"]["99"] / 1e6,
         sys.argv[4], sys.argv[5], sys.argv[6]))
PY
}

for r in $(seq "$rounds"); do
  one A "$r"
  one B "$r"
done | tee "$dir/lines.txt"
python3 - "$dir/lines.txt" <<'PY'
import re, statistics, sys
rows = {"A": [], "B": []}
heaps = []
for line in open(sys.argv[1]):
    m = re.match(r"(A|B) round \d+: achieved ([0-9.]+) ops/s of [0-9.]+, wait p99 ([0-9.]+) ms", line)
    if m:
        rows[m.group(1)].append((float(m.group(2)), float(m.group(3))))
    h = re.search(r"heap after GC (\S+) -> (\S+) MB", line)
    if m and h and m.group(1) == "B":
        heaps.append((h.group(1), h.group(2)))
for side, label in (("A", "no page"), ("B", "pages open")):
    r = rows[side]
    if not r:
        continue
    print("median %s (%s): achieved %.0f ops/s, wait p99 %.3f ms" % (side, label,
          statistics.median(x[0] for x in r), statistics.median(x[1] for x in r)))
measured = [(float(a), float(b)) for a, b in heaps if a != "-" and b != "-"]
if not measured or len(measured) < len(heaps):
    print("memory stays flat: FAIL (the heap could not be measured in every B run: %s)" % heaps)
    sys.exit(1)
grown = [(a, b) for a, b in measured if b > a * 1.2 + 4]
print("memory stays flat (B, heap after a full GC, end within 20 %% + 4 MB of start; %s): %s" % (
      ", ".join("%.1f -> %.1f MB" % x for x in measured), "FAIL" if grown else "PASS"))
sys.exit(1 if grown else 0)
PY

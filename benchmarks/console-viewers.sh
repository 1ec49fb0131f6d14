#!/usr/bin/env bash
# Does watching a run slow it? A/B in one session: a noop run at RATE (default 200 000 ops/s) for DURATION with
# --control, alternately with no page open (A) and with VIEWERS (default 50) streams of the console page open (B),
# all read by one client process, plus one stream that connects and never reads. ROUNDS (default 3) interleaved
# pairs; prints each run's achieved rate and wait p99 and the medians per side, and the viewers the endpoint counted
# (open, dropped) near each B run's end.
#   benchmarks/console-viewers.sh                 # RATE=200k VIEWERS=50 ROUNDS=3 DURATION=20s THREADS=2
set -euo pipefail
cd "$(dirname "$0")/.."
rate="${RATE:-200k}"; viewers="${VIEWERS:-50}"; rounds="${ROUNDS:-3}"; duration="${DURATION:-20s}"
threads="${THREADS:-2}"; port="${CONTROL_PORT:-17080}"
dir="$(mktemp -d)"
pids=()
trap 'kill "${pids[@]}" 2>/dev/null; wait 2>/dev/null; rm -rf "$dir"' EXIT
./pacer --version >/dev/null
export PACER_SKIP_BUILD=1 # the jar just built: an edit while this runs must not rebuild it mid-measurement
secs="${duration%s}"

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
    sleep $((${secs%.*} - 2))
    viewers_seen="$(curl -fsS "http://127.0.0.1:$port/status" | python3 -c 'import json, sys
v = json.load(sys.stdin)["viewers"]; print("open %d dropped %d" % (v["open"], v["dropped"]))' || echo unknown)"
  fi
  wait "$run" || true
  kill "${pids[@]:1}" 2>/dev/null || true
  wait 2>/dev/null || true
  if [ ! -s "$out" ]; then echo "$side round $round: no summary; pacer said:"; cat "$dir/$side-$round.err"; return; fi
  python3 - "$out" "$side" "$round" "$viewers_seen" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
print("%s round %s: achieved %.0f ops/s of %.0f, wait p99 %.3f ms  (viewers: %s)" % (sys.argv[2], sys.argv[3],
      d["achievedRate"], d["targetRate"], d["wait"]["percentiles"]["99"] / 1e6, sys.argv[4]))
PY
}

for r in $(seq "$rounds"); do
  one A "$r"
  one B "$r"
done | tee "$dir/lines.txt"
python3 - "$dir/lines.txt" <<'PY'
import re, statistics, sys
rows = {"A": [], "B": []}
for line in open(sys.argv[1]):
    m = re.match(r"(A|B) round \d+: achieved ([0-9.]+) ops/s of [0-9.]+, wait p99 ([0-9.]+) ms", line)
    if m:
        rows[m.group(1)].append((float(m.group(2)), float(m.group(3))))
for side, label in (("A", "no page"), ("B", "pages open")):
    r = rows[side]
    if not r:
        continue
    print("median %s (%s): achieved %.0f ops/s, wait p99 %.3f ms" % (side, label,
          statistics.median(x[0] for x in r), statistics.median(x[1] for x in r)))
PY

#!/usr/bin/env bash
# pacer's postgres driver side by side with pgbench (issue #27), on a private PostgreSQL cluster made here (initdb
# in a temp folder as the postgres user when run as root, a loopback port, fsync off so the disk is not what is
# measured, pgbench -i -s SCALE), removed at the end. Same script, same connections, same rate:
#   pgbench -c CONN -j 2 [-S] -R RATE -T DURATION -l        (Poisson arrivals, one transaction per client in flight)
#   pacer run --workload NAME -c CONN --rate RATE --arrivals poisson --duration DURATION [client flags]
# CLIENTS picks pacer's clients, a row each (default: jdbc): jdbc (pgjdbc run by the workers, one connection each:
# the default), jdbc-platform and jdbc-virtual (pgjdbc, each transaction handed to a thread), vertx (vertx-pg-client)
# and vertx-pipelined (vertx-pg-client, a transaction's statements sent before the first answer).
# For select-only and tpcb-like: each tool's capacity (unpaced, CONN connections), then each at 50 %, 90 % and
# 100 % of pgbench's capacity. Per row: the server's commits (pg_stat_database.xact_commit, moved during the run)
# per second, the client's own count per second, the p99 of wait (pacer) / schedule lag (pgbench, from its -l log)
# and of response (pacer: from the scheduled start) / latency (pgbench's logged time, which with -R counts from the
# scheduled start too), and the client's CPU (user + system) per transaction: over its whole process (cpu ms/tx) and
# over the run's steady window, its first and last second left out (steady; see steady() below).
# Needs PostgreSQL's server binaries (.ci/postgres.sh), pgbench, psql, python3. Run on a quiet machine:
#   benchmarks/pgbench-figures.sh     # SCALE=10 CONN=8 DURATION=15 PORT=55433 SCRIPTS="select-only tpcb-like"
#   CLIENTS="jdbc vertx vertx-pipelined" benchmarks/pgbench-figures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)"
[ -x "$BIN/initdb" ] || { echo "pgbench-figures: needs PostgreSQL's server (.ci/postgres.sh)" >&2; exit 1; }
for tool in pgbench psql python3; do
  command -v "$tool" >/dev/null || { echo "pgbench-figures: needs $tool" >&2; exit 1; }
done
SCALE="${SCALE:-10}"
CONN="${CONN:-8}"
DURATION="${DURATION:-15}"
PORT="${PORT:-55433}"
SCRIPTS="${SCRIPTS:-select-only tpcb-like}"
CLIENTS="${CLIENTS:-jdbc}"
client_flags() { # CLIENT -> pacer's flags for it
  case "$1" in
    jdbc) echo "--client jdbc" ;;
    jdbc-platform) echo "--client jdbc --jdbc-threads platform" ;;
    jdbc-virtual) echo "--client jdbc --jdbc-threads virtual" ;;
    vertx) echo "--client vertx" ;;
    vertx-pipelined) echo "--client vertx --pipelining on" ;;
    *) echo "pgbench-figures: unknown client '$1' in CLIENTS (jdbc jdbc-platform jdbc-virtual vertx vertx-pipelined)" >&2
       return 1 ;;
  esac
}
for c in $CLIENTS; do client_flags "$c" >/dev/null || exit 2; done
dir="$(mktemp -d /tmp/pgbench-figures.XXXXXX)"
chmod 755 "$dir"
as_pg() { if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }
[ "$(id -u)" -ne 0 ] || chown postgres "$dir"
cleanup() {
  as_pg "$BIN/pg_ctl" -D "$dir/data" -m immediate stop >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
as_pg "$BIN/initdb" -D "$dir/data" -U pacer --auth=trust -E UTF8 --no-sync >/dev/null
as_pg "$BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -o \
  "-p $PORT -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=256MB -c max_connections=100" start >/dev/null
export PGHOST=127.0.0.1 PGPORT="$PORT" PGUSER=pacer PGDATABASE=postgres
URL="postgresql://pacer@127.0.0.1:$PORT/postgres"
pgbench -i -q -s "$SCALE" >/dev/null 2>&1
mkdir -p "$dir/out"

commits() {
  sleep 1 # a backend's counters reach pg_stat_database when it ends (or within a second)
  psql -Atqc "SELECT xact_commit FROM pg_stat_database WHERE datname = 'postgres'"
}
# cpu FILE CMD...: runs CMD, writes its (and its children's) user + system CPU seconds to FILE, and to FILE.samples
# a line "epoch_seconds cpu_seconds" of its own process every 0.2 s (./pacer execs java, so that is the JVM)
cpu() {
  local f="$1"; shift
  python3 - "$f" "$@" <<'PY'
import os, resource, subprocess, sys, threading, time
tck = os.sysconf("SC_CLK_TCK")
p = subprocess.Popen(sys.argv[2:], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
samples = open(sys.argv[1] + ".samples", "w")
def sample():
    while p.poll() is None:
        try:
            fields = open("/proc/%d/stat" % p.pid).read().rsplit(")", 1)[1].split()
            samples.write("%.3f %.4f\n" % (time.time(), (int(fields[11]) + int(fields[12])) / tck))
        except (OSError, IndexError, ValueError):
            pass
        time.sleep(0.2)
t = threading.Thread(target=sample, daemon=True)
t.start()
out = p.communicate()[0]
t.join()
samples.close()
r = resource.getrusage(resource.RUSAGE_CHILDREN)
open(sys.argv[1], "w").write("%f\n" % (r.ru_utime + r.ru_stime))
sys.stdout.write(out)
sys.exit(p.returncode)
PY
}
# steady START_EPOCH OPS_IN_WINDOW CPUFILE: CPU ms per transaction over [START + 1 s, START + DURATION - 1 s], from
# the samples (interpolated at both ends): what a transaction costs once the client runs, without its start-up
# (the JVM, the JIT's first compilations, the warm-ups), which the whole-process column divides in.
steady() {
  python3 - "$1" "$2" "$3.samples" "$DURATION" <<'PY'
import sys
start, ops, path, dur = float(sys.argv[1]), float(sys.argv[2]), sys.argv[3], float(sys.argv[4])
pts = [tuple(map(float, l.split())) for l in open(path) if l.strip()]
def at(t):
    for (t0, c0), (t1, c1) in zip(pts, pts[1:]):
        if t0 <= t <= t1:
            return c0 + (c1 - c0) * (t - t0) / (t1 - t0) if t1 > t0 else c0
    return None
lo, hi = at(start + 1), at(start + dur - 1)
print("-" if lo is None or hi is None or ops <= 0 else "%.3f" % (1000 * (hi - lo) / ops))
PY
}
pgbench_flags() { [ "$1" = select-only ] && echo "-S" || true; }

# row LABEL TOOL TARGET CLIENT_OPS COMMITS WAIT_P99_MS RESP_P99_MS CPU_S DURATION STEADY_MS_PER_TX
row() {
  python3 - "$@" <<'PY'
import sys
label, tool, target, ops, commits, wait, resp, cpu = sys.argv[1:9]
d = float(sys.argv[9])
ops, commits, cpu = float(ops), float(commits), float(cpu)
print("%-22s %-21s %9s %10.0f %10.0f %11s %11s %9.3f %9s" % (label, tool, target, ops / d, commits / d, wait, resp,
      1000 * cpu / max(ops, 1), sys.argv[10]))
PY
}

run_pgbench() { # SCRIPT RATE|"" TAG -> prints a row
  local s="$1" rate="$2" tag="$3" c0 c1 out
  c0="$(commits)"
  out="$(cpu "$dir/cpu" pgbench $(pgbench_flags "$s") -c "$CONN" -j 2 -T "$DURATION" ${rate:+-R "$rate"} -l \
    --log-prefix="$dir/out/$tag" -n 2>&1)"
  c1="$(commits)"
  python3 - "$dir/out" "$tag" "$dir/stats" "$dir/cpu" "$DURATION" <<'PY'
import glob, sys
lat, lag = [], []
for f in glob.glob(sys.argv[1] + "/" + sys.argv[2] + ".*"):
    for line in open(f):
        p = line.split()
        if len(p) >= 6 and p[2] != "skipped":
            lat.append(int(p[2]))
            if len(p) >= 7:
                lag.append(int(p[6]))
def p99(v):
    v.sort()
    return "%.2f" % (v[min(len(v) - 1, int(len(v) * 0.99))] / 1000) if v else "-"
open(sys.argv[3], "w").write("%d %s %s\n" % (len(lat), p99(lag), p99(lat)))
# the steady window's transactions: pgbench's run starts at its first sample (it does nothing before)
start = float(open(sys.argv[4] + ".samples").readline().split()[0])
ends = [int(l.split()[4]) + int(l.split()[5]) / 1e6 for f in glob.glob(sys.argv[1] + "/" + sys.argv[2] + ".*")
        for l in open(f) if len(l.split()) >= 6 and l.split()[2] != "skipped"]
n = sum(1 for e in ends if start + 1 <= e <= start + float(sys.argv[5]) - 1)
open(sys.argv[3] + ".steady", "w").write("%.3f %d\n" % (start, n))
PY
  read -r n lagp99 latp99 < "$dir/stats"
  read -r t0 nw < "$dir/stats.steady"
  row "$s ${tag#*_}" pgbench "${rate:-max}" "$n" "$((c1 - c0))" "$lagp99" "$latp99" "$(cat "$dir/cpu")" "$DURATION" \
    "$(steady "$t0" "$nw" "$dir/cpu")"
  echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1 > "$dir/tps"
}

run_pacer() { # SCRIPT RATE|"" TAG CLIENT -> prints a row
  local s="$1" rate="$2" client="$4" tag="$3_$4" c0 c1
  c0="$(commits)"
  # shellcheck disable=SC2046 # the client's flags are words
  cpu "$dir/cpu" ./pacer run --workload "$s" --url "$URL" -c "$CONN" --duration "${DURATION}s" \
    $(client_flags "$client") ${rate:+--rate "$rate" --arrivals poisson} --summary "$dir/out/$tag.json" -q \
    --interval 1s --hlog "$dir/out/$tag.hlog" --csv "$dir/out/$tag.csv" \
    >"$dir/out/$tag.txt" 2>&1 || { cat "$dir/out/$tag.txt" >&2; exit 1; }
  c1="$(commits)"
  python3 - "$dir/out/$tag.json" "$dir/stats" "$dir/out/$tag.hlog" "$dir/out/$tag.csv" "$DURATION" <<'PY'
import csv, json, re, sys
d = json.load(open(sys.argv[1]))
ok = d["outcomes"].get("ok", 0)
ms = lambda m: "%.2f" % (d[m]["percentiles"]["99"] / 1e6)
open(sys.argv[2], "w").write("%d %s %s\n" % (ok, ms("wait"), ms("response")))
# the steady window: the run's clock starts at the log's StartTime (after the warm-ups); its ops from the CSV's
# 1 s intervals inside [1 s, DURATION - 1 s]
start = next(float(m.group(1)) for m in (re.match(r"#\[StartTime: ([0-9.]+)", l) for l in open(sys.argv[3])) if m)
dur = float(sys.argv[5])
n = sum(int(r["ops"]) for r in csv.DictReader(open(sys.argv[4]))
        if float(r["start_s"]) >= 1 - 1e-6 and float(r["end_s"]) <= dur - 1 + 1e-3)
open(sys.argv[2] + ".steady", "w").write("%.3f %d\n" % (start, n))
PY
  read -r n waitp99 respp99 < "$dir/stats"
  read -r t0 nw < "$dir/stats.steady"
  row "$s ${3#*_}" "pacer $client" "${rate:-max}" "$n" "$((c1 - c0))" "$waitp99" "$respp99" "$(cat "$dir/cpu")" \
    "$DURATION" "$(steady "$t0" "$nw" "$dir/cpu")"
}

./pacer --version >/dev/null # builds the jar first, outside any measurement
echo "pgbench-figures: $(date -u +%FT%TZ), $(nproc) cores, PostgreSQL $("$BIN/postgres" --version | awk '{print $3}'),"\
" scale $SCALE, $CONN connections, ${DURATION} s per row; server commits from pg_stat_database"
echo "pacer's clients: $CLIENTS"
printf '%-22s %-21s %9s %10s %10s %11s %11s %9s %9s\n' "script load" tool "target/s" "client/s" "server/s" \
  "wait p99ms" "resp p99ms" "cpu ms/tx" "steady"
for s in $SCRIPTS; do
  run_pgbench "$s" "" "${s}_capacity"
  cap="$(cat "$dir/tps")"
  for c in $CLIENTS; do run_pacer "$s" "" "${s}_capacity" "$c"; done
  for pct in 50 90 100; do
    rate="$(python3 -c "print(max(1, round($cap * $pct / 100)))")"
    run_pgbench "$s" "$rate" "${s}_${pct}%"
    for c in $CLIENTS; do run_pacer "$s" "$rate" "${s}_${pct}%" "$c"; done
  done
done
echo "wait p99: pacer's wait / pgbench's schedule lag; resp p99: pacer's response / pgbench's latency (both from the"
echo "scheduled start). client/s: the tool's own count of transactions; server/s: commits the server counted."

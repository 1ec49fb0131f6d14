#!/usr/bin/env bash
# Where a load generator's CPU goes, per thread: user and system CPU (% of a core) and context switches per request
# (voluntary: the thread slept and was woken; involuntary: it was preempted), from /proc/PID/task/*/{stat,status}
# over 8 steady seconds of a 14 s run against a local nginx (1 worker, `return 200`, no access log): pacer's from
# its run's 3rd second (its interval CSV tells when the run, after the JVM's start and the warm-ups, began), wrk2's
# from its 3rd second. For each rate:
# pacer with PACER_FLAGS (e.g. "--pacing-tick 1ms"), then wrk2 (-t2 -c64) at the same rate when WRK2 points at it.
#   benchmarks/wakeups.sh                 # RATES="20000 40000" PACER_FLAGS="" WRK2=/path/to/wrk2/wrk PORT=18090
# Which system calls: run `perf stat -e 'syscalls:sys_enter_*' -t TID -- sleep 2` on a thread it names (as root).
# Needs nginx and python3. Run on a quiet machine: the figures are CPU time, which anything else running disturbs.
set -euo pipefail
cd "$(dirname "$0")/.."
RATES="${RATES:-20000 40000}"
PACER_FLAGS="${PACER_FLAGS:-}"
port="${PORT:-18090}"
dir="$(mktemp -d)"
. benchmarks/nginx-server.sh
nginx_start "$dir" "$port" \
  "access_log off;" \
  "location / { return 200 \"ok\\n\"; }"
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
./pacer --version >/dev/null   # build once, outside the runs

# threads PID RATE [CSV]: per-thread figures over 8 s, from the 3rd second of the run (when CSV, the run's interval
# file, has its second row) or of the process
threads() {
  python3 - "$1" "$2" "${3:-}" <<'PY'
import sys, os, time
pid, rate, csv = sys.argv[1], float(sys.argv[2]), sys.argv[3]
def snap():
    r = {}
    for tid in os.listdir(f'/proc/{pid}/task'):
        try:
            st = open(f'/proc/{pid}/task/{tid}/stat').read()
            name = st[st.index('(') + 1:st.rindex(')')]
            f = st[st.rindex(')') + 2:].split()
            s = open(f'/proc/{pid}/task/{tid}/status').read()
            vol = int(s.split('voluntary_ctxt_switches:')[1].split()[0])
            invol = int(s.split('nonvoluntary_ctxt_switches:')[1].split()[0])
            r[tid] = (name, int(f[11]), int(f[12]), vol, invol)
        except (OSError, IndexError, ValueError):
            pass
    return r
if csv:
    while os.path.exists(f'/proc/{pid}') and (not os.path.exists(csv) or open(csv).read().count('\n') < 3):
        time.sleep(0.05)
else:
    time.sleep(2)
a = snap(); ta = time.time(); time.sleep(8); b = snap(); dt = time.time() - ta
n, tck = rate * dt, os.sysconf('SC_CLK_TCK')
tot = [0.0, 0.0, 0.0, 0.0]
for tid, (name, u1, s1, v1, i1) in sorted(b.items(), key=lambda kv: kv[1][0]):
    if tid not in a:
        continue
    _, u0, s0, v0, i0 = a[tid]
    row = [(u1 - u0) / tck / dt * 100, (s1 - s0) / tck / dt * 100, (v1 - v0) / n, (i1 - i0) / n]
    tot = [x + y for x, y in zip(tot, row)]
    if row[0] + row[1] > 0.5 or row[2] > 0.01:
        print(f'|   {name:<22} | {row[0]:5.1f} % | {row[1]:5.1f} % | {row[2]:.3f} | {row[3]:.3f} |')
print(f'|   {"all threads":<22} | {tot[0]:5.1f} % | {tot[1]:5.1f} % | {tot[2]:.3f} | {tot[3]:.3f} |')
PY
}

echo "wakeups $(date -u +%Y-%m-%dT%H:%MZ): nginx 1 worker on $(nproc) cores shared with the client; pacer flags: '${PACER_FLAGS}'"
printf '| %-24s | %-7s | %-7s | %-5s | %-5s |\n' "rate, client, thread" "user" "system" "voluntary switches/req" "involuntary/req"
printf '|%s|%s|%s|%s|%s|\n' "--------------------------" "---------" "---------" "-------" "-------"
for rate in $RATES; do
  echo "| $rate pacer | | | | |"
  rm -f "$dir/i.csv"
  PACER_SKIP_BUILD=1 PACER_JAVA_OPTS="-Xmx1g --enable-native-access=ALL-UNNAMED" ./pacer run --op http \
    --url "http://127.0.0.1:$port/" --rate "$rate" --duration 14s -q --no-console \
    --interval 1s --csv "$dir/i.csv" $PACER_FLAGS >"$dir/out.txt" 2>&1 &
  pid=$!   # ./pacer execs the JVM: the same process
  threads "$pid" "$rate" "$dir/i.csv"
  wait "$pid" || true
  if [ -n "${WRK2:-}" ]; then
    echo "| $rate wrk2 | | | | |"
    "$WRK2" -t2 -c64 -d14s -R"$rate" "http://127.0.0.1:$port/" >"$dir/wrk2.txt" 2>&1 &
    wpid=$!
    threads "$wpid" "$rate"
    wait "$wpid" || true
  fi
done

#!/usr/bin/env bash
# Where a load generator's CPU goes, per thread: user and system CPU (% of a core) and context switches per request
# (voluntary: the thread slept and was woken; involuntary: it was preempted), from /proc/PID/task/*/{stat,status}
# over seconds 5 to 12 of a 14 s run against a local nginx (1 worker, `return 200`, no access log). For each rate:
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

# threads PID RATE: per-thread figures between seconds 5 and 12 of the process's run
threads() {
  python3 - "$1" "$2" <<'PY'
import sys, os, time
pid, rate = sys.argv[1], float(sys.argv[2])
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
time.sleep(5); a = snap(); ta = time.time(); time.sleep(7); b = snap(); dt = time.time() - ta
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
  PACER_SKIP_BUILD=1 PACER_JAVA_OPTS="-Xmx1g --enable-native-access=ALL-UNNAMED" ./pacer run --op http \
    --url "http://127.0.0.1:$port/" --rate "$rate" --duration 14s -q --no-console $PACER_FLAGS >"$dir/out.txt" 2>&1 &
  pid=$!   # ./pacer execs the JVM: the same process
  threads "$pid" "$rate"
  wait "$pid" || true
  if [ -n "${WRK2:-}" ]; then
    echo "| $rate wrk2 | | | | |"
    "$WRK2" -t2 -c64 -d14s -R"$rate" "http://127.0.0.1:$port/" >"$dir/wrk2.txt" 2>&1 &
    wpid=$!
    threads "$wpid" "$rate"
    wait "$wpid" || true
  fi
done

#!/usr/bin/env bash
# pacer's CPU per request against wrk2's on a machine with many cores and no Maven, network, nginx, wrk2 or python
# (benchmarks/wakeups.sh's question, each party on its own cores). Two steps:
#   benchmarks/http-many-cores.sh pack DIR   # here: pacer.jar (built), a jlinked runtime, nginx and wrk2 (WRK2,
#                                            # default /tmp/wrk2/wrk) with the shared libraries ldd names in DIR
#   DIR/run.sh OUT                           # there (bash, awk, coreutils, taskset): one table, results.csv, the
#                                            # runs' own output and cpu.txt into OUT
# run.sh starts nginx (1 worker, `return 200 "ok\n"`, no access log, stub_status on /status) pinned to SERVER_CPUS
# (0-1), then for each round (ROUNDS, 2), rate (RATES, "20000 60000") and client, interleaved (the order reversed in
# every second round): pacer (default timing), pacer --pacing-tick 500us, pacer --pacing-tick 1ms and wrk2 -t2 -c64
# -R rate, each for DURATION (14s) pinned to CLIENT_CPUS (2-3; pacer's JVM also -XX:ActiveProcessorCount= their
# count), so the clients are judged as on a 2-core client box with the server elsewhere. Over WINDOW (8) steady
# seconds (pacer's: from its run's 3rd second, when its --csv file has its second row, after the JVM's start and
# the warm-ups; wrk2's: from its process's 4th second) it reads the client's CPU (utime + stime of /proc/PID/stat),
# its context switches (voluntary, involuntary: summed over /proc/PID/task/*/status), nginx's worker's CPU and the
# requests nginx served (stub_status, less the status requests themselves), and prints per run: requests/s, the
# client's CPU (% of a core, µs per request), switches per request, nginx's worker's CPU, and the client's own
# response p50/p99 (pacer: its --summary, the whole run; wrk2: its corrected --latency, after its calibration); then
# the mean over the rounds. The script itself runs on MEASURE_CPUS (4 to the last core where there are over 4).
# Time at the defaults: 2 rounds x 2 rates x (3 pacer runs of 14 s + 5-12 s of JVM start and warm-ups, 1 wrk2 run of
# 14 s) = 5 to 6 minutes; a run that would end past BUDGET (520) s from the start is skipped (SKIPPED in the table).
# Results: benchmarks/results/<date>-16-cores-http/ (OUT's table.txt, results.csv, cpu.txt). On a lent machine that
# runs a copy of this checkout: pack into target/hmc (target/ is git-ignored: carry it), `bash target/hmc/run.sh OUT`.
# MVN_ARGS adds Maven arguments to the pack's build (e.g. -Dmaven.repo.local=...).
# A small try on 2 cores: RATES=2000 DURATION=5s WINDOW=2 WRK_SKIP=2 ROUNDS=1 SERVER_CPUS=0 CLIENT_CPUS=1 DIR/run.sh OUT
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
[ "${1:-}" = pack ] && [ -n "${2:-}" ] || { sed -n "2,$(($(grep -n '^set -euo' "$0" | cut -d: -f1) - 1))p" "$0"; exit 2; }
dir="$(mkdir -p "$2" && cd "$2" && pwd)"
wrk2="${WRK2:-/tmp/wrk2/wrk}" nginx="${NGINX:-$(command -v nginx || echo /usr/sbin/nginx)}"
for f in "$wrk2" "$nginx"; do [ -x "$f" ] || { echo "http-many-cores: $f is missing" >&2; exit 1; }; done
. "$here/bin/jdk.sh"
pacer_find_jdk
pacer_require_maven
pacer_maven_opts
(cd "$here" && mvn -B -q -ntp -DskipTests ${MVN_ARGS:-} -pl cli -am package)
rm -rf "$dir/rt" "$dir/lib" "$dir/bin"
# java.naming and jdk.jfr, which jdeps names for netty, are never loaded by `run --op http` (checked with
# -Xlog:class+load); java.sql is the postgres ops'
"$JAVA_HOME/bin/jlink" \
  --add-modules java.base,java.management,jdk.management,java.net.http,jdk.httpserver,jdk.unsupported,java.logging,jdk.crypto.ec \
  --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$dir/rt"
strip --strip-unneeded "$dir/rt/lib/server/libjvm.so" 2>/dev/null || true
# pacer.jar without what `run --op http -q --no-console` never loads (-Xlog:class+load): the postgres and vert.x
# clients, the Prometheus endpoint, the console's jline, the scenario files' YAML parser
t="$(mktemp -d)"
(cd "$t" && unzip -q "$here/cli/target/pacer.jar" && rm -rf org/postgresql com/ongres io/vertx META-INF/vertx io/prometheus \
     org/jline org/yaml META-INF/native-image && rm -f "$dir/pacer.jar" && zip -qr9 "$dir/pacer.jar" .)
rm -rf "$t"
mkdir -p "$dir/bin" "$dir/lib"
cp "$nginx" "$dir/bin/nginx"
cp "$wrk2" "$dir/bin/wrk"
# every shared library but glibc's own (libc, libm, ld-linux: those of the machine that runs them must match)
for b in "$dir/bin/nginx" "$dir/bin/wrk"; do
  ldd "$b" | awk '$2 == "=>" && $3 ~ /^\// { print $3 }' | while read -r so; do
    case "$(basename "$so")" in
      libc.so*|libm.so*|libpthread.so*|libdl.so*|librt.so*|ld-linux*) ;;
      *) cp -L "$so" "$dir/lib/" ;;
    esac
  done
done
(cd "$here" && echo "commit $(git rev-parse HEAD)$( [ -n "$(git status --short -uno)" ] && echo ' (with changes)')"
 "$dir/bin/nginx" -v 2>&1; echo "wrk2 $wrk2"; "$JAVA_HOME/bin/java" -version 2>&1 | head -1) > "$dir/VERSION"
cat > "$dir/run.sh" <<'RUN'
#!/usr/bin/env bash
# OUT: the table (also on stdout), results.csv, cpu.txt, runs/ (each run's own output). See the pack's script.
set -u
cd "$(dirname "$0")"
D="$(pwd)"
[ -n "${1:-}" ] || { echo "usage: $0 OUT" >&2; exit 2; }
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
RATES="${RATES:-20000 60000}" ROUNDS="${ROUNDS:-2}" DURATION="${DURATION:-14s}" WINDOW="${WINDOW:-8}"
WRK_SKIP="${WRK_SKIP:-4}" PORT="${PORT:-18091}" SERVER_CPUS="${SERVER_CPUS:-0-1}" CLIENT_CPUS="${CLIENT_CPUS:-2-3}"
JAVA_OPTS="${JAVA_OPTS:--Xmx1g}" VARIANTS="${VARIANTS:-pacer pacer-500us pacer-1ms wrk2}" BUDGET="${BUDGET:-520}"
start="$(date +%s)" pacer_extra=15   # a pacer run's seconds beyond DURATION (JVM start, warm-ups), measured as it goes
n="$(nproc)"
MEASURE_CPUS="${MEASURE_CPUS-$( [ "$n" -gt 4 ] && echo "4-$((n - 1))")}"
die() { echo "http-many-cores: $*" | tee -a "$OUT/table.txt" >&2; exit 1; }
for tool in taskset awk timeout; do command -v $tool >/dev/null || die "needs $tool"; done
[ -x rt/bin/java ] && [ -f pacer.jar ] && [ -x bin/nginx ] && [ -x bin/wrk ] || die "rt/bin/java, pacer.jar, bin/nginx or bin/wrk missing in $D"
export LD_LIBRARY_PATH="$D/lib"
for b in bin/nginx bin/wrk; do
  miss="$(ldd "$b" 2>&1 | grep 'not found')" && die "$b: shared libraries not found: $miss"
done
[ -n "$MEASURE_CPUS" ] && { taskset -pc "$MEASURE_CPUS" $$ >/dev/null || die "taskset -pc $MEASURE_CPUS failed"; }
taskset -c "$SERVER_CPUS" true || die "SERVER_CPUS=$SERVER_CPUS: no such cores here ($n)"
taskset -c "$CLIENT_CPUS" true || die "CLIENT_CPUS=$CLIENT_CPUS: no such cores here ($n)"
ncl="$(taskset -c "$CLIENT_CPUS" nproc)"
tck="$(getconf CLK_TCK 2>/dev/null || echo 100)"
dur_s="$(echo "$DURATION" | awk '/ms$/ { print $0 / 1000; next } /m$/ { print $0 * 60; next } { print $0 + 0 }')"
{ echo "nproc $n"; command -v lscpu >/dev/null && { lscpu | grep -E "Model name|Socket|Core|Thread|NUMA|L3|MHz"
    lscpu -e=CPU,CORE,SOCKET,NODE 2>/dev/null; } || grep -m1 "model name" /proc/cpuinfo
  echo "clocksource $(cat /sys/devices/system/clocksource/clocksource0/current_clocksource 2>/dev/null)"
  echo "kernel $(uname -r)"; echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; cat VERSION 2>/dev/null; } > "$OUT/cpu.txt" 2>&1

# nginx: 1 worker, no access log, stub_status on /status
ng="$(mktemp -d)"
mkdir -p "$ng"/tmp/{body,proxy,fastcgi,uwsgi,scgi}
cat > "$ng/nginx.conf" <<CONF
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
daemon off;
worker_processes 1;
pid $ng/nginx.pid;
error_log $ng/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  keepalive_requests 100000000;
  client_body_temp_path $ng/tmp/body; proxy_temp_path $ng/tmp/proxy; fastcgi_temp_path $ng/tmp/fastcgi;
  uwsgi_temp_path $ng/tmp/uwsgi; scgi_temp_path $ng/tmp/scgi;
  server {
    listen 127.0.0.1:$PORT;
    location = /status { stub_status; }
    location / { return 200 "ok\n"; }
  }
}
CONF
cpid=""
cleanup() {
  [ -n "$cpid" ] && kill "$cpid" 2>/dev/null
  [ -n "${nginx_pid:-}" ] && { kill "$nginx_pid" 2>/dev/null; wait "$nginx_pid" 2>/dev/null; }
  cp "$ng/error.log" "$OUT/nginx-error.log" 2>/dev/null
  rm -rf "$ng"
}
trap cleanup EXIT
trap 'exit 130' INT TERM
taskset -c "$SERVER_CPUS" bin/nginx -p "$ng" -e "$ng/error.log" -c "$ng/nginx.conf" > "$OUT/nginx.out" 2>&1 &
nginx_pid=$!
for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break; sleep 0.1; done
# nginx's served requests (stub_status's third figure: it counts its own request too)
served() {
  local r
  r="$( (exec 3<>"/dev/tcp/127.0.0.1/$PORT" && printf 'GET /status HTTP/1.0\r\nHost: x\r\n\r\n' >&3 && timeout 5 cat <&3) 2>/dev/null \
    | awk '/server accepts handled requests/ { getline; print $3 }')"
  echo "${r:--}"
}
[ "$(served)" != - ] || { cat "$OUT/nginx.out" "$ng/error.log" >&2; die "nginx did not start on 127.0.0.1:$PORT (its output above)"; }
worker="$(cat "/proc/$nginx_pid/task/$nginx_pid/children" 2>/dev/null | awk '{ print $1 }')"
# one snapshot: time, nginx's count, client ticks, voluntary, involuntary, nginx worker ticks
snap() {
  local t s c w v
  t="$(date +%s.%N)"; s="$(served)"
  c="$(sed 's/.*) //' "/proc/$1/stat" 2>/dev/null | awk '{ print $12 + $13 }')"
  v="$(cat /proc/"$1"/task/*/status 2>/dev/null \
    | awk '/^voluntary_ctxt_switches/ { v += $2 } /^nonvoluntary_ctxt_switches/ { i += $2 } END { print v + 0, i + 0 }')"
  w="$( [ -n "$worker" ] && sed 's/.*) //' "/proc/$worker/stat" 2>/dev/null | awk '{ print $12 + $13 }')"
  echo "$t $s ${c:--} $v ${w:--}"
}
# whether PID runs (not gone, not a zombie)
alive() { local s; s="$(sed 's/.*) //; s/ .*//' "/proc/$1/stat" 2>/dev/null)"; [ -n "$s" ] && [ "$s" != Z ]; }
# sleeps until the epoch second $1 (fractional)
sleep_until() { local d; d="$(awk -v a="$1" -v b="$(date +%s.%N)" 'BEGIN { d = a - b; print (d > 0 ? d : 0) }')"; sleep "$d"; }
# ms from a "50.000%  1.23ms" / "p50: 1.2 ms" style value: prints ms
pct_wrk() { # FILE PCT
  awk -v p="$2" '$1 == p { v = $2; u = v; sub(/[0-9.]+/, "", u); sub(/[a-z]+$/, "", v)
    print v * (u == "us" ? 0.001 : u == "s" ? 1000 : u == "m" ? 60000 : 1); exit }' "$1"
}
pct_pacer() { # SUMMARY.json PCT: the response histogram's percentile, ms (the summary's ns)
  tr -d ' \n\t' < "$1" | awk -v p="$2" '{ i = index($0, "\"response\":"); if (!i) exit; s = substr($0, i)
    i = index(s, "\"percentiles\":"); if (!i) exit; s = substr(s, i)
    i = index(s, "\"" p "\":"); if (!i) exit; s = substr(s, i + length(p) + 3)
    match(s, /^[0-9.eE+-]+/); printf "%.3f", substr(s, 1, RLENGTH) / 1e6 }'
}

hdr="$(printf '| %-5s | %-6s | %-11s | %-9s | %-7s | %-8s | %-9s | %-9s | %-7s | %-8s | %-8s | %s' round rate client \
  "req/s" "CPU %" "µs/req" "vol/req" "invol/req" "nginx %" "p50 ms" "p99 ms" note)"
echo "http-many-cores $(date -u +%Y-%m-%dT%H:%MZ): nginx 1 worker on cores $SERVER_CPUS; client on cores $CLIENT_CPUS" \
  "($ncl, -XX:ActiveProcessorCount=$ncl); this script on ${MEASURE_CPUS:-any}; $n cores; rates $RATES; $ROUNDS rounds;" \
  "$DURATION runs, ${WINDOW} s windows (pacer: from its run's 3rd s; wrk2: from its process's s $WRK_SKIP)" | tee "$OUT/table.txt"
echo "$hdr |" | tee -a "$OUT/table.txt"
echo "round,rate,client,window_s,requests,req_per_s,cpu_pct,us_per_req,vol_per_req,invol_per_req,nginx_cpu_pct,p50_ms,p99_ms,exit,window_from_s,wall_s" \
  > "$OUT/results.csv"
mkdir -p "$OUT/runs"

# one run: ROUND RATE VARIANT
one() {
  local round=$1 rate=$2 v=$3 base="$OUT/runs/r$1-$2-$3" flags="" a b t0 rc note="" p50 p99 line need
  # the time budget: a run that would end after BUDGET seconds from the start is skipped
  case $v in pacer*) need=$pacer_extra ;; *) need=2 ;; esac
  need="$(awk -v d="$dur_s" -v e="$need" 'BEGIN { printf "%d", d + e + 1 }')"
  if [ $(( $(date +%s) - start + need )) -gt "$BUDGET" ]; then
    printf '| %-5s | %-6s | %-11s | SKIPPED: %s s would pass the BUDGET of %s s |\n' "$round" "$rate" "$v" \
      "$(( $(date +%s) - start + need ))" "$BUDGET" | tee -a "$OUT/table.txt"
    return
  fi
  rm -f "$base".*
  t0="$(date +%s.%N)"
  case $v in
    pacer*)
      case $v in pacer-*) flags="--pacing-tick ${v#pacer-}" ;; esac
      taskset -c "$CLIENT_CPUS" rt/bin/java --enable-native-access=ALL-UNNAMED -XX:+UseSerialGC \
        -XX:PerMethodTrapLimit=0 -XX:PerBytecodeTrapLimit=0 -XX:ActiveProcessorCount="$ncl" $JAVA_OPTS \
        -cp pacer.jar dev.pacer.cli.PacerCommand run --op http --url "http://127.0.0.1:$PORT/" --rate "$rate" \
        --duration "$DURATION" -q --no-console --interval 1s --csv "$base.csv" --summary "$base.json" $flags \
        > "$base.out" 2>&1 < /dev/null &
      cpid=$!
      # the window starts when the run's CSV has its second row (the run's 3rd second)
      local waited=0
      while alive "$cpid" && [ "$(cat "$base.csv" 2>/dev/null | wc -l)" -lt 3 ] && [ $waited -lt 1200 ]; do
        sleep 0.05; waited=$((waited + 1))
      done ;;
    wrk2)
      taskset -c "$CLIENT_CPUS" bin/wrk -t2 -c64 -d"$DURATION" -R"$rate" --latency "http://127.0.0.1:$PORT/" \
        > "$base.out" 2>&1 < /dev/null &
      cpid=$!
      sleep_until "$(awk -v a="$t0" -v s="$WRK_SKIP" 'BEGIN { printf "%.3f", a + s }')" ;;
  esac
  a="$(snap "$cpid")"
  if alive "$cpid"; then
    sleep_until "$(echo "$a" | awk -v w="$WINDOW" '{ printf "%.3f", $1 + w }')"
    b="$(snap "$cpid")"
  fi
  alive "$cpid" || { b="$a"; note="ended before its window did"; }
  # the client runs out its duration (a watchdog: DURATION + 60 s from its start)
  local limit; limit="$(awk -v a="$t0" -v d="$dur_s" 'BEGIN { printf "%d", a + d + 60 }')"
  while alive "$cpid" && [ "$(date +%s)" -lt "$limit" ]; do sleep 0.2; done
  alive "$cpid" && { kill "$cpid" 2>/dev/null; note="killed after $((limit - ${t0%.*})) s"; }
  wait "$cpid"; rc=$?
  cpid=""
  local t1; t1="$(date +%s.%N)"
  case $v in pacer*) [ "$rc" -eq 0 ] && pacer_extra="$(awk -v a="$t0" -v b="$t1" -v d="$dur_s" 'BEGIN { e = b - a - d
    printf "%d", e < 5 ? 5 : e + 1 }')" ;; esac
  case $v in
    pacer*) p50="$(pct_pacer "$base.json" 50 2>/dev/null)"; p99="$(pct_pacer "$base.json" 99 2>/dev/null)" ;;
    wrk2) p50="$(pct_wrk "$base.out" 50.000%)"; p99="$(pct_wrk "$base.out" 99.000%)" ;;
  esac
  [ "$rc" -ne 0 ] && note="${note:+$note; }exit $rc"
  line="$(awk -v a="$a" -v b="$b" -v tck="$tck" -v round="$round" -v rate="$rate" -v v="$v" -v p50="${p50:--}" \
      -v p99="${p99:--}" -v rc="$rc" -v note="$note" -v csv="$OUT/results.csv" -v t0="$t0" -v t1="$t1" 'BEGIN {
    split(a, x, " "); split(b, y, " ")
    dt = y[1] - x[1]; req = y[2] - x[2] - 1
    if (x[2] == "-" || y[2] == "-" || x[3] == "-" || y[3] == "-" || req <= 0 || dt <= 0) {
      printf "| %-5s | %-6s | %-11s | FAILED: no window (client or nginx gone: see runs/) %s |\n", round, rate, v, note; exit }
    cpu = (y[3] - x[3]) / tck; ng = (x[6] == "-" || y[6] == "-") ? -1 : (y[6] - x[6]) / tck / dt * 100
    printf "| %-5s | %-6s | %-11s | %9.0f | %5.1f %% | %8.2f | %9.3f | %9.3f | %7s | %8s | %8s | %s |\n", round, rate, v,
      req / dt, cpu / dt * 100, cpu * 1e6 / req, (y[4] - x[4]) / req, (y[5] - x[5]) / req,
      ng < 0 ? "-" : sprintf("%5.1f %%", ng), p50, p99, note
    printf "%s,%s,%s,%.3f,%d,%.0f,%.2f,%.3f,%.4f,%.4f,%s,%s,%s,%s,%.1f,%.1f\n", round, rate, v, dt, req, req / dt,
      cpu / dt * 100, cpu * 1e6 / req, (y[4] - x[4]) / req, (y[5] - x[5]) / req, ng < 0 ? "" : sprintf("%.1f", ng),
      p50 == "-" ? "" : p50, p99 == "-" ? "" : p99, rc, x[1] - t0, t1 - t0 >> csv }')"
  echo "$line" | tee -a "$OUT/table.txt"
  case $line in *FAILED*) tail -n 5 "$base.out" 2>/dev/null | sed 's/^/    /' | tee -a "$OUT/table.txt" ;; esac
}

for r in $(seq "$ROUNDS"); do
  order="$VARIANTS"
  [ $((r % 2)) -eq 0 ] && order="$(echo $VARIANTS | awk '{ for (i = NF; i > 0; i--) printf "%s%s", $i, (i > 1 ? " " : "") }')"
  for rate in $RATES; do
    for v in $order; do
      one "$r" "$rate" "$v"
    done
  done
done
# the mean over the rounds, per rate and client
{ echo; echo "mean over the rounds:"
  printf '| %-6s | %-11s | %-9s | %-7s | %-8s | %-9s | %-9s | %-7s | %-8s | %-8s |\n' rate client "req/s" "CPU %" "µs/req" \
    "vol/req" "invol/req" "nginx %" "p50 ms" "p99 ms"
  awk -F, 'NR > 1 { k = $2 "," $3; if (!(k in n)) o[++m] = k; n[k]++; for (i = 6; i <= 13; i++) s[k, i] += $i }
    END { for (j = 1; j <= m; j++) { k = o[j]; split(k, q, ",")
      printf "| %-6s | %-11s | %9.0f | %5.1f %% | %8.2f | %9.3f | %9.3f | %5.1f %% | %8.3f | %8.3f |\n", q[1], q[2],
        s[k, 6] / n[k], s[k, 7] / n[k], s[k, 8] / n[k], s[k, 9] / n[k], s[k, 10] / n[k], s[k, 11] / n[k],
        s[k, 12] / n[k], s[k, 13] / n[k] } }' "$OUT/results.csv" | sort -t'|' -k2,2n -s
  echo "took $(( $(date +%s) - start )) s"; } | tee -a "$OUT/table.txt"
RUN
chmod +x "$dir/run.sh"
du -sh "$dir"

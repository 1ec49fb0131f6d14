#!/usr/bin/env bash
# The http op against a local nginx (issue #6): the highest rate pacer holds within ±1 % (10 s runs), next
# to wrk's closed-loop throughput against the same nginx in the same session. Client and server share
# this machine's cores. Needs nginx and wrk (apt-get install nginx wrk). Run on a quiet machine:
#   benchmarks/http-figures.sh                     # RATES="5000 10000 ..." THREADS=... RUNS=3 to change
set -euo pipefail
cd "$(dirname "$0")/.."
for tool in nginx wrk python3; do
  command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "http-figures: needs $tool (apt-get install nginx wrk)" >&2; exit 1; }
done
RATES="${RATES:-5000 10000 15000 20000 25000 30000 35000 40000}"
THREADS="${THREADS:-256}"
RUNS="${RUNS:-3}"
dir="$(mktemp -d)"
port="${PORT:-18089}"
mkdir -p "$dir"/tmp/{body,proxy,fastcgi,uwsgi,scgi}
cat > "$dir/nginx.conf" <<CONF
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
daemon off;
worker_processes auto;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path $dir/tmp/body; proxy_temp_path $dir/tmp/proxy; fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi; scgi_temp_path $dir/tmp/scgi;
  keepalive_requests 10000000;
  server { listen 127.0.0.1:$port; location / { return 200 "ok\n"; } }
}
CONF
nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
"$nginx_bin" -p "$dir" -c "$dir/nginx.conf" &
nginx_pid=$!
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
sleep 1
url="http://127.0.0.1:$port/"
./pacer --version >/dev/null
median() { python3 -c "import sys,statistics; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }

echo "nginx $("$nginx_bin" -v 2>&1 | sed 's/.*nginx\///'), worker_processes auto, $(nproc) cores shared with the client"
wrk_rates=()
for _ in $(seq "$RUNS"); do
  wrk_rates+=("$(wrk -t2 -c64 -d10s "$url" | awk '/Requests\/sec/ {print $2}')")
done
printf 'wrk -t2 -c64 -d10s (closed loop): median %.0f req/s (%s)\n' "$(median "${wrk_rates[@]}")" "${wrk_rates[*]}"

pacer_run() { # rate -> "achieved waitP99ns errors"
  ./pacer run --rate "$1" --duration 10s --threads "$THREADS" --virtual --op http --url "$url" \
      -q --no-console --summary "$dir/s.json" >/dev/null 2>&1 </dev/null || true
  python3 -c "import json; d=json.load(open('$dir/s.json')); print(d['achievedRate'], d['wait']['percentiles']['99'], d['errors'])"
}
best=0
for rate in $RATES; do
  read -r achieved p99 errors <<<"$(pacer_run "$rate")"
  ok=$(python3 -c "print(int(abs($achieved-$rate) <= 0.01*$rate and $errors == 0))")
  printf 'pacer --rate %-6s --threads %s --virtual: achieved %8.1f req/s (%+.2f %%), wait p99 %.1f ms, errors %s%s\n' \
      "$rate" "$THREADS" "$achieved" "$(python3 -c "print(100*($achieved-$rate)/$rate)")" \
      "$(python3 -c "print($p99/1e6)")" "$errors" "$([ "$ok" = 1 ] && echo '' || echo '  <- not held')"
  [ "$ok" = 1 ] || break
  best=$rate
done
if [ "$best" = 0 ]; then
  echo "highest rate held within ±1 %: none of RATES=\"$RATES\" (try lower rates)"
  exit 0
fi
held=()
for _ in $(seq "$RUNS"); do
  read -r achieved _ _ <<<"$(pacer_run "$best")"
  held+=("$achieved")
done
printf 'highest rate held within ±1 %%: %s req/s; %s runs there achieved %s (median %.1f)\n' "$best" "$RUNS" "${held[*]}" "$(median "${held[@]}")"

#!/usr/bin/env bash
# An nginx on loopback that answers docs/shop.yaml (the README's and docs/workloads.md's workload), until Ctrl-C:
#   benchmarks/shop-server.sh [PORT]      # 18080, the port docs/shop.yaml names
# then, in another terminal: ./pacer run docs/shop.yaml --rate 5k --duration 10s
set -euo pipefail
cd "$(dirname "$0")/.."
command -v nginx >/dev/null || [ -x /usr/sbin/nginx ] || { echo "shop-server: needs nginx (apt install nginx)" >&2; exit 1; }
port="${1:-18080}"
dir="$(mktemp -d)"
. benchmarks/nginx-server.sh
trap 'kill $nginx_pid 2>/dev/null; wait $nginx_pid 2>/dev/null; rm -rf "$dir"' EXIT
nginx_start "$dir" "$port" "access_log off;" "$SHOP_LOCATIONS"
(exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null || { cat "$dir/error.log" >&2; echo "shop-server: nginx did not start on $port" >&2; exit 1; }
echo "shop-server: nginx answers docs/shop.yaml on http://127.0.0.1:$port (Ctrl-C stops it)"
wait "$nginx_pid"

# Sourced by the figure scripts: one nginx (1 worker, keep-alive without limit) on loopback for their runs.
#   nginx_start DIR PORT LOG LOCATIONS
# writes DIR/nginx.conf (LOG: the http block's access_log lines, e.g. "access_log off;"; LOCATIONS: the server's
# location blocks), starts nginx in the background from DIR (its pid in nginx_pid, its binary in nginx_bin) and
# waits until PORT takes connections. The caller kills it (a trap on EXIT).
nginx_start() {
  local dir="$1" port="$2" log="$3" locations="$4"
  mkdir -p "$dir"/tmp/{body,proxy,fastcgi,uwsgi,scgi}
  cat > "$dir/nginx.conf" <<CONF
$( [ "$(id -u)" -eq 0 ] && echo "user root;" )
daemon off;
worker_processes 1;
pid $dir/nginx.pid;
error_log $dir/error.log warn;
events { worker_connections 8192; }
http {
  $log
  keepalive_requests 100000000;
  client_body_temp_path $dir/tmp/body; proxy_temp_path $dir/tmp/proxy; fastcgi_temp_path $dir/tmp/fastcgi;
  uwsgi_temp_path $dir/tmp/uwsgi; scgi_temp_path $dir/tmp/scgi;
  server {
    listen 127.0.0.1:$port;
    $locations
  }
}
CONF
  nginx_bin="$(command -v nginx || echo /usr/sbin/nginx)"
  "$nginx_bin" -p "$dir" -c "$dir/nginx.conf" &
  nginx_pid=$!
  for _ in $(seq 50); do (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null && break; sleep 0.1; done
}

# The locations that answer docs/shop.yaml as its checks expect (a JSON item with its /id, 'added', a 201 with an
# orderId, 'paid'); anything else 404. For nginx_start's LOCATIONS.
SHOP_LOCATIONS=$(cat <<'NGINX'
location ~ ^/items/([0-9]+)$ { default_type application/json; return 200 '{"id": $1, "name": "item $1"}'; }
    location ~ ^/users/([0-9]+)/cart$ { return 201 'added'; }
    location ~ ^/users/([0-9]+)/orders$ { default_type application/json; return 201 '{"orderId": "o-$1"}'; }
    location ~ ^/orders/o-([0-9]+)/pay$ { return 200 'paid'; }
    location / { return 404; }
NGINX
)

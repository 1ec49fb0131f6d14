#!/usr/bin/env bash
# A/B of two benchmarks jars in one session, forks interleaved (old, new, new, old, ...), so drift in the
# machine's load falls on both. By hand, on a machine as quiet as you can get:
#   benchmarks/ab-jmh.sh OLD.jar NEW.jar ROUNDS [JMH args...]
#   benchmarks/ab-jmh.sh /tmp/main.jar benchmarks/target/benchmarks.jar 3 'AcquireBenchmark.pacer' -t 2
# Each round runs one fork of each jar (-f 1); prints per benchmark and thread count the median of the
# forks, old and new, their ranges and the change. Build a jar of another commit with
#   git archive COMMIT | tar -x -C DIR && (cd DIR && mvn -q -DskipTests -pl benchmarks -am package)
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
. "$here/bin/jdk.sh"
pacer_find_jdk
old="$1" new="$2" rounds="$3"; shift 3
out="$(mktemp -d)"
for r in $(seq "$rounds"); do
  if [ $((r % 2)) -eq 1 ]; then order="old new"; else order="new old"; fi
  for which in $order; do
    jar="$old"; [ "$which" = new ] && jar="$new"
    "$JAVA_HOME/bin/java" -jar "$jar" "$@" -f 1 -rf json -rff "$out/$which-$r.json" >"$out/$which-$r.log" 2>&1
  done
done
python3 - "$out" <<'PY'
import glob, json, statistics, sys
out = sys.argv[1]
res = {}
for which in ("old", "new"):
    for path in sorted(glob.glob(f"{out}/{which}-*.json")):
        for b in json.load(open(path)):
            params = ",".join(f"{k}={v}" for k, v in sorted((b.get("params") or {}).items()))
            key = (b["benchmark"].rsplit(".", 1)[1] + (f" ({params})" if params else ""), b["threads"])
            res.setdefault(key, {"old": [], "new": []})[which].append(b["primaryMetric"]["score"])
print("| benchmark | threads | old median (forks) | new median (forks) | change |")
print("|---|---:|---:|---:|---:|")
for (name, t), v in sorted(res.items()):
    o, n = statistics.median(v["old"]), statistics.median(v["new"])
    fmt = lambda xs: ", ".join(f"{x:.1f}" for x in xs)
    print(f"| {name} | {t} | {o:.1f} ({fmt(v['old'])}) | {n:.1f} ({fmt(v['new'])}) | {100 * (n - o) / o:+.1f} % |")
PY
echo "(JMH logs and JSON in $out)"

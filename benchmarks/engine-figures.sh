#!/usr/bin/env bash
# End-to-end figures of 'pacer run' (issue #3), each the median of RUNS runs. Run on a quiet machine:
#   benchmarks/engine-figures.sh            # RUNS=3 by default
# Prints one table row per measurement. Uses ./pacer (which builds the jar on first use) and python3
# to read the JSON summaries and /proc/PID/stat.
set -euo pipefail
cd "$(dirname "$0")/.."
RUNS="${RUNS:-3}"
out="$(mktemp -d)"
./pacer --version >/dev/null   # build once, outside the timed runs

field() { python3 -c "import json,sys; print(json.load(open(sys.argv[1]))[sys.argv[2]])" "$1" "$2"; }
median() { python3 -c "import sys,statistics; print(statistics.median(float(x) for x in sys.argv[1:]))" "$@"; }

# achieved rate of a run: prints ops/s
achieved() {
  ./pacer run "$@" -q --no-console --summary "$out/s.json" >/dev/null 2>&1 </dev/null
  field "$out/s.json" achievedRate
}

row() { # label, target (or -), runs' rates...
  local label="$1" target="$2"; shift 2
  local m; m="$(median "$@")"
  if [ "$target" = "-" ]; then
    printf '| %-42s | %14.0f | %-10s | %s |\n' "$label" "$m" "-" "$*"
  else
    printf '| %-42s | %14.2f | %+9.3f%% | %s |\n' "$label" "$m" "$(python3 -c "print(100*($m-$target)/$target)")" "$*"
  fi
}

echo "| run | median achieved ops/s | vs target | each run |"
echo "|---|---:|---:|---|"
for spec in "unpaced noop, 2 threads, 10 s|-|--threads 2 --duration 10s" \
            "1M ops/s noop, 2 threads, 10 s|1000000|--rate 1M --threads 2 --duration 10s" \
            "100k ops/s noop, 2 threads, 10 s|100000|--rate 100k --threads 2 --duration 10s" \
            "1000 ops/s noop, 2 threads, 10 s|1000|--rate 1000 --threads 2 --duration 10s" \
            "10 ops/s noop, 2 threads, 10 s|10|--rate 10 --threads 2 --duration 10s"; do
  IFS='|' read -r label target args <<<"$spec"
  rates=()
  for _ in $(seq "$RUNS"); do
    # shellcheck disable=SC2086
    rates+=("$(achieved $args)")
  done
  row "$label" "$target" "${rates[@]}"
done

# Idle efficiency: CPU ticks of the JVM between second 8 and second 18 of a 20 s run, 64 threads at 1000 ops/s.
hz="$(getconf CLK_TCK)"
cpus=()
for _ in $(seq "$RUNS"); do
  ./pacer run --rate 1000 --threads 64 --duration 20s -q --no-console >/dev/null 2>&1 </dev/null &
  launcher=$!
  sleep 3
  pid="$(pgrep -f 'dev.pacer.cli.PacerCommand run --rate 1000 --threads 64' | head -n 1)"
  sleep 5
  t0="$(awk '{print $14+$15}' "/proc/$pid/stat")"
  sleep 10
  t1="$(awk '{print $14+$15}' "/proc/$pid/stat")"
  wait "$launcher" || true
  cpus+=("$(python3 -c "print(100*($t1-$t0)/$hz/10)")")
done
printf '| %-42s | %13.2f%% | %-10s | %s |\n' "64 threads at 1000 ops/s: CPU of one core" "$(median "${cpus[@]}")" "< 5 %" "${cpus[*]}"
rm -rf "$out"

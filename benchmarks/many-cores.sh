#!/usr/bin/env bash
# The limiter on a machine with many cores and no Maven or network (issue #30). Two steps:
#   benchmarks/many-cores.sh pack DIR [OLD_COMMIT]   # here: a jlinked runtime, a slim JMH jar of this tree and one
#                                                    # of OLD_COMMIT (default 9e2ae1f, before the scaling fix) in DIR
#   DIR/run.sh OUT                                   # there: AcquireBenchmark old vs new, peers and floors at
#                                                    # 1..16 threads, the scaling proxy; CSV and text into OUT
#   DIR/run-strict.sh OUT                            # there: strict and burst, old vs new, against Resilience4j
#                                                    # and the floors of a strict grant (ROUNDS=2)
# The run takes about 6 minutes on 16 cores. Each side is a whole benchmarks jar built from its own commit (the
# limiter's classes moved packages since 9e2ae1f, so one jar cannot shadow the other's); results:
# benchmarks/results/<date>-16-cores/, docs/limiters.md.
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
[ "${1:-}" = pack ] && [ -n "${2:-}" ] || { sed -n 2,11p "$0"; exit 2; }
dir="$(mkdir -p "$2" && cd "$2" && pwd)" old="${3:-9e2ae1f}"
. "$here/bin/jdk.sh"
pacer_find_jdk
pacer_require_maven
pacer_maven_opts
(cd "$here" && mvn -B -q -ntp -DskipTests -pl benchmarks -am package)
rm -rf "$dir/rt"
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.management,jdk.management,jdk.unsupported,java.logging \
  --strip-debug --no-header-files --no-man-pages --compress=zip-9 --output "$dir/rt"
strip --strip-unneeded "$dir/rt/lib/server/libjvm.so" 2>/dev/null || true # 29 MB -> 25 MB where binutils is at hand
slim() { # JAR OUT: the JMH jar without what the limiter's benchmarks never load
  local t; t="$(mktemp -d)"
  (cd "$t" && unzip -q "$1" \
    && rm -rf io/netty com/fasterxml io/prometheus org/postgresql org/yaml org/HdrHistogram dev/pacer/engine \
       META-INF/native-image && rm -f "$2" && zip -qr9 "$2" .)
  rm -rf "$t"
}
slim "$here/benchmarks/target/benchmarks.jar" "$dir/bench.jar"
work="$(mktemp -d)"
git -C "$here" archive "$old" | tar -x -C "$work"
(cd "$work" && mvn -B -q -ntp -DskipTests -Dcheckstyle.skip -pl benchmarks -am package)
slim "$work/benchmarks/target/benchmarks.jar" "$dir/old-bench.jar"
rm -rf "$work"
cat > "$dir/run.sh" <<'RUN'
#!/usr/bin/env bash
set -u
cd "$(dirname "$0")"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
J=rt/bin/java NEW=bench.jar OLD=old-bench.jar W="-wi 2 -w 1s -i 3 -r 1s"
(nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA|L3") > "$OUT/cpu.txt" 2>&1
jmh() { # label classpath forks threads regex [JMH args]
  local label=$1 cp=$2 f=$3 t=$4 re=$5; shift 5
  $J -cp $cp org.openjdk.jmh.Main "$re" -f $f -t $t $W "$@" -rf csv -rff /tmp/r.csv >> "$OUT/log.txt" 2>&1 \
    || echo "FAILED $label $t $re" >> "$OUT/log.txt"
  tail -n +2 /tmp/r.csv | sed "s/^/$label,$t,/" >> "$OUT/results.csv"
}
$J -Xms512m -Xmx512m -Dpacer.limiter.count=true -cp $NEW dev.pacer.benchmarks.ScalingProxy 400 1,2,4,8,16 \
  > "$OUT/proxy.txt" 2>&1
for t in 1 2 4 8 16; do
  jmh old $OLD 1 $t 'AcquireBenchmark.pacerAcquire(Grant)?$'
  jmh new $NEW 2 $t 'AcquireBenchmark.pacerAcquire(Grant)?$'
  jmh new $NEW 2 $t 'AcquireBenchmark.pacerAcquireGrant$' -p strictness=1,1.1
  jmh new $NEW 1 $t 'AcquireBenchmark.(guavaAcquire|resilience4jAcquirePermission|floorGetAndAdd)$'
done
RUN
cat > "$dir/run-strict.sh" <<'RUN'
#!/usr/bin/env bash
# Strict (1) and burst (1.1) modes, old jar and this tree's, against Resilience4j and the floors a strict grant
# stands on (a clock read, a CAS, both), ROUNDS rounds, the order reversed in every second one.
set -u
cd "$(dirname "$0")"
OUT="$(mkdir -p "$1" && cd "$1" && pwd)"
J=rt/bin/java W="${W:--wi 2 -w 500ms -i 3 -r 1s}" ROUNDS="${ROUNDS:-2}"
(nproc; lscpu | grep -E "Model name|Socket|Core|Thread|NUMA|L3"
 cat /sys/devices/system/clocksource/clocksource0/current_clocksource) > "$OUT/cpu.txt" 2>&1
one() { # label jar threads regex [JMH args]
  local label=$1 jar=$2 t=$3 re=$4; shift 4
  $J -cp $jar org.openjdk.jmh.Main "$re" -f 1 -t $t $W "$@" -rf csv -rff /tmp/r.csv >> "$OUT/log.txt" 2>&1 \
    || echo "FAILED $label $t $re" >> "$OUT/log.txt"
  tail -n +2 /tmp/r.csv | sed "s/^/$label,$t,/" >> "$OUT/strict.csv"
}
for r in $(seq "$ROUNDS"); do
  order="old new r4j floor"
  [ $((r % 2)) -eq 0 ] && order="floor r4j new old"
  for t in ${THREADS:-1 2 4 8 16}; do
    for v in $order; do
      case $v in
        old) one old old-bench.jar $t 'AcquireBenchmark.pacerAcquireGrant$' -p strictness=1,1.1 ;;
        new) one new bench.jar $t 'AcquireBenchmark.pacerAcquireGrant$' -p strictness=1,1.1 ;;
        r4j) one r4j bench.jar $t 'AcquireBenchmark.resilience4jAcquirePermission$' ;;
        floor) [ "$r" -eq 1 ] && one floor bench.jar $t 'AcquireBenchmark.floor(NanoTime|Cas|ClockCas)$' ;;
      esac
    done
  done
done
RUN
chmod +x "$dir/run.sh" "$dir/run-strict.sh"
du -sh "$dir"

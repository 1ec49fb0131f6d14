#!/usr/bin/env bash
# The scaling proxy (issue #30): per acquire, the atomic limiter's adds on `allocated`, stores to the clock line
# and slow passes, with 0 .. 10 µs of injected time per op, at 1, 2, 4 and 16 threads. By hand, never in CI:
#   benchmarks/scaling-proxy.sh                  # builds benchmarks.jar, 500 ms per row
#   benchmarks/scaling-proxy.sh 1000 1,16        # 1 s per row, 1 and 16 threads
#   JAR=/tmp/old/benchmarks.jar benchmarks/scaling-proxy.sh   # another build, to compare
# The limiter before issue #30 with these counters is commit 994abd2:
#   git archive 994abd2 | tar -x -C /tmp/old && (cd /tmp/old && mvn -q -DskipTests -pl benchmarks -am package)
# Columns per acquire: adds and CASes on `allocated`, stores to the clock line, slow passes (target: <= 0.05 each).
set -euo pipefail
here="$(cd "$(dirname "$0")/.." && pwd)"
. "$here/bin/jdk.sh"
pacer_find_jdk
if [ -z "${JAR:-}" ]; then
  pacer_require_maven
  pacer_maven_opts
  (cd "$here" && mvn -B -q -ntp -DskipTests -pl benchmarks -am package)
  JAR="$here/benchmarks/target/benchmarks.jar"
fi
exec "$JAVA_HOME/bin/java" -Xms512m -Xmx512m -Dpacer.limiter.count=true -cp "$JAR" \
  dev.pacer.benchmarks.ScalingProxy "$@"

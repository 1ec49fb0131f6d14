# Sourced by ./pacer, ./run-tests and .ci/run: finds a JDK >= 21 and exports JAVA_HOME.
# Order: $JAVA_HOME, the javac on PATH, then every JDK under /usr/lib/jvm (newest first;
# PACER_JVM_DIR overrides that folder, which is how the failure path is tested).
# On failure it prints one sentence to stderr and returns 1. A missing or empty JVM folder is no failure
# (macOS, container images): JAVA_HOME or PATH may still name a JDK.

PACER_MIN_JAVA=21

# Prints the feature version (17, 21, 25, ...) of the JDK at $1, or nothing if it is not a JDK.
pacer_jdk_version() {
  [ -x "$1/bin/java" ] && [ -x "$1/bin/javac" ] || return 1
  "$1/bin/java" -XshowSettings:properties -version 2>&1 \
    | awk -F'= ' '/java.specification.version/ { print $2; exit }'
}

pacer_find_jdk() {
  candidates=""
  [ -n "${JAVA_HOME:-}" ] && candidates="$JAVA_HOME"
  if command -v javac >/dev/null 2>&1; then
    candidates="$candidates
$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")"
  fi
  candidates="$candidates
$({ ls -d "${PACER_JVM_DIR:-/usr/lib/jvm}"/*/ 2>/dev/null || true; } | sed 's:/$::' | sort -rV)"
  seen=""
  while IFS= read -r home; do
    [ -n "$home" ] || continue
    case " $seen " in *" $home "*) continue ;; esac
    seen="$seen $home"
    v=$(pacer_jdk_version "$home") || continue
    case "$v" in ''|*[!0-9]*) continue ;; esac
    if [ "$v" -ge "$PACER_MIN_JAVA" ]; then
      export JAVA_HOME="$home"
      export PATH="$JAVA_HOME/bin:$PATH"
      return 0
    fi
  done <<EOF_CANDIDATES
$candidates
EOF_CANDIDATES
  echo "pacer needs a JDK $PACER_MIN_JAVA or newer, and none was found in JAVA_HOME, on PATH or under /usr/lib/jvm: install one (e.g. apt-get install openjdk-21-jdk-headless) or set JAVA_HOME." >&2
  return 1
}

pacer_require_maven() {
  command -v mvn >/dev/null 2>&1 && return 0
  echo "pacer builds with Apache Maven and no 'mvn' is on PATH: install it (e.g. apt-get install maven)." >&2
  return 1
}

# Maven 3.8 on JDK 24+ warns about sun.misc.Unsafe on every run; allow it so output stays readable.
pacer_maven_opts() {
  v=$(pacer_jdk_version "$JAVA_HOME")
  if [ -n "$v" ] && [ "$v" -ge 24 ]; then
    case " ${MAVEN_OPTS:-} " in
      *sun-misc-unsafe-memory-access*) ;;
      *) export MAVEN_OPTS="${MAVEN_OPTS:-} --sun-misc-unsafe-memory-access=allow" ;;
    esac
  fi
}

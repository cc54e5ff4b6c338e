# Sourced by examples/study-*/run.sh: builds the example program in $here on first use, or when its sources or
# the library's changed (unless TUNEKIT_NO_BUILD is set), in the repository's reactor with the profile
# study-examples, which hands the program this checkout's tunekit-study without installing anything; offline once
# Maven has everything, online the first time. Leaves its class path in $classpath.
here="$(cd "$(dirname "${BASH_SOURCE[1]}")" && pwd)"
home="$(cd "$here/../.." && pwd)"
example="$(basename "$here")"
classpath="$here/target/classpath.txt"

needs_build=""
if [ ! -f "$classpath" ]; then
  needs_build="first use"
elif [ -z "${TUNEKIT_NO_BUILD:-}" ]; then
  changed="$(find "$here/src" "$here/pom.xml" "$home/pom.xml" "$home/sdk" "$home/tuners" "$home/assessors" "$home/experiment-db" "$home/study" \
      \( -path '*/src/main/*' -o -name pom.xml \) -newer "$classpath" -print -quit 2>/dev/null || true)"
  [ -n "$changed" ] && needs_build="sources changed ($changed)"
fi
if [ -n "$needs_build" ]; then
  echo "$example: building ($needs_build)..." >&2
  build() { (cd "$home" && ./mvnw -B -ntp -q "$@" -Pstudy-examples -pl "examples/$example" -am package -DskipTests -Djazzer.skip) >&2; }
  build -o 2>/dev/null || build
  touch "$classpath"
fi

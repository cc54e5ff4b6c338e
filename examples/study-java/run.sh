#!/usr/bin/env bash
# Tunes XGBoost on the breast cancer data with tunekit-study: builds the program on first use (or when the
# sources changed), then runs it. Arguments go to the program: --trials N, --threads N, --storage FOLDER,
# --postgres JDBC_URL; --build alone only builds it.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="$(cd "$here/../.." && pwd)"
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
  echo "study-java: building ($needs_build)..." >&2
  # in the repository's reactor, which hands the program this checkout's tunekit-study; offline once Maven has
  # everything, online the first time
  build() { (cd "$home" && ./mvnw -B -ntp -q "$@" -Pstudy-examples -pl examples/study-java -am package -DskipTests -Djazzer.skip) >&2; }
  build -o 2>/dev/null || build
  touch "$classpath"
fi

[ "${1:-}" = "--build" ] && exit 0
exec java -cp "$here/target/classes:$(cat "$classpath")" org.tunekit.examples.study.TuneXgboost --storage "$here/runs/xgboost" "$@"

#!/usr/bin/env bash
# Runs the JMH benchmarks against the real tunekit process (the distribution, built here too) and writes
# their results under bench/results/. Not part of the test suite; JMH is on the benchmarks' class path
# (bench/target/lib) only. Usage: bench/run-benchmarks.sh [JMH regex] [JMH options...]
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
./mvnw -q -B -ntp -DskipTests package -pl bench,distribution -am >&2
mkdir -p bench/results
filter="${1:-.*}"; shift || true
stamp="$(date -u +%Y%m%dT%H%M%SZ)"
java -Dtunekit.home="$home" -cp "bench/target/tunekit-bench.jar:bench/target/lib/*" \
  org.openjdk.jmh.Main "$filter" -rf json -rff "bench/results/jmh-$stamp.json" "$@" | tee "bench/results/jmh-$stamp.txt"

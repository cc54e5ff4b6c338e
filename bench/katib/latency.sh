#!/usr/bin/env bash
# GetSuggestions latency of Tunekit's Katib suggestion service with 1,000 and 10,000 completed trials
# in each request: a server on a loopback socket, called with the generated gRPC client (LatencyProbe,
# in katib's tests). Writes bench/results/katib/latency.md.
# Usage: bench/katib/latency.sh [ALGORITHM...]   (default: tpe multivariate-tpe cmaes random sobol)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$home"
algorithms=("$@")
[ ${#algorithms[@]} -eq 0 ] && algorithms=(tpe multivariate-tpe cmaes random sobol)
./mvnw -B -ntp -q -o install -pl katib -am -DskipTests >&2
./mvnw -B -ntp -q -o test-compile dependency:build-classpath -pl katib -Dmdep.outputFile=target/latency.cp -Dmdep.includeScope=test >&2
cp="katib/target/test-classes:katib/target/classes:$(cat katib/target/latency.cp)"
out="bench/results/katib/latency.md"
mkdir -p "$(dirname "$out")"
{
  echo "# GetSuggestions latency with many trials in the request"
  echo
  echo "Command: \`bench/katib/latency.sh ${algorithms[*]}\` on $(nproc) cores ($(uptime | sed 's/.*load average: /load average /'))."
  echo "Each row: one server (JVM flags of ./tunekit), a request of N succeeded trials over two uniform parameters asking"
  echo "for one assignment, 100 warm-up calls, then the median and 90th percentile of 100 calls, client side over loopback."
  echo
  echo "| algorithm | trials | request MiB | median ms | p90 ms |"
  echo "|---|---|---|---|---|"
  for a in "${algorithms[@]}"; do
    java ${TUNEKIT_JAVA_OPTS:--XX:+UseSerialGC -Xss1m} -cp "$cp" org.tunekit.katib.LatencyProbe "$a" 1000 10000 2>/dev/null
  done
} > "$out"
cat "$out"

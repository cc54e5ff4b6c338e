#!/usr/bin/env bash
# Memory of Tunekit's Katib suggestion service over a long run: starts `tunekit katib serve` (the
# JVM flags of ./tunekit) on a free loopback port, calls GetSuggestions CALLS times through the
# generated gRPC client (SoakDriver, in katib's tests: a new experiment every call, Katib's
# algorithms in turn, 0 to 19 trials per request) and samples the server's VmRSS every EVERY calls.
# Writes bench/results/katib/soak.md.
# Usage: bench/katib/soak.sh [CALLS] [EVERY]   (defaults: 100000, 5000)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$home"
calls="${1:-100000}"
every="${2:-5000}"
./mvnw -B -ntp -q -o package -pl distribution -am -DskipTests >&2
./mvnw -B -ntp -q -o test-compile dependency:build-classpath -pl katib -Dmdep.outputFile=target/soak.cp -Dmdep.includeScope=test >&2
cp="katib/target/test-classes:katib/target/classes:$(cat katib/target/soak.cp)"
port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
log="$(mktemp)"
TUNEKIT_NO_BUILD=1 ./tunekit katib serve --host 127.0.0.1 --port "$port" --early-stopping-port -1 2>"$log" &
pid=$!
trap 'kill "$pid" 2>/dev/null || true; rm -f "$log"' EXIT
for _ in $(seq 1 120); do
  grep -q "Suggestion on" "$log" && break
  sleep 1
done
grep -q "Suggestion on" "$log" || { cat "$log" >&2; echo "soak: the service did not start" >&2; exit 1; }
out="bench/results/katib/soak.md"
{
  echo "# Memory of the suggestion service over $calls GetSuggestions calls"
  echo
  echo "Command: \`bench/katib/soak.sh $calls $every\` on $(nproc) cores ($(uptime | sed 's/.*load average: /load average /'))."
  echo "One \`tunekit katib serve\` (JVM flags of ./tunekit); SoakDriver calls it over loopback, one call at a time, a new"
  echo "experiment each call (tpe, multivariate-tpe, cmaes, random, sobol in turn), 0 to 19 trials per request, asking"
  echo "for 1 to 3 assignments. RSS: the server's VmRSS from /proc/PID/status; peak: VmHWM."
  echo
  nice java ${TUNEKIT_JAVA_OPTS:--XX:+UseSerialGC -Xss1m} -cp "$cp" org.tunekit.katib.SoakDriver "$port" "$pid" "$calls" "$every" 2>/dev/null
} > "$out"
cat "$out"

#!/usr/bin/env bash
# Runs the channel fault tests (distribution's ChannelFaultsIT: the real `tunekit dispatch` against a
# WebSocket server and a ZeroMQ ROUTER that drop, vanish, send garbage or stop reading, with a 2 s
# give-up time) and writes what each case did to bench/results/faults/summary.md: the exit status,
# the seconds from the fault to the exit, and for the stalled-reader cases the dispatcher's resident
# memory before and during the stall. Every case is also an assertion of the test; this only records
# the figures.
#
# Usage: bench/run-faults.sh
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
out=bench/results/faults
mkdir -p "$out"
TUNEKIT_FAULT_FIGURES=1 ./mvnw -B -ntp -o verify -pl distribution -am -Dtest=none -Dsurefire.failIfNoSpecifiedTests=false \
  -Dit.test=ChannelFaultsIT -Dfailsafe.failIfNoSpecifiedTests=false > "$out/last-run.log" 2>&1 || {
  echo "ChannelFaultsIT failed: see $out/last-run.log" >&2
  exit 1
}
report=distribution/target/failsafe-reports/org.tunekit.it.ChannelFaultsIT-output.txt
tests=$(grep -o 'Tests run: [0-9]*, Failures: [0-9]*, Errors: [0-9]*' "$out/last-run.log" | tail -1)
{
  echo "# Channel faults"
  echo
  echo "Made by \`bench/run-faults.sh\` at $(date -u +%Y-%m-%dT%H:%M:%SZ) on $(nproc) cores,"
  echo "$(java -version 2>&1 | head -1). $tests (ChannelFaultsIT). Give-up time 2 s, except in"
  echo "the two cases where the manager reads again (15 s, so that the stall outlasts the measurement)."
  echo "Seconds: from the fault to the process's exit; where the dispatcher starts after the fault (a manager"
  echo "never there, a peer that is not ZeroMQ) they include the JVM's start, and the stalled cases include"
  echo "producing and reading 50,000 replies. Memory: the dispatcher JVM's VmRSS and its live heap after a"
  echo "full GC (jcmd PID GC.class_histogram), just before the fault, once the replies have been blocked"
  echo "for 1 s, and once all of them have been read. The live heap grows by the 50,000 parameter sets, which"
  echo "the dispatcher asks the tuner for at once (one GE) and keeps until each trial's EN (none ends here):"
  echo "it is as large while the replies are blocked as once they are all read. The channels themselves hold"
  echo "one reply (WebSocket) or at most 1000 + 1000 (ZeroMQ) besides the kernel's socket buffers."
  echo
  echo "| case | exit status | seconds | memory |"
  echo "| --- | ---: | ---: | --- |"
  grep '^fault-figure: ' "$report" | sed 's/^fault-figure: //' | sort | awk -F' [|] ' '{
    sub(/^exit /, "", $2); sub(/ s$/, "", $3); printf "| %s | %s | %s | %s |\n", $1, $2, $3, $4 }'
} > "$out/summary.md"
rm -f "$out/last-run.log"
cat "$out/summary.md"

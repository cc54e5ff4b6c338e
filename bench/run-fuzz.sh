#!/usr/bin/env bash
# Fuzzes every Jazzer @FuzzTest of the project for a time budget each (coverage-guided, JAZZER_FUZZ=1)
# and writes a summary to bench/results/fuzz/summary.md and each target's raw log to
# bench/results/fuzz/logs/. Not part of the test suite: `./mvnw verify` only runs the committed seeds.
#
# Usage: bench/run-fuzz.sh [SECONDS_PER_TARGET] [TARGET_FILTER]
#   SECONDS_PER_TARGET  fuzzing time per target (default 60)
#   TARGET_FILTER       a grep -E pattern: only targets whose Class#method matches
#
# The budget overrides each @FuzzTest's maxDuration by passing libFuzzer's -max_total_time after it
# (Jazzer's JUnit integration appends the jazzer.internal.arg.N arguments to its own, and libFuzzer
# takes the last value of a flag). -timeout=10 makes any input that runs 10 s a finding (a hang).
# A finding stops that target; Jazzer stores the input under the test's ...Inputs/<method>/ resource
# directory, where it becomes a regression seed. Each module's grown corpus stays in its
# .cifuzz-corpus/ (ignored by git) and is reused by the next run.
set -uo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
seconds="${1:-60}"
filter="${2:-.}"
out=bench/results/fuzz
mkdir -p "$out/logs"

targets=(
  "dispatcher org.tunekit.dispatcher.protocol.PipeFrameCodecFuzzTest#decodesOrRefuses"
  "dispatcher org.tunekit.dispatcher.protocol.PipeFrameCodecFuzzTest#managerSideDecodesOrRefuses"
  "dispatcher org.tunekit.dispatcher.channel.WebSocketDecodeFuzzTest#decodesOrRefuses"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#jsonParse"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#searchSpace"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#trialCount"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#metric"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#trialEnd"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#importData"
  "dispatcher org.tunekit.dispatcher.protocol.PayloadsFuzzTest#customizedTrials"
  "sdk org.tunekit.sdk.space.SearchSpaceFuzzTest#parsesOrRefusesAndSamplesFit"
  "runner org.tunekit.runner.ExperimentSpecFuzzTest#readsOrRefuses"
  "runner org.tunekit.runner.MetricsFileReaderFuzzTest#readsFramesOrNamesTheProblem"
)

# Compile once; each target then runs its module's tests with the others filtered out.
./mvnw -q -B -ntp test-compile -pl dispatcher,sdk,runner -am >&2 || exit 1

started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
rows=()
failed=0
for t in "${targets[@]}"; do
  module="${t%% *}"; test="${t#* }"
  echo "$test" | grep -qE -- "$filter" || continue
  name="${test##*.}"; name="${name/\#/.}"
  log="$out/logs/$name.log"
  echo "fuzzing $test for ${seconds}s ..." >&2
  t0=$(date +%s)
  JAZZER_FUZZ=1 ./mvnw -B -ntp -o test -pl "$module" -am \
    -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.internal.arg.0=fuzz \
    -Djazzer.internal.arg.1=-max_total_time="$seconds" \
    -Djazzer.internal.arg.2=-timeout=10 \
    -Djazzer.internal.arg.3=-print_final_stats=1 \
    -Djazzer.internal.arg.4=-report_slow_units=1 \
    >"$log" 2>&1
  rc=$?
  t1=$(date +%s)
  # libFuzzer's final statistics, else its last "#N ... exec/s: R" status line
  runs="$(grep -oE '^stat::number_of_executed_units: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  [ -n "$runs" ] || runs="$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')"
  rate="$(grep -oE '^stat::average_exec_per_sec: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  [ -n "$rate" ] || rate="$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  cov="$(grep -oE '^#[0-9]+.*cov: [0-9]+' "$log" | tail -1 | grep -oE 'cov: [0-9]+$' | grep -oE '[0-9]+')"
  crashes="$(grep -cE '^== Java Exception|ERROR: libFuzzer: (timeout|deadly signal|out-of-memory)|^== Java Assertion' "$log")"
  slowest="$(grep -oE 'Slowest unit: [0-9]+ s' "$log" | grep -oE '[0-9]+' | sort -n | tail -1)"
  finding="$(grep -m1 -E '^== Java Exception|ERROR: libFuzzer' "$log" | cut -c1-160 | tr '|' '/')"
  if [ "$rc" -ne 0 ] || [ "$crashes" -ne 0 ]; then failed=1; fi
  rows+=("| \`$test\` | ${runs:-?} | ${rate:-?} | ${cov:-?} | $crashes | ${slowest:+${slowest} s}${slowest:-none >= 1 s} | $((t1 - t0)) s | ${finding:-} |")
done

{
  echo "# Fuzzing run"
  echo
  echo "Made by \`bench/run-fuzz.sh $*\` (${seconds} s of fuzzing per target), started $started on"
  echo "$(nproc) cores, $(java -version 2>&1 | head -1), Jazzer $(grep -oE '<jazzer.version>[^<]+' pom.xml | cut -d'>' -f2)."
  echo "Raw logs: \`logs/\`. Inputs: libFuzzer's executed units; cov: its last coverage count (edges);"
  echo "slowest: libFuzzer reports inputs taking 1 s or more; duration includes Maven's start-up."
  echo
  echo "| target | inputs | inputs/s | cov | crashes | slowest input | duration | finding |"
  echo "| --- | ---: | ---: | ---: | ---: | --- | ---: | --- |"
  printf '%s\n' "${rows[@]}"
} >"$out/summary.md"
cat "$out/summary.md"
exit $failed

#!/usr/bin/env bash
# Fuzzes every Jazzer @FuzzTest of the project for a time budget each (coverage-guided, JAZZER_FUZZ=1)
# and writes a summary to bench/results/fuzz/summary.md and each target's raw log to
# bench/results/fuzz/logs/. Not part of the test suite: `./mvnw verify` only runs the committed seeds.
#
# Usage: bench/run-fuzz.sh [--summarise] [SECONDS_PER_TARGET] [TARGET_FILTER]
#   --summarise         only rebuild summary.md from the logs already in bench/results/fuzz/logs/
#   SECONDS_PER_TARGET  fuzzing time per target (default 60)
#   TARGET_FILTER       a grep -E pattern: only targets whose Class#method matches
#   FUZZ_OUT            (environment) where the summary and logs go, default bench/results/fuzz
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
summarise_only=0
if [ "${1:-}" = --summarise ]; then summarise_only=1; shift; fi
seconds="${1:-60}"
filter="${2:-.}"
out="${FUZZ_OUT:-bench/results/fuzz}"
mkdir -p "$out/logs"

targets=(
  "dispatcher org.tunekit.dispatcher.protocol.PipeFrameCodecFuzzTest#decodesOrRefuses"
  "dispatcher org.tunekit.dispatcher.protocol.PipeFrameCodecFuzzTest#managerSideDecodesOrRefuses"
  "dispatcher org.tunekit.dispatcher.channel.WebSocketDecodeFuzzTest#decodesOrRefuses"
  "dispatcher org.tunekit.dispatcher.channel.ZmqDecodeFuzzTest#decodesOrRefuses"
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
  "dashboard org.tunekit.dashboard.DashboardFuzzTest#answersOrClosesAndGoesOn"
)

rows=()
failed=0
# Compile once; each target then runs its module's tests with the others filtered out.
[ "$summarise_only" = 1 ] || ./mvnw -q -B -ntp test-compile -pl dispatcher,sdk,runner,dashboard -am >&2 || exit 1
for t in "${targets[@]}"; do
  [ "$summarise_only" = 0 ] || break
  module="${t%% *}"; test="${t#* }"
  echo "$test" | grep -qE -- "$filter" || continue
  name="${test##*.}"; name="${name/\#/.}"
  log="$out/logs/$name.log"
  echo "fuzzing $test for ${seconds}s ..." >&2
  t0=$(date +%s)
  echo "run-fuzz: budget ${seconds} s" >"$log"
  JAZZER_FUZZ=1 ./mvnw -B -ntp -o test -pl "$module" -am \
    -Dtest="$test" -Dsurefire.failIfNoSpecifiedTests=false \
    -Djazzer.internal.arg.0=fuzz \
    -Djazzer.internal.arg.1=-max_total_time="$seconds" \
    -Djazzer.internal.arg.2=-timeout=10 \
    -Djazzer.internal.arg.3=-print_final_stats=1 \
    -Djazzer.internal.arg.4=-report_slow_units=1 \
    >>"$log" 2>&1
  rc=$?
  t1=$(date +%s)
  echo "run-fuzz: exit status $rc, $((t1 - t0)) s" >>"$log"
done

# The table, from the logs of this run's targets (so --summarise can rebuild it from logs alone).
for t in "${targets[@]}"; do
  test="${t#* }"
  echo "$test" | grep -qE -- "$filter" || continue
  name="${test##*.}"; name="${name/\#/.}"
  log="$out/logs/$name.log"
  [ -f "$log" ] || continue
  # libFuzzer's final statistics (-print_final_stats=1), else its last "#N ... exec/s: R" status line
  runs="$(grep -oE '^stat::number_of_executed_units: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  [ -n "$runs" ] || runs="$(grep -oE '^#[0-9]+' "$log" | tail -1 | tr -d '#')"
  rate="$(grep -oE '^stat::average_exec_per_sec: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  [ -n "$rate" ] || rate="$(grep -oE 'exec/s: [0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  cov="$(grep -E '^#[0-9]+' "$log" | grep -oE 'cov: [0-9]+' | tail -1 | grep -oE '[0-9]+')"
  slowest="$(grep -oE '^stat::slowest_unit_time_sec: +[0-9]+' "$log" | tail -1 | grep -oE '[0-9]+$')"
  # a finding: libFuzzer writes the input ("Test unit written to"); a hang or crash of the JVM is an ERROR
  crashes="$(grep -cE 'Test unit written to|^==[0-9]+== ERROR: libFuzzer' "$log")"
  finding="$(grep -m1 -E '^Caused by: |FuzzTestFindingException|ERROR: libFuzzer: ' "$log" | cut -c1-160 | tr '|' '/')"
  status="$(grep -oE '^run-fuzz: exit status [0-9]+, [0-9]+ s' "$log" | tail -1)"
  rc="$(echo "$status" | sed -E 's/.*status ([0-9]+),.*/\1/')"; secs="$(echo "$status" | grep -oE '[0-9]+ s$')"
  if [ -z "$status" ]; then # a log without this script's last line: Maven's own outcome and time
    if grep -q 'BUILD SUCCESS' "$log"; then rc=0; else rc=1; fi
    secs="$(grep -oE 'Total time: +[0-9.]+ [a-z]+' "$log" | tail -1 | sed -E 's/Total time: +//')"
  fi
  budget="$(grep -oE '^run-fuzz: budget [0-9]+ s' "$log" | head -1 | grep -oE '[0-9]+ s')"
  if [ "${rc:-1}" != 0 ] || [ "$crashes" -ne 0 ]; then failed=1; fi
  rows+=("| \`$test\` | ${budget:-${seconds} s} | ${runs:-?} | ${rate:-?} | ${cov:-?} | $crashes | ${slowest:+${slowest} s} | ${secs:-?} | ${finding:-} |")
done

started="$(date -u +%Y-%m-%dT%H:%M:%SZ)"
{
  echo "# Fuzzing run"
  echo
  if [ "$summarise_only" = 1 ]; then
    echo "Summarised by \`bench/run-fuzz.sh --summarise $*\` at $started from the logs in \`logs/\`, which"
    echo "\`bench/run-fuzz.sh SECONDS [FILTER]\` wrote (budget: the fuzzing time each target was given; logs that do"
    echo "not record it are taken to have had ${seconds} s), on"
  else
    echo "Made by \`bench/run-fuzz.sh $*\` (${seconds} s of fuzzing per target), finished $started on"
  fi
  echo "$(nproc) cores, $(java -version 2>&1 | head -1), Jazzer $(grep -oE '<jazzer.version>[^<]+' pom.xml | cut -d'>' -f2)."
  echo "Raw logs: \`logs/\`. Inputs: libFuzzer's executed units; cov: its last coverage count (edges);"
  echo "slowest: libFuzzer's slowest input, in whole seconds; duration includes Maven's start-up."
  echo
  echo "| target | budget | inputs | inputs/s | cov | crashes | slowest input | duration | finding |"
  echo "| --- | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- |"
  printf '%s\n' "${rows[@]}"
} >"$out/summary.md"
cat "$out/summary.md"
exit $failed

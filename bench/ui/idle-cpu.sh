#!/usr/bin/env bash
# What serving the dashboard costs the runner while viewers watch an experiment in which nothing
# changes: the runner's CPU time (utime + stime of its JVM, from /proc) over a window with no viewer,
# then over a window of the same length with headless Chromium viewers on the overview, the trial
# table and the charts (each polls once a second), as a share of one core.
#   bench/ui/idle-cpu.sh [SECONDS] [VIEWERS]      (default 60 s, 3 viewers; needs chromium)
# Writes bench/results/ui/idle-cpu.md.
set -euo pipefail
cd "$(dirname "$0")/../.."
window="${1:-60}"
viewers="${2:-3}"
command -v chromium >/dev/null || { echo "chromium is missing (apt-get install chromium)" >&2; exit 2; }

work="$(mktemp -d)"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
  [ -n "${runner:-}" ] && kill -INT "$runner" 2>/dev/null && sleep 3
  rm -rf "$work"
}
trap cleanup EXIT

# two trials that sleep for longer than the measurement: the store does not change while it runs
mkdir -p "$work/code"
cat > "$work/code/config.yml" <<YAML
searchSpace:
  x: {_type: uniform, _value: [0, 1]}
trialCommand: sleep 100000
trialCodeDirectory: .
trialConcurrency: 2
maxTrialNumber: 2
tuner: {name: Random, classArgs: {seed: 1}}
YAML
./tunekit run "$work/code/config.yml" --dir "$work/experiments" --port 0 > "$work/run.log" 2>&1 &
runner=$!
until grep -q '^Dashboard: ' "$work/run.log"; do
  kill -0 "$runner" 2>/dev/null || { cat "$work/run.log" >&2; exit 1; }
  sleep 0.5
done
address="$(sed -n 's/^Dashboard: //p' "$work/run.log" | head -n 1)"
sleep 10   # the trials have started; the JIT has settled

ticks() { awk '{print $14 + $15}' "/proc/$runner/stat"; }
hz="$(getconf CLK_TCK)"
measure() {
  local a b
  a="$(ticks)"; sleep "$window"; b="$(ticks)"
  awk -v d="$((b - a))" -v hz="$hz" -v w="$window" 'BEGIN { printf "%.3f", 100 * d / hz / w }'
}

alone="$(measure)"
base="${address%%#*}"
id="${address##*#/e/}"
pages=("#/e/$id" "#/e/$id/trials" "#/e/$id/charts")
for i in $(seq 1 "$viewers"); do
  page="${pages[$(( (i - 1) % ${#pages[@]} ))]}"
  chromium --headless=new --no-sandbox --disable-gpu --user-data-dir="$work/chrome$i" --remote-debugging-port=0 \
    "$base$page" > "$work/chrome$i.log" 2>&1 &
  pids+=($!)
done
sleep 30   # the pages have loaded and poll; the code that answers them is compiled
watched="$(measure)"

mkdir -p bench/results/ui
{
  echo "# The runner's CPU while idle viewers watch its dashboard"
  echo
  echo "Measured $(date -u +%Y-%m-%dT%H:%MZ) on $(nproc) cores ($(sed -n 's/^model name\s*: //p' /proc/cpuinfo | head -n 1)), $(chromium --version 2>/dev/null | head -n 1)."
  echo "Command: \`bench/ui/idle-cpu.sh $window $viewers\`: \`tunekit run\` of two trials that sleep (nothing changes in the store),"
  echo "the runner JVM's CPU time (utime + stime from /proc) over ${window} s with no viewer, then over ${window} s with $viewers headless"
  echo "Chromium viewers (overview, trial table, charts; each page polls once a second)."
  echo
  echo "| | runner CPU, % of one core |"
  echo "|---|---:|"
  echo "| no viewer | $alone |"
  echo "| $viewers viewers | $watched |"
  echo "| cost of the viewers | $(awk -v a="$alone" -v b="$watched" 'BEGIN { printf "%.3f", b - a }') |"
} > bench/results/ui/idle-cpu.md
cat bench/results/ui/idle-cpu.md

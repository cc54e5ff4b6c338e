#!/usr/bin/env bash
# Tunekit's Katib suggestion service against Katib's own (Optuna) service, on the same katib-lab
# driver runs: Katib's example experiment of each algorithm, each objective, each seed, played by
# katib-drive.js with the service started fresh (no kill: Katib's service cannot survive one).
# Each seed is its own experiment (the name gets -sSEED), as separate experiments are on a cluster:
# Tunekit's service derives its seed from the experiment's name. Writes a Markdown table of the
# median best value over the seeds and the median GetSuggestions latency, plus the raw summary
# lines, to bench/results/katib/.
#
# Usage: KATIB_LAB=~/katib-lab bench/katib/side-by-side.sh [SEEDS] [MAX_TRIALS]   (defaults: 5, 30)
# ALGORITHMS="tpe.yaml cma-es.yaml" runs only those example files (and skips the 300-trial latency
# run); the table then goes to side-by-side-<names>.md, so that the full table is kept.
# PORT (default 6789) is the port both services listen on, so that runs can go on side by side.
# Needs: the lab (../shared/katib-lab/build.sh and peer.sh), node, python3, a built ./tunekit.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lab="${KATIB_LAB:?set KATIB_LAB to the katib-lab folder}"
seeds="${1:-5}"
max_trials="${2:-30}"
port="${PORT:-6789}"
out="$home/bench/results/katib"
mkdir -p "$out"
files="${ALGORITHMS:-tpe.yaml multivariate-tpe.yaml cma-es.yaml random.yaml}"
name=side-by-side
[ -n "${ALGORITHMS:-}" ] && name="side-by-side-$(echo "$files" | sed -E 's/\.yaml//g; s/ +/-/g')"
raw="$out/$name-raw.jsonl"
: > "$raw"
examples="$lab/katib-src/examples/v1beta1/hp-tuning"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
tunekit="TUNEKIT_NO_BUILD=1 exec $home/tunekit katib serve --host 127.0.0.1 --port $port --early-stopping-port -1 2>/dev/null"
katib="$lab/peer/serve.sh optuna $port 2>/dev/null"

run() { # service algorithm-file objective seed [extra...]
  local service="$1" file="$2" objective="$3" seed="$4"; shift 4
  local cmd; if [ "$service" = tunekit ]; then cmd="$tunekit"; else cmd="$katib"; fi
  local line yaml="$work/$file"
  sed -E "0,/^  name: (.*)$/s//  name: \1-s$seed/" "$examples/$file" > "$yaml"
  line="$(cd "$lab" && node katib-drive.js --quiet --endpoint "127.0.0.1:$port" --server-cmd "$cmd" --objective "$objective" --seed "$seed" "$@" "$yaml" | tail -n 1)"
  echo "{\"service\": \"$service\", \"file\": \"$file\", \"summary\": $line}" >> "$raw"
}

for file in $files; do
  for objective in sphere branin rosenbrock; do
    for seed in $(seq 1 "$seeds"); do
      for service in tunekit katib; do
        run "$service" "$file" "$objective" "$seed" --max-trials "$max_trials"
      done
    done
  done
done
# latency with more trials in each request
if [ -z "${ALGORITHMS:-}" ]; then
  for service in tunekit katib; do
    run "$service" tpe.yaml sphere 1 --max-trials 300 --parallel 3
  done
fi

python3 - "$raw" "$out/$name.md" "$seeds" "$max_trials" "${ALGORITHMS:+ALGORITHMS=\"$files\" }" <<'PY'
import json, statistics, sys
raw, md, seeds, max_trials, env = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
rows = [json.loads(l) for l in open(raw)]
groups = {}
for r in rows:
    s = r["summary"]
    key = (s["algorithm"], s["objective"], s["trials"])
    groups.setdefault(key, {}).setdefault(r["service"], []).append(s)
lines = ["# Tunekit on Katib against Katib's own suggestion service", "",
         f"Command: `{env}KATIB_LAB=~/katib-lab bench/katib/side-by-side.sh {seeds} {max_trials}` "
         "(katib-lab driver, Katib's example experiment per algorithm, parallel 3, seeds 1..N; Katib's service: "
         "the Optuna one from `peer/serve.sh optuna`). Best: the median over the seeds of the best final value "
         "(minimised; lower is better). Latency: the median over the seeds of each run's median `GetSuggestions` "
         "time in ms, as the driver measures it (client side, loopback; a fresh service each run, Tunekit's warmed up before "
         "it reports SERVING).", "",
         "| algorithm | objective | trials | Tunekit best | Katib best | Tunekit ms | Katib ms | Tunekit duplicates | Katib duplicates |",
         "|---|---|---|---|---|---|---|---|---|"]
for (alg, obj, trials), by in sorted(groups.items(), key=lambda kv: (kv[0][2], kv[0][0], kv[0][1])):
    def med(service, f):
        v = [f(s) for s in by.get(service, [])]
        return statistics.median(v) if v else float("nan")
    best = lambda s: s["best"]["value"] if s["best"] else float("nan")
    lines.append(f"| {alg} | {obj} | {trials} | {med('tunekit', best):.4g} | {med('katib', best):.4g} | "
                 f"{med('tunekit', lambda s: s['medianMs']):.2f} | {med('katib', lambda s: s['medianMs']):.2f} | "
                 f"{sum(s['duplicates'] for s in by.get('tunekit', []))} | {sum(s['duplicates'] for s in by.get('katib', []))} |")
open(md, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

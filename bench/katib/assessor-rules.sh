#!/usr/bin/env bash
# Early stopping on Katib: Katib's medianstop (as Tunekit serves it) against Tunekit's Medianstop and
# Percentile assessors served as rules, and no early stopping, on the same katib-lab driver runs:
# Katib's median-stop example (random search, 15 trials, parallel 2, 10 reports per trial) with its
# earlyStopping block replaced, each objective, each seed, the service started fresh. Writes a
# Markdown table (trials stopped, reports run of all, median best final value) and the raw summary
# lines to bench/results/katib/.
#
# Usage: KATIB_LAB=~/katib-lab bench/katib/assessor-rules.sh [SEEDS]   (default 5)
# PORT (default 6789): the suggestion service listens on PORT, early stopping on PORT+1, the driver's
# DBManager on PORT+2, so that runs can go on side by side. REPORT_ONLY=1 only rewrites the table from
# the raw lines already there.
# Needs: the lab (../shared/katib-lab/build.sh), node, python3, a built ./tunekit.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lab="${KATIB_LAB:?set KATIB_LAB to the katib-lab folder}"
seeds="${1:-5}"
port="${PORT:-6789}"
es_port=$((port + 1))
db_port=$((port + 2))
out="$home/bench/results/katib"
mkdir -p "$out"
raw="$out/assessor-rules-raw.jsonl"
example="$lab/katib-src/examples/v1beta1/early-stopping/median-stop.yaml"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
server="TUNEKIT_NO_BUILD=1 exec $home/tunekit katib serve --host 127.0.0.1 --port $port --early-stopping-port $es_port 2>/dev/null"

# config name -> the earlyStopping block (empty: none)
write_yaml() { # config seed file
  python3 - "$example" "$1" "$2" "$3" <<'PY'
import sys
example, config, seed, path = sys.argv[1:]
y = open(example).read()
block = """  earlyStopping:
    algorithmName: medianstop
    algorithmSettings:
      - name: min_trials_required
        value: "1"
      - name: start_step
        value: "2"
"""
assert block in y, "Katib's median-stop.yaml has changed"
blocks = {
    "none": "",
    "medianstop": block,
    "Medianstop": "  earlyStopping:\n    algorithmName: Medianstop\n    algorithmSettings:\n      - name: start_step\n        value: \"2\"\n",
    "Percentile": "  earlyStopping:\n    algorithmName: Percentile\n    algorithmSettings:\n      - name: n_startup_trials\n        value: \"1\"\n"
                  "      - name: n_warmup_steps\n        value: \"1\"\n",
}
y = y.replace(block, blocks[config]).replace("  name: median-stop\n", f"  name: median-stop-s{seed}\n")
open(path, "w").write(y)
PY
}

[ -n "${REPORT_ONLY:-}" ] || : > "$raw"
for objective in sphere branin; do
  [ -n "${REPORT_ONLY:-}" ] && break
  for seed in $(seq 1 "$seeds"); do
    for config in none medianstop Medianstop Percentile; do
      yaml="$work/$config-$seed.yaml"
      write_yaml "$config" "$seed" "$yaml"
      line="$(cd "$lab" && node katib-drive.js --quiet --endpoint "127.0.0.1:$port" --es-endpoint "127.0.0.1:$es_port" \
        --db-port "$db_port" --server-cmd "$server" --objective "$objective" --seed "$seed" "$yaml" | tail -n 1)"
      echo "{\"config\": \"$config\", \"summary\": $line}" >> "$raw"
    done
  done
done

python3 - "$raw" "$out/assessor-rules.md" "$seeds" <<'PY'
import json, statistics, sys
raw, md, seeds = sys.argv[1], sys.argv[2], sys.argv[3]
rows = [json.loads(l) for l in open(raw)]
order = ["none", "medianstop", "Medianstop", "Percentile"]
settings = {"none": "no early stopping", "medianstop": "Katib's: min_trials_required 1, start_step 2",
            "Medianstop": "start_step 2", "Percentile": "n_startup_trials 1, n_warmup_steps 1 (percentile 50)"}
lines = ["# Early stopping on Katib: Katib's medianstop and Tunekit's assessors as rules", "",
         f"Command: `KATIB_LAB=~/katib-lab bench/katib/assessor-rules.sh {seeds}` (katib-lab driver; Katib's "
         "`early-stopping/median-stop.yaml` with its earlyStopping block replaced: random search, 15 trials, parallel 2, "
         "10 reports per trial; seeds 1..N, each its own experiment). Stopped: trials early-stopped, summed over the seeds. "
         "Reports: reports run of the reports all trials would have run, summed over the seeds. Best: the median over the "
         "seeds of the best final value (minimised; a stopped trial's final value is its last report). The driver applies "
         "a rule to each report as it comes, with the rules of the last GetEarlyStoppingRules call, comparing the latest "
         "value (Katib's collector compares the best so far; these curves fall, so the two rarely differ), at every report "
         "from the rule's start step on (Katib's file collector, as its source stands, compares a rule with a start step "
         "k > 0 at the k-th report only, so on a cluster these rules would stop no more trials than here).", "",
         "| objective | early stopping | settings | stopped | reports run | best |", "|---|---|---|---|---|---|"]
for objective in sorted({r["summary"]["objective"] for r in rows}, reverse=True):
    for config in order:
        ss = [r["summary"] for r in rows if r["config"] == config and r["summary"]["objective"] == objective]
        if not ss:
            continue
        stopped = sum(s["earlyStopped"] for s in ss)
        run = sum(s["stepsRun"] for s in ss)
        full = sum(s["stepsFull"] for s in ss)
        best = statistics.median(s["best"]["value"] for s in ss)
        lines.append(f"| {objective} | {config} | {settings[config]} | {stopped} | {run} / {full} ({100 * run / full:.0f}%) | {best:.4g} |")
open(md, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

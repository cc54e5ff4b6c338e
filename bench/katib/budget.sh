#!/usr/bin/env bash
# Katib's tpe, multivariate-tpe and cmaes at Katib's budget (30 trials, parallel 3) over many seeds, without
# the cost of a service and a driver process per run: KatibBudgetSim plays katib-drive.js's controller
# loop in-process against Tunekit's Suggester, optuna_budget.py the same loop against Optuna's
# TPESampler or CmaEsSampler as Katib's Optuna service uses them. Three columns per row (cmaes: two): Tunekit with Katib's names
# (what `tpe` / `multivariate-tpe` run), Tunekit's TPE with only Katib's start-up of 10 (`TPE` with
# tpe_args {"n_startup_jobs": 10}, i.e. NNI's estimator; what the Katib names ran before they were
# given prior_weight 0.5 and bandwidth_factor 0.4), and Optuna. Objectives: sphere, branin, rosenbrock over
# tpe.yaml's two parameters, rosenbrock6 over six. Writes bench/results/katib/budget.md.
#
# Usage: bench/katib/budget.sh [SEEDS]   (default 300; needs a built distribution/target/lib,
# and python3 with optuna for the Optuna column: PYTHON, default /usr/bin/python3)
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
seeds="${1:-300}"
python="${PYTHON:-/usr/bin/python3}"
out="$home/bench/results/katib/budget.md"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
cp="$home/distribution/target/lib/*"
javac -nowarn -d "$work" -cp "$cp" "$home/bench/katib/KatibBudgetSim.java"
sim() { java -XX:+UseSerialGC -cp "$work:$cp" org.tunekit.katib.KatibBudgetSim "$@" 2>/dev/null; }
for alg in tpe multivariate-tpe; do
  mv=false; [ "$alg" = multivariate-tpe ] && mv=true
  for obj in sphere branin rosenbrock rosenbrock6; do
    sim "$alg" "$obj" 1 "$seeds" "$alg" | sed 's/^/tunekit /'
    sim TPE "$obj" 1 "$seeds" "$alg" "multivariate=$mv;tpe_args={\"n_startup_jobs\": 10}" | sed "s/^TPE/plain $alg/"
    if "$python" -c 'import optuna' 2>/dev/null; then
      "$python" "$home/bench/katib/optuna_budget.py" "$alg" "$obj" 1 "$seeds" | sed 's/^/optuna /'
    fi
  done
done > "$work/raw.txt"
for obj in sphere branin rosenbrock rosenbrock6; do
  sim cmaes "$obj" 1 "$seeds" cmaes | sed 's/^/tunekit /'
  if "$python" -c 'import optuna' 2>/dev/null; then
    "$python" "$home/bench/katib/optuna_budget.py" cmaes "$obj" 1 "$seeds" | sed 's/^/optuna /'
  fi
done >> "$work/raw.txt"
python3 - "$work/raw.txt" "$out" "$seeds" "$(nproc)" <<'PY'
import statistics, sys
raw, out, seeds, cores = sys.argv[1:5]
runs = {}
for line in open(raw):
    who, alg, obj, seed, best = line.split()[:5]
    runs.setdefault((alg, obj), {}).setdefault(who, []).append(float(best))
def cell(v):
    if not v:
        return "-"
    q = statistics.quantiles(v, n=4)
    return f"{statistics.median(v):.4g} ({q[0]:.3g} to {q[2]:.3g})"
lines = ["# Katib's tpe, multivariate-tpe and cmaes at 30 trials, over many seeds", "",
         f"Command: `bench/katib/budget.sh {seeds}` (seeds 1..{seeds} per row; katib-lab's controller loop played in-process: "
         "Katib's tpe.yaml space, for rosenbrock6 its two parameters and two more copies of each, parallel 3, 30 trials, the objective over the parameters scaled to [0, 1]). Each cell: the median "
         "over the seeds of the best final value (minimised), with the quartiles. Tunekit: the algorithm by Katib's name, as "
         "`tunekit katib serve` runs it. Tunekit plain: Tunekit's TPE with Katib's start-up of 10 and NNI's estimator "
         "(`TPE`, `tpe_args` `{\"n_startup_jobs\": 10}`), which Katib's names ran before they were given `prior_weight` 0.5 and "
         "`bandwidth_factor` 0.4. Optuna: `optuna_budget.py`, Optuna's TPESampler (CmaEsSampler for cmaes) as Katib's Optuna service runs it (one study; "
         "`constant_liar` for TPE), seeded.", "",
         "| algorithm | objective | Tunekit | Tunekit plain | Optuna |", "|---|---|---|---|---|"]
for (alg, obj) in sorted(runs, key=lambda k: (["tpe", "multivariate-tpe", "cmaes"].index(k[0]), k[1])):
    r = runs[(alg, obj)]
    lines.append(f"| {alg} | {obj} | {cell(r.get('tunekit'))} | {cell(r.get('plain'))} | {cell(r.get('optuna'))} |")
open(out, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

#!/usr/bin/env bash
# The real-model suite as committed in bench/results/realmodels: every Tunekit tuner, Optuna 3.1's samplers and
# NNI 3's tuners on the same problems by the same protocol, then the normalised scores.
#
# Usage: bench/realmodels/suite.sh OUT [SEEDS] [MODE TRIALS]
#   OUT     folder for the results: tunekit-regret.csv and tunekit-runs.csv (every Tunekit tuner's runs; each tuner's
#           own benchmark output under OUT/tunekit/), optuna-regret.csv, nni-regret.csv, scores.md; a rerun skips
#           what is already there
#   SEEDS   default 0..4
#   MODE TRIALS  default "sequential 64"; Bayesmark's own protocol is "batch 128" (16 rounds of 8)
# Environment: TUNERS (Tunekit's, comma-separated, LABEL=NAME for a run under another label; default every
# single-objective built-in tuner that runs without budgets), NNI_TUNERS (default tpe,evolution,anneal), OPTUNA_SAMPLERS (default tpe,mtpe,cmaes,random),
# PROBLEMS (default the committed set below), NNI_PYTHONPATH (NNI 3's Python code and
# hyperopt 0.1.2's source, for NNI's side; that side is skipped without it), PYTHON (default /usr/bin/python3:
# Debian's python3-sklearn, python3-optuna, python3-future, python3-networkx).
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
out="${1:?usage: suite.sh OUT [SEEDS] [MODE TRIALS]}"
seeds="${2:-0..4}"
mode="${3:-sequential}"
trials="${4:-64}"
python="${PYTHON:-/usr/bin/python3}"
# One problem per model and data set: the log loss on wine, the error rate on iris, the squared error on diabetes
# (AdaBoost, whose evaluations cost most of the suite's time, and the MLPs on diabetes are left out: see README.md)
default_problems=""
for m in DT MLP-adam MLP-sgd RF SVM kNN lasso linear; do
  default_problems+="$m-wine-nll,$m-iris-acc,"
  case "$m" in MLP*) ;; *) default_problems+="$m-diabetes-mse,";; esac
done
problems="${PROBLEMS:-${default_problems%,}}"
tuners="${TUNERS:-Auto,TPE,GPTuner,TuRBO,SMAC,CMAES,Anneal,Evolution,RegularizedEvolutionTuner,Sobol,MetisTuner,DNGOTuner,Random}"
mkdir -p "$out"

IFS=, read -ra tuner_list <<< "$tuners"
for t in "${tuner_list[@]}"; do
  [ -f "$out/tunekit/$t/regret.csv" ] && continue
  "$home/tunekit-bench" bench --functions "$problems" --tuners "$t" --modes "$mode" --trials "$trials" --seeds "$seeds" \
      --threads 1 --out "$out/tunekit/$t"
done
for f in regret runs; do
  first=1
  for t in "${tuner_list[@]}"; do
    if [ $first = 1 ]; then cat "$out/tunekit/$t/$f.csv"; first=0; else tail -n +2 "$out/tunekit/$t/$f.csv"; fi
  done > "$out/tunekit-$f.csv"
done

cd "$home"
if [ ! -f "$out/optuna-regret.csv" ]; then
  rm -f "$out/optuna-regret.csv.part"
  PYTHONPATH=bench/realmodels "$python" bench/realmodels/optuna_models.py --problems "$problems" --samplers "${OPTUNA_SAMPLERS:-tpe,mtpe,cmaes,random}" \
      --modes "$mode" --trials "$trials" --seeds "$seeds" --out "$out/optuna-regret.csv.part"
  mv "$out/optuna-regret.csv.part" "$out/optuna-regret.csv"
fi
if [ -n "${NNI_PYTHONPATH:-}" ] && [ ! -f "$out/nni-regret.csv" ]; then
  rm -f "$out/nni-regret.csv.part"
  PYTHONPATH="$NNI_PYTHONPATH:bench/reference:bench/realmodels" "$python" bench/realmodels/nni_models.py --problems "$problems" \
      --tuners "${NNI_TUNERS:-tpe,evolution,anneal}" --modes "$mode" --trials "$trials" --seeds "$seeds" --out "$out/nni-regret.csv.part"
  mv "$out/nni-regret.csv.part" "$out/nni-regret.csv"
elif [ -z "${NNI_PYTHONPATH:-}" ]; then
  echo "suite.sh: NNI_PYTHONPATH is not set: NNI's tuners are skipped" >&2
fi

"$python" bench/realmodels/scores.py "$out"/tunekit-regret.csv "$out"/optuna-regret.csv $(ls "$out"/nni-regret.csv 2>/dev/null) > "$out/scores.md"
cat "$out/scores.md"

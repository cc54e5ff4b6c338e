#!/usr/bin/env bash
# Library overhead per ask+tell: runs a peer's in-process study loop under one protocol (5 parameters, an
# objective that costs nothing, random and TPE samplers, in-memory and SQLite storage, 100 and 10000 trials;
# stated in bench/reference/optuna_overhead.py) and writes the figures to bench/results/library-overhead/,
# so that Tunekit's overhead can be shown beside Optuna's measured on the same machine.
# A benchmark, not part of the tests: it asserts nothing, and the 10000-trial TPE runs take many minutes.
#
# Usage: bench/library-overhead.sh optuna [--sizes 100,10000 --repeats 5,1 ...]
#   optuna   rewrites bench/results/library-overhead/optuna.csv with Optuna's figures (/usr/bin/python3 with
#            Debian's python3-optuna); further arguments go to bench/reference/optuna_overhead.py.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$home"
out=bench/results/library-overhead
mkdir -p "$out"

optuna_side() {
  local csv="$out/optuna.csv"
  rm -f "$csv"
  nice /usr/bin/python3 bench/reference/optuna_overhead.py --out "$csv" "$@"
  echo "Optuna side written to $csv" >&2
}

case "${1:-}" in
  optuna) shift; optuna_side "$@" ;;
  *) echo "usage: $0 optuna [arguments of bench/reference/optuna_overhead.py]" >&2; exit 2 ;;
esac

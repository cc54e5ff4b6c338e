#!/usr/bin/env bash
# Library overhead per ask+tell: runs a peer's in-process study loop under one protocol (5 parameters, an
# objective that costs nothing, random and TPE samplers, in-memory and SQLite storage, 100 and 10000 trials;
# stated in bench/reference/optuna_overhead.py) and writes the figures to bench/results/library-overhead/,
# so that Tunekit's overhead can be shown beside Optuna's measured on the same machine.
# A benchmark, not part of the tests: it asserts nothing, and the 10000-trial TPE runs take many minutes.
#
# Usage: bench/library-overhead.sh optuna|tunekit [arguments]
#   optuna   rewrites bench/results/library-overhead/optuna.csv with Optuna's figures (/usr/bin/python3 with
#            Debian's python3-optuna); further arguments go to bench/reference/optuna_overhead.py.
#   tunekit  rewrites bench/results/library-overhead/tunekit.csv with the study library's figures, in memory, in
#            SQLite and in PostgreSQL (a lab server started here with every commit synced, as SQLite's are:
#            study/postgres-lab.sh with POSTGRES_LAB_DURABLE=1); further arguments go to tunekit-bench bench-library.
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

tunekit_side() {
  local csv="$out/tunekit.csv"
  local url
  url="$(POSTGRES_LAB_DIR=/tmp/tunekit-postgres-bench POSTGRES_LAB_DURABLE=1 bash study/postgres-lab.sh up)"
  rm -f "$csv"
  ./tunekit-bench bench-library --storages memory,sqlite,postgres --postgres "$url" --postgres-user tunekit --postgres-password tunekit \
      --out "$csv" "$@"
  echo "Tunekit side written to $csv" >&2
}

case "${1:-}" in
  optuna) shift; optuna_side "$@" ;;
  tunekit) shift; tunekit_side "$@" ;;
  *) echo "usage: $0 optuna|tunekit [arguments of bench/reference/optuna_overhead.py or of tunekit-bench bench-library]" >&2; exit 2 ;;
esac

#!/usr/bin/env bash
# Several workers on one study in PostgreSQL: starts the project's PostgreSQL lab server on this machine
# (study/postgres-lab.sh; it installs Debian's postgresql when missing and it can), then runs WORKERS copies of
# the XGBoost example side by side, each with its own JVM, all on the study "xgboost-breast-cancer" in that
# database. On several machines, run the example with --postgres and the same URL on each.
#
#   examples/study-java/run-workers.sh [WORKERS (default 3)] [TRIALS PER WORKER (default 10)]
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
home="$(cd "$here/../.." && pwd)"
workers="${1:-3}"
trials="${2:-10}"

url="$(bash "$home/study/postgres-lab.sh" up)"
export PGUSER=tunekit PGPASSWORD=tunekit   # the lab's user
echo "study-java: $workers workers, $trials trials each, on $url" >&2

"$here/run.sh" --build
pids=()
for i in $(seq 1 "$workers"); do
  TUNEKIT_NO_BUILD=1 "$here/run.sh" --postgres "$url" --trials "$trials" --threads 1 > >(sed "s/^/worker $i: /") &
  pids+=($!)
done
status=0
for p in "${pids[@]}"; do wait "$p" || status=$?; done
exit "$status"

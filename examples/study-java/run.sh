#!/usr/bin/env bash
# Tunes XGBoost on the breast cancer data with tunekit-study: builds the program on first use (or when the
# sources changed), then runs it. Arguments go to the program: --trials N, --threads N, --storage FOLDER,
# --postgres JDBC_URL; --build alone only builds it.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../study-build.sh"
[ "${1:-}" = "--build" ] && exit 0
exec java -cp "$here/target/classes:$(cat "$classpath")" org.tunekit.examples.study.TuneXgboost --storage "$here/runs/xgboost" "$@"

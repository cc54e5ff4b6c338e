#!/usr/bin/env bash
# Tunes a Tribuo linear model on the wine data with tunekit-study: builds the program on first use (or when the
# sources changed), then runs it. Arguments go to the program: --trials N, --threads N, --storage FOLDER.
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/../study-build.sh"
exec java -cp "$here/target/classes:$(cat "$classpath")" org.tunekit.examples.study.TuneWineKt --storage "$here/runs/tribuo" "$@"

#!/bin/sh
# A trial with two objectives for the dashboard's browser tests, on NNI 2.x's file channel: error is
# smallest at (1, -2), cost at (0, 0), and a large size halves the error for twice the cost (as in
# examples/multi-objective). The metric's value is a JSON object as JSON text inside the frame's JSON.
set -eu
p=$(cat "$NNI_SYS_DIR/parameter.cfg")
id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\([0-9]*\).*/\1/p')
x=$(printf '%s' "$p" | sed -n 's/.*"x": *\([-0-9.eE+]*\).*/\1/p')
y=$(printf '%s' "$p" | sed -n 's/.*"y": *\([-0-9.eE+]*\).*/\1/p')
size=$(printf '%s' "$p" | sed -n 's/.*"size": *"\([a-z]*\)".*/\1/p')
value=$(awk -v x="$x" -v y="$y" -v s="$size" 'BEGIN {
  e = (x-1)^2 + (y+2)^2 + 0.5; c = x^2 + y^2 + 1
  if (s == "large") { e = e / 2; c = c * 2 }
  printf "{\\\"default\\\": %.6f, \\\"error\\\": %.6f, \\\"cost\\\": %.6f}", e, e, c }')
echo "x=$x y=$y size=$size: $value"
body="{\"parameter_id\": $id, \"trial_job_id\": \"$NNI_TRIAL_JOB_ID\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"$value\"}"
mkdir -p "$NNI_SYS_DIR/.nni"
printf 'ME%06d%s\n' "$(printf '%s\n' "$body" | wc -c)" "$body" >> "$NNI_SYS_DIR/.nni/metrics"

#!/bin/sh
# A trial for the dashboard's browser tests, on NNI 2.x's file channel (no curl needed): reads x, lr and
# optimizer from parameter.cfg, prints them, reports STEPS intermediate results PAUSE seconds apart, then
# its final value, smallest at x = 0.3, lr = 10^-2.5 with adam.
set -eu
p=$(cat "$NNI_SYS_DIR/parameter.cfg")
id=$(printf '%s' "$p" | sed -n 's/.*"parameter_id": *\([0-9]*\).*/\1/p')
x=$(printf '%s' "$p" | sed -n 's/.*"x": *\([-0-9.eE+]*\).*/\1/p')
lr=$(printf '%s' "$p" | sed -n 's/.*"lr": *\([-0-9.eE+]*\).*/\1/p')
opt=$(printf '%s' "$p" | sed -n 's/.*"optimizer": *"\([a-z]*\)".*/\1/p')
report() { # type sequence value
  body="{\"parameter_id\": $id, \"trial_job_id\": \"$NNI_TRIAL_JOB_ID\", \"type\": \"$1\", \"sequence\": $2, \"value\": \"$3\"}"
  mkdir -p "$NNI_SYS_DIR/.nni"
  printf 'ME%06d%s\n' "$(printf '%s\n' "$body" | wc -c)" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
}
echo "parameters: x=$x lr=$lr optimizer=$opt"
final=$(awk -v x="$x" -v lr="${lr:-0.01}" -v o="$opt" 'BEGIN { l = log(lr) / log(10) + 2.5
  printf "%.6f", (x - 0.3)^2 + 0.1 * l * l + (o == "sgd" ? 0.2 : 0) }')
s=0
while [ "$s" -lt "${STEPS:-4}" ]; do
  sleep "${PAUSE:-1}"
  v=$(awk -v f="$final" -v s="$s" 'BEGIN { printf "%.6f", f + 1 / (s + 1) }')
  echo "step $s: $v"
  report PERIODICAL "$s" "$v"
  s=$((s + 1))
done
echo "final: $final"
report FINAL 0 "$final"

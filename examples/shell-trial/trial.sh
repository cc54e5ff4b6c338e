#!/bin/sh
# A trial in plain shell: it speaks NNI's HTTP trial channel with curl, the way a trial in any
# language can. NNI_TRIAL_COMMAND_CHANNEL is the trial's URL; every request is JSON. Without it (a
# trial away from the runner, such as a Slurm job) it speaks NNI's file channel: parameters from
# parameter.cfg, metrics appended to .nni/metrics in NNI_SYS_DIR.
set -eu
url="${NNI_TRIAL_COMMAND_CHANNEL:-}"

# 1. ask for this trial's parameters, then poll until they come (408: nothing yet, ask again)
if [ -n "$url" ]; then
  curl -sf -X PUT -H 'Content-Type: application/json' -d '{"type":"request_parameter"}' "$url"
  while :; do
    code=$(curl -s -o "$NNI_OUTPUT_DIR/reply.json" -w '%{http_code}' "$url")
    [ "$code" = 200 ] && break
    [ "$code" = 408 ] || { echo "trial channel answered $code" >&2; exit 1; }
  done
  # the reply is {"type":"parameter","parameter":"<the parameter record as JSON text>"}
  record=$(sed -e 's/.*"parameter": *"//' -e 's/"}[[:space:]]*$//' -e 's/\\"/"/g' "$NNI_OUTPUT_DIR/reply.json")
else
  record=$(cat "$NNI_SYS_DIR/parameter.cfg")
fi
pid=$(printf '%s' "$record" | sed -n 's/.*"parameter_id": *\([0-9]*\).*/\1/p')
x=$(printf '%s' "$record" | sed -n 's/.*"x": *\([-0-9.eE+]*\).*/\1/p')
y=$(printf '%s' "$record" | sed -n 's/.*"y": *\([-0-9.eE+]*\).*/\1/p')

# 2. report: an intermediate result per step, then the final one. The metric's "value" is JSON
#    text inside the JSON (so a number goes as a string), and the whole metric is a string too.
report() { # type sequence value
  if [ -z "$url" ]; then
    # a frame: ME, the length of the rest in six digits, the metric's JSON and a newline
    body="{\"parameter_id\": $pid, \"trial_job_id\": \"$NNI_TRIAL_JOB_ID\", \"type\": \"$1\", \"sequence\": $2, \"value\": \"$3\"}"
    mkdir -p "$NNI_SYS_DIR/.nni"
    printf 'ME%06d%s\n' "$(printf '%s\n' "$body" | wc -c)" "$body" >> "$NNI_SYS_DIR/.nni/metrics"
    return
  fi
  metric="{\\\"parameter_id\\\": $pid, \\\"trial_job_id\\\": \\\"$NNI_TRIAL_JOB_ID\\\", \\\"type\\\": \\\"$1\\\", \\\"sequence\\\": $2, \\\"value\\\": \\\"$3\\\"}"
  curl -sf -X PUT -H 'Content-Type: application/json' -d "{\"type\":\"metric\",\"metric\":\"$metric\"}" "$url"
}
for step in 0 1 2; do
  v=$(awk -v x="$x" -v y="$y" -v s="$step" 'BEGIN { printf "%.6f", (x-1)^2 + (y+2)^2 + 1/(s+1) }')
  report PERIODICAL "$step" "$v"
done
v=$(awk -v x="$x" -v y="$y" 'BEGIN { printf "%.6f", (x-1)^2 + (y+2)^2 }')
report FINAL 0 "$v"

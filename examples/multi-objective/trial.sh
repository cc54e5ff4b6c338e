#!/bin/sh
# A trial in plain shell that reports two objectives as one metric object (see ../shell-trial for
# the trial channel step by step): error is smallest at (1, -2), cost at (0, 0), and a large size
# halves the error for twice the cost, so no single setting is best at both.
set -eu
url="$NNI_TRIAL_COMMAND_CHANNEL"
curl -sf -X PUT -H 'Content-Type: application/json' -d '{"type":"request_parameter"}' "$url"
while :; do
  code=$(curl -s -o "$NNI_OUTPUT_DIR/reply.json" -w '%{http_code}' "$url")
  [ "$code" = 200 ] && break
  [ "$code" = 408 ] || { echo "trial channel answered $code" >&2; exit 1; }
done
record=$(sed -e 's/.*"parameter": *"//' -e 's/"}[[:space:]]*$//' -e 's/\\"/"/g' "$NNI_OUTPUT_DIR/reply.json")
pid=$(printf '%s' "$record" | sed -n 's/.*"parameter_id": *\([0-9]*\).*/\1/p')
x=$(printf '%s' "$record" | sed -n 's/.*"x": *\([-0-9.eE+]*\).*/\1/p')
y=$(printf '%s' "$record" | sed -n 's/.*"y": *\([-0-9.eE+]*\).*/\1/p')
size=$(printf '%s' "$record" | sed -n 's/.*"size": *"\([a-z]*\)".*/\1/p')

objectives=$(awk -v x="$x" -v y="$y" -v s="$size" 'BEGIN {
  e = (x-1)^2 + (y+2)^2 + 0.5; c = x^2 + y^2 + 1
  if (s == "large") { e = e / 2; c = c * 2 }
  printf "{\"default\": %.6f, \"error\": %.6f, \"cost\": %.6f}", e, e, c }')

# The metric object is JSON text in the metric's "value", and the metric is JSON text in the request:
# each level escapes the quotes (and backslashes) of the one inside it.
escape() { printf '%s' "$1" | sed -e 's/\\/\\\\/g' -e 's/"/\\"/g'; }
metric="{\"parameter_id\": $pid, \"trial_job_id\": \"$NNI_TRIAL_JOB_ID\", \"type\": \"FINAL\", \"sequence\": 0, \"value\": \"$(escape "$objectives")\"}"
curl -sf -X PUT -H 'Content-Type: application/json' -d "{\"type\":\"metric\",\"metric\":\"$(escape "$metric")\"}" "$url"

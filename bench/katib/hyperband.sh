#!/usr/bin/env bash
# Katib's hyperband: Tunekit's suggestion service against Katib's own hyperband service, on the same
# katib-lab driver runs, both killed (kill -9) and started again every 5 finished trials.
# Two experiments: Katib's example hp-tuning/hyperband.yaml as given (eta 2, r_l 2, num-epochs in
# [1, 1]) and a wide variant (r_l 8, num-epochs in [1, 8]), each run to MAX_TRIALS trials (the
# example itself stops at 2) with parallel 2 (the example's) and 8 (Katib's service wants at least
# eta^s_max = 8 for the wide one), each objective, each seed; each seed is its own experiment (the
# name gets -sSEED). Writes the raw driver results and a Markdown table to bench/results/katib/.
#
# Usage: KATIB_LAB=~/katib-lab bench/katib/hyperband.sh [SEEDS] [MAX_TRIALS]   (defaults: 3, 30)
# PORT (default 6789) is the port both services listen on. TABLE_ONLY=1 only remakes the table
# from the raw results already there.
# Needs: the lab (../shared/katib-lab/build.sh and peer.sh), node, python3, a built ./tunekit.
set -euo pipefail
home="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
lab="${KATIB_LAB:?set KATIB_LAB to the katib-lab folder}"
seeds="${1:-3}"
max_trials="${2:-30}"
port="${PORT:-6789}"
out="$home/bench/results/katib"
mkdir -p "$out"
raw="$out/hyperband-raw.jsonl"
[ -n "${TABLE_ONLY:-}" ] || : > "$raw"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
example="$lab/katib-src/examples/v1beta1/hp-tuning/hyperband.yaml"
tunekit="TUNEKIT_NO_BUILD=1 exec $home/tunekit katib serve --host 127.0.0.1 --port $port --early-stopping-port -1 2>/dev/null"
katib="$lab/peer/serve.sh hyperband $port >/dev/null 2>&1"

variant() { # name seed -> yaml path
  local yaml="$work/$1-s$2.yaml"
  sed -E "0,/^  name: (.*)$/s//  name: \1-s$2/" "$example" > "$yaml"
  if [ "$1" = wide ]; then
    python3 - "$yaml" <<'PY'
import re, sys
p = sys.argv[1]
s = open(p).read()
t = re.sub(r'(name: "r_l"\s+value: )"2"', r'\1"8"', s, count=1)
t = re.sub(r'(- name: num-epochs[\s\S]*?max: )"1"', r'\1"8"', t, count=1)
assert t != s and t.count('"8"') == 2, "the example changed: r_l or num-epochs not found"
open(p, "w").write(t)
PY
  fi
  echo "$yaml"
}

for v in $([ -n "${TABLE_ONLY:-}" ] || echo example wide); do
  for parallel in 2 8; do
    for objective in sphere branin rosenbrock; do
      for seed in $(seq 1 "$seeds"); do
        yaml="$(variant "$v" "$seed")"
        for service in tunekit katib; do
          if [ "$service" = tunekit ]; then cmd="$tunekit"; else cmd="$katib"; fi
          set +e
          (cd "$lab" && node katib-drive.js --quiet --endpoint "127.0.0.1:$port" --server-cmd "$cmd" --kill-after 5 \
            --max-trials "$max_trials" --parallel "$parallel" --objective "$objective" --seed "$seed" "$yaml") \
            > "$work/out" 2> "$work/err"
          code=$?
          set -e
          python3 - "$service" "$v" "$parallel" "$objective" "$seed" "$code" "$work/out" "$work/err" >> "$raw" <<'PY'
import json, sys
service, v, parallel, objective, seed, code, out, err = sys.argv[1:]
lines = [l for l in open(out).read().splitlines() if l.startswith("{")]
errs = [l for l in open(err).read().splitlines() if l.startswith("katib-drive:")]
print(json.dumps({"service": service, "variant": v, "parallel": int(parallel), "objective": objective, "seed": int(seed),
                  "exit": int(code), "summary": json.loads(lines[-1]) if lines else None,
                  "errors": len([l for l in errs if "GetSuggestions failed" in l]),
                  "last_error": errs[-1] if errs else ""}))
PY
        done
      done
    done
  done
done

python3 - "$raw" "$out/hyperband.md" "$seeds" "$max_trials" <<'PY'
import json, sys
raw, md, seeds, max_trials = sys.argv[1:]
rows = [json.loads(l) for l in open(raw)]
def cell(r):
    s = r["summary"]
    if r["exit"] == 0 and s:
        return f'{s["best"]["value"]:.4g} | {s["trials"]} | yes | {r["errors"]}'
    why = r["last_error"].replace("katib-drive: ", "").replace("|", "/")
    return f'– | – | no (exit {r["exit"]}: {why[:90]}) | {r["errors"]}'
by = {}
for r in rows:
    by.setdefault((r["variant"], r["parallel"], r["objective"], r["seed"]), {})[r["service"]] = r
lines = ["# Katib's hyperband: Tunekit's service against Katib's own", "",
         f"Command: `KATIB_LAB=~/katib-lab PORT=7401 bench/katib/hyperband.sh {seeds} {max_trials}` (katib-lab driver; "
         f"each run to {max_trials} trials, the service killed with `kill -9` and started again every 5 finished trials; "
         "Katib's service: `peer/serve.sh hyperband`). `example`: Katib's `hp-tuning/hyperband.yaml` as given "
         "(eta 2, r_l 2, num-epochs in [1, 1]); `wide`: the same with r_l 8 and num-epochs in [1, 8]. "
         "Best: the best final value (minimised). Errors: `GetSuggestions` calls answered with an error "
         "(the driver, as Katib's controller, asks again later). Completed: the driver ran the experiment to its end; "
         "otherwise its exit code and why (4: the service broke the contract, e.g. fewer assignments than asked; "
         "3: the settings were rejected).", "",
         "| experiment | parallel | objective | seed | Tunekit best | trials | completed | errors | Katib best | trials | completed | errors |",
         "|---|---|---|---|---|---|---|---|---|---|---|---|"]
for (v, p, o, s), x in sorted(by.items(), key=lambda kv: (kv[0][0], kv[0][1], kv[0][2], kv[0][3])):
    lines.append(f"| {v} | {p} | {o} | {s} | {cell(x['tunekit'])} | {cell(x['katib'])} |")
done = lambda svc: sum(1 for r in rows if r["service"] == svc and r["exit"] == 0)
n = lambda svc: sum(1 for r in rows if r["service"] == svc)
dups = lambda svc: sum(r["summary"]["duplicates"] for r in rows if r["service"] == svc and r["summary"])
lines += ["", "The lab's objectives take num-epochs as one more coordinate of the point, not as a budget "
          "that makes a trial better: best values compare the services on the same runs, not Hyperband "
          "against other algorithms. In `example`, num-epochs cannot hold the second budget (2), so Tunekit "
          "drops that rung and every trial is a new sample at num-epochs 1; in `wide` the budgets are 1, 2, 4 "
          "and 8 (the best trial's num-epochs is in the raw file; which trials are run again at which budget is "
          "`KatibHyperbandTest`'s).", "", f"Completed: Tunekit {done('tunekit')} of {n('tunekit')} runs, Katib {done('katib')} of {n('katib')}. "
          f"Duplicates in completed runs: Tunekit {dups('tunekit')}, Katib {dups('katib')}."]
open(md, "w").write("\n".join(lines) + "\n")
print("\n".join(lines))
PY

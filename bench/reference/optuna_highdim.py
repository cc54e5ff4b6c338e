"""Runs Optuna's samplers on the high-dimensional functions of the quality suite under the suite's protocol:
100 trials per run, seeds 0..29, sequential (ask one, tell it) or batches of 8 (ask 8, then tell the 8).

Usage (from the repository root):
  PYTHONPATH=bench/reference nice /usr/bin/python3 bench/reference/optuna_highdim.py \
      --samplers tpe,cmaes --modes sequential,batch --seeds 0..29 --out DIR

Appends, one function at a time, to DIR/optuna-highdim-SAMPLER.csv (rows of the anchors CSV, tuner labels optuna-SAMPLER) and
DIR/optuna-highdim-SAMPLER-time.csv; bench/reference/merge_highdim.py joins them.
"""
import argparse
import logging
import time

import optuna

import highdim_functions as hf

optuna.logging.set_verbosity(optuna.logging.ERROR)
logging.disable(logging.CRITICAL)


def sampler_of(label, seed):
    if label == 'tpe':
        return optuna.samplers.TPESampler(seed=seed)
    if label == 'cmaes':
        return optuna.samplers.CmaEsSampler(seed=seed)
    raise SystemExit(f'unknown sampler {label}')


def run(label, function, mode, seed, trials=100):
    d, lo, hi, optimum, _ = hf.FUNCTIONS[function]
    dists = {f'x{j}': optuna.distributions.FloatDistribution(lo, hi) for j in range(1, d + 1)}
    batch = 8 if mode == 'batch' else 1
    t0 = time.perf_counter()
    study = optuna.create_study(direction='minimize', sampler=sampler_of(label, seed))
    secs = time.perf_counter() - t0
    best = float('inf')
    curve = []
    while len(curve) < trials:
        n = min(batch, trials - len(curve))
        t0 = time.perf_counter()
        asked = [study.ask(dists) for _ in range(n)]
        secs += time.perf_counter() - t0
        for trial in asked:
            value = hf.evaluate(function, trial.params)
            t0 = time.perf_counter()
            study.tell(trial, value)
            secs += time.perf_counter() - t0
            best = min(best, value)
            curve.append(best - optimum)
    return curve, secs


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--samplers', default='tpe,cmaes')
    ap.add_argument('--functions', default=','.join(hf.FUNCTIONS))
    ap.add_argument('--modes', default='sequential,batch')
    ap.add_argument('--seeds', default='0..29')
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    hf.run_all(run, a.samplers.split(','), a.functions.split(','), a.modes.split(','), hf.seeds_of(a.seeds), a.out,
               lambda label: 'optuna-' + label, 'optuna-highdim')


if __name__ == '__main__':
    main()

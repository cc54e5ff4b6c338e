"""Measures Optuna's own cost per ask+tell, for the library-overhead comparison (bench/library-overhead.sh).

Protocol (the Tunekit side follows the same one):
  - Search space of 5 parameters: x uniform(-5, 5), y uniform(-5, 5), lr log-uniform(1e-5, 1e-1),
    layers integer 1..7 inclusive, act categorical of ["relu", "tanh", "sigmoid"].
  - Objective, minimised, costing nothing: x^2 + y^2 + (log10(lr) + 3)^2 + (layers - 3)^2 + (0 if act == "relu" else 1).
  - One study per run, created (with its sampler and storage) before the clock starts. Then N times, sequentially:
    trial = study.ask(); the five parameters are read with trial.suggest_*; value = objective;
    study.tell(trial, value).
  - Samplers: RandomSampler(seed=s) and TPESampler(seed=s), both with their defaults.
    Storages: in memory, and SQLite (a fresh file sqlite:///TMPDIR/study.db per run, deleted afterwards).
  - Sizes and repeats: by default N = 100 with seeds 0..4 and N = 10000 with seed 0.
  - Clock: time.perf_counter, read before each trial's ask and once after the last tell.
    total_s is the loop's wall time; mean_us = total_s / N in microseconds; last100_mean_us is the wall time
    from the start of trial N-100 to the end of the loop, divided by 100 (all N trials if N < 100), since the
    cost grows with the history for TPE and for SQLite.
  - For N >= 1000 a progress line goes to stderr every 1000 trials, inside the loop (a few microseconds in
    a thousand trials).
  - Optuna's logging is off.

Usage (from the repository root):
  nice /usr/bin/python3 bench/reference/optuna_overhead.py --samplers random,tpe --storages memory,sqlite \
      --sizes 100,10000 --repeats 5,1 --out bench/results/library-overhead/optuna.csv

--repeats pairs with --sizes: size i is run with seeds 0..repeats[i]-1. Appends one row per run to the CSV
(columns peer, version, sampler, storage, trials, seed, total_s, mean_us, last100_mean_us), writing the header
if the file is new or empty, and flushes after each row.
"""
import argparse
import csv
import logging
import math
import os
import signal
import sys
import tempfile
import time

import optuna

optuna.logging.set_verbosity(optuna.logging.ERROR)
logging.disable(logging.CRITICAL)

COLUMNS = ['peer', 'version', 'sampler', 'storage', 'trials', 'seed', 'total_s', 'mean_us', 'last100_mean_us']
ACTIVATIONS = ['relu', 'tanh', 'sigmoid']


def objective(x, y, lr, layers, act):
    return x * x + y * y + (math.log10(lr) + 3) ** 2 + (layers - 3) ** 2 + (0 if act == 'relu' else 1)


def sampler_of(label, seed):
    if label == 'random':
        return optuna.samplers.RandomSampler(seed=seed)
    if label == 'tpe':
        return optuna.samplers.TPESampler(seed=seed)
    raise SystemExit(f'unknown sampler {label!r}: expected random or tpe')


def timed_loop(study, trials, progress):
    """Runs the ask/suggest/objective/tell loop; returns the perf_counter stamps of each trial's start and the end."""
    stamps = [0.0] * (trials + 1)
    for i in range(trials):
        stamps[i] = time.perf_counter()
        trial = study.ask()
        value = objective(trial.suggest_float('x', -5, 5),
                          trial.suggest_float('y', -5, 5),
                          trial.suggest_float('lr', 1e-5, 1e-1, log=True),
                          trial.suggest_int('layers', 1, 7),
                          trial.suggest_categorical('act', ACTIVATIONS))
        study.tell(trial, value)
        if progress and (i + 1) % 1000 == 0:
            print(f'  {i + 1}/{trials} trials, {time.perf_counter() - stamps[0]:.1f} s', file=sys.stderr, flush=True)
    stamps[trials] = time.perf_counter()
    return stamps


def run(sampler, storage, trials, seed):
    """One study of `trials` trials; returns (total_s, mean_us, last100_mean_us)."""
    with tempfile.TemporaryDirectory(prefix='optuna-overhead-') as tmp:
        url = None if storage == 'memory' else 'sqlite:///' + os.path.join(tmp, 'study.db')
        study = optuna.create_study(direction='minimize', sampler=sampler_of(sampler, seed), storage=url)
        stamps = timed_loop(study, trials, trials >= 1000)
        del study
    total = stamps[trials] - stamps[0]
    tail = min(100, trials)
    last = stamps[trials] - stamps[trials - tail]
    return total, total / trials * 1e6, last / tail * 1e6


def ints_of(text, name):
    try:
        values = [int(v) for v in text.split(',')]
    except ValueError:
        raise SystemExit(f'--{name} must be comma-separated integers, got {text!r}')
    if not values or min(values) < 1:
        raise SystemExit(f'--{name} must be positive integers, got {text!r}')
    return values


def main():
    ap = argparse.ArgumentParser(description='Optuna cost per ask+tell (see the module docstring for the protocol).')
    ap.add_argument('--samplers', default='random,tpe')
    ap.add_argument('--storages', default='memory,sqlite')
    ap.add_argument('--sizes', default='100,10000')
    ap.add_argument('--repeats', default='5,1', help='runs per size, paired with --sizes; seeds 0..repeats-1')
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    # A run stopped with SIGTERM (e.g. a long TPE run on SQLite) still deletes its temporary SQLite directory.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    sizes, repeats = ints_of(a.sizes, 'sizes'), ints_of(a.repeats, 'repeats')
    if len(sizes) != len(repeats):
        raise SystemExit(f'--sizes has {len(sizes)} values but --repeats has {len(repeats)}')
    samplers, storages = a.samplers.split(','), a.storages.split(',')
    for s in samplers:
        sampler_of(s, 0)
    for s in storages:
        if s not in ('memory', 'sqlite'):
            raise SystemExit(f'unknown storage {s!r}: expected memory or sqlite')
    os.makedirs(os.path.dirname(os.path.abspath(a.out)), exist_ok=True)
    with open(a.out, 'a', newline='') as f:
        out = csv.writer(f)
        if f.tell() == 0:
            out.writerow(COLUMNS)
            f.flush()
        for trials, runs in zip(sizes, repeats):
            for sampler in samplers:
                for storage in storages:
                    for seed in range(runs):
                        print(f'optuna {sampler} {storage} N={trials} seed={seed}', file=sys.stderr, flush=True)
                        total, mean, last = run(sampler, storage, trials, seed)
                        out.writerow(['optuna', optuna.__version__, sampler, storage, trials, seed,
                                      f'{total:.6f}', f'{mean:.1f}', f'{last:.1f}'])
                        f.flush()
                        print(f'  {total:.2f} s, {mean:.1f} us per ask+tell, last 100 {last:.1f} us',
                              file=sys.stderr, flush=True)


if __name__ == '__main__':
    main()

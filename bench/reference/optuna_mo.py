"""Runs Optuna's multi-objective samplers on the problems of Tunekit's multi-objective benchmark (`bench-mo`) under the
same protocol: every run asks for 200 trials, sequentially (ask one, tell it) or in batches of 8 (ask 8, then tell the 8),
and after 100 and 200 results measures the hypervolume of all results so far divided by the true front's hypervolume.

Usage (from the repository root):
  nice -n 5 /usr/bin/python3 bench/reference/optuna_mo.py \
      --samplers motpe,nsga2 --modes sequential,batch8 --seeds 0..29 --out bench/reference/optuna-mo.csv
  /usr/bin/python3 bench/reference/optuna_mo.py --table bench/reference/optuna-mo.csv

Labels: optuna-motpe is TPESampler(seed=s) on a study with every objective minimised, optuna-nsga2 is
NSGAIISampler(seed=s), optuna-random is RandomSampler(seed=s) (the check that the problems and the hypervolume agree with
the benchmark's: its medians should be near the benchmark's Random row). --seeds-of LABEL=RANGE overrides --seeds for
one sampler. The CSV gets one row per run and checkpoint (sampler, problem, mode, seed, trials, hypervolume), written as
each run ends; the Markdown table of median [Q1, Q3] (numpy's default percentile) is printed at the end.
"""
import argparse
import csv
import logging
import math
import os
import sys
import time
import warnings

import numpy as np
import optuna

optuna.logging.set_verbosity(optuna.logging.WARNING)
warnings.filterwarnings('ignore')
logging.disable(logging.WARNING)

CHECKPOINTS = (100, 200)
TRIALS = 200


# ---------------------------------------------------------------- hypervolume (all objectives minimised)

def hv2(points, ref):
    """Area dominated by 2-D points inside the box bounded by ref: sweep by f1, adding the strip each new best f2 opens."""
    inside = sorted((a, b) for a, b in points if a < ref[0] and b < ref[1])
    area = 0.0
    best = ref[1]
    for a, b in inside:
        if b < best:
            area += (ref[0] - a) * (best - b)
            best = b
    return area


def hv3(points, ref):
    """Volume dominated by 3-D points inside the box bounded by ref: slices between consecutive f3 levels, each slice's
    cross-section being the 2-D area of the points at or below it."""
    inside = sorted((p for p in points if p[0] < ref[0] and p[1] < ref[1] and p[2] < ref[2]), key=lambda p: p[2])
    volume = 0.0
    for i, p in enumerate(inside):
        top = inside[i + 1][2] if i + 1 < len(inside) else ref[2]
        if top > p[2]:
            volume += (top - p[2]) * hv2([(q[0], q[1]) for q in inside[:i + 1]], ref[:2])
    return volume


def hypervolume(points, ref):
    return hv2(points, ref) if len(ref) == 2 else hv3(points, ref)


# ---------------------------------------------------------------- problems

ZDT_N = 10   # variables of ZDT1-3 (the benchmark's choice; the original paper has 30)
DTLZ_K = 10  # DTLZ2's distance variables; with 3 objectives, 12 variables in all


def unit_cube(n):
    return {f'x{i}': optuna.distributions.FloatDistribution(0.0, 1.0) for i in range(1, n + 1)}


def zdt_shape(which, f1, g):
    r = f1 / g
    if which == 1:
        return 1 - math.sqrt(r)
    if which == 2:
        return 1 - r * r
    return 1 - math.sqrt(r) - r * math.sin(10 * math.pi * f1)


def zdt(which):
    ref = (1.1, 10.0)

    def evaluate(params):
        x1 = params['x1']
        g = 1 + 9 * sum(params[f'x{i}'] for i in range(2, ZDT_N + 1)) / (ZDT_N - 1)
        return (x1, g * zdt_shape(which, x1, g))

    # the true front is g = 1; sampled at 200,001 values of f1, the sweep keeps only its non-dominated part
    samples = 200_000
    front = [(i / samples, zdt_shape(which, i / samples, 1.0)) for i in range(samples + 1)]
    return unit_cube(ZDT_N), evaluate, ref, hv2(front, ref)


def dtlz2():
    m, n = 3, 3 + DTLZ_K - 1
    ref = (2.0, 2.0, 2.0)

    def evaluate(params):
        x = [params[f'x{i}'] for i in range(1, n + 1)]
        g = sum((v - 0.5) ** 2 for v in x[m - 1:])
        a, b = x[0] * math.pi / 2, x[1] * math.pi / 2
        return ((1 + g) * math.cos(a) * math.cos(b), (1 + g) * math.cos(a) * math.sin(b), (1 + g) * math.sin(a))

    # the front is the unit sphere's positive octant: it dominates the 2x2x2 box less an eighth of the unit ball
    return unit_cube(n), evaluate, ref, 8 - math.pi / 6


MODEL_ERROR = {'small': 0.5, 'medium': 0.35, 'large': 0.25}
MODEL_COST = {'small': 1.0, 'medium': 2.0, 'large': 4.0}


def mixed():
    """A stand-in for model selection: error against cost over a model choice, an integer depth 1..8, a log-scaled
    learning rate and a dropout on a 0.05 grid. Each (model, depth) is best at lr = 10^-2.5 and dropout 0.2, so the
    true front is the non-dominated subset of the 24 (model, depth) optima."""
    ref = (1.3, 1.1)
    dists = {
        'model': optuna.distributions.CategoricalDistribution(list(MODEL_ERROR)),
        'depth': optuna.distributions.IntDistribution(1, 8),
        'lr': optuna.distributions.FloatDistribution(1e-5, 1e-1, log=True),
        'dropout': optuna.distributions.FloatDistribution(0.0, 0.6, step=0.05),
    }

    def evaluate(params):
        model, depth = params['model'], params['depth']
        u = math.log10(params['lr']) + 2.5
        error = MODEL_ERROR[model] + 0.3 / depth + 0.04 * u * u + (params['dropout'] - 0.2) ** 2
        return (error, MODEL_COST[model] * depth / 32)

    optima = [(MODEL_ERROR[mo] + 0.3 / d, MODEL_COST[mo] * d / 32) for mo in MODEL_ERROR for d in range(1, 9)]
    return dists, evaluate, ref, hv2(optima, ref)


def problems():
    return {'zdt1': zdt(1), 'zdt2': zdt(2), 'zdt3': zdt(3), 'dtlz2': dtlz2(), 'mixed': mixed()}


# ---------------------------------------------------------------- runs

def sampler_of(label, seed):
    if label == 'motpe':
        return optuna.samplers.TPESampler(seed=seed)
    if label == 'nsga2':
        return optuna.samplers.NSGAIISampler(seed=seed)
    if label == 'random':
        return optuna.samplers.RandomSampler(seed=seed)
    raise SystemExit(f'unknown sampler {label}')


def run(label, problem, mode, seed):
    """One run; returns {checkpoint: normalised hypervolume}."""
    dists, evaluate, ref, true_hv = problem
    batch = 8 if mode == 'batch8' else 1
    study = optuna.create_study(directions=['minimize'] * len(ref), sampler=sampler_of(label, seed))
    results = []
    out = {}
    while len(results) < TRIALS:
        asked = [study.ask(dists) for _ in range(min(batch, TRIALS - len(results)))]
        for trial in asked:
            values = evaluate(trial.params)
            study.tell(trial, list(values))
            results.append(values)
            if len(results) in CHECKPOINTS:
                out[len(results)] = hypervolume(results, ref) / true_hv
    return out


def seed_range(text):
    if '..' in text:
        a, b = text.split('..')
        return list(range(int(a), int(b) + 1))
    return [int(s) for s in text.split(',')]


# ---------------------------------------------------------------- table

def table(path):
    rows = {}
    with open(path, newline='') as f:
        for r in csv.DictReader(f):
            rows.setdefault((r['problem'], r['sampler'], r['mode'], int(r['trials'])), []).append(float(r['hypervolume']))
    lines = []
    probs = list(dict.fromkeys(k[0] for k in rows))
    samplers = list(dict.fromkeys(k[1] for k in rows))
    modes = [m for m in ('sequential', 'batch8') if any(k[2] == m for k in rows)]
    for p in probs:
        lines.append(f'\n## {p}\n')
        lines.append('| sampler | ' + ' | '.join(f'{m}, {t} trials' for m in modes for t in CHECKPOINTS) + ' |')
        lines.append('|---|' + '---|' * (len(modes) * len(CHECKPOINTS)))
        for s in samplers:
            cells = []
            for m in modes:
                for t in CHECKPOINTS:
                    v = rows.get((p, s, m, t))
                    if not v:
                        cells.append('n/a')
                        continue
                    q1, med, q3 = np.percentile(v, [25, 50, 75])
                    cells.append(f'{med:.4f} [{q1:.4f}, {q3:.4f}] (n={len(v)})')
            lines.append(f'| {s} | ' + ' | '.join(cells) + ' |')
    return '\n'.join(lines)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--samplers', default='motpe,nsga2')
    ap.add_argument('--problems', default='zdt1,zdt2,zdt3,dtlz2,mixed')
    ap.add_argument('--modes', default='sequential,batch8')
    ap.add_argument('--seeds', default='0..29')
    ap.add_argument('--seeds-of', action='append', default=[], help='LABEL=RANGE, seeds for one sampler')
    ap.add_argument('--out', default='bench/reference/optuna-mo.csv')
    ap.add_argument('--append', action='store_true', help='add to the CSV instead of starting it anew')
    ap.add_argument('--table', metavar='CSV', help='only print the table of an existing CSV')
    a = ap.parse_args()
    if a.table:
        print(table(a.table))
        return
    probs = problems()
    for name in a.problems.split(','):
        print(f'{name}: reference {probs[name][2]}, true front hypervolume {probs[name][3]:.6f}', file=sys.stderr)
    seeds_of = dict(s.split('=', 1) for s in a.seeds_of)
    fresh = not (a.append and os.path.exists(a.out))
    with open(a.out, 'w' if fresh else 'a', newline='') as f:
        w = csv.writer(f)
        if fresh:
            w.writerow(['sampler', 'problem', 'mode', 'seed', 'trials', 'hypervolume'])
        for label in a.samplers.split(','):
            seeds = seed_range(seeds_of.get(label, a.seeds))
            for name in a.problems.split(','):
                for mode in a.modes.split(','):
                    t0 = time.perf_counter()
                    for seed in seeds:
                        hv = run(label, probs[name], mode, seed)
                        for t in CHECKPOINTS:
                            w.writerow([f'optuna-{label}', name, mode, seed, t, repr(hv[t])])
                        f.flush()
                    print(f'optuna-{label} {name} {mode}: {len(seeds)} runs in {time.perf_counter() - t0:.0f} s',
                          file=sys.stderr, flush=True)
    print(table(a.out))


if __name__ == '__main__':
    main()

"""The high-dimensional functions of Tunekit's quality suite (bench/.../quality/Suite.java, on demo/.../TestFunctions.java), in numpy.

Each entry: name -> (dimension, low, high, optimum, function of a list of floats). The search space of
every one is the box [low, high]^d of uniform parameters x1 .. xd.
"""
import math
import os
import sys

STYBLINSKI_TANG_X = -2.903534027771177
SCHWEFEL_X = 420.968746359982
SCHWEFEL_TERM = SCHWEFEL_X * math.sin(math.sqrt(SCHWEFEL_X))


def rosenbrock(x):
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (x[i] - 1) ** 2 for i in range(len(x) - 1))


def ackley(x):
    d = len(x)
    sq = sum(v * v for v in x)
    cs = sum(math.cos(2 * math.pi * v) for v in x)
    return -20 * math.exp(-0.2 * math.sqrt(sq / d)) - math.exp(cs / d) + 20 + math.e


def styblinski_tang(x):
    return 0.5 * sum(v ** 4 - 16 * v * v + 5 * v for v in x)


def rastrigin(x):
    return 10 * len(x) + sum(v * v - 10 * math.cos(2 * math.pi * v) for v in x)


def schwefel(x):
    return max(0.0, sum(SCHWEFEL_TERM - v * math.sin(math.sqrt(abs(v))) for v in x))


def levy(x):
    w = [1 + (v - 1) / 4 for v in x]
    f = math.sin(math.pi * w[0]) ** 2
    for i in range(len(x) - 1):
        f += (w[i] - 1) ** 2 * (1 + 10 * math.sin(math.pi * w[i] + 1) ** 2)
    f += (w[-1] - 1) ** 2 * (1 + math.sin(2 * math.pi * w[-1]) ** 2)
    return f


_x0 = STYBLINSKI_TANG_X
FUNCTIONS = {
    'rosenbrock8': (8, -5.0, 10.0, 0.0, rosenbrock),
    'ackley10': (10, -32.768, 32.768, 0.0, ackley),
    'styblinski10': (10, -5.0, 5.0, 10 * 0.5 * (_x0 ** 4 - 16 * _x0 * _x0 + 5 * _x0), styblinski_tang),
    'rastrigin10': (10, -5.12, 5.12, 0.0, rastrigin),
    'schwefel10': (10, -500.0, 500.0, 0.0, schwefel),
    'levy20': (20, -10.0, 10.0, 0.0, levy),
}


def search_space(name):
    d, lo, hi, _, _ = FUNCTIONS[name]
    return {f'x{j}': {'_type': 'uniform', '_value': [lo, hi]} for j in range(1, d + 1)}


def evaluate(name, params):
    d, _, _, _, f = FUNCTIONS[name]
    return f([float(params[f'x{j}']) for j in range(1, d + 1)])


def quartiles(values):
    """Median, Q1, Q3 with linear interpolation between order statistics (numpy's default)."""
    import numpy as np
    a = np.asarray(values, dtype=float)
    return float(np.percentile(a, 50)), float(np.percentile(a, 25)), float(np.percentile(a, 75))


def summary_rows(label, mode, function, curves, checkpoints=(25, 50, 100)):
    """Rows of the anchors CSV (tuner,mode,function,seeds,trials,median,q1,q3,note) from best-so-far regret curves."""
    rows = []
    for c in checkpoints:
        vals = [curve[min(c, len(curve)) - 1] for curve in curves]
        if len(vals) == 1:
            rows.append(f'{label},{mode},{function},1,{c},{vals[0]!r},,,')
        else:
            m, q1, q3 = quartiles(vals)
            rows.append(f'{label},{mode},{function},{len(vals)},{c},{m!r},{q1!r},{q3!r},')
    return rows


def seeds_of(text):
    """Seeds from '0..29' or '1,4,7' (ranges include both ends)."""
    out = []
    for part in text.split(','):
        if '..' in part:
            a, b = part.split('..')
            out.extend(range(int(a), int(b) + 1))
        else:
            out.append(int(part))
    return out


def run_all(run, labels, functions, modes, seeds, out, row_label, file_stem):
    """Runs run(label, function, mode, seed) -> (curve, tuner seconds) over every combination and appends
    the summary rows to OUT/FILE_STEM-LABEL.csv and the mean tuner times to OUT/FILE_STEM-LABEL-time.csv,
    one function at a time, so that a long run keeps what it finished."""
    os.makedirs(out, exist_ok=True)
    for label in labels:
        name = row_label(label)
        for function in functions:
            rows, times = [], []
            for mode in modes:
                curves, secs = [], []
                for seed in seeds:
                    curve, s = run(label, function, mode, seed)
                    curves.append(curve)
                    secs.append(s)
                    print(f'{name} {function} {mode} seed {seed}: regret {curve[-1]:.6g}, {s:.2f} s', file=sys.stderr, flush=True)
                rows.extend(summary_rows(name, mode, function, curves))
                times.append(f'{name},{mode},{function},{sum(secs) / len(secs)!r}')
            with open(os.path.join(out, f'{file_stem}-{label}.csv'), 'a') as f:
                f.write('\n'.join(rows) + '\n')
            with open(os.path.join(out, f'{file_stem}-{label}-time.csv'), 'a') as f:
                f.write('\n'.join(times) + '\n')

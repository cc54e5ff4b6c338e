"""Bayesmark's normalised score for runs of the real-model suite: 0 is random search, 100 the best value known.

For each problem and mode, R is the mean over Random's runs of the best loss found within the budget, and f* the
lowest loss any run of any tuner found; a run that ends at best loss b scores 100 (R - b) / (R - f*), clipped to
[-100, 100] so that one bad run cannot outweigh the others (Bayesmark clips the same way). A tuner's score on a
problem is the mean over its seeds; its suite score the mean over problems, and its score per model family the mean
over that family's problems, each shown with its spread: the standard error over the runs (problem x seed) that make it.

Reads regret.csv files (tuner,function,mode,seed,trial,best_so_far_regret; the real-model suite's regret is the
loss itself), Tunekit's and peers' alike, and writes a Markdown table to standard output.

Usage: /usr/bin/python3 bench/realmodels/scores.py [--baseline Random] [--tuners A,B,...] [--paired A,B] regret.csv [more.csv ...]

--tuners shows only the named tuners' rows (and the baseline's); R and f* still come from every run read. It is
for runs spread over several files, such as more seeds of a protocol, where some tuners have fewer seeds.

--paired A,B prints, instead of the table, A's score minus B's on the runs both made (same problem, mode and seed),
with its standard error over those runs and over the problems: a problem's runs share its R and f*, so the
problems are the independent units, and the second spread is the one to trust when the two differ.
"""
import argparse
import csv
import math
import statistics
import sys
from collections import defaultdict


def final_best(paths):
    """(tuner, problem, mode) -> {seed: best loss at the run's last trial}."""
    last = {}
    for path in paths:
        with open(path, newline='') as f:
            for row in csv.DictReader(f):
                key = (row['tuner'], row['function'], row['mode'], row['seed'])
                trial = int(row['trial'])
                if key not in last or trial >= last[key][0]:
                    last[key] = (trial, float(row['best_so_far_regret']))
    runs = defaultdict(dict)
    for (tuner, problem, mode, seed), (_, best) in last.items():
        runs[(tuner, problem, mode)][seed] = best
    return runs


def scores(runs, baseline):
    """(tuner, problem, mode) -> [score of each seed's run]."""
    return {key: list(by_seed.values()) for key, by_seed in scores_by_seed(runs, baseline).items()}


def scores_by_seed(runs, baseline):
    """(tuner, problem, mode) -> {seed: score of that seed's run}."""
    best_known = defaultdict(lambda: math.inf)
    for (tuner, problem, mode), by_seed in runs.items():
        best_known[(problem, mode)] = min(best_known[(problem, mode)], min(by_seed.values()))
    out = {}
    for (tuner, problem, mode), by_seed in runs.items():
        random_runs = runs.get((baseline, problem, mode))
        if not random_runs:
            continue
        r = statistics.mean(random_runs.values())
        f_star = best_known[(problem, mode)]
        if r - f_star <= 0:
            continue
        out[(tuner, problem, mode)] = {seed: max(-100.0, min(100.0, 100.0 * (r - b) / (r - f_star)))
                                       for seed, b in by_seed.items()}
    return out


def paired(by_seed, a, b):
    """Lines comparing tuner a with tuner b on the runs both made (same problem, mode and seed), per mode."""
    lines = []
    for mode in sorted({m for (_, _, m) in by_seed}):
        runs, problems = [], []
        for (t, p, m), mine in sorted(by_seed.items()):
            theirs = by_seed.get((b, p, m))
            if t != a or m != mode or not theirs:
                continue
            d = [mine[seed] - theirs[seed] for seed in mine if seed in theirs]
            if d:
                runs += d
                problems.append(statistics.mean(d))
        if len(problems) < 2:
            lines.append(f'{mode}: fewer than 2 problems where both {a} and {b} ran')
            continue
        ahead = sum(1 for x in problems if x > 0)
        lines.append(f'{mode}: {a} - {b}: run by run {statistics.mean(runs):+.1f} ± {stderr(runs):.1f} ({len(runs)} runs); '
                     f'problem by problem {statistics.mean(problems):+.1f} ± {stderr(problems):.1f} '
                     f'({len(problems)} problems, {a} ahead on {ahead})')
    return lines


def stderr(values):
    return statistics.stdev(values) / math.sqrt(len(values))


def summary(per_problem):
    """(mean over problems of each problem's mean score, standard error over all the runs) of {problem: [run scores]}."""
    mean = statistics.mean(statistics.mean(v) for v in per_problem.values())
    runs = [x for v in per_problem.values() for x in v]
    se = statistics.stdev(runs) / math.sqrt(len(runs)) if len(runs) > 1 else 0.0
    return mean, se


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('--baseline', default='Random', help='the tuner label of random search (default: Random)')
    ap.add_argument('--tuners', help='show only these tuners (comma-separated labels) and the baseline')
    ap.add_argument('--paired', metavar='A,B', help='instead of the table, the difference of tuner A\'s score minus B\'s on the '
                    'runs both made, with its standard error over the runs and over the problems (a problem\'s runs share '
                    'its R and f*, so the problems are the independent units)')
    ap.add_argument('files', nargs='+')
    a = ap.parse_args(argv[1:])
    if a.paired:
        names = a.paired.split(',')
        if len(names) != 2:
            ap.error(f'--paired takes two tuner labels separated by a comma, got {a.paired!r}')
        print('\n'.join(paired(scores_by_seed(final_best(a.files), a.baseline), *names)))
        return 0
    shown = None if a.tuners is None else set(a.tuners.split(',')) | {a.baseline}
    s = scores(final_best(a.files), a.baseline)
    modes = sorted({m for (_, _, m) in s})
    for mode in modes:
        tuners = sorted({t for (t, _, m) in s if m == mode and (shown is None or t in shown)})
        problems = sorted({p for (_, p, m) in s if m == mode})
        families = sorted({p.rsplit('-', 2)[0] for p in problems})
        print(f'\n### {mode} ({len(problems)} problems)\n')
        print('Cells: mean normalised score ± standard error over the runs (problem x seed).\n')
        print('| tuner | suite | ' + ' | '.join(families) + ' |')
        print('|---|---:|' + '---:|' * len(families))
        rows = []
        for t in tuners:
            per = {p: s[(t, p, mode)] for p in problems if (t, p, mode) in s}
            if len(per) < len(problems):
                continue
            fam = [summary({p: v for p, v in per.items() if p.rsplit('-', 2)[0] == f}) for f in families]
            rows.append((summary(per), t, fam))
        for (mean, se), t, fam in sorted(rows, reverse=True):
            print(f'| {t} | {mean:.1f} ± {se:.1f} | ' + ' | '.join(f'{m:.1f} ± {e:.1f}' for m, e in fam) + ' |')
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

"""Joins the per-tuner outputs of nni_highdim.py and optuna_highdim.py into the reference files that
`tunekit-bench bench` packages: nni-highdim.csv / nni-highdim-time.csv and optuna-highdim.csv /
optuna-highdim-time.csv (the forms of nni-anchors.csv and nni-tuner-time.csv).

Usage (from the repository root): /usr/bin/python3 bench/reference/merge_highdim.py DIR
"""
import glob
import os
import sys

ANCHOR_HEADER = 'tuner,mode,function,seeds,trials,median,q1,q3,note'
TIME_HEADER = 'tuner,mode,function,seconds'

NOTES = {
    'nni': [
        'NNI 3.0 (the Python source of the 3.0 line) tuners on the high-dimensional functions of the quality suite',
        '(rosenbrock8, ackley10, styblinski10, rastrigin10, schwefel10, levy20; see Suite.java), measured by',
        'bench/reference/nni_highdim.py: the tuner API called in wire order, 100 trials, one run per seed.',
        'Regret = best-so-far minus f*, median [Q1, Q3] over seeds 0..29 (seeds = how many were run).',
        'tpe = TpeTuner defaults; random = RandomTuner; evolution = EvolutionTuner(population_size=32);',
        'gp = GPTuner defaults, sequential, seed 0 of rosenbrock8 only: that run took 25 CPU minutes on the loaded machine',
        "(63 min wall, which the time column shows), so the other functions did not fit; SciPy >= 1.9 returns res.fun as a",
        "float where NNI's acq_max indexes it, so the script hands NNI a 1-element array (NNI's code itself is unchanged).",
        'anneal = HyperoptTuner(\'anneal\') over hyperopt 0.1.2 run from its source (not packaged for this Debian; PyPI is',
        'unreachable here), with Debian\'s python3-future and python3-networkx; measured 2026-11-28. hyperopt_tpe is absent.',
    ],
    'optuna': [
        'Optuna 3.1.0 (Debian python3-optuna) samplers on the same functions, measured by',
        'bench/reference/optuna_highdim.py: ask / tell, 100 trials, batch mode asks 8 before telling 8.',
        'optuna-tpe = TPESampler(seed) defaults; optuna-cmaes = CmaEsSampler(seed) defaults (cmaes 0.9.1).',
        "Optuna 3.1 has no Gaussian-process sampler (it came in 3.6), so none is shown.",
    ],
}


def main():
    src = sys.argv[1]
    out = os.path.dirname(os.path.abspath(__file__))
    for lib in ('nni', 'optuna'):
        rows, times = [], []
        for f in sorted(glob.glob(os.path.join(src, f'{lib}-highdim-*.csv'))):
            with open(f) as fh:
                lines = [l.strip() for l in fh if l.strip()]
            (times if f.endswith('-time.csv') else rows).extend(lines)
        if not rows:
            continue
        with open(os.path.join(out, f'{lib}-highdim.csv'), 'w') as fh:
            fh.write(''.join(f'# {n}\n' for n in NOTES[lib]))
            fh.write(ANCHOR_HEADER + '\n' + '\n'.join(rows) + '\n')
        with open(os.path.join(out, f'{lib}-highdim-time.csv'), 'w') as fh:
            fh.write(TIME_HEADER + '\n' + '\n'.join(times) + '\n')


if __name__ == '__main__':
    main()

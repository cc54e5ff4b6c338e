"""Runs NNI 3's own tuners on the high-dimensional functions of the quality suite, the way the NNI anchors
were taken: the tuner's Python API called in wire order (update_search_space, generate_parameters or
generate_multiple_parameters, receive_trial_result, trial_end), 100 trials, one run per seed.

Usage (from the repository root):
  PYTHONPATH=/root/nni-trial-side/v3:bench/reference nice /usr/bin/python3 bench/reference/nni_highdim.py \
      --tuners tpe,random,evolution --modes sequential,batch --seeds 0..29 --out DIR

Appends, one function at a time, to DIR/nni-highdim-TUNER.csv (rows of the anchors CSV) and DIR/nni-highdim-TUNER-time.csv
(mean seconds inside the tuner per run); bench/reference/merge_highdim.py joins them.
"""
import argparse
import contextlib
import logging
import random
import time

import numpy as np

import highdim_functions as hf

logging.disable(logging.CRITICAL)


@contextlib.contextmanager
def seeded_random_state(seed):
    """NNI's Evolution and GP tuners make np.random.RandomState() without a seed: give them one."""
    original = np.random.RandomState

    def make(*args, **kwargs):
        if not args and not kwargs:
            return original(seed)
        return original(*args, **kwargs)

    np.random.RandomState = make
    try:
        yield
    finally:
        np.random.RandomState = original


def make_tuner(label, seed):
    random.seed(seed)
    np.random.seed(seed)
    if label == 'tpe':
        from nni.algorithms.hpo.tpe_tuner import TpeTuner
        return TpeTuner('minimize', seed=seed)
    if label == 'random':
        from nni.algorithms.hpo.random_tuner import RandomTuner
        return RandomTuner(seed=seed)
    if label == 'evolution':
        from nni.algorithms.hpo.evolution_tuner import EvolutionTuner
        return EvolutionTuner('minimize', population_size=32)
    if label == 'anneal':
        # NNI's Anneal is its HyperoptTuner over hyperopt's anneal.suggest (hyperopt 0.1.2, as the NNI anchors used)
        from nni.algorithms.hpo.hyperopt_tuner import HyperoptTuner
        return HyperoptTuner('anneal', 'minimize')
    if label == 'gp':
        from nni.algorithms.hpo.gp_tuner import util
        from nni.algorithms.hpo.gp_tuner.gp_tuner import GPTuner
        if not getattr(util.minimize, 'fun_as_array', False):
            # NNI's acq_max indexes res.fun[0], which SciPy >= 1.9 gives as a float: hand it a 1-element array
            original = util.minimize

            def minimize(*args, **kwargs):
                res = original(*args, **kwargs)
                res.fun = np.atleast_1d(res.fun)
                return res

            minimize.fun_as_array = True
            util.minimize = minimize
        return GPTuner('minimize')
    raise SystemExit(f'unknown tuner {label}')


def run(label, function, mode, seed, trials=100):
    optimum = hf.FUNCTIONS[function][3]
    batch = 8 if mode == 'batch' else 1
    tuner_seconds = 0.0
    with seeded_random_state(seed):
        t0 = time.perf_counter()
        tuner = make_tuner(label, seed)
        tuner.update_search_space(hf.search_space(function))
        tuner_seconds += time.perf_counter() - t0
    best = float('inf')
    curve = []
    next_id = 0
    while len(curve) < trials:
        ids = list(range(next_id, next_id + min(batch, trials - len(curve))))
        next_id += len(ids)
        t0 = time.perf_counter()
        if batch == 1:
            params = [tuner.generate_parameters(ids[0])]
        else:
            params = tuner.generate_multiple_parameters(ids)
        tuner_seconds += time.perf_counter() - t0
        if not params:
            break
        for pid, p in zip(ids, params):
            value = hf.evaluate(function, p)
            t0 = time.perf_counter()
            tuner.receive_trial_result(pid, p, value)
            tuner.trial_end(pid, True)
            tuner_seconds += time.perf_counter() - t0
            best = min(best, value)
            curve.append(best - optimum)
    while len(curve) < trials:  # a tuner that stops keeps its last best value
        curve.append(curve[-1])
    return curve, tuner_seconds


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tuners', default='tpe,random,evolution')
    ap.add_argument('--functions', default=','.join(hf.FUNCTIONS))
    ap.add_argument('--modes', default='sequential,batch')
    ap.add_argument('--seeds', default='0..29')
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    hf.run_all(run, a.tuners.split(','), a.functions.split(','), a.modes.split(','), hf.seeds_of(a.seeds), a.out,
               lambda label: label, 'nni-highdim')


if __name__ == '__main__':
    main()

"""Optuna 3.1's samplers on the real-model problems of problems.py, by the quality benchmark's protocol: N trials per
run, one run per seed, sequential (ask one, tell it) or batch (ask 8, then tell the 8). Writes rows in the columns
of the benchmark's regret.csv (tuner, function, mode, seed, trial, best_so_far_regret; the regret is the loss), so
that scores.py scores Optuna's runs beside Tunekit's.

The problems' NNI spaces map to Optuna's distributions: randint [a, b) to an integer in [a, b - 1], loguniform and
uniform to a float (log-scaled or not), qloguniform with q = 1 to a log-scaled integer, choice to a categorical.

Usage (from the repository root; Debian's python3-optuna and python3-sklearn):
  PYTHONPATH=bench/realmodels nice /usr/bin/python3 bench/realmodels/optuna_models.py \
      --problems RF-wine-nll,kNN-breast-acc --samplers tpe,random --modes sequential --seeds 0..2 --trials 64 \
      --out DIR/optuna-regret.csv
Samplers: tpe (TPESampler defaults), mtpe (multivariate=True), cmaes (CmaEsSampler), random. Appends rows, flushing
after each run.
"""
import logging

import optuna

import problems as pm

optuna.logging.set_verbosity(optuna.logging.ERROR)
logging.disable(logging.CRITICAL)
BATCH = 8


def sampler_of(label, seed):
    if label == 'tpe':
        return optuna.samplers.TPESampler(seed=seed)
    if label == 'mtpe':
        return optuna.samplers.TPESampler(seed=seed, multivariate=True)
    if label == 'cmaes':
        return optuna.samplers.CmaEsSampler(seed=seed)
    if label == 'random':
        return optuna.samplers.RandomSampler(seed=seed)
    raise SystemExit(f'unknown sampler {label!r}: tpe, mtpe, cmaes or random')


def suggest(trial, space):
    params = {}
    for name, spec in space.items():
        kind, v = spec['_type'], spec['_value']
        if kind == 'randint':
            params[name] = trial.suggest_int(name, v[0], v[1] - 1)
        elif kind == 'uniform':
            params[name] = trial.suggest_float(name, v[0], v[1])
        elif kind == 'loguniform':
            params[name] = trial.suggest_float(name, v[0], v[1], log=True)
        elif kind == 'qloguniform' and v[2] == 1:
            params[name] = trial.suggest_int(name, int(v[0]), int(v[1]), log=True)
        elif kind == 'choice':
            params[name] = trial.suggest_categorical(name, v)
        else:
            raise SystemExit(f'no Optuna distribution for {name}: {spec}')
    return params


def run(problem, sampler, mode, seed, trials):
    p = pm.Problem(problem)
    study = optuna.create_study(sampler=sampler_of(sampler, seed), direction='minimize')
    best, rows, done = float('inf'), [], 0
    while done < trials:
        size = 1 if mode == 'sequential' else min(BATCH, trials - done)
        asked = [study.ask() for _ in range(size)]
        for t in asked:
            value = p.evaluate(suggest(t, p.space))['value']
            study.tell(t, value)
            done += 1
            best = min(best, value)
            rows.append([f'optuna-{sampler}', problem, mode, seed, done, repr(best)])
    return rows


def main():
    pm.harness_main(__doc__, 'samplers', 'tpe,random', run)


if __name__ == '__main__':
    main()

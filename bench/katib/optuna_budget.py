"""The katib-lab driver's controller loop (parallel 3, trials of 1 to 2 time units, the last of 10 noisy
reports as the result) played in-process against Optuna's TPESampler as Katib's Optuna suggestion
service uses it: one study kept for the experiment, constant_liar=True (multivariate=True for
multivariate-tpe; for cmaes, CmaEsSampler with Optuna's defaults), Optuna's defaults otherwise (10 start-up trials, 24 EI candidates), a trial asked
per assignment and told when it completes. Seeded (sampler seed 100000 + the run's seed), so runs repeat.

Usage: python3 optuna_budget.py ALGORITHM OBJECTIVE FIRST_SEED LAST_SEED   (needs optuna; prints one
line per seed: algorithm, objective, seed, best final value). ALGORITHM cmaes-random-start is not one of
Katib's: CmaEsSampler started from a uniformly random point (per seed) instead of the centre of the space.
ALGORITHM cmaes-unit-step is not one of Katib's either: CmaEsSampler over the same objective with every
parameter's range set to [0, 1], so that its first step (a sixth of the smallest range, in the parameters'
own units) is a sixth of every range, as Tunekit's CMA-ES measures steps."""
import math
import random
import sys
import warnings

import optuna

warnings.filterwarnings('ignore', category=optuna.exceptions.ExperimentalWarning)
optuna.logging.set_verbosity(optuna.logging.ERROR)
alg, obj, a, b = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4])
def objective(name, u, c):
    if name == 'sphere': return sum((x - y) ** 2 for x, y in zip(u, c))
    if name == 'branin':
        x1, x2 = 15 * u[0] - 5, 15 * u[1]
        return (x2 - 5.1 / (4 * math.pi ** 2) * x1 * x1 + 5 / math.pi * x1 - 6) ** 2 + 10 * (1 - 1 / (8 * math.pi)) * math.cos(x1) + 10 - 0.397887
    x = [4 * t - 2 for t in u]  # rosenbrock (two parameters) and rosenbrock6 (six)
    return sum(100 * (x[i + 1] - x[i] ** 2) ** 2 + (1 - x[i]) ** 2 for i in range(len(x) - 1))
# Katib's tpe.yaml space; rosenbrock6 adds two more copies of each parameter (as KatibBudgetSim does)
ranges = [('lr', 0.01, 0.05), ('momentum', 0.5, 0.9), ('lr2', 0.01, 0.05), ('momentum2', 0.5, 0.9), ('lr3', 0.01, 0.05),
          ('momentum3', 0.5, 0.9)][:6 if obj == 'rosenbrock6' else 2]
if alg == 'cmaes-unit-step':
    ranges = [(n, 0.0, 1.0) for n, lo, hi in ranges]  # the objective reads the unit point, unchanged
dist = {n: optuna.distributions.FloatDistribution(lo, hi) for n, lo, hi in ranges}
for seed in range(a, b + 1):
    rand = random.Random(seed * 7919 + 17)
    center = [0.15 + 0.7 * rand.random(), 0.15 + 0.7 * rand.random()]
    if alg in ('cmaes', 'cmaes-unit-step'):  # Katib's service: CmaEsSampler with the seed, restart_strategy and sigma0
        sampler = optuna.samplers.CmaEsSampler(seed=seed + 100000)  # settings (none here); unit-step: over equal ranges
    elif alg == 'cmaes-random-start':  # not Katib's: the same sampler started from a random point instead of the centre
        start = random.Random(seed + 200000)
        sampler = optuna.samplers.CmaEsSampler(x0={n: lo + (hi - lo) * start.random() for n, lo, hi in ranges}, seed=seed + 100000)
    else:
        kw = dict(constant_liar=True, seed=seed + 100000)
        if alg == 'multivariate-tpe': kw['multivariate'] = True
        sampler = optuna.samplers.TPESampler(**kw)
    study = optuna.create_study(sampler=sampler, direction='minimize')
    trials = []  # [otrial, left, value]
    done = 0; best = float('inf')
    while done < 30:
        active = sum(1 for t in trials if t[2] is None)
        want = max(0, min(3, 30 - done) - active)
        for _ in range(want):
            ot = study.ask(fixed_distributions=dist)
            trials.append([ot, 1 + rand.random(), None])
        run = [t for t in trials if t[2] is None]
        t = min(run, key=lambda t: t[1])
        dt = t[1]
        for r in run: r[1] -= dt
        p = t[0].params
        u = [(p[n] - lo) / (hi - lo) for n, lo, hi in ranges]
        loss = objective(obj, u, center)
        for s in range(1, 11): v = loss + (1 + loss) * math.exp(-s / 2) * (0.8 + 0.4 * rand.random())
        t[2] = v; done += 1
        study.tell(t[0], v)  # Katib's service tells it at the next request, before it asks again
        best = min(best, v)
    print(alg, obj, seed, best)

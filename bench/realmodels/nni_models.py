"""NNI 3's own tuners on the real-model problems of problems.py, by the quality benchmark's protocol: the tuner's
Python API called in wire order (update_search_space, generate_parameters or generate_multiple_parameters,
receive_trial_result, trial_end), N trials per run, one run per seed, sequential or batches of 8. The tuners are
made as bench/reference/nni_highdim.py makes them (its make_tuner and seeded_random_state). Writes rows in the
columns of the benchmark's regret.csv, labelled nni-TUNER, for scores.py.

Tuners: tpe (TpeTuner), random, evolution (population 32) and anneal: NNI's Anneal is its HyperoptTuner over
hyperopt's anneal algorithm, which needs hyperopt 0.1.2's source (the version of the NNI anchors; it is on neither
Debian nor reachable PyPI: `git archive 0.1.2 hyperopt` of github.com/hyperopt/hyperopt into a folder on PYTHONPATH)
and Debian's python3-future and python3-networkx.

Usage (from the repository root; NNI 3's Python code from ../shared/nni-lab or ~/nni-trial-side):
  PYTHONPATH=HYPEROPT_DIR:/root/nni-trial-side/v3:bench/reference:bench/realmodels nice /usr/bin/python3 bench/realmodels/nni_models.py \
      --problems RF-wine-nll --tuners tpe,evolution,anneal --modes sequential --seeds 0..4 --trials 64 --out DIR/nni-regret.csv
"""
import logging

from nni_highdim import make_tuner, seeded_random_state
import problems as pm

logging.disable(logging.CRITICAL)
BATCH = 8


def run(problem, label, mode, seed, trials):
    p = pm.Problem(problem)
    batch = BATCH if mode == 'batch' else 1
    rows, best, done, next_id = [], float('inf'), 0, 0
    # NNI's unseeded RandomState() calls get the run's seed inside the tuner's calls only: scikit-learn checks
    # isinstance(x, np.random.RandomState), which the stand-in would break during an evaluation
    with seeded_random_state(seed):
        tuner = make_tuner(label, seed)
        tuner.update_search_space(p.space)
    while done < trials:
        ids = list(range(next_id, next_id + min(batch, trials - done)))
        next_id += len(ids)
        with seeded_random_state(seed):
            params = [tuner.generate_parameters(ids[0])] if batch == 1 else tuner.generate_multiple_parameters(ids)
        if not params:
            break
        for pid, params_one in zip(ids, params):
            value = p.evaluate(params_one)['value']
            with seeded_random_state(seed):
                tuner.receive_trial_result(pid, params_one, value)
                tuner.trial_end(pid, True)
            done += 1
            best = min(best, value)
            rows.append([f'nni-{label}', problem, mode, seed, done, repr(best)])
    while rows and done < trials:  # a tuner that stops keeps its best value for the rest of the budget
        done += 1
        rows.append([f'nni-{label}', problem, mode, seed, done, repr(best)])
    return rows


def main():
    pm.harness_main(__doc__, 'tuners', 'tpe,random,evolution', run)


if __name__ == '__main__':
    main()

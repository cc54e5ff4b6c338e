"""Real-model tuning problems in the manner of Bayesmark (Uber's benchmark, used by the NeurIPS 2020 black-box
optimisation challenge): scikit-learn models on the data sets scikit-learn ships, each scored by 5-fold
cross-validation on 80% of the data (split once with a fixed seed), with Bayesmark's search spaces.

A problem is MODEL-DATASET-METRIC, e.g. RF-wine-nll. Models: DT, MLP-adam, MLP-sgd, RF, SVM, ada, kNN, lasso,
linear; data sets: breast, digits, iris, wine (classification, metrics nll and acc) and diabetes (regression,
metrics mae and mse); Bayesmark's boston set is gone from scikit-learn 1.2. The value minimised is the
cross-validated loss: the log loss (nll), 1 - accuracy (acc), the mean absolute or squared error (mae, mse).

Search spaces are written in NNI's format, from Bayesmark's: an integer range [a, b] becomes randint [a, b+1)
(NNI's upper bound is excluded), a log-scaled real loguniform, a linear or logit-scaled real uniform (NNI has no
logit scale: the tuner sees the range, not the warping), a log-scaled integer qloguniform with q = 1, a boolean a
choice of true and false. Bayesmark's regression lasso and linear models also had `normalize`, which
scikit-learn 1.2 removed: it is left out.

Usage (Debian's python3-sklearn, /usr/bin/python3):
  problems.py --list              prints {problem: search space} as JSON
  problems.py --serve             reads one JSON request a line, {"problem": NAME, "parameters": {...}}, and
                                  answers each with {"value": LOSS, "generalization": LOSS on the held-out 20%}
                                  or {"error": MESSAGE}, one line each
  problems.py PROBLEM JSON        evaluates one parameter set and prints the answer
"""
import argparse
import csv
import json
import os
import sys
import warnings

import numpy as np
from sklearn import datasets
from sklearn.ensemble import AdaBoostClassifier, AdaBoostRegressor, RandomForestClassifier, RandomForestRegressor
from sklearn.linear_model import Lasso, LogisticRegression, Ridge
from sklearn.metrics import get_scorer
from sklearn.model_selection import cross_val_score, train_test_split
from sklearn.neighbors import KNeighborsClassifier, KNeighborsRegressor
from sklearn.neural_network import MLPClassifier, MLPRegressor
from sklearn.svm import SVC, SVR
from sklearn.tree import DecisionTreeClassifier, DecisionTreeRegressor

FOLDS = 5
HELD_OUT = 0.2
SPLIT_SEED = 0

CLASSIFICATION = {'breast': datasets.load_breast_cancer, 'digits': datasets.load_digits, 'iris': datasets.load_iris,
                  'wine': datasets.load_wine}
REGRESSION = {'diabetes': datasets.load_diabetes}
METRICS = {'nll': 'neg_log_loss', 'acc': 'accuracy', 'mae': 'neg_mean_absolute_error', 'mse': 'neg_mean_squared_error'}


def integer(low, high):
    return {'_type': 'randint', '_value': [low, high + 1]}


def log(low, high):
    return {'_type': 'loguniform', '_value': [low, high]}


def linear(low, high):
    return {'_type': 'uniform', '_value': [low, high]}


def log_integer(low, high):
    return {'_type': 'qloguniform', '_value': [low, high, 1]}


BOOLEAN = {'_type': 'choice', '_value': [True, False]}

TREE = {'max_depth': integer(1, 15), 'min_samples_split': linear(0.01, 0.99), 'min_samples_leaf': linear(0.01, 0.49),
        'min_weight_fraction_leaf': linear(0.01, 0.49), 'max_features': linear(0.01, 0.99),
        'min_impurity_decrease': linear(0.0, 0.5)}
MLP_COMMON = {'hidden_layer_sizes': integer(50, 200), 'alpha': log(1e-5, 1e1), 'batch_size': integer(10, 250),
              'learning_rate_init': log(1e-5, 1e-1)}
SPACES = {
    'kNN': {'n_neighbors': integer(1, 25), 'p': integer(1, 4)},
    'SVM': {'C': log(1.0, 1e3), 'gamma': log(1e-4, 1e-3), 'tol': log(1e-5, 1e-1)},
    'DT': TREE,
    'RF': TREE,
    'MLP-adam': {**MLP_COMMON, 'tol': log(1e-5, 1e-1), 'validation_fraction': linear(0.1, 0.9), 'beta_1': linear(0.5, 0.99),
                 'beta_2': linear(0.9, 1.0 - 1e-6), 'epsilon': log(1e-9, 1e-6)},
    'MLP-sgd': {**MLP_COMMON, 'power_t': linear(0.1, 0.9), 'tol': log(1e-5, 1e-1), 'momentum': linear(0.001, 0.999),
                'validation_fraction': linear(0.1, 0.9)},
    'ada': {'n_estimators': integer(10, 100), 'learning_rate': log(1e-4, 1e1)},
    'lasso': {'C': log(1e-2, 1e2), 'intercept_scaling': log(1e-2, 1e2)},
    'linear': {'C': log(1e-2, 1e2), 'intercept_scaling': log(1e-2, 1e2)},
}
SPACES_REGRESSION = {
    **SPACES,
    'lasso': {'alpha': log(1e-2, 1e2), 'fit_intercept': BOOLEAN, 'max_iter': log_integer(10, 5000), 'tol': log(1e-5, 1e-1),
              'positive': BOOLEAN},
    'linear': {'alpha': log(1e-2, 1e2), 'fit_intercept': BOOLEAN, 'max_iter': log_integer(10, 5000), 'tol': log(1e-4, 1e-1)},
}
MODELS = {
    'kNN': (KNeighborsClassifier, {}),
    'SVM': (SVC, {'kernel': 'rbf', 'probability': True}),
    'DT': (DecisionTreeClassifier, {'max_leaf_nodes': None}),
    'RF': (RandomForestClassifier, {'n_estimators': 10, 'max_leaf_nodes': None}),
    'MLP-adam': (MLPClassifier, {'solver': 'adam', 'early_stopping': True}),
    'MLP-sgd': (MLPClassifier, {'solver': 'sgd', 'early_stopping': True, 'learning_rate': 'invscaling', 'nesterovs_momentum': True}),
    'ada': (AdaBoostClassifier, {}),
    'lasso': (LogisticRegression, {'penalty': 'l1', 'fit_intercept': True, 'solver': 'liblinear', 'multi_class': 'ovr'}),
    'linear': (LogisticRegression, {'penalty': 'l2', 'fit_intercept': True, 'solver': 'liblinear', 'multi_class': 'ovr'}),
}
MODELS_REGRESSION = {
    'kNN': (KNeighborsRegressor, {}),
    'SVM': (SVR, {'kernel': 'rbf'}),
    'DT': (DecisionTreeRegressor, {'max_leaf_nodes': None}),
    'RF': (RandomForestRegressor, {'n_estimators': 10, 'max_leaf_nodes': None}),
    'MLP-adam': (MLPRegressor, {'solver': 'adam', 'early_stopping': True}),
    'MLP-sgd': (MLPRegressor, {'activation': 'tanh', 'solver': 'sgd', 'early_stopping': True, 'learning_rate': 'invscaling',
                               'nesterovs_momentum': True}),
    'ada': (AdaBoostRegressor, {}),
    'lasso': (Lasso, {}),
    'linear': (Ridge, {'solver': 'auto'}),
}


def problems():
    """Every problem's name, in a fixed order."""
    names = []
    for model in SPACES:
        for data in CLASSIFICATION:
            names += [f'{model}-{data}-nll', f'{model}-{data}-acc']
        for data in REGRESSION:
            names += [f'{model}-{data}-mae', f'{model}-{data}-mse']
    return names


def parse(problem):
    metric = problem.rsplit('-', 1)[1]
    rest = problem[:-len(metric) - 1]
    data = rest.rsplit('-', 1)[1]
    model = rest[:-len(data) - 1]
    if metric not in METRICS or model not in SPACES or data not in CLASSIFICATION and data not in REGRESSION:
        raise ValueError(f'unknown problem {problem!r}: MODEL-DATASET-METRIC with a model of {sorted(SPACES)}, a data set of '
                         f'{sorted(CLASSIFICATION) + sorted(REGRESSION)} and a metric of {sorted(METRICS)}')
    regression = data in REGRESSION
    if regression != (metric in ('mae', 'mse')):
        raise ValueError(f'problem {problem!r}: metric {metric} does not suit data set {data}')
    return model, data, metric, regression


def space(problem):
    model, _, _, regression = parse(problem)
    return (SPACES_REGRESSION if regression else SPACES)[model]


class Problem:
    """One problem: its data split once, its model and scorer."""

    def __init__(self, name):
        self.model, data, self.metric, regression = parse(name)
        x, y = (REGRESSION if regression else CLASSIFICATION)[data](return_X_y=True)
        self.x, self.x_held, self.y, self.y_held = train_test_split(x, y, test_size=HELD_OUT, random_state=SPLIT_SEED, shuffle=True)
        self.estimator, self.fixed = (MODELS_REGRESSION if regression else MODELS)[self.model]
        self.space = (SPACES_REGRESSION if regression else SPACES)[self.model]
        self.scorer = get_scorer(METRICS[self.metric])

    def loss(self, score):
        # scorers are higher-is-better; the loss of accuracy is the error rate
        return 1.0 - score if self.metric == 'acc' else -score

    def arguments(self, parameters):
        missing = sorted(set(self.space) - set(parameters))
        extra = sorted(set(parameters) - set(self.space))
        if missing or extra:
            raise ValueError(f'parameters {sorted(parameters)} do not match the space {sorted(self.space)}')
        args = dict(parameters)
        for name, spec in self.space.items():
            if spec['_type'] in ('randint', 'qloguniform'):
                args[name] = int(round(args[name]))
        args.update(self.fixed)
        return args

    def evaluate(self, parameters):
        args = self.arguments(parameters)
        with warnings.catch_warnings():
            warnings.simplefilter('ignore')
            scores = cross_val_score(self.estimator(**args), self.x, self.y, scoring=self.scorer, cv=FOLDS)
            model = self.estimator(**args).fit(self.x, self.y)
            held = self.scorer(model, self.x_held, self.y_held)
        value = self.loss(float(np.mean(scores)))
        if not np.isfinite(value):
            raise ValueError(f'the cross-validated loss is {value}')
        return {'value': value, 'generalization': self.loss(float(held))}


def seeds(text):
    """Seeds as A..B (inclusive) or a comma list."""
    if '..' in text:
        a, b = text.split('..')
        return list(range(int(a), int(b) + 1))
    return [int(x) for x in text.split(',')]


def write_runs(out, problem_names, labels, modes, seed_list, run):
    """Appends run(problem, label, mode, seed) rows to the CSV file out (regret.csv's columns), one run at a time."""
    new = not os.path.exists(out) or os.path.getsize(out) == 0
    with open(out, 'a', newline='') as f:
        w = csv.writer(f)
        if new:
            w.writerow(['tuner', 'function', 'mode', 'seed', 'trial', 'best_so_far_regret'])
        for problem in problem_names:
            for label in labels:
                for mode in modes:
                    for seed in seed_list:
                        w.writerows(run(problem, label, mode, seed))
                        f.flush()


def harness_main(doc, labels_option, default_labels, run):
    """The command line both peer harnesses share: --problems, --LABELS_OPTION (their samplers or tuners), --modes,
    --seeds, --trials, --out; run(problem, label, mode, seed, trials) gives one run's rows for write_runs."""
    ap = argparse.ArgumentParser(description=doc.split('\n')[0])
    ap.add_argument('--problems', required=True)
    ap.add_argument('--' + labels_option, default=default_labels)
    ap.add_argument('--modes', default='sequential')
    ap.add_argument('--seeds', default='0..4')
    ap.add_argument('--trials', type=int, default=64)
    ap.add_argument('--out', required=True)
    a = ap.parse_args()
    write_runs(a.out, a.problems.split(','), getattr(a, labels_option).split(','), a.modes.split(','), seeds(a.seeds),
               lambda problem, label, mode, seed: run(problem, label, mode, seed, a.trials))


def answer(cache, request):
    try:
        name = request['problem']
        if name not in cache:
            cache[name] = Problem(name)
        return cache[name].evaluate(request['parameters'])
    except Exception as e:  # every failure is an answer: the harness records it as the trial's failure
        return {'error': f'{type(e).__name__}: {e}'}


def main(argv):
    if argv[1:] == ['--list']:
        print(json.dumps({p: space(p) for p in problems()}))
        return 0
    if argv[1:] == ['--serve']:
        cache = {}
        for line in sys.stdin:
            if line.strip():
                print(json.dumps(answer(cache, json.loads(line))), flush=True)
        return 0
    if len(argv) == 3:
        print(json.dumps(answer({}, {'problem': argv[1], 'parameters': json.loads(argv[2])})))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

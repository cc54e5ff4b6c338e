"""A trial written for NNI, unchanged: logistic regression trained by minibatch SGD on a synthetic
two-class problem, in plain Python. It reports the validation accuracy after every epoch and at the
end, through NNI's trial API (needs NNI's `nni` package, 2.x or 3.x)."""
import math
import random

import nni

params = {'lr': 0.1, 'batch_size': 32, 'l2': 1e-4, 'epochs': 10}
params.update(nni.get_next_parameter())

data = random.Random(0)
dims = 8
truth = [data.gauss(0, 1) for _ in range(dims)]


def sample(n):
    rows = []
    for _ in range(n):
        x = [data.gauss(0, 1) for _ in range(dims)]
        margin = sum(w * v for w, v in zip(truth, x)) + data.gauss(0, 0.8)
        rows.append((x, 1 if margin > 0 else 0))
    return rows


train, valid = sample(600), sample(300)
w, b = [0.0] * dims, 0.0
rng = random.Random(1)


def predict(x):
    z = sum(wi * xi for wi, xi in zip(w, x)) + b
    return 1 / (1 + math.exp(-max(-30.0, min(30.0, z))))


accuracy = 0.0
for epoch in range(int(params['epochs'])):
    rng.shuffle(train)
    size = int(params['batch_size'])
    for start in range(0, len(train), size):
        batch = train[start:start + size]
        grad_w, grad_b = [0.0] * dims, 0.0
        for x, y in batch:
            err = predict(x) - y
            grad_w = [g + err * xi for g, xi in zip(grad_w, x)]
            grad_b += err
        w = [wi - params['lr'] * (g / len(batch) + params['l2'] * wi) for wi, g in zip(w, grad_w)]
        b -= params['lr'] * grad_b / len(batch)
    accuracy = sum((predict(x) > 0.5) == (y == 1) for x, y in valid) / len(valid)
    nni.report_intermediate_result(accuracy)

nni.report_final_result(accuracy)

#!/usr/bin/env python3
"""Derives this example's data from the UCI Spambase export in spam.csv (path given on the command line).

Deterministic (fixed seed, Python 3 standard library only). Run from anywhere:
    python3 make_data.py path/to/spam.csv
Writes data.json (shared data, including the held-out test set) and data_per_client.csv.
"""
import csv
import json
import math
import os
import random
import sys

SEED = 20240601
CLIENTS = 10
TEST_FRACTION = 0.2
PRIOR_SD = 1.0

HERE = os.path.dirname(os.path.abspath(__file__))


def main(extra_shared=None, out_dir=HERE, write_clients=True):
    """Writes data.json into out_dir (with extra_shared added) and, when write_clients,
    data_per_client.csv. ../bnn_classifier/make_data.py reuses this with its own extras."""
    source = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: python3 make_data.py path/to/source.csv")
    with open(source, newline="") as f:
        rows = list(csv.reader(f))
    header, rows = rows[0], rows[1:]
    names = header[:-1]
    assert header[-1] == "type" and len(names) == 57
    features = [[float(v) for v in r[:-1]] for r in rows]
    labels = [1 if r[-1] == "spam" else 0 for r in rows]
    assert all(r[-1] in ("spam", "nonspam") for r in rows)

    rng = random.Random(SEED)
    # Stratified 20% test set: the same fraction of spam and of non-spam e-mails.
    test = []
    for cls in (1, 0):
        idx = [i for i, y in enumerate(labels) if y == cls]
        rng.shuffle(idx)
        test += idx[: round(TEST_FRACTION * len(idx))]
    test_set = set(test)
    test.sort()
    train = [i for i in range(len(rows)) if i not in test_set]
    # Homogeneous split: shuffle the training e-mails and deal them to the clients in turn.
    rng.shuffle(train)
    client_of = {i: k % CLIENTS + 1 for k, i in enumerate(train)}

    # Features: log(x + 0.1), then standardised with the training rows' mean and sd.
    logged = [[math.log(v + 0.1) for v in r] for r in features]
    d = len(names)
    mean = [sum(logged[i][j] for i in train) / len(train) for j in range(d)]
    sd = [math.sqrt(sum((logged[i][j] - mean[j]) ** 2 for i in train) / (len(train) - 1)) for j in range(d)]

    def scaled(i):
        return [round((logged[i][j] - mean[j]) / sd[j], 4) for j in range(d)]

    shared = {"D": d}
    shared.update(extra_shared or {})
    shared.update({
        "prior_sd": PRIOR_SD,
        "N_test": len(test),
        "X_test": [scaled(i) for i in test],
        "y_test": [labels[i] for i in test],
    })
    with open(os.path.join(out_dir, "data.json"), "w") as f:
        f.write(json.dumps(shared, separators=(",", ":")) + "\n")

    if write_clients:
        with open(os.path.join(out_dir, "data_per_client.csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["client", "y"] + ["X.%d" % (j + 1) for j in range(d)])
            for c in range(1, CLIENTS + 1):
                for i in sorted(i for i in train if client_of[i] == c):
                    w.writerow([c, labels[i]] + ["%g" % v for v in scaled(i)])

    print("test rows: %d (%d spam); training rows: %d in %d clients"
          % (len(test), sum(labels[i] for i in test), len(train), CLIENTS))


if __name__ == "__main__":
    main()

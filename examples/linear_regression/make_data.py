#!/usr/bin/env python3
"""Generates this example's synthetic data (fixed seed, Python 3 standard library only).

    python3 make_data.py
Writes data.json (shared data) and data_per_client.csv (one row per observation).
"""
import csv
import json
import os
import random

SEED = 20240601
D = 3
SIGMA = 0.5                       # known noise sd
PRIOR_SD = 10.0
ALPHA = 1.0                       # true intercept
BETA = [2.0, -1.0, 0.5]           # true slopes
CLIENT_SIZES = [20, 35, 50, 65, 80]
# The clients' feature distributions differ: client c's features are N(shift_c, 1).
CLIENT_SHIFTS = [-1.0, -0.5, 0.0, 0.5, 1.0]

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rng = random.Random(SEED)
    with open(os.path.join(HERE, "data.json"), "w") as f:
        json.dump({"D": D, "sigma": SIGMA, "prior_sd": PRIOR_SD}, f)
        f.write("\n")
    with open(os.path.join(HERE, "data_per_client.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["client", "y"] + ["X.%d" % (j + 1) for j in range(D)])
        for c, (n, shift) in enumerate(zip(CLIENT_SIZES, CLIENT_SHIFTS), start=1):
            for _ in range(n):
                x = [round(rng.gauss(shift, 1.0), 4) for _ in range(D)]
                y = ALPHA + sum(b * v for b, v in zip(BETA, x)) + rng.gauss(0.0, SIGMA)
                w.writerow([c, "%.4f" % y] + ["%.4f" % v for v in x])
    print("%d observations in %d clients" % (sum(CLIENT_SIZES), len(CLIENT_SIZES)))


if __name__ == "__main__":
    main()

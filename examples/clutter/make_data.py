#!/usr/bin/env python3
"""Generates this example's synthetic data (fixed seed, Python 3 standard library only).

    python3 make_data.py
Writes data.json (shared data) and data_per_client.csv (one row per observation).
"""
import csv
import json
import math
import os
import random

SEED = 20240601
THETA = 2.0                       # true mean of the non-clutter observations
W = 0.5                           # clutter probability
A = 10.0                          # clutter variance
PRIOR_SD = 10.0                   # theta ~ N(0, 100)
CLIENT_SIZES = [10, 15, 20, 25, 30]

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    rng = random.Random(SEED)
    with open(os.path.join(HERE, "data.json"), "w") as f:
        json.dump({"w": W, "a": A, "prior_sd": PRIOR_SD}, f)
        f.write("\n")
    clutter = 0
    with open(os.path.join(HERE, "data_per_client.csv"), "w", newline="") as f:
        wr = csv.writer(f, lineterminator="\n")
        wr.writerow(["client", "x"])
        for c, n in enumerate(CLIENT_SIZES, start=1):
            for _ in range(n):
                if rng.random() < W:
                    clutter += 1
                    x = rng.gauss(0.0, math.sqrt(A))
                else:
                    x = rng.gauss(THETA, 1.0)
                wr.writerow([c, "%.4f" % x])
    print("%d observations in %d clients, %d of them clutter"
          % (sum(CLIENT_SIZES), len(CLIENT_SIZES), clutter))


if __name__ == "__main__":
    main()

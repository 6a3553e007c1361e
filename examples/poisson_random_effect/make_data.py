#!/usr/bin/env python3
"""Generates this example's synthetic data (fixed seed, Python 3 standard library only).

    python3 make_data.py
Writes data_per_group.csv (one row per observation). The model has no shared data, so there is
no data.json.
"""
import csv
import math
import os
import random

SEED = 20240601
ALPHA = 0.5                       # true intercept
BETA = 0.8                        # true slope
SIGMA_U = 0.6                     # true sd of the group effects
GROUP_SIZES = [12, 20, 8, 30, 15, 25, 10, 40]

HERE = os.path.dirname(os.path.abspath(__file__))


def poisson(rng, lam):
    """Knuth's multiplication method; fine for the small rates used here."""
    limit, k, p = math.exp(-lam), 0, rng.random()
    while p > limit:
        k += 1
        p *= rng.random()
    return k


def main():
    rng = random.Random(SEED)
    effects = []
    with open(os.path.join(HERE, "data_per_group.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["group", "x", "y"])
        for g, n in enumerate(GROUP_SIZES, start=1):
            u = rng.gauss(0.0, SIGMA_U)
            effects.append(u)
            for _ in range(n):
                x = round(rng.uniform(-1.0, 1.0), 4)
                w.writerow([g, "%.4f" % x, poisson(rng, math.exp(ALPHA + BETA * x + u))])
    print("%d observations in %d groups" % (sum(GROUP_SIZES), len(GROUP_SIZES)))
    print("true group effects u: " + ", ".join("%.3f" % u for u in effects))


if __name__ == "__main__":
    main()

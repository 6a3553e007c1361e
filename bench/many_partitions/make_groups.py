#!/usr/bin/env python3
"""Data for examples/poisson_random_effect with many groups: G groups of 10 rows each, drawn from
the example's model with its true values (alpha 0.5, beta 0.8, sigma_u 0.6), fixed seed.

    python3 bench/many_partitions/make_groups.py G OUT.csv
"""
import csv
import math
import os
import random
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../examples/poisson_random_effect"))
from make_data import poisson  # noqa: E402  (the example's own Poisson draw)

ALPHA, BETA, SIGMA_U, ROWS = 0.5, 0.8, 0.6, 10


def main():
    groups, out = int(sys.argv[1]), sys.argv[2]
    rng = random.Random(20261130)
    with open(out, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["group", "x", "y"])
        for g in range(1, groups + 1):
            u = rng.gauss(0.0, SIGMA_U)
            for _ in range(ROWS):
                x = rng.gauss(0.0, 1.0)
                w.writerow([g, f"{x:.4f}", poisson(rng, math.exp(ALPHA + BETA * x + u))])


if __name__ == "__main__":
    main()

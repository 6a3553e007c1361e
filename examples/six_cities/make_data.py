#!/usr/bin/env python3
"""Derives this example's data from the Six Cities (Steubenville, Ohio) export in
ohio.csv (path given on the command line).

Deterministic (fixed seed, Python 3 standard library only). Run from anywhere:
    python3 make_data.py path/to/ohio.csv
Splits the 537 children at random into silo 1 (300 children) and silo 2 (237 children), as in
the SFVI paper, and writes data.json (shared data) and data_per_silo.csv (one row per
observation).
"""
import csv
import json
import os
import random
import sys

SEED = 20240601
SILO_SIZES = (300, 237)

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: python3 make_data.py path/to/source.csv")
    with open(source, newline="") as f:
        obs = list(csv.DictReader(f))
    ids = sorted({int(r["id"]) for r in obs})
    assert len(ids) == sum(SILO_SIZES)

    rng = random.Random(SEED)
    shuffled = ids[:]
    rng.shuffle(shuffled)
    silo_of, child_of = {}, {}
    start = 0
    for silo, size in enumerate(SILO_SIZES, start=1):
        # Within a silo, children are numbered 1..C in increasing original id.
        for child, i in enumerate(sorted(shuffled[start:start + size]), start=1):
            silo_of[i], child_of[i] = silo, child
        start += size

    obs.sort(key=lambda r: (silo_of[int(r["id"])], child_of[int(r["id"])], int(r["age"])))

    with open(os.path.join(HERE, "data.json"), "w") as f:
        json.dump({"prior_sd": 10.0}, f)
        f.write("\n")

    with open(os.path.join(HERE, "data_per_silo.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["silo", "C", "child", "age", "smoke", "wheeze"])
        for r in obs:
            i = int(r["id"])
            w.writerow([silo_of[i], SILO_SIZES[silo_of[i] - 1], child_of[i], int(r["age"]), int(r["smoke"]),
                        int(r["resp"])])

    for silo in (1, 2):
        members = sorted(i for i in ids if silo_of[i] == silo)
        print("silo %d: %d children, original ids %s ..." % (silo, len(members), members[:8]))


if __name__ == "__main__":
    main()

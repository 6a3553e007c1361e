#!/usr/bin/env python3
"""Writes the heterogeneous digits silos of the SFVI paper's section 4.1 experiment, with the
project's copy of the UCI handwritten digits (../../../shared/data/digits.csv, 1,797 8x8 images,
pixel counts 0..16) in place of MNIST:

- 10 silos, one per digit d: silo d + 1 gets 2 images of every other digit (18) and the rest of
  digit d's images (156 to 165), so 90% of its images show one digit;
- each silo's images are split at random into 80% training and 20% test images (column `test`);
- pixels are scaled to [0, 1] (count / 16, exact in binary) and labels are digit + 1 (1..10).

Writes data.json (the shared sizes) and data_per_silo.csv (one row per image: silo, test,
y, X.1 .. X.64). Python 3 standard library, fixed seed: rerunning reproduces the files byte for byte.

    python3 make_data.py [path/to/digits.csv]
"""
import csv
import json
import os
import random
import sys

HIDDEN = 32
TEST_FRACTION = 0.2
OTHERS_PER_DIGIT = 2

here = os.path.dirname(os.path.abspath(__file__))
source = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "..", "..", "..", "shared", "data", "digits.csv")
rows = list(csv.DictReader(open(source)))
rng = random.Random(20261124)
by_digit = {d: [r for r in rows if int(r["digit"]) == d] for d in range(10)}
for images in by_digit.values():
    rng.shuffle(images)

silos = {d: [] for d in range(10)}
for d, images in by_digit.items():
    # The first 2 * 9 images of digit d go, two each, to the other silos; the rest stay in silo d.
    others = [s for s in range(10) if s != d]
    for k, s in enumerate(others):
        silos[s].extend(images[k * OTHERS_PER_DIGIT:(k + 1) * OTHERS_PER_DIGIT])
    silos[d].extend(images[len(others) * OTHERS_PER_DIGIT:])


def pixels(r):
    return [int(r[f"p{i}"]) / 16 for i in range(1, 65)]


with open(os.path.join(here, "data.json"), "w") as f:
    json.dump({"D": 64, "H": HIDDEN, "K": 10}, f)
    f.write("\n")
with open(os.path.join(here, "data_per_silo.csv"), "w", newline="") as f:
    out = csv.writer(f, lineterminator="\n")
    out.writerow(["silo", "test", "y"] + [f"X.{i}" for i in range(1, 65)])
    for d in range(10):
        images = silos[d]
        rng.shuffle(images)
        n_test = round(TEST_FRACTION * len(images))
        own = sum(int(r["digit"]) == d for r in images)
        print(f"silo {d + 1}: {len(images) - n_test} training and {n_test} test images, "
              f"{own / len(images):.1%} show digit {d}")
        for k, r in enumerate(images):
            out.writerow([d + 1, int(k < n_test), int(r["digit"]) + 1] + [f"{p:g}" for p in pixels(r)])

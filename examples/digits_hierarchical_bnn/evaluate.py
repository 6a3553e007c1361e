#!/usr/bin/env python3
"""Per-silo test accuracy of a fit of model.pvi (or pooled.pvi): each test image is given the
class with the highest posterior predictive probability, the posterior mean of its generated
`p[n]` in the silo's locals_summary.json, and compared with its label.

    python3 evaluate.py LOCALS_DIR [LABEL]

LOCALS_DIR is the fit's --locals-dir (default <output stem>-locals): one subdirectory per silo.
Prints one line per silo and the mean and standard deviation over silos. Python 3 standard
library only.
"""
import csv
import json
import os
import statistics
import sys

here = os.path.dirname(os.path.abspath(__file__))
locals_dir = sys.argv[1]
label = sys.argv[2] if len(sys.argv) > 2 else locals_dir

rows = {}
for r in csv.DictReader(open(os.path.join(here, "data_per_silo.csv"))):
    rows.setdefault(r["silo"], []).append(r)

accuracies = []
for silo in sorted(rows, key=int):
    summary = json.load(open(os.path.join(locals_dir, silo, "locals_summary.json")))
    p = {g["name"]: g["mean"] for g in summary["generated_quantities"]}
    right = tests = 0
    for n, r in enumerate(rows[silo], start=1):
        if r["test"] != "1":
            continue
        probs = [p[f"p.{n}.{k}"] for k in range(1, 11)]
        right += probs.index(max(probs)) + 1 == int(r["y"])
        tests += 1
    accuracies.append(100.0 * right / tests)
    print(f"{label}: silo {silo}: {right}/{tests} test images right ({accuracies[-1]:.1f}%)")
print(f"{label}: mean test accuracy {statistics.mean(accuracies):.1f}% "
      f"(sd over silos {statistics.stdev(accuracies):.1f})")

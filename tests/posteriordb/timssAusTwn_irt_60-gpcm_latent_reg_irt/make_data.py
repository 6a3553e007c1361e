#!/usr/bin/env python3
"""Writes data.json: posteriordb's timssAusTwn_irt data (commit 28f8d3d,
posterior_database/data/data/timssAusTwn_irt.json.zip, unzipped) cut to every 8th person (persons
1, 9, 17, ..., 497: 63 of 500, renumbered 1..63), their 693 responses and their rows of W. Every
8th, not the first 63: W is sorted by its columns, and a column that is constant in the subset
makes the program's obtain_adjustments divide by zero. Each item keeps its highest category, so
the transformed data m, pos and the parameters' sizes are those of the whole data set.
Usage: make_data.py timssAusTwn_irt.json > data.json"""
import json
import sys

d = json.load(open(sys.argv[1]))
persons = [j for j in range(1, d["J"] + 1) if j % 8 == 1]
renumbered = {j: k + 1 for k, j in enumerate(persons)}
keep = [n for n in range(d["N"]) if d["jj"][n] in renumbered]
json.dump({"I": d["I"], "J": len(persons), "N": len(keep), "ii": [d["ii"][n] for n in keep],
           "jj": [renumbered[d["jj"][n]] for n in keep], "y": [d["y"][n] for n in keep], "K": d["K"],
           "W": [d["W"][j - 1] for j in persons]}, sys.stdout)

#!/usr/bin/env python3
"""Writes the contraception data (../data_per_district.csv) grouped into S silos for model.pvi:
districts 1..60 are dealt to silos in contiguous blocks (silo s gets districts with
(d - 1) * S // 60 == s - 1), renumbered 1..D within their silo.

    python3 make_silos.py S > data_per_silo.csv
"""
import csv
import os
import sys

silos = int(sys.argv[1])
here = os.path.dirname(os.path.abspath(__file__))
rows = list(csv.DictReader(open(os.path.join(here, "..", "data_per_district.csv"))))
districts = sorted({int(r["district"]) for r in rows})
silo_of = {d: (i * silos) // len(districts) + 1 for i, d in enumerate(districts)}
members = {s: [d for d in districts if silo_of[d] == s] for s in range(1, silos + 1)}
out = csv.writer(sys.stdout, lineterminator="\n")
out.writerow(["silo", "D", "district", "use", "urban", "age", "livch1", "livch2", "livch3"])
for s in range(1, silos + 1):
    local = {d: k + 1 for k, d in enumerate(members[s])}
    for r in rows:
        d = int(r["district"])
        if silo_of[d] == s:
            out.writerow([s, len(members[s]), local[d], r["use"], r["urban"], r["age"], r["livch1"], r["livch2"],
                          r["livch3"]])

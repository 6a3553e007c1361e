#!/usr/bin/env python3
"""Derives this example's data from the Bangladesh Fertility Survey export in
contraception.csv (path given on the command line).

Deterministic (no randomness; Python 3 standard library only). Run from anywhere:
    python3 make_data.py path/to/contraception.csv
Writes data.json (shared data: prior scales) and data_per_district.csv (one row per woman).
"""
import csv
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))

YES_NO = {"Y": 1, "N": 0}


def main():
    source = sys.argv[1] if len(sys.argv) > 1 else sys.exit("usage: python3 make_data.py path/to/source.csv")
    with open(source, newline="") as f:
        women = list(csv.DictReader(f))
    # Districts in increasing number; women in their original order within a district.
    women.sort(key=lambda r: (int(r["district"]), int(r["woman"])))

    with open(os.path.join(HERE, "data.json"), "w") as f:
        json.dump({"prior_sd": 5.0, "tau_prior_sd": 1.0}, f)
        f.write("\n")

    with open(os.path.join(HERE, "data_per_district.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["district", "use", "urban", "age", "livch1", "livch2", "livch3"])
        for r in women:
            livch = r["livch"]
            assert livch in ("0", "1", "2", "3+")
            w.writerow([int(r["district"]), YES_NO[r["use"]], YES_NO[r["urban"]], r["age"],
                        int(livch == "1"), int(livch == "2"), int(livch == "3+")])

    print("%d women in %d districts" % (len(women), len({r["district"] for r in women})))


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Derives this example's data from the UCI Spambase export in spam.csv (path given on the command line).

The preparation (log transform, standardisation, stratified 20% test set, ten clients; fixed
seed, Python 3 standard library only) is the logistic regression example's: this script runs it
with the hidden-layer width added. Run from anywhere:
    python3 make_data.py [path/to/spam.csv]
Writes data.json (shared data, including the held-out test set). The per-client training rows
are ../logistic_regression/data_per_client.csv (the same split), so they are not written again.
"""
import importlib.util
import os

HERE = os.path.dirname(os.path.abspath(__file__))
HIDDEN_UNITS = 20

spec = importlib.util.spec_from_file_location(
    "logistic_make_data", os.path.join(HERE, "..", "logistic_regression", "make_data.py"))
logistic = importlib.util.module_from_spec(spec)
spec.loader.exec_module(logistic)

if __name__ == "__main__":
    logistic.main(extra_shared={"H": HIDDEN_UNITS}, out_dir=HERE, write_clients=False)

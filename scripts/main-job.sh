#!/usr/bin/env bash
# The main job: fit the hierarchical logistic regression on the contraception data (1,934 women
# in 60 districts, each district a partition whose random intercept never leaves it) with
# `pvic run`, and print the posterior summary. Outputs go to out/ (draws, summary JSON, report,
# one directory per district).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${PVI_BUILD_DIR:-build}"
ex=examples/hierarchical_logistic
mkdir -p out
"$build_dir/pvic" run "$ex/model.pvi" \
  --data "$ex/data.json" --partition-data "$ex/data_per_district.csv" \
  --output out/fit.csv --report out/report

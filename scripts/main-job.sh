#!/usr/bin/env bash
# The main job on the bundled examples: check every example model and print its factor
# structure (variables by role, and the factor each model statement belongs to).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${PVI_BUILD_DIR:-build}"
for model in examples/*/model.pvi; do
  echo "== $model: $(head -n 1 "$(dirname "$model")/README.md")"
  "$build_dir/pvic" check --factors "$model"
  echo
done

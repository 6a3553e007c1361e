#!/usr/bin/env bash
# Fresh machine to first result: install the dependencies, build pvic (the tests and benchmarks
# are built by scripts/test.sh), run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh pvic
bash scripts/main-job.sh

#!/usr/bin/env bash
# Fresh machine to first result: install the dependencies, build, run the main job.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/install-deps.sh
bash scripts/build.sh
bash scripts/main-job.sh

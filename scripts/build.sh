#!/usr/bin/env bash
# Configures (once) and builds into build/ with CMake and Ninja: everything, or the targets named
# (scripts/quickstart.sh builds only `pvic` and what it links or runs).
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${PVI_BUILD_DIR:-build}"
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${PVI_BUILD_TYPE:-RelWithDebInfo}"
fi
targets=()
for t in "$@"; do targets+=(--target "$t"); done
cmake --build "$build_dir" -j "$(nproc)" "${targets[@]}"

#!/usr/bin/env bash
# Configures (once) and builds everything into build/ with CMake and Ninja.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir="${PVI_BUILD_DIR:-build}"
if [ ! -f "$build_dir/build.ninja" ]; then
  cmake -S . -B "$build_dir" -G Ninja -DCMAKE_BUILD_TYPE="${PVI_BUILD_TYPE:-RelWithDebInfo}"
fi
cmake --build "$build_dir" -j "$(nproc)"

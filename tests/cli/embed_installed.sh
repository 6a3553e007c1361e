#!/usr/bin/env bash
# Installs the build into a temporary prefix, builds examples/embed against it with
# find_package(pvi), and runs it on the bundled data.
set -euo pipefail
build="$1" source="$2" cmake="$3" cxx="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
"$cmake" --install "$build" --prefix "$work/prefix" >/dev/null
"$cmake" -S "$source/examples/embed" -B "$work/build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
"$cmake" --build "$work/build" >/dev/null
"$work/build/embed_example" "$source/examples"

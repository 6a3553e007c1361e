#!/usr/bin/env bash
# Installs the build into a temporary prefix, builds examples/embed against it with
# find_package(pvi), and runs it on the bundled data.
#
# Each step's output goes to a log that is shown when the step fails (Ninja prints compiler and
# linker errors on standard output, so discarding it would hide why a build failed), together with
# the free space where the step wrote: the installed static libraries carry debug information
# (about 0.6 GB), so the example is linked without it (-Wl,--strip-debug) to keep the test light.
set -euo pipefail
build="$1" source="$2" cmake="$3" cxx="$4"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

step() {
  local name="$1"
  shift
  if ! "$@" >"$work/$name.log" 2>&1; then
    echo "embed_installed.sh: the $name step failed: $*" >&2
    tail -n 60 "$work/$name.log" >&2
    df -h "$work" >&2
    exit 1
  fi
}

step install "$cmake" --install "$build" --prefix "$work/prefix"
step configure "$cmake" -S "$source/examples/embed" -B "$work/build" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" \
  -DCMAKE_PREFIX_PATH="$work/prefix" -DCMAKE_BUILD_TYPE=Release -DCMAKE_EXE_LINKER_FLAGS=-Wl,--strip-debug
step build "$cmake" --build "$work/build"
rm -rf "$work/prefix"
"$work/build/embed_example" "$source/examples"

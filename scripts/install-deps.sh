#!/usr/bin/env bash
# Installs the project's build and test dependencies from Debian's packages.
# Idempotent: when every package is already installed it does nothing (no apt-get update).
set -euo pipefail

packages=(
  cmake ninja-build g++ ccache pkg-config
  antlr4 libantlr4-runtime-dev default-jre-headless uuid-dev
  libcli11-dev libfmt-dev nlohmann-json3-dev
  libeigen3-dev libboost-dev liblbfgspp-dev
  llvm-19-dev libzstd-dev
  libgtest-dev libbenchmark-dev
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed"; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages already installed"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then sudo_cmd=(sudo); fi
export DEBIAN_FRONTEND=noninteractive
"${sudo_cmd[@]}" apt-get update -q
"${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${missing[@]}"

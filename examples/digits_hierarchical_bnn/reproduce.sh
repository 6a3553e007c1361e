#!/usr/bin/env bash
# The SFVI paper's section 4.1 experiment on the digits silos: per-silo test accuracy of the
# hierarchical network fitted by SFVI and by SFVI-Avg, against the same network fitted in each
# silo alone and one pooled network, with each fit's time and peak memory.
#
#   bash examples/digits_hierarchical_bnn/reproduce.sh [OUT_DIR]
#
# ROUNDS (default 30) sets every fit's rounds, INITIAL_SD their --initial-sd (default 0.1: with
# pvic's default of 1, every weight draw is noise and the pooled network learns nothing), PVIC
# the pvic binary (default build/pvic).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
pvic="${PVIC:-$here/../../build/pvic}"
out="${1:-out/digits}"
rounds="${ROUNDS:-30}"
initial_sd="${INITIAL_SD:-0.1}"
mkdir -p "$out"

fit() {  # fit NAME MODEL DATA_CSV [pvic run options...]
  local name="$1" model="$2" data="$3"
  shift 3
  /usr/bin/time -f "$name: %e s wall, peak memory %M KiB" -o "$out/$name.time" \
    "$pvic" run "$here/$model" --data "$here/data.json" --partition-data "$data" --rounds "$rounds" \
    --initial-sd "$initial_sd" --progress never -o "$out/$name.csv" "$@" > "$out/$name.log" 2>&1 || true
  grep -E "^(algorithm|ELBO|pvic run: warning)" "$out/$name.log" | sed "s/^/$name: /"
  cat "$out/$name.time"
}

fit sfvi model.pvi "$here/data_per_silo.csv" --algorithm sfvi
fit sfvi-avg model.pvi "$here/data_per_silo.csv" --algorithm sfvi-avg
fit pooled pooled.pvi "$here/data_per_silo.csv" --algorithm sfvi
# Each silo alone: the hierarchical network fitted to one silo's images.
mkdir -p "$out/alone-locals"
for silo in $(seq 1 10); do
  awk -F, -v s="$silo" 'NR == 1 || $1 == s' "$here/data_per_silo.csv" > "$out/silo_$silo.csv"
  fit "alone-$silo" model.pvi "$out/silo_$silo.csv" --algorithm sfvi --allow-single-partition \
    --locals-dir "$out/alone-locals" > /dev/null
done
cat "$out"/alone-*.time | awk '{s += $2} END {print "alone: " s " s wall in all"}'

for name in sfvi sfvi-avg pooled alone; do
  python3 "$here/evaluate.py" "$out/$name-locals" "$name" | tail -1
done

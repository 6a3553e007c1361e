#!/usr/bin/env bash
# A whole `pvic run` on spambase (examples/logistic_regression: 10 clients of split A, synchronous
# PVI, mean-field, damping 0.2, everything else at its default), timed, with the test NLPD of the
# posterior predictive it wrote: -mean log p(y_n | x_n) over the 921 held-out e-mails, p(y = 1 | x)
# being the mean of p_test over the written draws.
#   bench/spambase/whole_run.sh [PVIC] [extra pvic run options...]
# Prints the run's report tail, then "wall S s, test NLPD V, accuracy A".
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
pvic="${1:-$root/build/pvic}"
shift || true
example="$root/examples/logistic_regression"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
start=$(date +%s.%N)
"$pvic" run "$example/model.pvi" --data "$example/data.json" --partition-data "$example/data_per_client.csv" \
  --algorithm pvi --schedule synchronous --family mean-field --damping 0.2 -o "$out/fit.csv" "$@" >"$out/report" 2>&1
end=$(date +%s.%N)
grep -E "^(ELBO|time:)|warning" "$out/report" || true
python3 - "$out/fit-summary.json" "$example/data.json" "$start" "$end" <<'PY'
import json, math, sys
summary, data = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
p = [g["mean"] for g in summary["generated_quantities"] if g["name"].startswith("p_test.")]
y = data["y_test"]
nlpd = -sum(math.log(pi if yi == 1 else 1.0 - pi) for pi, yi in zip(p, y)) / len(y)
accuracy = sum((pi > 0.5) == (yi == 1) for pi, yi in zip(p, y)) / len(y)
print(f"wall {float(sys.argv[4]) - float(sys.argv[3]):.2f} s, test NLPD {nlpd:.4f}, accuracy {accuracy:.4f}")
PY

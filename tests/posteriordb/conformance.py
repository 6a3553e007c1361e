#!/usr/bin/env python3
"""Run every posteriordb posterior that has reference draws, Stan program unchanged, with pvic's NUTS.

Usage: conformance.py POSTERIORDB_GIT_DIR PVIC [names...] [--json FILE] [--timeout SECONDS]
                      [--workdir DIR] [-- extra pvic run args]

POSTERIORDB_GIT_DIR is a clone (bare or not) of https://github.com/stan-dev/posteriordb that has
make_suite.py's COMMIT (read with `git show`; CI has no network, so this is not a CI test: the
nine posteriors under this directory are). For each posterior with reference draws (47 at that
commit), in a directory of its own under --workdir (default: a temporary one), it writes
posteriordb's Stan program unchanged as model.stan and its data unchanged as data.json (pvic
ignores data the program does not declare, as CmdStan does), then runs

    PVIC run model.stan --data data.json --algorithm nuts --seed 1 -o fit.csv
         --summary-json summary.json --progress never [extra args]

and compares pvic's summary (mean and sd over its draws, constrained scale) with the mean and sd
of posteriordb's 10,000 reference draws, for every quantity the reference has (parameters,
transformed parameters and generated quantities). A posterior passes when every mean is within
0.1 reference sd and every sd within 10% (issue 15's bounds). The table gives the exit code,
pvic's status line (or its error), the worst cells, the pass verdict and the wall time.
Plain Python 3.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from compare import norm_name, parse_options, run_pvic, worst_cells  # noqa: E402
from make_suite import COMMIT, mean_sd, read_zip_json  # noqa: E402

MEAN_BOUND = 0.1  # reference sds
SD_BOUND = 0.1    # relative


def parse_args(argv):
    positional, values, extra, usage = parse_options(
        argv, __doc__, "conformance.py", {"--json": None, "--timeout": "600", "--workdir": None})
    if len(positional) < 2:
        usage("POSTERIORDB_GIT_DIR and PVIC are required")
    repo, pvic, names = positional[0], positional[1], [n.rstrip("/") for n in positional[2:]]
    pvic = os.path.abspath(pvic) if os.sep in pvic else pvic
    return repo, pvic, names, values["--json"], float(values["--timeout"]), values["--workdir"], extra


def git(repo, *args):
    return subprocess.run(["git", "-C", repo, *args], check=True, stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL).stdout


def reference_posteriors(repo):
    """The posteriors whose reference posterior has draws at COMMIT, sorted by name."""
    listing = git(repo, "ls-tree", "--name-only", COMMIT, "posterior_database/posteriors/").decode().split()
    drawn = git(repo, "ls-tree", "--name-only", COMMIT,
                "posterior_database/reference_posteriors/draws/draws/").decode().split()
    drawn = {os.path.basename(p)[:-len(".json.zip")] for p in drawn}
    names = []
    for path in listing:
        p = json.loads(git(repo, "show", f"{COMMIT}:{path}"))
        if p.get("reference_posterior_name") in drawn:
            names.append(p["name"])
    return sorted(names)


def prepare(repo, name, d):
    """model.stan, data.json and the reference moments of posterior `name` in directory d."""
    posterior = json.loads(git(repo, "show", f"{COMMIT}:posterior_database/posteriors/{name}.json"))
    model = git(repo, "show", f"{COMMIT}:posterior_database/models/stan/{posterior['model_name']}.stan")
    data = git(repo, "show", f"{COMMIT}:posterior_database/data/data/{posterior['data_name']}.json.zip")
    draws = git(repo, "show", f"{COMMIT}:posterior_database/reference_posteriors/draws/draws/"
                              f"{posterior['reference_posterior_name']}.json.zip")
    os.makedirs(d, exist_ok=True)
    with open(os.path.join(d, "model.stan"), "wb") as f:
        f.write(model)
    with open(os.path.join(d, "data.json"), "w") as f:
        json.dump(read_zip_json(data), f)
    chains = read_zip_json(draws)
    reference = {}
    for p in chains[0]:
        xs = [float(x) for c in chains for x in c[p]]
        m, s = mean_sd(xs)
        reference[norm_name(p)] = {"mean": m, "sd": s}
    return reference


def compare(pvic, d, reference, extra, timeout):
    row = {"exit_code": None, "status": "", "worst_mean_error_sd": None, "worst_mean_error_param": None,
           "worst_sd_ratio": None, "worst_sd_ratio_param": None, "seconds": None, "missing": [],
           "passes": False}
    summary_path = os.path.join(d, "summary.json")
    cmd = [pvic, "run", "model.stan", "--data", "data.json", "--algorithm", "nuts", "--seed", "1",
           "-o", "fit.csv", "--summary-json", summary_path, "--progress", "never"] + extra
    summary = run_pvic(cmd, d, timeout, row, summary_path)
    if summary is None:
        return row
    fit = {norm_name(p["name"]): p
           for p in summary.get("parameters", []) + (summary.get("generated_quantities") or [])}
    worst_cells(fit, reference, row)
    row["passes"] = (row["exit_code"] == 0 and not row["missing"] and row["worst_mean_error_sd"] is not None
                     and row["worst_mean_error_sd"] <= MEAN_BOUND and row["worst_sd_relative_error"] <= SD_BOUND)
    return row


def main():
    repo, pvic, names, json_out, timeout, workdir, extra = parse_args(sys.argv[1:])
    names = names or reference_posteriors(repo)
    tmp = None
    if workdir is None:
        tmp = tempfile.TemporaryDirectory(prefix="pvic-posteriordb-")
        workdir = tmp.name
    rows = []
    print(f"| posterior | exit | status | worst mean error (ref sd) | worst sd ratio | passes | seconds |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        d = os.path.join(workdir, name)
        try:
            reference = prepare(repo, name, d)
        except subprocess.CalledProcessError:  # a shallow or partial clone may lack large files
            print(f"| {name} | - | its posteriordb files cannot be read from {repo} | - | - | - | - |", flush=True)
            continue
        row = compare(pvic, d, reference, extra, timeout)
        row["posterior"] = name
        rows.append(row)
        m = "-" if row["worst_mean_error_sd"] is None else \
            f"{row['worst_mean_error_sd']:.3f} ({row['worst_mean_error_param']})"
        r = "-" if row["worst_sd_ratio"] is None else f"{row['worst_sd_ratio']:.3f} ({row['worst_sd_ratio_param']})"
        if row["missing"]:
            m += f"; missing {', '.join(row['missing'][:5])}" + (" ..." if len(row["missing"]) > 5 else "")
        status = re.sub(r"\s+", " ", row["status"]).replace("|", "\\|")
        print(f"| {name} | {row['exit_code'] if row['exit_code'] is not None else '-'} | {status} | {m} | {r} | "
              f"{'yes' if row['passes'] else 'no'} | {row['seconds']:.1f} |", flush=True)
    passed = sum(r["passes"] for r in rows)
    print(f"\n{passed} of {len(rows)} posteriors pass (every mean within {MEAN_BOUND} reference sd, "
          f"every sd within {SD_BOUND:.0%})")
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"pvic": pvic, "commit": COMMIT, "extra_args": extra, "rows": rows}, f, indent=2)
            f.write("\n")
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())

#!/usr/bin/env python3
"""Fit the posteriordb posteriors of this directory with pvic and compare with the references.

Usage: compare.py PVIC [names...] [--json FILE] [--timeout SECONDS] [-- extra pvic run args]

For each posterior NAME (default: every subdirectory holding model.pvi, data.json and
reference.json, the seven of README.md first) runs, in a temporary directory,

    PVIC run NAME/model.pvi --data NAME/data.json -o TMP/fit.csv --summary-json TMP/summary.json
         --progress never [extra args]

and prints a markdown table: exit code, pvic's status line, the worst |fit mean - ref mean| in
reference sds, the worst sd ratio (fit sd / ref sd, the one furthest from 1 in log terms), the
Pareto k-hat (variational fits) and the wall time. Means and sds are pvic's summary values over
its draws, in the constrained scale. A run that fails (nonzero exit, no summary) gets '-' in the
columns it cannot fill; its error line is shown as the status. --json FILE writes the rows as
JSON too. Plain Python 3.
"""
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ORDER = ["kidiq-kidscore_momhs", "kidiq-kidscore_momiq", "kidiq-kidscore_momhsiq",
         "earnings-earn_height", "mesquite-mesquite", "kilpisjarvi_mod-kilpisjarvi", "arma-arma11"]


def parse_options(argv, doc, script, options):
    """Split argv into positional arguments, the values of `options` (a dict of option -> default,
    each taking one value) and the pvic arguments after '--'. Exits with `doc` on -h or an error."""
    def usage(msg=None):
        if msg:
            print(f"{script}: {msg}", file=sys.stderr)
        print(doc, file=sys.stderr)
        sys.exit(2)
    if "--" in argv:
        i = argv.index("--")
        argv, extra = argv[:i], argv[i + 1:]
    else:
        extra = []
    positional, values = [], dict(options)
    it = iter(argv)
    for a in it:
        if a in ("-h", "--help"):
            print(doc)
            sys.exit(0)
        elif a in options:
            values[a] = next(it, None) or usage(f"{a} needs a value")
        elif a.startswith("-"):
            usage(f"unknown option {a} (pvic options go after '--')")
        else:
            positional.append(a)
    return positional, values, extra, usage


def parse_args(argv):
    positional, values, extra, usage = parse_options(argv, __doc__, "compare.py",
                                                     {"--json": None, "--timeout": "600"})
    if not positional:
        usage("PVIC is required")
    pvic, names = positional[0], [n.rstrip("/") for n in positional[1:]]
    if not names:
        found = [d for d in os.listdir(HERE)
                 if all(os.path.isfile(os.path.join(HERE, d, f))
                        for f in ("model.pvi", "data.json", "reference.json"))]
        names = [d for d in ORDER if d in found] + sorted(d for d in found if d not in ORDER)
    pvic = os.path.abspath(pvic) if os.sep in pvic else pvic
    return pvic, names, values["--json"], float(values["--timeout"]), extra


def norm_name(name):
    """beta[1] and beta.1 name the same component."""
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]*)\[([0-9, ]+)\]", name)
    if m:
        return m.group(1) + "".join("." + i.strip() for i in m.group(2).split(","))
    return name


def status_line(stdout, stderr):
    """The line in which pvic says how the fit ended."""
    for line in stdout.splitlines():
        if line.startswith("ELBO "):  # variational: "ELBO ... after N rounds in T s; <status>"
            return line.split("; ", 1)[1] if "; " in line else line
        m = re.match(r"(\d+) chains of .*gradient evaluations \([^)]*\); (.*)$", line)
        if m:  # sampling: "... ; D divergent transitions; largest R-hat ...; smallest ESS ..."
            return f"{m.group(1)} chains; {m.group(2)}"
    errors = [l for l in stderr.splitlines() if ": error: " in l]
    if errors:
        return errors[-1].split(": error: ", 1)[1]
    lines = [l for l in (stderr + stdout).splitlines() if l.strip()]
    return lines[-1] if lines else "(no output)"


def run_pvic(cmd, cwd, timeout, row, summary_path):
    """Run cmd in cwd; fill row's exit_code, status (pvic's status line or error) and seconds.
    Returns the summary JSON this run wrote, or None when it wrote none."""
    if os.path.exists(summary_path):
        os.remove(summary_path)  # not to read an earlier run's
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout, cwd=cwd)
        row["exit_code"] = p.returncode
        row["status"] = status_line(p.stdout, p.stderr)
    except subprocess.TimeoutExpired:
        row["status"] = f"timed out after {timeout:g} s"
    except OSError as e:
        row["status"] = f"cannot run {cmd[0]}: {e}"
    row["seconds"] = time.monotonic() - t0
    try:
        return json.load(open(summary_path))
    except (OSError, ValueError):
        return None


def worst_cells(fit, reference, row):
    """The worst |mean error| in reference sds, the sd ratio furthest from 1 in log terms and the
    largest |sd ratio - 1| over the reference's quantities (keys in pvic's names), into row;
    those the fit lacks into row["missing"]. A constant reference quantity (sd 0) must be matched
    to 1e-9 relative, with an sd of 0."""
    worst_m, worst_r = None, None
    row["worst_sd_relative_error"] = None
    for key, r in reference.items():
        f = fit.get(key)
        if f is None or f.get("mean") is None or f.get("sd") is None:
            row["missing"].append(key)
            continue
        if r["sd"] == 0.0:
            err = 0.0 if abs(f["mean"] - r["mean"]) <= 1e-9 * max(1.0, abs(r["mean"])) else math.inf
            dev, ratio = (0.0, 1.0) if f["sd"] == 0.0 else (math.inf, math.inf)
        else:
            err = abs(f["mean"] - r["mean"]) / r["sd"]
            ratio = f["sd"] / r["sd"]
            dev = abs(math.log(ratio)) if ratio > 0 else math.inf
        if not math.isfinite(err) or worst_m is None or err > worst_m[0]:
            worst_m = (err, key)
        if not math.isfinite(dev) or worst_r is None or dev > worst_r[0]:
            worst_r = (dev, key, ratio)
        rel = abs(ratio - 1.0)
        if row["worst_sd_relative_error"] is None or not (rel <= row["worst_sd_relative_error"]):
            row["worst_sd_relative_error"] = rel
    if worst_m:
        row["worst_mean_error_sd"], row["worst_mean_error_param"] = worst_m[0], worst_m[1]
    if worst_r:
        row["worst_sd_ratio"], row["worst_sd_ratio_param"] = worst_r[2], worst_r[1]


def compare(pvic, name, extra, timeout):
    d = os.path.join(HERE, name)
    row = {"posterior": name, "exit_code": None, "status": "", "worst_mean_error_sd": None,
           "worst_mean_error_param": None, "worst_sd_ratio": None, "worst_sd_ratio_param": None,
           "pareto_khat": None, "seconds": None, "fit_seconds": None, "algorithm": None,
           "missing": []}
    try:
        ref = json.load(open(os.path.join(d, "reference.json")))["parameters"]
    except (OSError, ValueError, KeyError) as e:
        row["status"] = f"cannot read reference.json: {e}"
        return row
    with tempfile.TemporaryDirectory(prefix=f"pvic-{name}-") as tmp:
        summary_path = os.path.join(tmp, "summary.json")
        cmd = [pvic, "run", os.path.join(d, "model.pvi"), "--data", os.path.join(d, "data.json"),
               "-o", os.path.join(tmp, "fit.csv"), "--summary-json", summary_path,
               "--progress", "never"] + extra
        summary = run_pvic(cmd, tmp, timeout, row, summary_path)
    if summary is None:
        return row
    row["algorithm"] = summary.get("algorithm")
    row["pareto_khat"] = summary.get("pareto_khat")
    row["fit_seconds"] = summary.get("elapsed_seconds")
    fit = {norm_name(p["name"]): p for p in summary.get("parameters", [])}
    worst_cells(fit, {norm_name(k): r for k, r in ref.items()}, row)
    return row


def fmt(x, digits=3):
    if x is None:
        return "-"
    if isinstance(x, float):
        return f"{x:.{digits}g}" if math.isfinite(x) else str(x)
    return str(x)


def main():
    pvic, names, json_out, timeout, extra = parse_args(sys.argv[1:])
    rows = []
    print("| posterior | exit | status | worst mean error (ref sd) | worst sd ratio | k-hat | seconds |")
    print("|---|---|---|---|---|---|---|")
    for name in names:
        row = compare(pvic, name, extra, timeout)
        rows.append(row)
        m = "-" if row["worst_mean_error_sd"] is None else \
            f"{row['worst_mean_error_sd']:.3f} ({row['worst_mean_error_param']})"
        r = "-" if row["worst_sd_ratio"] is None else \
            f"{row['worst_sd_ratio']:.3f} ({row['worst_sd_ratio_param']})"
        if row["missing"]:
            m += f"; missing {', '.join(row['missing'])}"
        status = row["status"].replace("|", "\\|")
        print(f"| {name} | {fmt(row['exit_code'])} | {status} | {m} | {r} | "
              f"{fmt(row['pareto_khat'], 2)} | {fmt(row['seconds'], 3)} |", flush=True)
    if json_out:
        with open(json_out, "w") as f:
            json.dump({"pvic": pvic, "extra_args": extra, "rows": rows}, f, indent=2)
            f.write("\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())

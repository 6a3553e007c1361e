#!/usr/bin/env python3
"""Checks that Stan CSV files load in CmdStanPy and ArviZ (docs/output.md, "Checking files with
other tools"). A development-machine check, not run in CI (CI has neither package).

Usage: python3 tests/compat/check_stan_csv.py FIT...
  FIT  one fit: a Stan CSV file, a directory (its *.csv files, sorted, are the chains of one fit),
       or a quoted glob such as 'out/fit_*.csv'.

For each fit: cmdstanpy.from_csv (sampling: draws, step sizes, metric, divergences; variational:
the mean row and the draws) and arviz.from_cmdstan (ArviZ before 1.0; skipped when the installed
ArviZ has no from_cmdstan). Files with a chain__ column (pvic's merged file) are expected to be
refused by both, which read one file per chain. Exits 1 when any fit fails.
"""
import glob
import os
import sys


def fit_files(arg):
    if os.path.isdir(arg):
        return sorted(glob.glob(os.path.join(arg, "*.csv")))
    if any(c in arg for c in "*?["):
        return sorted(glob.glob(arg))
    return [arg]


def header(path):
    config, columns = {}, []
    with open(path) as f:
        for line in f:
            if not line.startswith("#"):
                columns = line.strip().split(",")
                break
            parts = line.lstrip("# ").split("=")
            if len(parts) == 2:
                config[parts[0].strip()] = parts[1].replace("(Default)", "").strip()
    return config, columns


def check_cmdstanpy(files, config, columns):
    import cmdstanpy

    merged = "chain__" in columns
    try:
        fit = cmdstanpy.from_csv(files)
    except ValueError as e:
        if merged:
            print(f"cmdstanpy refuses the merged file, as expected: {e}")
            return
        raise
    if merged:
        raise AssertionError("cmdstanpy read a merged file as one chain")
    if config["method"] == "variational":
        print(f"cmdstanpy: {type(fit).__name__}, mean row of {len(fit.variational_params_np)} values, "
              f"sample {fit.variational_sample.shape}")
        assert fit.variational_sample.shape[0] == int(config["output_samples"])
        return
    draws = fit.draws()
    print(f"cmdstanpy: {type(fit).__name__}, draws {draws.shape} (draws, chains, columns), "
          f"step sizes {fit.step_size}, metric {fit.metric_type} {fit.metric.shape}, divergences {fit.divergences}")
    assert draws.shape == (int(config["num_samples"]), len(files), len(columns))
    print(fit.draws_pd().describe().T.head(12).to_string())


def check_arviz(files, config, columns):
    import arviz

    if not hasattr(arviz, "from_cmdstan"):
        print(f"arviz {arviz.__version__} has no from_cmdstan: skipped")
        return
    if "chain__" in columns:
        try:
            arviz.from_cmdstan(files)
        except Exception as e:  # chain__ becomes the sample stat "chain", the name of a dimension
            print(f"arviz refuses the merged file, as expected: {type(e).__name__}: {e}")
            return
        raise AssertionError("arviz read a merged file as one chain")
    idata = arviz.from_cmdstan(files)
    print(f"arviz {arviz.__version__}: groups {list(idata.groups())}")
    print(idata.posterior)
    if "sample_stats" in idata.groups():
        print({name: str(v.dtype) for name, v in idata.sample_stats.data_vars.items()})
    if config["method"] == "sample":
        print(arviz.summary(idata).head(12).to_string())


def main(args):
    if not args:
        print(__doc__)
        return 2
    failures = 0
    for arg in args:
        files = fit_files(arg)
        print(f"==== {arg} ({len(files)} file(s))")
        try:
            config, columns = header(files[0])
            check_cmdstanpy(files, config, columns)
            check_arviz(files, config, columns)
            print(f"OK {arg}\n")
        except Exception as e:  # report every failure, then go on with the next fit
            print(f"FAIL {arg}: {type(e).__name__}: {e}\n")
            failures += 1
    print(f"{len(args)} fit(s) checked, {failures} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

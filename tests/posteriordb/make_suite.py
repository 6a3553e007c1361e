#!/usr/bin/env python3
"""Regenerate data.json and reference.json of every posterior in this directory from posteriordb.

Usage: make_suite.py POSTERIORDB_GIT_DIR [names...]

POSTERIORDB_GIT_DIR is a clone (bare or not) of https://github.com/stan-dev/posteriordb that has
commit COMMIT below. Files are read with `git show COMMIT:path`, so the work tree is not used.
Plain Python 3 (no numpy).

data.json      the posteriordb data restricted to the variables the model's data block declares
               (pvic refuses data it does not declare).
reference.json per parameter component, keyed by pvic's name (beta.1, sigma; posteriordb's
               beta[1] is kept as posteriordb_name), the mean and sd (n - 1
               denominator) over all reference draws, pooled over chains, in the constrained scale,
               plus the bulk ESS from posteriordb's info file and mcse_mean = sd / sqrt(ess_bulk).
"""
import io
import json
import math
import os
import re
import subprocess
import sys
import zipfile

REPO_URL = "https://github.com/stan-dev/posteriordb"
COMMIT = "28f8d3d6e975315f42aa274a8399f21e07a43b30"
POSTERIORS = [
    "kidiq-kidscore_momhs",
    "kidiq-kidscore_momiq",
    "kidiq-kidscore_momhsiq",
    "earnings-earn_height",
    "mesquite-mesquite",
    "kilpisjarvi_mod-kilpisjarvi",
    "arma-arma11",
    "eight_schools-eight_schools_noncentered",
    "garch-garch11",
    "hudson_lynx_hare-lotka_volterra",
]
HERE = os.path.dirname(os.path.abspath(__file__))


def git_show(repo, path):
    return subprocess.run(["git", "-C", repo, "show", f"{COMMIT}:{path}"], check=True,
                          stdout=subprocess.PIPE).stdout


def read_zip_json(blob):
    z = zipfile.ZipFile(io.BytesIO(blob))
    names = z.namelist()
    assert len(names) == 1, names
    return json.loads(z.read(names[0]))


def data_names(model_path):
    """Names declared in the data block of a .pvi model (one declaration per statement)."""
    text = open(model_path).read()
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r"/\*.*?\*/", "", text, flags=re.S)
    m = re.search(r"\bdata\s*\{(.*?)\}", text, flags=re.S)
    names = []
    for decl in m.group(1).split(";"):
        decl = decl.strip()
        if decl:
            names.append(re.search(r"([A-Za-z][A-Za-z0-9_]*)\s*$", decl).group(1))
    return names


def pvic_name(name):
    """posteriordb's beta[1] (Stan's name) is pvic's beta.1; a[1,2] is a.1.2."""
    m = re.fullmatch(r"([A-Za-z][A-Za-z0-9_]*)\[([0-9, ]+)\]", name)
    if not m:
        return name
    return m.group(1) + "".join("." + i.strip() for i in m.group(2).split(","))


def mean_sd(xs):
    n = len(xs)
    m = math.fsum(xs) / n
    var = math.fsum((x - m) ** 2 for x in xs) / (n - 1)
    return m, math.sqrt(var)


def make(repo, name):
    out_dir = os.path.join(HERE, name)
    posterior = json.loads(git_show(repo, f"posterior_database/posteriors/{name}.json"))
    model_name, data_name = posterior["model_name"], posterior["data_name"]
    ref_name = posterior["reference_posterior_name"]
    paths = {
        "posterior": f"posterior_database/posteriors/{name}.json",
        "model": f"posterior_database/models/stan/{model_name}.stan",
        "data": f"posterior_database/data/data/{data_name}.json.zip",
        "draws": f"posterior_database/reference_posteriors/draws/draws/{ref_name}.json.zip",
        "draws_info": f"posterior_database/reference_posteriors/draws/info/{ref_name}.info.json",
    }

    # data.json: only what the model declares, in its order.
    data = read_zip_json(git_show(repo, paths["data"]))
    # The translation's data block, or the Stan program's where there is no translation.
    model_file = "model.pvi" if os.path.exists(os.path.join(out_dir, "model.pvi")) else "model.stan"
    wanted = data_names(os.path.join(out_dir, model_file))
    missing = [v for v in wanted if v not in data]
    if missing:
        sys.exit(f"{name}: posteriordb data lack {missing}")
    with open(os.path.join(out_dir, "data.json"), "w") as f:
        f.write("{\n" + ",\n".join(f" {json.dumps(v)}: {json.dumps(data[v])}" for v in wanted)
                + "\n}\n")

    # reference.json
    chains = read_zip_json(git_show(repo, paths["draws"]))
    info = json.loads(git_show(repo, paths["draws_info"]))
    diag = info["diagnostics"]
    params = list(chains[0].keys())
    # The info file's diagnostics are in its own order of the names (eight_schools: mu, tau, theta
    # where the draws have theta, mu, tau).
    names = diag["diagnostic_information"]["names"]
    assert sorted(names) == sorted(params), (params, diag)
    ess = dict(zip(names, diag["effective_sample_size_bulk"]))
    per_chain = [len(c[params[0]]) for c in chains]
    parameters = {}
    for p in params:
        xs = [float(x) for c in chains for x in c[p]]
        m, s = mean_sd(xs)
        parameters[pvic_name(p)] = {"posteriordb_name": p, "mean": m, "sd": s,
                                    "ess_bulk": ess[p], "mcse_mean": s / math.sqrt(ess[p])}
    n_draws = sum(per_chain)
    assert n_draws == diag["ndraws"], (n_draws, diag["ndraws"])
    args = info["inference"]["method_arguments"]
    ref = {
        "posterior": name,
        "parameters": parameters,
        "n_draws": n_draws,
        "n_chains": len(chains),
        "provenance": {
            "source": "posteriordb reference posterior draws",
            "repository": REPO_URL,
            "commit": COMMIT,
            "files": paths,
            "method": (f"{info['inference']['method']} ({info['versions']['rstan_version']}, NUTS): "
                       f"{args['chains']} chains x {args['iter']} iterations "
                       f"({args['warmup']} warm-up), thinned by {args['thin']} -> "
                       f"{per_chain[0]} draws per chain; seed {args['seed']}; "
                       f"control {json.dumps(args.get('control', {}), sort_keys=True)}"),
            "computed": "mean and sd (n - 1 denominator) over all draws of all chains, "
                        "constrained scale; ess_bulk copied from the info file; "
                        "mcse_mean = sd / sqrt(ess_bulk); by tests/posteriordb/make_suite.py",
            "max_r_hat": max(diag["r_hat"]),
            "divergent_transitions": sum(diag["divergent_transitions"]),
        },
    }
    with open(os.path.join(out_dir, "reference.json"), "w") as f:
        json.dump(ref, f, indent=2)
        f.write("\n")
    print(f"{name}: data {wanted}; {n_draws} draws of {params}")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    repo = sys.argv[1]
    for name in sys.argv[2:] or POSTERIORS:
        make(repo, name)


if __name__ == "__main__":
    main()

#!/usr/bin/env python3
"""Runs `lance_nd_bench_tool run` builds alternately, each run in a fresh process.

usage: regression_runs.py [--reps N] [--threads T] DATA_DIR LABEL=TOOL[,ENV=VALUE...] ...

DATA_DIR holds grids.arrow and take_rows.txt (`lance_nd_bench_tool gen DATA_DIR 2000`). Each
round runs every build once, in the order given, then the next round starts with the next
build (so no build always runs first). Prints one line per run, then per build the median and
best of scan MB/s (129.6 MB of float32 values for 2,000 rows), take ms, write s and the
process's minor page faults (getrusage of the child), and the ratio of each build's medians to
the first build's. Exits 1 when a run fails or its checksums disagree with the input.
"""
import argparse
import json
import os
import resource
import statistics
import subprocess
import sys


def parse_build(spec):
    label, _, rest = spec.partition("=")
    if not label or not rest:
        sys.exit(f"bad build spec {spec!r}: want LABEL=TOOL[,ENV=VALUE...]")
    parts = rest.split(",")
    env = dict(p.split("=", 1) for p in parts[1:])
    return label, parts[0], env


def run_once(tool, env, data, out, threads):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    proc = subprocess.run(
        [tool, "run", os.path.join(data, "grids.arrow"), out,
         os.path.join(data, "take_rows.txt"), str(threads)],
        env={**os.environ, **env}, capture_output=True, text=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if proc.returncode != 0:
        sys.exit(f"{tool} failed: {proc.stderr}")
    rec = json.loads([l for l in proc.stdout.splitlines() if l.startswith("{")][-1])
    ok = (rec["scan_rows"] == rec["rows"] and rec["take_rows"] == 200 and
          abs(rec["scan_sum"] - rec["input_sum"]) <= 1e-6 * abs(rec["input_sum"]))
    if not ok:
        sys.exit(f"{tool}: checksums or row counts disagree: {rec}")
    mb = rec["rows"] * 64800 / 1e6
    return {"scan": mb / rec["scan_s"], "take": rec["take_s"] * 1e3, "write": rec["write_s"],
            "faults": after.ru_minflt - before.ru_minflt}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--reps", type=int, default=6)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("data")
    ap.add_argument("builds", nargs="+")
    a = ap.parse_args()
    builds = [parse_build(s) for s in a.builds]
    runs = {label: [] for label, _, _ in builds}
    for rep in range(a.reps):
        for i in range(len(builds)):
            label, tool, env = builds[(rep + i) % len(builds)]
            r = run_once(tool, env, a.data, os.path.join(a.data, f"out_{label}.lance"), a.threads)
            runs[label].append(r)
            print(f"run {rep + 1} {label:>14}: scan {r['scan']:7.0f} MB/s  take {r['take']:6.1f} ms"
                  f"  write {r['write']:.3f} s  faults {r['faults']}", flush=True)
    print(f"\n{'build':>14} | scan MB/s median (best) | take ms median (best) | "
          f"write s median (best) | faults median | scan, take vs {builds[0][0]}")
    base = runs[builds[0][0]]
    for label, _, _ in builds:
        rs = runs[label]
        med = {k: statistics.median(r[k] for r in rs) for k in ("scan", "take", "write", "faults")}
        bmed = {k: statistics.median(r[k] for r in base) for k in ("scan", "take")}
        print(f"{label:>14} | {med['scan']:7.0f} ({max(r['scan'] for r in rs):5.0f})"
              f"         | {med['take']:6.1f} ({min(r['take'] for r in rs):5.1f})"
              f"        | {med['write']:.3f} ({min(r['write'] for r in rs):.3f})"
              f"        | {med['faults']:8.0f}      | {med['scan'] / bmed['scan']:.2f}x,"
              f" {bmed['take'] / med['take']:.2f}x faster")


if __name__ == "__main__":
    main()

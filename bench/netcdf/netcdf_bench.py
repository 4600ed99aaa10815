#!/usr/bin/python3
"""Import throughput and table size against netCDF-4 (deflate level 1 + shuffle).

    netcdf_bench.py LANCE_ND_BINARY [DATA_DIR] [--runs N] [--levels L1,L2,...]

For each ferret-datasets file (DATA_DIR, default /usr/share/ferret-vis/data), with one chunk
per TIME step where the file has a TIME dimension and whole otherwise:
  - `lance-nd import TABLE FILE --chunks TIME=1 [--compression-level L]` into a fresh table,
    once per level of --levels (`default`: the option left out, level 9);
  - `nccopy -k nc4 -d1 -s -c TIME/1,<other dims whole> FILE OUT.nc`, the same chunking.
Each is run N times (default 3); the fastest run counts. Prints the times, the source size,
the sizes on disk and the ratios (lance-nd / nccopy). Not a test: nothing is asserted.
"""
import argparse
import os
import shutil
import subprocess
import tempfile
import time

parser = argparse.ArgumentParser()
parser.add_argument("binary")
parser.add_argument("data", nargs="?", default="/usr/share/ferret-vis/data")
parser.add_argument("--runs", type=int, default=3)
parser.add_argument("--levels", default="default")
opts = parser.parse_args()
BIN, DATA, RUNS = opts.binary, opts.data, opts.runs
LEVELS = opts.levels.split(",")
FILES = ["coads_climatology.cdf", "esku_heat_budget.cdf", "levitus_climatology.cdf",
         "monthly_navy_winds.cdf", "ocean_atlas_subset.nc", "etopo20.cdf", "etopo5.cdf"]


def dims(path):
    out = subprocess.run(["ncdump", "-h", path], capture_output=True, text=True,
                         check=True).stdout
    block = out.split("dimensions:")[1].split("variables:")[0]
    result = []
    for line in block.strip().splitlines():
        name, rest = line.strip().split(" = ", 1)
        size = rest.split("(")[1].split(" ")[0] if "UNLIMITED" in rest else rest.split(" ")[0]
        result.append((name, int(size)))
    return result


def size_on_disk(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


def fastest(make_command, output):
    best = None
    for _ in range(RUNS):
        shutil.rmtree(output, ignore_errors=True)
        if os.path.exists(output):
            os.remove(output)
        start = time.perf_counter()
        subprocess.run(make_command(), check=True, capture_output=True)
        elapsed = time.perf_counter() - start
        best = elapsed if best is None else min(best, elapsed)
    return best, size_on_disk(output)


print(f"{'file':26} {'level':>7} {'MB':>6} {'import s':>9} {'nccopy s':>9} {'time x':>7} "
      f"{'table MB':>9} {'nc4 MB':>8} {'size x':>7}")
with tempfile.TemporaryDirectory() as tmp:
    for name in FILES:
        src = os.path.join(DATA, name)
        if not os.path.exists(src):
            continue
        d = dims(src)
        has_time = any(n == "TIME" for n, _ in d)
        table = os.path.join(tmp, "t.lance")
        nc = os.path.join(tmp, "out.nc")
        spec = ",".join(f"{n}/{1 if n == 'TIME' else s}" for n, s in d)
        t_nc, s_nc = fastest(lambda: ["nccopy", "-k", "nc4", "-d1", "-s", "-c", spec, src, nc], nc)
        for level in LEVELS:
            extra = ["--chunks", "TIME=1"] if has_time else []
            if level != "default":
                extra += ["--compression-level", level]
            t_lance, s_lance = fastest(lambda: [BIN, "import", table, src, *extra], table)
            mb = 1 << 20
            print(f"{name:26} {level:>7} {os.path.getsize(src) / mb:6.1f} {t_lance:9.3f} "
                  f"{t_nc:9.3f} {t_lance / t_nc:7.2f} {s_lance / mb:9.2f} {s_nc / mb:8.2f} "
                  f"{s_lance / s_nc:7.3f}")

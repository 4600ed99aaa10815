#!/usr/bin/python3
"""`lance-nd slice` against libnetcdf on a real file.

    slice_netcdf_test.py LANCE_ND_BINARY FILE.nc

Reads FILE.nc (COADS climatology: SST, AIRT on TIME x COADSY x COADSX, missing values) with
python3-netcdf4, which reads through libnetcdf; writes it as chunk rows (docs/FORMAT.md §3.6,
chunks TIME=5, COADSY=32, COADSX=50, so edge chunks are partial) with `lance-nd append
--create`; then runs seeded random `lance-nd slice` requests (index ranges, single and negative
indices, values and value ranges of the coordinates, json and npy) and compares each answer
with netCDF4's read of the same hyperslab: masked positions must be nulls (NaN in .npy).
Exits 77 (skipped) when the file or python3-netcdf4 is missing.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from chunk_rows import chunk_rows  # noqa: E402

BIN, PATH = sys.argv[1], sys.argv[2]
SKIP = 77
VARIABLES = ["SST", "AIRT", "TIME", "COADSY", "COADSX"]
CHUNKS = {"TIME": 5, "COADSY": 32, "COADSX": 50}
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def typed_attr(value):
    if isinstance(value, str):
        return value
    a = np.asarray(value)
    dtype = {"float32": "float32", "float64": "float64", "int16": "int16",
             "int32": "int32"}[str(a.dtype)]
    return {"dtype": dtype, "value": a.item()} if a.ndim == 0 else \
        {"dtype": f"list<{dtype}>", "value": a.tolist()}


def write_table(ds, tmp):
    dims = [(name, len(d)) for name, d in ds.dimensions.items()]
    unlimited = [name for name, d in ds.dimensions.items() if d.isunlimited()]
    variables = {}
    for name in VARIABLES:
        v = ds.variables[name]
        dtype = {"float32": "float32", "float64": "float64"}[str(v.dtype)]
        attrs = {k: typed_attr(v.getncattr(k)) for k in v.ncattrs()}
        variables[name] = (dtype, list(v.dimensions), v[:], attrs)
    rows = chunk_rows("coads", dims, variables, CHUNKS, unlimited)
    jsonl = os.path.join(tmp, "coads.jsonl")
    with open(jsonl, "w") as f:
        for r in rows:
            f.write(json.dumps(r) + "\n")
    table = os.path.join(tmp, "coads.lance")
    p = subprocess.run([BIN, "append", table, jsonl, "--create"], capture_output=True, text=True)
    if p.returncode != 0:
        sys.exit(f"append failed: {p.stderr}")
    return table, len(rows)


def random_request(rng, ds, name):
    """(--isel text, --sel text, netCDF4 key, kept dimension names)."""
    isel, sel, key, kept = [], [], [], []
    for dim in ds.variables[name].dimensions:
        n = len(ds.dimensions[dim])
        coord = np.asarray(ds.variables[dim][:])
        kind = rng.choice(["whole", "index", "range", "value", "value_range"])
        if kind == "whole":
            key.append(slice(None))
            kept.append(dim)
        elif kind == "index":
            i = rng.randrange(n)
            isel.append(f"{dim}={i if rng.random() < 0.5 else i - n}")
            key.append(i)
        elif kind == "range":
            b, e = sorted(rng.randint(0, n) for _ in range(2))
            start = "" if b == 0 and rng.random() < 0.5 else str(b - n if b < n and rng.random() < 0.3 else b)
            stop = "" if e == n and rng.random() < 0.5 else str(e - n if e < n and rng.random() < 0.3 else e)
            isel.append(f"{dim}={start}:{stop}")
            key.append(slice(b, e))
            kept.append(dim)
        elif kind == "value":
            v = float(coord[rng.randrange(n)]) + rng.uniform(-0.4, 0.4) * abs(coord[1] - coord[0])
            sel.append(f"{dim}={v!r}")
            key.append(int(np.argmin(np.abs(coord - v))))
        else:
            lo, hi = sorted(rng.uniform(coord.min() - 5, coord.max() + 5) for _ in range(2))
            inside = np.nonzero((coord >= lo) & (coord <= hi))[0]
            sel.append(f"{dim}={lo!r}:{hi!r}")
            key.append(slice(int(inside[0]), int(inside[-1]) + 1) if len(inside) else slice(0, 0))
            kept.append(dim)
    return ",".join(isel), ",".join(sel), tuple(key), kept


def slice_args(table, name, isel, sel):
    args = [BIN, "slice", table, "--id", "coads", "--var", name]
    if isel:
        args += ["--isel", isel]
    if sel:
        args += ["--sel", sel]
    return args


def compare_json(what, got, want, kept, dtype):
    check(got["dtype"] == dtype, f"{what}: dtype {got['dtype']}")
    check(got["dim_names"] == kept, f"{what}: dim_names {got['dim_names']} != {kept}")
    check(got["dim_sizes"] == list(want.shape), f"{what}: dim_sizes {got['dim_sizes']} != {want.shape}")
    mask = np.ma.getmaskarray(want).ravel()
    data = np.ma.getdata(want).ravel()
    values = got["values"]
    check(len(values) == len(data), f"{what}: {len(values)} values, expected {len(data)}")
    for i, (v, m, w) in enumerate(zip(values, mask, data)):
        if m:
            check(v is None, f"{what}: value {i} is {v}, expected null (masked in netCDF)")
        else:
            check(v is not None and np.asarray(v, dtype=want.dtype) == w,
                  f"{what}: value {i} is {v}, expected {w}")
        if len(FAILURES) > 20:
            sys.exit("too many failures")


def main():
    if not os.path.exists(PATH):
        print(f"skipped: {PATH} is missing (Debian package ferret-datasets)")
        return SKIP
    try:
        import netCDF4
    except ImportError:
        print("skipped: python3-netcdf4 is missing")
        return SKIP
    rng = random.Random(20261202)
    with tempfile.TemporaryDirectory() as tmp, netCDF4.Dataset(PATH) as ds:
        table, num_rows = write_table(ds, tmp)
        print(f"wrote {num_rows} chunk rows")
        requests = 0
        for _ in range(150):
            name = rng.choice(VARIABLES)
            isel, sel, key, kept = random_request(rng, ds, name)
            what = f"{name} --isel '{isel}' --sel '{sel}'"
            want = ds.variables[name][key]
            want = np.ma.masked_array(want) if not np.ma.isMaskedArray(want) else want
            p = subprocess.run(slice_args(table, name, isel, sel), capture_output=True, text=True)
            check(p.returncode == 0, f"{what}: exit {p.returncode}: {p.stderr}")
            if p.returncode == 0:
                compare_json(what, json.loads(p.stdout), want, kept, str(ds.variables[name].dtype))
            requests += 1
        for i in range(15):  # .npy: masked values are NaN
            name = rng.choice(["SST", "AIRT"])
            isel, sel, key, kept = random_request(rng, ds, name)
            out = os.path.join(tmp, f"r{i}.npy")
            p = subprocess.run(slice_args(table, name, isel, sel) + ["--format", "npy", "--out", out],
                               capture_output=True, text=True)
            check(p.returncode == 0, f"npy {name} {isel} {sel}: {p.stderr}")
            got = np.load(out)
            want = np.ma.filled(np.ma.masked_array(ds.variables[name][key]).astype(np.float32), np.nan)
            check(got.dtype == np.float32 and got.shape == want.shape and
                  np.array_equal(got, want, equal_nan=True), f"npy {name} {isel} {sel}: differs")
            requests += 1
    print(f"{requests} slice requests compared with libnetcdf, {len(FAILURES)} failures")
    return 1 if FAILURES else 0


if __name__ == "__main__":
    sys.exit(main())

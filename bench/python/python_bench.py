"""Speed of the lance_nd Python package, and of its xarray backend against the netcdf4 engine.

    PYTHONPATH=build/dev/python /usr/bin/python3 bench/python/python_bench.py [--rows 2000]

One run measures, on the grid table of the 130 MB grid benchmark (bench/README.md: ROWS float32
grids time=1 x lat=90 x lon=180, a smooth field plus noise quantised to 0.01) written from
Python as chunk rows of one dataset (chunks={"time": 1}):

(a) Table.scan() decoding every row (to_numpy, a zero-copy view), scan() + to_xarray() per
    row, and the whole variable through the backend (one region read), in GB/s of values;
(b) a point time series (every chunk row) and a map (one row) through the backend against the
    netcdf4 engine on a netCDF-4 file of the same data chunked the same way (time 1, zlib level
    1 + shuffle, as bench/netcdf compares), with the file or table already open and with
    open + read; the table is written again with zstd and byte-stream split (what
    `lance-nd import` uses) for this comparison;
(c) a dask reduction (mean over time) on a LocalCluster of 2 worker processes over each,
    opened with chunks={} (one dask chunk per stored chunk).

Times are the fastest of --reps runs (of at most 2 for the dask reduction). Ratios are netcdf4 time / lance_nd time (> 1: lance_nd
faster). It is not a test.
"""

import argparse
import os
import tempfile
import time

import numpy as np
import xarray as xr

import lance_nd

NY, NX = 90, 180
ZSTD = {"compression": "zstd", "byte_stream_split": "on"}


def grid_dataset(rows, seed=0):
    """ROWS grids: a smooth field plus noise quantised to 0.01 (as bench/bench_data.h)."""
    rng = np.random.default_rng(seed)
    lat = np.linspace(-89, 89, NY)
    lon = np.arange(NX) * 2.0
    field = 15 + 12 * np.cos(np.deg2rad(lat))[:, None] + 3 * np.sin(np.deg2rad(lon))[None, :]
    sst = np.empty((rows, NY, NX), dtype="f4")
    for t in range(rows):
        noise = rng.standard_normal((NY, NX)) * 0.5
        sst[t] = np.round(field + np.sin(t / 50.0) + noise, 2)
    return xr.Dataset({"sst": (("time", "lat", "lon"), sst, {"units": "degC"})},
                      {"time": np.arange(rows, dtype="f8"), "lat": lat, "lon": lon},
                      attrs={"id": "sst", "title": "grid benchmark"})


def write_netcdf(path, ds):
    import netCDF4

    with netCDF4.Dataset(path, "w", format="NETCDF4") as nc:
        for dim, size in ds.sizes.items():
            nc.createDimension(dim, size)
        for name, var in ds.variables.items():
            chunks = (1, NY, NX) if var.dims == ("time", "lat", "lon") else None
            out = nc.createVariable(name, var.dtype, var.dims, zlib=True, complevel=1,
                                    shuffle=True, chunksizes=chunks)
            out.setncatts(var.attrs)
            out[:] = var.values


def best(reps, call):
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return min(times)


def scan_rates(uri, reps, nbytes):
    def scan_numpy():
        for row in lance_nd.open(uri).scan(project=["sst"]):
            row["sst"].to_numpy()

    def scan_xarray():
        for row in lance_nd.open(uri).scan(project=["sst"]):
            row.to_xarray()

    def backend_load():
        xr.open_dataset(uri, engine="lance_nd", id="sst")["sst"].values

    out = []
    for name, call in [("scan() + to_numpy() per row", scan_numpy),
                       ("scan() + to_xarray() per row", scan_xarray),
                       ("open_dataset + .values (every chunk row taken)", backend_load)]:
        seconds = best(reps, call)
        out.append((name, seconds, nbytes / seconds / 1e9))
    return out


def open_lance(uri):
    return xr.open_dataset(uri, engine="lance_nd", id="sst", cache=False)


def open_netcdf(path):
    return xr.open_dataset(path, engine="netcdf4", cache=False)


def reads(rows):
    point = dict(lat=NY // 2, lon=NX // 3)
    return [("point time series", lambda ds: ds["sst"].isel(point).values),
            ("map (one time)", lambda ds: ds["sst"].isel(time=rows // 2).values)]


def backend_rates(uri, path, rows, reps):
    out = []
    for name, read in reads(rows):
        lance_ds, nc_ds = open_lance(uri), open_netcdf(path)
        assert np.array_equal(read(lance_ds), read(nc_ds))
        lance_open = best(reps, lambda: read(lance_ds))
        nc_open = best(reps, lambda: read(nc_ds))
        nc_ds.close()
        lance_cold = best(reps, lambda: read(open_lance(uri)))
        nc_cold = best(reps, lambda: read(open_netcdf(path)))
        out.append((name + ", already open", lance_open, nc_open))
        out.append((name + ", open + read", lance_cold, nc_cold))
    return out


def dask_rates(uri, path, reps):
    from dask.distributed import Client, LocalCluster

    with LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                      dashboard_address=None) as cluster, Client(cluster):
        def mean(ds):
            return ds["sst"].mean("time").values

        lance_ds = xr.open_dataset(uri, engine="lance_nd", id="sst", chunks={})
        # xarray 2022.12's netcdf4 engine gives no preferred chunks: chunks={} would be one
        # chunk; the file's chunks are named instead.
        nc_ds = xr.open_dataset(path, engine="netcdf4", chunks={"time": 1})
        assert lance_ds["sst"].chunks == nc_ds["sst"].chunks
        assert np.allclose(mean(lance_ds), mean(nc_ds))
        lance_time = best(reps, lambda: mean(lance_ds))
        nc_time = best(reps, lambda: mean(nc_ds))
        tasks = len(lance_ds["sst"].data.chunks[0])
    return [(f"dask mean over time, LocalCluster 2 processes, {tasks} chunks",
             lance_time, nc_time)]


def print_table(title, header, rows):
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for row in rows:
        print("| " + " | ".join(row) + " |")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rows", type=int, default=2000)
    parser.add_argument("--reps", type=int, default=3)
    parser.add_argument("--dir", default=None, help="where the table and file go (temp dir)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(dir=args.dir) as tmp:
        uri, path = os.path.join(tmp, "grid.lance"), os.path.join(tmp, "grid.nc")
        packed = os.path.join(tmp, "grid_zstd.lance")
        ds = grid_dataset(args.rows)
        nbytes = ds["sst"].nbytes
        print(f"lance_nd {lance_nd.__version__} from {os.path.dirname(lance_nd.__file__)}; "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"{args.rows} grids, {nbytes / 1e6:.1f} MB of float32 values, written in")
        timed_write("the table, default column options", uri, lambda: lance_nd.write(
            uri, ds, chunks={"time": 1}))
        timed_write("the table, zstd + byte-stream split", packed, lambda: lance_nd.write(
            packed, ds, chunks={"time": 1}, column_defaults=ZSTD))
        timed_write("netCDF-4, zlib level 1 + shuffle", path, lambda: write_netcdf(path, ds))
        scans = scan_rates(uri, args.reps, nbytes)
        print_table("(a) reading the whole grid table", ["read", "s", "GB/s"],
                    [(n, f"{s:.3f}", f"{r:.2f}") for n, s, r in scans])
        compared = backend_rates(packed, path, args.rows, args.reps) + dask_rates(
            packed, path, min(args.reps, 2))
        print_table("(b, c) lance_nd backend (zstd table) against the netcdf4 engine",
                    ["read", "lance_nd s", "netcdf4 s", "netcdf4 / lance_nd"],
                    [(n, f"{a:.4f}", f"{b:.4f}", f"{b / a:.2f}") for n, a, b in compared])
        print(f"\nload average at the end {os.getloadavg()[0]:.2f}")


def timed_write(what, path, write):
    start = time.perf_counter()
    write()
    print(f"  {time.perf_counter() - start:.2f} s: {what}, {du(path) / 1e6:.1f} MB")


def du(path):
    if os.path.isfile(path):
        return os.path.getsize(path)
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(path) for f in fs)


if __name__ == "__main__":
    main()

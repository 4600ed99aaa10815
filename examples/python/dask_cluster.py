"""A dask cluster writes one dataset into a lance-nd table and reduces it.

Two worker processes each stage some chunk rows of a dask-backed xarray Dataset
(`lance_nd.stage(..., chunk_indices=...)`), the client commits them all as one version
(`lance_nd.commit_staged`), then opens the dataset with `chunks={}` (one dask chunk per stored
chunk row) and computes the mean over time on the workers, which read the table themselves.

    PYTHONPATH=build/dev/python python3 examples/python/dask_cluster.py [TABLE]

Without TABLE it writes into a temporary directory.
"""

import math
import sys
import tempfile
import time

import dask
import dask.array as da
import numpy as np
import xarray as xr
from dask.distributed import Client, LocalCluster

import lance_nd

ID = "t2m"
SHAPE = {"time": 24, "lat": 45, "lon": 90}
CHUNKS = {"time": 6}  # 4 chunk rows


def source_dataset():
    """A dask-backed Dataset (computed where its chunks are needed), chunked along time."""
    data = da.random.RandomState(42).standard_normal(tuple(SHAPE.values()),
                                                     chunks=(CHUNKS["time"], -1, -1))
    t2m = (280 + 10 * data).astype("f4")
    coords = {"time": np.arange(SHAPE["time"]) * 6.0,
              "lat": np.linspace(-88, 88, SHAPE["lat"]),
              "lon": np.arange(SHAPE["lon"]) * 4.0}
    return xr.Dataset({"t2m": (tuple(SHAPE), t2m, {"units": "K"})}, coords,
                      attrs={"title": "2 m temperature (random)"})


def stage_chunks(uri, ds, chunk_indices):
    """On a worker: compute these chunks of `ds` here and stage them as fragments."""
    with dask.config.set(scheduler="synchronous"):
        return lance_nd.stage(uri, ds, chunks=CHUNKS, id=ID, chunk_indices=chunk_indices)


def write_on_workers(client, uri, ds):
    count = math.ceil(SHAPE["time"] / CHUNKS["time"])
    futures = [client.submit(stage_chunks, uri, ds, [index], pure=False)
               for index in range(count)]
    staged = client.gather(futures)  # StagedFragments pickle: the workers send them back
    table = lance_nd.commit_staged(uri, staged)
    return table, count


def main(uri):
    start = time.perf_counter()
    cluster = LocalCluster(n_workers=2, processes=True, threads_per_worker=1,
                           dashboard_address=None)
    with cluster, Client(cluster) as client:
        ds = source_dataset()
        table, count = write_on_workers(client, uri, ds)
        print(f"staged {count} chunk rows of {ID!r} on {len(cluster.workers)} workers, "
              f"committed as version {table.version} of {uri}")
        opened = xr.open_dataset(uri, engine="lance_nd", id=ID, chunks={})
        print(f"opened with chunks={{}}: t2m chunks {opened['t2m'].chunks}")
        mean = opened["t2m"].mean("time").compute()  # the client's cluster runs the reads
        expected = np.asarray(ds["t2m"].values).mean(axis=0)
        if not np.allclose(mean.values, expected, rtol=1e-5, atol=1e-4):
            raise SystemExit("the mean over time read back differs from numpy's")
    print(f"mean over time of {mean.shape} points equals numpy's "
          f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    if len(sys.argv) > 1:
        main(sys.argv[1])
    else:
        with tempfile.TemporaryDirectory() as tmp:
            main(tmp + "/t2m.lance")

"""examples/python/dask_cluster.py runs: workers stage chunk rows, one commit, a reduction."""

import importlib.util
import os
import pathlib
import subprocess
import sys

import dask
import numpy as np
import pytest
import xarray as xr

import lance_nd

EXAMPLE = pathlib.Path(__file__).resolve().parents[2] / "examples" / "python" / "dask_cluster.py"


def example_module():
    spec = importlib.util.spec_from_file_location("dask_cluster", EXAMPLE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_dask_cluster_example_commits_one_version(tmp_path):
    pytest.importorskip("distributed")
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, xr.Dataset({"other": ("n", np.arange(3))}), id="before")
    done = subprocess.run([sys.executable, str(EXAMPLE), uri], capture_output=True, text=True,
                          timeout=180, env=dict(os.environ))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "equals numpy's" in done.stdout
    table = lance_nd.open(uri)
    assert [v for v, _ in table.versions()] == [1, 2]  # one new version
    example = example_module()
    assert table.count_rows(f"__global_attrs__.id = '{example.ID}'") == 4
    with dask.config.set(scheduler="synchronous"):
        source = example.source_dataset().compute()
    written = xr.open_dataset(uri, engine="lance_nd", id=example.ID).load()
    xr.testing.assert_identical(written, source.assign_attrs(id=example.ID))


def test_chunk_indices_stage_a_part_of_the_chunk_rows(tmp_path):
    uri = str(tmp_path / "t.lance")
    ds = xr.Dataset({"v": ("t", np.arange(10.0))}, attrs={"id": "d"})
    parts = [lance_nd.stage(uri, ds, chunks={"t": 3}, chunk_indices=part)
             for part in ([3, 1], [0], [2])]
    assert [p.num_rows for p in parts] == [2, 1, 1]
    table = lance_nd.commit_staged(uri, parts)
    xr.testing.assert_identical(xr.open_dataset(uri, engine="lance_nd").load(), ds)
    indices = sorted(r.global_attrs["chunk_index"] for r in table.scan(project=[]))
    assert indices == [0, 1, 2, 3]
    with pytest.raises(lance_nd.InvalidArgumentError, match=r"\[4\] are outside.*4 chunks"):
        lance_nd.stage(uri, ds, chunks={"t": 3}, chunk_indices=[0, 4])
    with pytest.raises(lance_nd.InvalidArgumentError, match="chunk_indices= selects chunk rows"):
        lance_nd.stage(uri, ds, chunk_indices=[0])

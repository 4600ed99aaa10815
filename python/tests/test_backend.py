"""xr.open_dataset(TABLE, engine="lance_nd", id=ID): lazy region reads of chunk rows."""

import numpy as np
import pytest
import xarray as xr
from xarray.backends.plugins import list_engines

import lance_nd
from lance_nd import backend
from test_chunks import random_chunks, random_dataset


def test_the_engine_is_registered():
    assert isinstance(list_engines()["lance_nd"], lance_nd.LanceNdBackendEntrypoint)


@pytest.mark.parametrize("seed", range(20))
def test_open_dataset_equals_the_source(tmp_path, seed):
    rng = np.random.default_rng(seed)
    ds = random_dataset(seed).assign_attrs(id=f"ds{seed}")
    uri = str(tmp_path / "t.lance")
    with lance_nd.create(uri) as writer:
        other = random_dataset(seed + 1000)  # a neighbour dataset, with names of its own
        other = other.rename({n: f"n_{n}" for n in other.variables})
        writer.write(other, chunks=["n_d0"], id="other")
        writer.write(ds, chunks=random_chunks(rng, ds))
    opened = xr.open_dataset(uri, engine="lance_nd", id=f"ds{seed}")
    expected = ds.copy()
    for name, var in expected.variables.items():
        if var.dtype.kind in "iu":  # no nulls in the source: the dtype stays
            assert opened[name].dtype == var.dtype
    assert opened.identical(expected), f"\n{opened}\n{expected}"


@pytest.mark.parametrize("seed", range(10))
def test_indexing_reads_only_the_overlapping_chunk_rows(tmp_path, seed):
    rng = np.random.default_rng(seed)
    data = rng.standard_normal((int(rng.integers(5, 30)), 3))
    step = int(rng.integers(1, 6))
    ds = xr.Dataset({"v": (("t", "x"), data)}, attrs={"id": "d"})
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, ds, chunks={"t": step})
    n = data.shape[0]
    start = int(rng.integers(0, n))
    stop = int(rng.integers(start, n + 1))
    every = int(rng.integers(1, 3))
    opened = xr.open_dataset(uri, engine="lance_nd", id="d", cache=False)
    backend.READ_STATS["rows_read"] = 0
    got = opened["v"][start:stop:every, 1].values
    assert np.array_equal(got, data[start:stop:every, 1])
    touched = {t // step for t in range(start, stop, every)}
    assert backend.READ_STATS["rows_read"] == len(touched)


def test_a_plain_row_with_an_id_opens_too(tmp_path):
    uri = str(tmp_path / "t.lance")
    ds = xr.Dataset({"v": ("x", np.arange(3))}, attrs={"id": "plain"})
    lance_nd.write(uri, ds)
    assert xr.open_dataset(uri, engine="lance_nd").identical(ds)  # the only dataset


def test_id_alone_names_a_one_row_dataset(tmp_path):
    uri = str(tmp_path / "t.lance")
    ds = xr.Dataset({"v": ("x", np.arange(3))}, attrs={"id": "old", "chunk_count": 1})
    lance_nd.write(uri, [ds, ds], id="new")
    rows = list(lance_nd.open(uri).scan())
    assert [r.global_attrs for r in rows] == [
        {"source:id": "old", "source:chunk_count": 1, "id": "new"}] * 2
    assert rows[0].chunk_info() is None


def test_unknown_or_missing_id_names_the_datasets(tmp_path):
    uri = str(tmp_path / "t.lance")
    for i, name in enumerate(["a", "b"]):
        with lance_nd.create(uri, mode="create" if i == 0 else "append") as writer:
            writer.write(xr.Dataset({"v": ("x", np.arange(4))}), chunks={"x": 2}, id=name)
    with pytest.raises(lance_nd.InvalidArgumentError, match=r"no dataset 'c'.*\['a', 'b'\]"):
        xr.open_dataset(uri, engine="lance_nd", id="c")
    with pytest.raises(lance_nd.InvalidArgumentError, match="holds 2 datasets"):
        xr.open_dataset(uri, engine="lance_nd")
    old = xr.open_dataset(uri, engine="lance_nd", id="a", version=1)
    assert list(old["v"].values) == [0, 1, 2, 3]

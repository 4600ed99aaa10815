"""chunks= writes one row per chunk following docs/FORMAT.md §3.6; the test reassembles them."""

import itertools
import math

import dask.array as da
import numpy as np
import pytest
import xarray as xr

import lance_nd
from lance_nd._chunks import chunk_rows
from conftest import values

CHUNK_KEYS = {"id", "chunk_dims", "chunk_offset", "dataset_shape", "unlimited_dims",
              "chunk_index", "chunk_count"}


def random_dataset(seed):
    """1-3 dims, variables of random kinds over random subsets, coordinates, a scalar."""
    rng = np.random.default_rng(seed)
    dims = {f"d{i}": int(rng.integers(1, 7)) for i in range(int(rng.integers(1, 4)))}
    data_vars = {}
    for i in range(int(rng.integers(1, 5))):
        var_dims = tuple(d for d in dims if rng.random() < 0.7)
        kind = str(rng.choice(["i4", "f8", "f4", "str", "datetime", "bool"]))
        data_vars[f"v{i}"] = (var_dims, values(rng, kind, tuple(dims[d] for d in var_dims)),
                              {"units": "u" + str(i)})
    data_vars["scalar"] = ((), np.float64(rng.standard_normal()))
    coords = {d: (d, np.arange(n) * 2) for d, n in dims.items()}
    first = next(iter(dims))
    coords["aux"] = (first, values(rng, "f8", (dims[first],)))
    return xr.Dataset(data_vars, coords, attrs={"title": f"seed {seed}", "chunk_index": 7,
                                                "source:note": "kept"})


def random_chunks(rng, ds):
    return {d: int(rng.integers(1, n + 2)) for d, n in ds.sizes.items() if rng.random() < 0.7}


def expected_grid(ds, chunks):
    """Chunk offsets in C order and sizes, computed here from the rule, not by the library."""
    dims = list(ds.dims)
    size = [chunks.get(d, ds.sizes[d]) for d in dims]
    starts = [range(0, max(ds.sizes[d], 1), s) for d, s in zip(dims, size)]
    return [list(offset) for offset in itertools.product(*starts)], size


def reassemble(ds, rows):
    """The Dataset back from its chunk rows, by the convention's keys alone."""
    full = {}
    for row in rows:
        offset = dict(zip(row.global_attrs["chunk_dims"], row.global_attrs["chunk_offset"]))
        for name in row:
            part = row[name].to_numpy()
            src = ds.variables[name]
            if name not in full:
                full[name] = np.ma.masked_all(src.shape, dtype=part.dtype)
            region = tuple(slice(offset[d], offset[d] + n) for d, n in zip(row[name].dims, part.shape))
            full[name][region] = part
    return full


@pytest.mark.parametrize("seed", range(25))
def test_chunk_rows_follow_the_convention_and_reassemble(tmp_path, seed):
    rng = np.random.default_rng(seed)
    ds = random_dataset(seed)
    chunks = random_chunks(rng, ds)
    if seed % 2:
        ds = ds.chunk(chunks or None)  # dask-backed: chunks given as dims take dask's sizes
        chunks_arg = list(chunks)
    else:
        chunks_arg = chunks
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, ds, chunks=chunks_arg, id=f"ds{seed}")
    rows = list(lance_nd.open(uri).scan())
    offsets, _ = expected_grid(ds, chunks)
    assert len(rows) == len(offsets)
    split = {d for d in chunks if chunks[d] < ds.sizes[d]}
    for index, (row, offset) in enumerate(zip(rows, offsets)):
        attrs = row.global_attrs
        assert attrs["id"] == f"ds{seed}"
        assert list(attrs["chunk_dims"]) == list(ds.dims)
        assert list(attrs["dataset_shape"]) == [ds.sizes[d] for d in ds.dims]
        assert list(attrs["chunk_offset"]) == offset
        assert attrs["chunk_index"] == index and attrs["chunk_count"] == len(offsets)
        assert list(attrs["unlimited_dims"]) == []
        assert attrs["source:chunk_index"] == 7 and attrs["source:source:note"] == "kept"
        assert attrs["title"] == f"seed {seed}"
        with_split = {n for n, v in ds.variables.items() if split & set(v.dims)}
        assert set(row) == (set(ds.variables) if index == 0 else with_split)
    full = reassemble(ds, rows)
    assert set(full) == set(ds.variables)
    for name, data in full.items():
        expected = ds.variables[name].values
        got = xr.Dataset({"x": (ds.variables[name].dims, lance_nd._xarray.filled(data))})["x"]
        assert got.dtype == expected.dtype, name
        assert got.equals(xr.DataArray(expected, dims=got.dims)), name


def test_chunks_as_dims_take_dask_chunk_sizes_else_one(uri):
    ds = xr.Dataset({"v": (("t", "x"), np.arange(20.0).reshape(10, 2))}, attrs={"id": "d"})
    lance_nd.write(uri, ds.chunk({"t": 4}), chunks=["t"])
    offsets = [list(r.global_attrs["chunk_offset"]) for r in lance_nd.open(uri).scan()]
    assert offsets == [[0, 0], [4, 0], [8, 0]]
    lance_nd.write(uri, ds, chunks="t", mode="overwrite")
    assert lance_nd.open(uri).count_rows() == 10


def test_dask_chunks_are_computed_one_at_a_time():
    computed = []

    def record(block, block_info=None):
        computed.append(block_info[0]["chunk-location"])
        return block

    data = da.arange(40.0, chunks=8).map_blocks(record, dtype="f8")
    ds = xr.Dataset({"v": ("t", data)}, attrs={"id": "stream"})
    rows = chunk_rows(ds, ["t"])
    for index, row in enumerate(rows):
        assert len(computed) == index + 1  # this chunk only, none ahead
        assert np.array_equal(row["v"].to_numpy(), np.arange(40.0)[8 * index: 8 * index + 8])
    assert len(computed) == 5


def test_chunked_write_needs_an_id_and_known_dims(uri):
    ds = xr.Dataset({"v": ("t", np.zeros(3))})
    with pytest.raises(lance_nd.InvalidArgumentError, match="needs a dataset id"):
        lance_nd.write(uri, ds, chunks=["t"])
    with pytest.raises(lance_nd.InvalidArgumentError, match="lacks: its dimensions are"):
        lance_nd.write(uri, ds, chunks=["x"], id="a")
    with pytest.raises(lance_nd.InvalidArgumentError):
        lance_nd.write(uri, ds, chunks={"t": 0}, id="a")


def test_id_attribute_is_the_dataset_id_and_unlimited_dims_are_kept(uri):
    ds = xr.Dataset({"v": ("t", np.zeros(3))}, attrs={"id": "mine"})
    ds.encoding["unlimited_dims"] = {"t"}
    lance_nd.write(uri, ds, chunks={"t": 2})
    rows = list(lance_nd.open(uri).scan(filter="__global_attrs__.id = 'mine'"))
    assert len(rows) == math.ceil(3 / 2)
    assert all(list(r.global_attrs["unlimited_dims"]) == ["t"] for r in rows)
    assert all("source:id" not in r.global_attrs for r in rows)
    assert rows[1].chunk_info()["offset"] == (2,)

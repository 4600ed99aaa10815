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


def test_an_empty_region_beside_an_index_keeps_its_dimensions(tmp_path):
    ds = xr.Dataset({"v": (("x", "t", "y"), np.zeros((3, 0, 2), "i4"))}, attrs={"id": "d"})
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, ds, chunks={"x": 1})
    opened = xr.open_dataset(uri, engine="lance_nd", id="d")
    assert opened["v"][1].values.shape == (0, 2)
    assert opened["v"][1, :, 0].values.shape == (0,)


def test_decoded_chunk_rows_are_kept_within_the_budget(tmp_path):
    rng = np.random.default_rng(3)
    data = rng.standard_normal((12, 8)).astype("f4")
    uri = str(tmp_path / "t.lance")
    lance_nd.write(uri, xr.Dataset({"v": (("t", "x"), data)}, attrs={"id": "d"}),
                   chunks={"t": 2})
    lance_nd.clear_read_caches()
    try:
        for budget, decoded_again in [(64 << 20, 0), (0, 4)]:
            lance_nd.set_region_cache_capacity(budget)
            opened = xr.open_dataset(uri, engine="lance_nd", id="d", cache=False)
            assert np.array_equal(opened["v"].values, data)
            backend.READ_STATS.update(rows_read=0, rows_decoded=0)
            # A reopened dataset of the same version reads the kept rows (none when the
            # budget is 0).
            again = xr.open_dataset(uri, engine="lance_nd", id="d", cache=False)
            assert np.array_equal(again["v"][3:9].values, data[3:9])
            assert backend.READ_STATS == {"rows_read": 4, "rows_decoded": decoded_again}
    finally:
        lance_nd.set_region_cache_capacity(64 << 20)
    lance_nd.clear_read_caches()
    backend.READ_STATS.update(rows_read=0, rows_decoded=0)
    opened = xr.open_dataset(uri, engine="lance_nd", id="d", cache=False)
    assert np.array_equal(opened["v"][0].values, data[0])
    assert backend.READ_STATS == {"rows_read": 1, "rows_decoded": 1}


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


def table_of_datasets_and_plain_rows(uri, seed):
    """Three chunked datasets ds0..ds2 (names of their own) and two plain rows without an id;
    every row has the global attribute `serial` (0-2: the datasets, 3-4: the plain rows)."""
    rng = np.random.default_rng(seed)
    sources = {}
    with lance_nd.create(uri) as writer:
        for k in range(3):
            ds = random_dataset(seed * 10 + k)
            ds = ds.rename({n: f"k{k}_{n}" for n in ds.variables}).assign_attrs(serial=k)
            writer.write(ds, chunks=random_chunks(rng, ds), id=f"ds{k}")
            sources[k] = ds.assign_attrs(id=f"ds{k}")
        for k in (3, 4):
            sources[k] = xr.Dataset({"p": ("x", rng.standard_normal(3))}, attrs={"serial": k})
            writer.write(sources[k])
    return sources


@pytest.mark.parametrize("seed", range(6))
def test_filter_opens_the_dataset_of_the_rows_it_selects(tmp_path, seed):
    rng = np.random.default_rng(seed)
    uri = str(tmp_path / "t.lance")
    sources = table_of_datasets_and_plain_rows(uri, seed)
    table = lance_nd.open(uri)
    target = int(rng.integers(0, 3))
    count = table.count_rows(f"__global_attrs__.id = 'ds{target}'")
    chunk = int(rng.integers(0, count))
    sql = f"__global_attrs__.serial = {target} AND __global_attrs__.chunk_index = {chunk}"
    opened = xr.open_dataset(uri, engine="lance_nd", filter=sql)
    assert opened.identical(sources[target]), f"\n{opened}\n{sources[target]}"
    plain = int(rng.integers(3, 5))
    opened = xr.open_dataset(table, engine="lance_nd", filter=f"__global_attrs__.serial = {plain}")
    assert opened.identical(sources[plain])
    opened = xr.open_dataset(uri, engine="lance_nd", filter="__global_attrs__.serial < 3",
                             id=f"ds{target}")  # id= narrows the filter
    assert opened.identical(sources[target])


def test_filter_selecting_several_datasets_or_rows_is_an_error(tmp_path):
    uri = str(tmp_path / "t.lance")
    table_of_datasets_and_plain_rows(uri, 0)
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=r"datasets \['ds0', 'ds1'\]: narrow the filter.*or pass id="):
        xr.open_dataset(uri, engine="lance_nd", filter="__global_attrs__.serial < 2")
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=r"\['ds2'\] and rows without an id: narrow the filter"):
        xr.open_dataset(uri, engine="lance_nd", filter="__global_attrs__.serial > 1")
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match="selects 2 rows of no dataset.*narrow the filter.*or pass id="):
        xr.open_dataset(uri, engine="lance_nd", filter="__global_attrs__.serial >= 3")
    with pytest.raises(lance_nd.InvalidArgumentError, match="selects no row"):
        xr.open_dataset(uri, engine="lance_nd", filter="__global_attrs__.serial = 99")
    assert "filter" in lance_nd.LanceNdBackendEntrypoint.open_dataset_parameters


def assert_same_attrs(got, want):
    assert got.keys() == want.keys()
    for key, value in got.items():
        assert type(value) is type(want[key]), key
        np.testing.assert_array_equal(value, want[key], err_msg=key)


@pytest.mark.parametrize("seed", range(8))
def test_row_layouts_describe_the_rows_without_their_values(tmp_path, seed):
    """The backend opens a dataset from chunk 0's layout: every row's layout must agree with the
    row as taken whole (names in order, dims, shape, dtype, attrs, global attrs)."""
    rng = np.random.default_rng(seed)
    uri = str(tmp_path / "t.lance")
    with lance_nd.create(uri) as writer:
        for k in range(2):
            ds = random_dataset(seed * 10 + k).assign_attrs(id=f"ds{k}")
            ds = ds.rename({n: f"k{k}_{n}" for n in ds.variables})  # no type conflicts
            writer.write(ds, chunks=random_chunks(rng, ds))
    table = lance_nd.open(uri)
    for row in range(table.count_rows()):
        taken = table.take([row])[0]
        global_attrs, arrays = lance_nd._lance_nd._row_layout(table, row)
        assert_same_attrs(global_attrs, taken.global_attrs)
        assert [a[0] for a in arrays] == list(taken)
        for name, dims, shape, dtype, attrs in arrays:
            array = taken[name]
            assert (dims, shape, dtype) == (array.dims, array.shape, array.dtype), name
            assert_same_attrs(attrs, array.attrs)
    with pytest.raises(lance_nd.InvalidArgumentError, match="layout of row"):
        lance_nd._lance_nd._row_layout(table, table.count_rows())

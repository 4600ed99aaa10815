"""Round trips of generated xarray Datasets through tables and NdRecordBatch."""

import numpy as np
import pytest
import xarray as xr

import lance_nd
from conftest import assert_same_dataset, generated_dataset, values

SEEDS = range(40)


@pytest.mark.parametrize("seed", SEEDS)
def test_dataset_round_trip_through_batch(seed):
    ds = generated_dataset(seed)
    assert_same_dataset(ds, lance_nd.NdRecordBatch.from_xarray(ds).to_xarray())


def test_datasets_round_trip_through_one_table(uri):
    datasets = [generated_dataset(seed, keys=f"s{seed}_") for seed in SEEDS]
    # Every dataset its own table row; the schema grows with each new variable and key.
    with lance_nd.create(uri) as writer:
        for ds in datasets:
            writer.write(ds)
    table = lance_nd.open(uri)
    assert table.count_rows() == len(datasets)
    for ds, batch in zip(datasets, table.scan()):
        assert_same_dataset(ds, batch.to_xarray())


@pytest.mark.parametrize("seed", range(10))
def test_masked_arrays_become_nulls(seed):
    rng = np.random.default_rng(seed)
    for kind in ["i1", "u8", "f4", "bool", "str", "datetime"]:
        data = values(rng, kind, (3, 4))
        mask = rng.random((3, 4)) < 0.4
        array = lance_nd.NdArray(("y", "x"), np.ma.MaskedArray(data, mask=mask))
        out = array.to_numpy()
        missing = mask.copy()
        if kind == "str":
            missing |= np.vectorize(lambda v: v is None)(data)
        if kind == "datetime":
            missing |= np.isnat(data)
        assert array.null_count == missing.sum()
        if missing.any():
            assert isinstance(out, np.ma.MaskedArray)
            assert np.array_equal(np.ma.getmaskarray(out), missing)
        kept = ~missing
        nan_ok = kind[0] == "f"
        assert np.array_equal(np.asarray(out)[kept], data[kept], equal_nan=nan_ok), kind


def test_nulls_read_by_xarray_as_nan_nat_none():
    data = np.ma.MaskedArray(np.array([1, 2, 3], dtype="i2"), mask=[False, True, False])
    text = np.ma.MaskedArray(np.array(["a", "b", "c"], dtype=object), mask=[True, False, False])
    batch = lance_nd.NdRecordBatch({"i": lance_nd.NdArray("x", data),
                                    "s": lance_nd.NdArray("x", text)})
    ds = batch.to_xarray()
    assert ds["i"].dtype == np.float64
    assert np.isnan(ds["i"].values[1]) and ds["i"].values[2] == 3
    assert list(ds["s"].values) == [None, "b", "c"]


def test_fixed_width_text_and_byte_orders_are_stored_by_value():
    big = np.arange(6, dtype=">i4").reshape(2, 3)
    array = lance_nd.NdArray(("a", "b"), big)
    assert array.dtype == np.dtype("i4")
    assert np.array_equal(array.to_numpy(), big)
    text = lance_nd.NdArray("x", np.array(["ab", "c"]))
    assert list(text.to_numpy()) == ["ab", "c"]
    days = lance_nd.NdArray("t", np.array(["2020-01-01", "NaT"], dtype="M8[D]"))
    assert days.dtype == np.dtype("M8[s]")
    assert days.to_numpy()[0] == np.datetime64("2020-01-01")


def test_attribute_errors_name_the_key():
    with pytest.raises(lance_nd.InvalidArgumentError, match="attribute 'bad' is None"):
        lance_nd.NdArray("x", np.zeros(2), {"bad": None})
    with pytest.raises(lance_nd.InvalidArgumentError, match="'deep' has 2 dimensions"):
        lance_nd.NdRecordBatch({}, {"deep": np.zeros((2, 2))})
    with pytest.raises(lance_nd.InvalidArgumentError, match="complex"):
        lance_nd.NdArray("x", np.zeros(2, dtype=complex))
    with pytest.raises(lance_nd.InvalidArgumentError, match="1 dimension"):
        lance_nd.NdArray(("x",), np.zeros((2, 2)))


def test_broadcast_mismatch_is_invalid_argument():
    a = lance_nd.NdArray("x", np.zeros(2))
    b = lance_nd.NdArray("x", np.zeros(3))
    with pytest.raises(lance_nd.InvalidArgumentError, match="shape mismatch") as info:
        lance_nd.NdRecordBatch({"a": a, "b": b})
    assert info.value.code == "invalid argument"


def test_batch_mapping_access():
    ds = xr.Dataset({"sst": (("t", "x"), np.ones((2, 3), "f4"))}, {"x": ("x", [1, 2, 3])},
                    attrs={"id": "one"})
    batch = lance_nd.NdRecordBatch.from_xarray(ds)
    assert set(batch.keys()) == {"sst", "x"} and len(batch) == 2
    assert "sst" in batch and "nope" not in batch
    assert batch["sst"].dims == ("t", "x") and batch["sst"].shape == (2, 3)
    assert batch.dims == {"t": 2, "x": 3}
    assert batch.global_attrs == {"id": "one"}
    with pytest.raises(KeyError):
        batch["nope"]


@pytest.mark.parametrize("seed", SEEDS)
def test_dataset_built_directly_equals_the_constructors(seed):
    # Without variables named like a dimension, to_xarray builds the Dataset directly.
    ds = generated_dataset(seed)
    ds = ds.drop_vars([name for name in ds.variables if name in ds.dims])
    fast = lance_nd.NdRecordBatch.from_xarray(ds).to_xarray()
    data_vars = {n: fast[n].variable for n in fast.data_vars}
    coords = {n: fast[n].variable for n in fast.coords}
    slow = xr.Dataset(data_vars, coords, attrs=fast.attrs)
    xr.testing.assert_identical(fast, slow)
    assert list(fast.variables) == list(slow.variables)
    assert dict(fast.sizes) == dict(slow.sizes)
    assert set(fast.coords) == set(slow.coords)
    assert_same_dataset(ds, fast)


@pytest.mark.parametrize("seed", SEEDS)
def test_dataset_with_dimension_coordinates_built_directly_equals_the_constructors(seed):
    # Variables named like their dimension become indexed coordinates on both paths, whether
    # given as data variables or as coordinates.
    from lance_nd._xarray import make_dataset

    ds = generated_dataset(seed)
    indexed = [name for name in ds.variables if ds[name].dims == (name,)]
    rng = np.random.default_rng(seed)
    for name in indexed:  # indexes of other kinds than int64 too
        kind = rng.integers(4)
        values = ds[name].values
        if kind == 1:
            ds = ds.assign_coords({name: values.astype("float32") / 2})
        elif kind == 2:
            ds = ds.assign_coords({name: values.astype("datetime64[ns]")})
        elif kind == 3:
            ds = ds.assign_coords({name: np.array([f"v{v}" for v in values])})
    as_data = {name for name in indexed if rng.random() < 0.5}
    data_vars = {n: ds[n].variable for n in ds.variables if n not in ds.coords or n in as_data}
    coords = {n: ds[n].variable for n in ds.coords if n not in as_data}
    fast = make_dataset(data_vars, coords, dict(ds.attrs))
    slow = xr.Dataset(data_vars, coords, attrs=dict(ds.attrs))
    xr.testing.assert_identical(fast, slow)
    assert list(fast.variables) == list(slow.variables)
    assert set(fast.xindexes) == set(slow.xindexes) == set(indexed)
    for name in indexed:
        assert fast.xindexes[name].equals(slow.xindexes[name])


def test_a_dimension_named_variable_that_is_not_its_index_takes_the_general_constructor():
    from lance_nd._xarray import make_dataset

    x = xr.Variable(("x", "y"), np.zeros((2, 3)))
    with pytest.raises(Exception) as fast:
        make_dataset({"x": x}, {}, {})
    with pytest.raises(Exception) as slow:
        xr.Dataset({"x": x})
    assert type(fast.value) is type(slow.value)


def test_dataset_built_directly_refuses_sizes_that_disagree():
    from lance_nd._xarray import make_dataset

    a = xr.Variable(("x",), np.arange(2))
    b = xr.Variable(("x",), np.arange(3))
    with pytest.raises(ValueError, match="conflicting sizes"):
        make_dataset({"a": a, "b": b}, {}, {})
    with pytest.raises(ValueError, match="conflicting sizes"):
        xr.Dataset({"a": a, "b": b})

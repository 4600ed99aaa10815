"""What lance_nd cannot store is refused, naming the variable or attribute and saying what is
supported (issue 33 §5, §6): mixed-type list attributes (numpy would make [1, "a"] the strs
['1', 'a']), dict and complex attribute values, MultiIndex coordinates and complex dtypes."""

import numpy as np
import pandas as pd
import pytest
import xarray as xr

import lance_nd

SUPPORTED = "an attribute value is one bool, int, float, str, bytes or numpy scalar"

# One item of each kind a list attribute may hold, Python and numpy; ints and floats are one
# kind (numbers), as numpy and netCDF make them float64.
ITEMS = {
    "bool": [True, False, np.bool_(True)],
    "number": [3, -7, 2.5, np.int16(4), np.uint8(9), np.float32(1.5)],
    "str": ["a", "héllo", np.str_("z")],
    "bytes": [b"x", np.bytes_(b"yz")],
    "datetime64": [np.datetime64("2001-02-03T04:05:06")],
}


def generated_lists(seed, count=60):
    """(items, mixed): seeded lists of 1-5 items; about half mix kinds."""
    rng = np.random.default_rng(seed)
    kinds = list(ITEMS)
    for _ in range(count):
        n = int(rng.integers(1, 6))
        chosen = [kinds[int(rng.integers(len(kinds)))]]
        if n > 1 and rng.random() < 0.5:
            chosen.append(kinds[int(rng.integers(len(kinds)))])
        picks = [chosen[min(i, len(chosen) - 1)] for i in range(n)]
        rng.shuffle(picks)
        items = [ITEMS[k][int(rng.integers(len(ITEMS[k])))] for k in picks]
        yield items, len(set(picks)) > 1


def as_list(value):
    return [v.item() if isinstance(v, np.generic) else v for v in np.asarray(value).tolist()]


@pytest.mark.parametrize("seed", range(4))
def test_list_attributes_of_one_kind_round_trip_and_mixed_ones_are_refused(seed, uri):
    for i, (items, mixed) in enumerate(generated_lists(seed)):
        value = items if i % 2 else tuple(items)
        if mixed:
            with pytest.raises(lance_nd.InvalidArgumentError,
                               match=r"attribute 'k' mixes items of types \w+ and \w+: " + SUPPORTED):
                lance_nd.NdArray("x", np.zeros(2), {"k": value})
            with pytest.raises(lance_nd.InvalidArgumentError,
                               match=r"global attribute 'k' mixes items of types"):
                lance_nd.NdRecordBatch({}, {"k": value})
            # an object array holding the same items is checked the same way
            with pytest.raises(lance_nd.InvalidArgumentError, match="mixes items of types"):
                lance_nd.NdArray("x", np.zeros(2), {"k": np.array(items, dtype=object)})
        else:
            stored = lance_nd.NdArray("x", np.zeros(2), {"k": value}).attrs["k"]
            assert as_list(stored) == as_list(np.asarray(items)), (items, stored)


@pytest.mark.parametrize("where", ["variable", "global"])
@pytest.mark.parametrize("chunks", [None, {"x": 2}])
def test_write_names_the_variable_or_global_attribute(uri, where, chunks):
    bad = {"flags": [1, "a"]}
    ds = xr.Dataset({"t": ("x", np.arange(4.0), bad if where == "variable" else {})},
                    attrs={"id": "d", **(bad if where == "global" else {})})
    owner = "variable 't': attribute" if where == "variable" else "global attribute"
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=f"^{owner} 'flags' mixes items of types int and str: {SUPPORTED}"
                       ) as info:
        lance_nd.write(uri, ds, chunks=chunks)
    assert info.value.code == "invalid argument"
    with pytest.raises(lance_nd.TableNotFoundError):
        lance_nd.open(uri)  # nothing was committed


@pytest.mark.parametrize("value, what, hint", [
    ({"a": 1}, "is a dict", "store each entry as its own attribute, or the dict as a JSON str"),
    ([{"a": 1}], "holds a dict", "JSON str"),
    (1 + 2j, "is a complex number", "store the real and imaginary parts as two attributes"),
    (np.complex64(1j), "is a complex number", "two attributes"),
    ([1j, 2j], "holds a complex number", "two attributes"),
    (np.array([1j]), "is a complex array", "two attributes"),
    ([[1, 2], [3]], "is a nested list", ""),
    ([1, None], "holds None", "drop the item, or the key"),
    (object(), "is an object of type object", ""),
    ([pd.Timestamp(0)], "holds an object of type Timestamp", ""),
])
def test_unsupported_attribute_values_say_what_is_supported(uri, value, what, hint):
    with pytest.raises(lance_nd.InvalidArgumentError) as info:
        lance_nd.NdArray("x", np.zeros(2), {"a": value})
    assert str(info.value).startswith(f"attribute 'a' {what}: {SUPPORTED}"), str(info.value)
    assert hint in str(info.value)
    ds = xr.Dataset({"v": ("x", np.zeros(2))}, attrs={"a": value})
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=f"^global attribute 'a' {what}: "):
        lance_nd.write(uri, ds, id="d")
    ds = xr.Dataset({"v": ("x", np.zeros(2), {"a": value})})
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=f"^variable 'v': attribute 'a' {what}: "):
        lance_nd.write(uri, ds, chunks=["x"], id="d")


@pytest.mark.parametrize("chunks", [None, ["x"]])
def test_complex_variables_are_refused_with_what_to_do(uri, chunks):
    rng = np.random.default_rng(5)
    ds = xr.Dataset({"z": ("x", rng.random(4) + 1j * rng.random(4)),
                     "ok": ("x", np.arange(4))}, attrs={"id": "c"})
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=r"^variable 'z' has the complex dtype complex128: lance_nd stores "
                             r"bool, integers, floats, .*store the real and imaginary parts as "
                             r"two variables"):
        lance_nd.write(uri, ds, chunks=chunks)
    # as suggested: two real variables round-trip
    fixed = ds.assign(z_real=ds.z.real, z_imag=ds.z.imag).drop_vars("z")
    lance_nd.write(uri, fixed, chunks=chunks)
    back = xr.open_dataset(uri, engine="lance_nd", id="c")
    np.testing.assert_array_equal(back.z_real + 1j * back.z_imag, ds.z)


@pytest.mark.parametrize("chunks", [None, {"x": 3}])
def test_multiindex_is_refused_with_reset_index(uri, chunks):
    ds = xr.Dataset({"v": ("x", np.arange(6.0))},
                    coords={"a": ("x", [1, 1, 2, 2, 3, 3]), "b": ("x", list("ababab"))},
                    attrs={"id": "m"}).set_index(x=["a", "b"])
    with pytest.raises(lance_nd.InvalidArgumentError,
                       match=r"^variable 'x' is a pandas MultiIndex \(levels \['a', 'b'\]\): "
                             r"lance_nd stores each variable as one array of one dtype.*call "
                             r"ds.reset_index\('x'\)"):
        lance_nd.write(uri, ds, chunks=chunks)
    lance_nd.write(uri, ds.reset_index("x"), chunks=chunks)
    back = xr.open_dataset(uri, engine="lance_nd", id="m").load().set_index(x=["a", "b"])
    xr.testing.assert_identical(back, ds)

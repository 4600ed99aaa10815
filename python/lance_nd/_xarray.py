"""NdRecordBatch <-> xarray.Dataset.

Every variable of the Dataset (data variables and coordinates) is one array of the batch. The
names of the coordinates that are not indexes (a variable named like its only dimension is an
index) are kept in the global attribute "coordinates", space separated, as netCDF's CF
convention does; a variable attribute "coordinates" is read the same way.
"""

import numpy as np

from ._lance_nd import NdArray, NdRecordBatch
from .errors import InvalidArgumentError, LanceNdError

COORDINATES = "coordinates"


def non_index_coords(ds):
    return [name for name in ds.coords if name not in ds.xindexes]


def coordinate_attrs(ds, attrs):
    """`attrs` plus the "coordinates" key naming ds's non-index coordinates."""
    coords = non_index_coords(ds)
    if not coords:
        return attrs
    if COORDINATES in attrs:
        raise InvalidArgumentError(
            f"the Dataset has a global attribute {COORDINATES!r} and non-index coordinates "
            f"{coords}: the attribute is where lance_nd records coordinates; rename it")
    bad = [name for name in coords if " " in name]
    if bad:
        raise InvalidArgumentError(f"coordinate names {bad} contain spaces: rename them")
    return {**attrs, COORDINATES: " ".join(coords)}


def _named(name, error):
    """`error` (a LanceNdError) with its message prefixed by the variable's name."""
    out = type(error)(f"variable {name!r}: {error}")
    out.code, out.kind, out.retryable = error.code, error.kind, error.retryable
    return out


def nd_array(name, dims, values, attrs):
    """NdArray(dims, values, attrs), an error naming the variable `name`."""
    try:
        return NdArray(dims, values, attrs)
    except LanceNdError as error:
        raise _named(name, error) from None


def check_dataset(ds):
    """Refuse what lance_nd cannot store (MultiIndex, complex dtypes, attributes no attribute
    type holds) before any value is computed or written, naming the variable or attribute."""
    multi = {}
    for name, index in ds.xindexes.items():
        if type(index).__name__ == "PandasMultiIndex":
            multi.setdefault(index.dim, list(index.index.names))
    for dim, levels in multi.items():
        raise InvalidArgumentError(
            f"variable {dim!r} is a pandas MultiIndex (levels {levels}): lance_nd stores each "
            f"variable as one array of one dtype, not tuples; call ds.reset_index({dim!r}) to "
            f"store the levels as coordinates (set_index restores the MultiIndex after reading)")
    for name, var in ds.variables.items():
        if var.dtype.kind == "c":
            raise InvalidArgumentError(
                f"variable {name!r} has the complex dtype {var.dtype}: lance_nd stores bool, "
                f"integers, floats, datetime64, timedelta64, str and bytes; store the real and "
                f"imaginary parts as two variables (e.g. ds[{name!r}].real and .imag)")
        nd_array(name, (), np.zeros((), np.int8), var.attrs)  # checks the attributes
    NdRecordBatch({}, dict(ds.attrs))  # checks the global attributes


# The keys of a variable's .encoding that write honours, as to_netcdf and to_zarr do.
CF_ENCODING = ("dtype", "scale_factor", "add_offset", "_FillValue", "missing_value", "_Unsigned")
# Attributes whose values, in a variable write encoded, are stored as nulls (as the import
# stores a netCDF variable's fill values).
FILL_ATTRS = ("_FillValue", "missing_value")


def cf_encoded(name, var):
    """`var` with the CF encoding of its .encoding applied (packed with dtype / scale_factor /
    add_offset, NaN replaced by _FillValue / missing_value), by xarray's own CF encoder, as
    to_netcdf does; (variable, encoded?). Only numeric variables are encoded: times, text and
    bools are stored natively. Lazy (dask) data stays lazy."""
    if var.dtype.kind not in "iuf":
        return var, False
    encoding = {k: var.encoding[k] for k in CF_ENCODING if k in var.encoding}
    if "dtype" in encoding:
        try:
            target = np.dtype(encoding["dtype"])
        except TypeError:
            target = None
        if target is None or target.kind not in "iuf":
            del encoding["dtype"]  # e.g. a netCDF char dtype: not a packing
    if not encoding or (list(encoding) == ["dtype"] and np.dtype(encoding["dtype"]) == var.dtype):
        return var, False
    import xarray as xr
    from xarray.conventions import encode_cf_variable

    plain = xr.Variable(var.dims, var.data, dict(var.attrs), encoding)
    try:  # xarray's SerializationWarnings (e.g. floats packed without a fill) pass through
        return encode_cf_variable(plain, name=name), True
    except (ValueError, TypeError, OverflowError) as error:
        raise InvalidArgumentError(
            f"variable {name!r}: its encoding {encoding} (applied as to_netcdf does) fails: "
            f"{error}; fix or drop ds[{name!r}].encoding") from None


def stored_values(var, encoded):
    """The values of `var` to store: for an encoded variable, those equal to its _FillValue or
    missing_value are masked (stored as nulls, as the import stores them)."""
    values = var.values
    if not encoded:
        return values
    fills = [np.asarray(var.attrs[k]).reshape(-1) for k in FILL_ATTRS if k in var.attrs]
    fills = [f for f in np.concatenate(fills) if not np.isnan(f)] if fills else []
    if not fills:
        return values
    mask = np.isin(values, np.array(fills, dtype=values.dtype))
    return np.ma.MaskedArray(values, mask=mask) if mask.any() else values


def encoded_variables(ds):
    """{name: (variable as stored, encoded?)} of every variable of `ds`."""
    return {name: cf_encoded(name, var) for name, var in ds.variables.items()}


def from_xarray(ds):
    """The batch of an xarray.Dataset: every variable, attributes and global attributes; each
    variable's CF encoding (.encoding) applied, as to_netcdf does."""
    check_dataset(ds)
    arrays = {name: nd_array(name, var.dims, stored_values(var, encoded), var.attrs)
              for name, (var, encoded) in encoded_variables(ds).items()}
    return NdRecordBatch(arrays, coordinate_attrs(ds, dict(ds.attrs)))


def filled(values):
    """A numpy array for xarray: nulls become NaN / NaT / None (ints with nulls become float64)."""
    if not isinstance(values, np.ma.MaskedArray):
        return values
    if not np.ma.getmaskarray(values).any():
        return values.data
    kind = values.dtype.kind
    if kind in "iu":
        return values.astype(np.float64).filled(np.nan)
    if kind == "f":
        return values.filled(np.nan)
    if kind in "Mm":
        return values.filled(np.array("NaT", dtype=values.dtype))
    out = np.array(values.data, dtype=object)  # filled(None) would use numpy's default fill
    out[np.ma.getmaskarray(values)] = None
    return out


def _names(value):
    return value.split() if isinstance(value, str) else []


def to_xarray(batch):
    """The batch as an xarray.Dataset (variables in batch order)."""
    import xarray as xr

    global_attrs, arrays = batch._parts()
    coords = set(_names(global_attrs.pop(COORDINATES, None)))
    variables = {}
    for name, dims, values, attrs in arrays:
        coords.update(_names(attrs.pop(COORDINATES, None)))
        variables[name] = xr.Variable(dims, filled(values), attrs)
    data_vars = {n: v for n, v in variables.items() if n not in coords}
    coord_vars = {n: v for n, v in variables.items() if n in coords}
    return make_dataset(data_vars, coord_vars, global_attrs)


def make_dataset(data_vars, coord_vars, attrs):
    """xr.Dataset(data_vars, coord_vars, attrs=attrs) of xr.Variable objects, built directly:
    the general constructor's alignment and merge cost several times more than the rows a scan
    decodes. A variable named like its only dimension is a coordinate with an index, as the
    constructor makes it; anything else named like a dimension takes the general constructor.
    Sizes that disagree raise ValueError on both paths."""
    import xarray as xr

    variables = {**data_vars, **coord_vars}
    construct = getattr(xr.Dataset, "_construct_direct", None)
    indexes = _dimension_indexes(variables) if construct is not None else None
    if indexes is None:
        return xr.Dataset(data_vars, coord_vars, attrs=attrs)
    for name, index in indexes.items():
        variables.update(index.create_variables({name: variables[name]}))
    return construct(variables, set(coord_vars) | set(indexes), None, attrs, indexes)


def _dimension_indexes(variables):
    """{name: PandasIndex} of the variables named like their only dimension; None when another
    variable is named like a dimension, or this xarray makes indexes another way."""
    dims = {d for v in variables.values() for d in v.dims}
    named = [name for name in variables if name in dims]
    if any(variables[name].dims != (name,) for name in named):
        return None
    if not named:
        return {}
    try:
        from xarray.core.indexes import PandasIndex

        return {name: PandasIndex.from_variables({name: variables[name]}, options={})
                for name in named}
    except (ImportError, TypeError, AttributeError):
        return None

"""The xarray backend: ``xr.open_dataset(TABLE, engine="lance_nd", id=ID)``.

The dataset ``id`` of a table (docs/FORMAT.md §3.6) opens as a Dataset whose variables load
lazily: indexing a variable reads only the chunk rows its region overlaps (api/region.h).
Names, dimensions, attributes and dtypes come from the dataset's first row.
"""

import numpy as np
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.core import indexing

from . import _lance_nd
from ._chunks import CHUNK_KEYS, SOURCE_PREFIX
from ._xarray import COORDINATES, filled, to_xarray
from .errors import InvalidArgumentError

# Rows whose variable columns lazy reads have read, over the process (tests look at it).
READ_STATS = {"rows_read": 0}


class LanceNdBackendArray(BackendArray):
    """One variable of one dataset, read region by region."""

    def __init__(self, table, id, name, dims, shape, dtype):
        self.table, self.id, self.name, self.dims = table, id, name, dims
        self.shape, self.dtype = shape, dtype

    def __getitem__(self, key):
        return indexing.explicit_indexing_adapter(
            key, self.shape, indexing.IndexingSupport.BASIC, self._read)

    def _read(self, key):
        selectors, steps, shape = [], [], []
        for dim, size, k in zip(self.dims, self.shape, key):
            if isinstance(k, slice):
                start, stop, step = k.indices(size)
                stop = max(start, stop)
                selectors.append((dim, False, start, stop))
                steps.append(slice(None, None, step))
                shape.append(len(range(start, stop, step)))
            else:
                selectors.append((dim, True, int(k), 0))
        if 0 in shape:  # nothing to read
            return np.empty(shape, dtype=self.dtype)
        array, stats = _lance_nd._read_region(self.table, self.id, self.name, selectors)
        READ_STATS["rows_read"] += stats["rows_read"]
        values = np.asarray(filled(array.to_numpy()))
        if steps:  # (a 0-d object array indexed by () would give its item, not an array)
            values = values[tuple(steps)]
        return values.astype(self.dtype, copy=False)


def _quote(text):
    return "'" + text.replace("'", "''") + "'"


def _dataset_info(table, id):
    datasets = _lance_nd._list_datasets(table)
    ids = [d["id"] for d in datasets]
    if id is None and len(ids) == 1:
        id = ids[0]
    for info in datasets:
        if info["id"] == id:
            return info
    raise InvalidArgumentError(
        f"the table has no dataset {id!r}: pass id= one of {ids}" if id is not None else
        f"the table holds {len(ids)} datasets: pass id= one of {ids}")


def _first_row(table, info):
    sql = f"__global_attrs__.id = {_quote(info['id'])}"
    if "dims" in info:
        sql += " AND __global_attrs__.chunk_index = 0"
    return next(iter(table.scan(filter=sql, limit=1)))


def _source_attrs(attrs):
    """The source's global attributes: chunk keys dropped (id kept), 'source:' names restored."""
    out = {}
    for key, value in attrs.items():
        if key in CHUNK_KEYS and key != "id":
            continue
        out[key[len(SOURCE_PREFIX):] if key.startswith(SOURCE_PREFIX) else key] = value
    return out


def _lazy_dataset(table, info, first, drop):
    import xarray as xr

    sizes = dict(zip(info["dims"], info["shape"]))
    global_attrs = _source_attrs(first.global_attrs)
    coords = set(str(global_attrs.pop(COORDINATES, "")).split())
    variables = {}
    for name in first:
        if name in drop:
            continue
        array = first[name]
        attrs = array.attrs
        coords.update(str(attrs.pop(COORDINATES, "")).split())
        dtype = filled(array.to_numpy()).dtype
        shape = tuple(sizes[d] for d in array.dims)
        lazy = LanceNdBackendArray(table, info["id"], name, array.dims, shape, dtype)
        variables[name] = xr.Variable(array.dims, indexing.LazilyIndexedArray(lazy), attrs)
    data_vars = {n: v for n, v in variables.items() if n not in coords}
    coord_vars = {n: v for n, v in variables.items() if n in coords}
    ds = xr.Dataset(data_vars, coord_vars, attrs=global_attrs)
    if info.get("unlimited_dims"):
        ds.encoding["unlimited_dims"] = set(info["unlimited_dims"])
    return ds


def open_table_dataset(table, id=None, drop_variables=None):
    """The dataset `id` of `table` (a Table or a uri) as a lazily loaded xarray.Dataset."""
    if isinstance(table, str):
        table = _lance_nd.open(table)
    info = _dataset_info(table, id)
    first = _first_row(table, info)
    drop = set(drop_variables or ())
    if "dims" not in info:  # a dataset of one plain row: it is already read
        ds = to_xarray(first)
        return ds.drop_vars([n for n in drop if n in ds.variables])
    return _lazy_dataset(table, info, first, drop)


class LanceNdBackendEntrypoint(BackendEntrypoint):
    """xarray backend for lance-nd tables (engine="lance_nd")."""

    open_dataset_parameters = ("filename_or_obj", "drop_variables", "id", "version")
    description = "Open a dataset stored in a lance-nd table (chunk rows read lazily)"

    def open_dataset(self, filename_or_obj, *, drop_variables=None, id=None, version=None):
        table = filename_or_obj
        if not isinstance(table, _lance_nd.Table):
            table = _lance_nd.open(str(table))
        if version is not None:
            table = table.checkout(version)
        return open_table_dataset(table, id, drop_variables)

    def guess_can_open(self, filename_or_obj):
        if isinstance(filename_or_obj, _lance_nd.Table):
            return True
        return isinstance(filename_or_obj, str) and filename_or_obj.rstrip("/").endswith(".lance")

"""The xarray backend: ``xr.open_dataset(TABLE, engine="lance_nd", id=ID)``.

The dataset ``id`` of a table (docs/FORMAT.md §3.6) opens as a Dataset whose variables load
lazily: indexing a variable is one region read of the library, which reads only the chunk rows
the region overlaps and keeps decoded rows for later reads of the same version.
Names, dimensions, attributes and dtypes come from the dataset's first row. The variables are
then decoded by xarray's own CF decoding, as xarray's netCDF backends do: the backend gives
the values as stored (a null of a variable with ``_FillValue`` or ``missing_value`` is given
back as that value, which xarray then masks), and xarray masks, scales and decodes times.

The lazy arrays hold the table's uri and version, not the table: they pickle, and a process
that reads them (a dask worker) opens the table once per (uri, version).
"""

import collections
import os
import threading

import numpy as np
from xarray import conventions
from xarray.backends import BackendArray, BackendEntrypoint
from xarray.core import indexing

from . import _lance_nd
from ._chunks import CHUNK_KEYS, SOURCE_PREFIX
from ._xarray import filled
from .errors import InvalidArgumentError

# Rows whose variable columns lazy reads have needed, and of those the rows decoded from
# storage (not kept from an earlier read), over the process (tests look at it).
READ_STATS = {"rows_read": 0, "rows_decoded": 0}

# Tables opened by lazy arrays in this process, by (uri, version), most recent last.
_OPEN_TABLES = collections.OrderedDict()
_OPEN_TABLES_LOCK = threading.Lock()
_MAX_OPEN_TABLES = 16

# The attribute naming a netCDF char variable's character dimension ("" for a rank-0 char
# variable), which the import stores as strings over the other dimensions (docs/FORMAT.md,
# netCDF import conventions).
CHAR_DIM_KEY = "netcdf:char_dim"

# The decoders xarray.open_dataset passes to a backend that lists them (as for netCDF files).
CF_DECODERS = ("mask_and_scale", "decode_times", "concat_characters", "decode_coords",
               "use_cftime", "decode_timedelta")


def _remember(key, table):
    with _OPEN_TABLES_LOCK:
        _OPEN_TABLES[key] = table
        _OPEN_TABLES.move_to_end(key)
        while len(_OPEN_TABLES) > _MAX_OPEN_TABLES:
            _OPEN_TABLES.popitem(last=False)


def table_at(uri, version):
    """The table at `uri` as of `version`, opened once per process."""
    key = (uri, version)
    with _OPEN_TABLES_LOCK:
        table = _OPEN_TABLES.get(key)
    if table is None:
        table = _lance_nd.open(uri)
        if table.version != version:
            table = table.checkout(version)
        _remember(key, table)
    return table


def _table_uri(table):
    uri = table.uri
    return uri if "://" in uri else os.path.abspath(uri)


def fill_value(attrs):
    """The value a null stands for: the `_FillValue`, else the first `missing_value`, else None."""
    for key in ("_FillValue", "missing_value"):
        value = attrs.get(key)
        if value is not None and np.size(value) > 0:
            return np.ravel(value)[0]
    return None


def raw_values(array, name, dtype, fill):
    """The values of an NdArray as stored: nulls become `fill` (in `dtype`) when the variable has
    one; else NaN / NaT / None, or an error for an integer or bool `dtype` that cannot hold them."""
    values = array.to_numpy()
    if not isinstance(values, np.ma.MaskedArray):
        return values
    mask = np.ma.getmaskarray(values)
    if not mask.any():
        return values.data
    if fill is not None:
        out = np.array(values.data, dtype=dtype)  # a copy: the library's memory is read-only
        out[mask] = fill
        return out
    if dtype.kind in "iub":
        raise InvalidArgumentError(
            f"variable {name!r} ({dtype}) holds nulls but has no _FillValue or missing_value "
            f"attribute: its dtype cannot hold them; read it with Table.scan, or write it with "
            f"a _FillValue attribute")
    return filled(values)


def lazy_dtype(dtype, fill, complete):
    """The dtype a variable is given in, the same for every chunk row: the stored dtype, except
    integers (float64) and bools (object) without a fill value in a dataset with missing chunk
    rows, whose positions are nulls."""
    if fill is not None or complete or dtype.kind not in "iub":
        return dtype
    return np.dtype("f8") if dtype.kind in "iu" else np.dtype("O")


def _null_value(dtype, fill):
    if fill is not None:
        return fill
    return {"f": np.nan, "c": np.nan, "M": np.datetime64("NaT"),
            "m": np.timedelta64("NaT")}.get(dtype.kind)


class LanceNdBackendArray(BackendArray):
    """One variable of one dataset, read region by region through the library's region reads:
    only the chunk rows a region overlaps are read (only this variable's column), and decoded
    rows are kept in memory for later reads of the same table version. Its state is plain data
    (the table's uri and version, not the table), so it pickles; the table is opened where it
    is read."""

    def __init__(self, uri, version, id, name, dims, shape, dtype, fill):
        self.uri, self.version, self.id, self.name = uri, version, id, name
        self.dims, self.shape, self.dtype, self.fill = dims, shape, dtype, fill

    def __getitem__(self, key):
        return indexing.explicit_indexing_adapter(
            key, self.shape, indexing.IndexingSupport.BASIC, self._read)

    def _read(self, key):
        selectors, picks, shape = [], [], []
        for dim, size, k in zip(self.dims, self.shape, key):
            if isinstance(k, slice):
                start, stop, step = k.indices(size)
                selectors.append((dim, False, start, max(start, stop)))
                picks.append(slice(None, None, step))
                shape.append(len(range(start, stop, step)))
            else:
                selectors.append((dim, True, int(k), 0))  # a single index drops the dimension
        if 0 in shape:  # nothing to read
            return np.empty(shape, self.dtype)
        table = table_at(self.uri, self.version)
        array, counts = _lance_nd._read_region(table, self.id, self.name, selectors)
        READ_STATS["rows_read"] += counts["rows_read"]
        READ_STATS["rows_decoded"] += counts["rows_decoded"]
        values = np.asarray(raw_values(array, self.name, self.dtype, self.fill), self.dtype)
        return values[tuple(picks)]


def as_chars(strings, width):
    """Strings as netCDF gives a char variable: UTF-8 bytes padded with NULs to `width`, one
    S1 per character along a last axis; a rank-0 char variable (width None) is one S1."""
    encoded = [b"" if s is None else s.encode() for s in np.ravel(strings)]
    if width is None:
        return np.array(encoded[0], dtype="S1")
    if width == 0:
        return np.zeros(np.shape(strings) + (0,), dtype="S1")
    padded = np.array(encoded, dtype=f"S{width}")
    return padded.view("S1").reshape(np.shape(strings) + (width,))


class LanceNdCharArray(BackendArray):
    """A char variable read as netCDF reads it (S1, the character dimension last), so that
    xarray's CF decoding joins the characters as it does for the file: the strings are read
    by `strings`, a LanceNdBackendArray over the other dimensions."""

    def __init__(self, strings, width):
        self.strings, self.width = strings, width
        self.shape = strings.shape + (() if width is None else (width,))
        self.dtype = np.dtype("S1")

    def __getitem__(self, key):
        return indexing.explicit_indexing_adapter(
            key, self.shape, indexing.IndexingSupport.BASIC, self._read)

    def _read(self, key):
        if self.width is None:
            return as_chars(self.strings._read(key), None)
        chars = as_chars(self.strings._read(key[:-1]), self.width)
        return chars[..., key[-1]]


def _as_char_variable(strings, char_dim, sizes):
    """The lazy array and dimensions of a char variable whose strings `strings` reads: S1
    characters along its character dimension ("" for a rank-0 char variable: none)."""
    if not char_dim:
        return LanceNdCharArray(strings, None), tuple(strings.dims)
    return LanceNdCharArray(strings, sizes[char_dim]), tuple(strings.dims) + (char_dim,)


def _quote(text):
    return "'" + text.replace("'", "''") + "'"


def _id_filter(id):
    return f"__global_attrs__.id = {_quote(id)}"


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


class _ArrayLayout:
    """What a lazy variable needs of chunk 0's array: dims, shape, dtype and attrs."""

    __slots__ = ("dims", "shape", "dtype", "attrs")

    def __init__(self, dims, shape, dtype, attrs):
        self.dims, self.shape, self.dtype, self.attrs = dims, shape, dtype, attrs


class _RowLayout:
    """A row read without its values (mapping access to _ArrayLayout, as NdRecordBatch)."""

    def __init__(self, table, row):
        self.global_attrs, arrays = _lance_nd._row_layout(table, row)
        self._arrays = {name: _ArrayLayout(*rest) for name, *rest in arrays}

    def __iter__(self):
        return iter(self._arrays)

    def __getitem__(self, name):
        return self._arrays[name]


def _first_row(table, info):
    """Chunk 0 of the dataset (its layout only: its values are read lazily), or its plain
    row, taken by its row index."""
    if "first_row" in info:
        if "dims" in info:
            return _RowLayout(table, info["first_row"])
        return table.take([info["first_row"]])[0]
    sql = _id_filter(info["id"])
    if "dims" in info:
        sql += " AND __global_attrs__.chunk_index = 0"
    return next(iter(table.scan(filter=sql, limit=1)))


def _source_attrs(attrs):
    """The source's global attributes: chunk keys dropped, 'source:' names restored; "id" is
    the source's own "id" (stored as 'source:id'), else the dataset's id."""
    out = {}
    for key, value in attrs.items():
        if key in CHUNK_KEYS:
            continue
        out[key[len(SOURCE_PREFIX):] if key.startswith(SOURCE_PREFIX) else key] = value
    if "id" in attrs:
        out.setdefault("id", attrs["id"])
    return out


def _chunk_shape(first):
    """{dim: chunk size}: the extent of chunk 0 (the first row) along each dimension (§3.6)."""
    sizes = {}
    for name in first:
        array = first[name]
        sizes.update(zip(array.dims, array.shape))
    return sizes


def _lazy_variables(table, info, first, drop):
    import xarray as xr

    uri, version = _table_uri(table), table.version
    if (uri, version) not in _OPEN_TABLES:  # a checkout: refresh() or delete() on `table`
        _remember((uri, version), table.checkout(version))  # must not change what reads see
    sizes = dict(zip(info["dims"], info["shape"]))
    chunk_sizes = _chunk_shape(first)
    complete = info["rows"] >= info["chunk_count"]
    variables = {}
    for name in first:
        if name in drop:
            continue
        array = first[name]
        attrs = dict(array.attrs)
        char_dim = attrs.pop(CHAR_DIM_KEY, None)
        fill = None if char_dim is not None else fill_value(attrs)
        shape = tuple(sizes[d] for d in array.dims)
        dtype = lazy_dtype(array.dtype, fill, complete)
        lazy = LanceNdBackendArray(uri, version, info["id"], name, array.dims, shape, dtype, fill)
        dims = tuple(array.dims)
        if char_dim is not None:
            lazy, dims = _as_char_variable(lazy, char_dim, sizes)
        chunks = {d: min(chunk_sizes.get(d, sizes[d]), sizes[d]) or 1 for d in dims}
        encoding = {"preferred_chunks": chunks, "chunksizes": tuple(chunks.values())}
        variables[name] = xr.Variable(dims, indexing.LazilyIndexedArray(lazy), attrs, encoding)
    return variables


def _plain_variables(row, drop):
    """The variables of a row read whole (a dataset of one plain row)."""
    import xarray as xr

    variables = {}
    for name in row:
        if name in drop:
            continue
        array = row[name]
        attrs = array.attrs
        fill = fill_value(attrs)
        if fill is None:
            values = filled(array.to_numpy())
        else:
            values = raw_values(array, name, array.dtype, fill)
        variables[name] = xr.Variable(array.dims, values, attrs)
    return variables


def _decoded_dataset(variables, attrs, decoders, drop):
    """A Dataset of the raw variables after xarray's CF decoding (what it does for netCDF)."""
    import xarray as xr

    variables, attrs, coord_names = conventions.decode_cf_variables(
        variables, attrs, drop_variables=drop, **decoders)
    ds = xr.Dataset(variables, attrs=attrs)
    return ds.set_coords(coord_names.intersection(variables))


def _open_dataset(table, info, drop, decoders):
    first = _first_row(table, info)
    attrs = _source_attrs(first.global_attrs)
    if "dims" not in info:  # a dataset of one plain row: it is read now
        return _decoded_dataset(_plain_variables(first, drop), attrs, decoders, drop)
    variables = _lazy_variables(table, info, first, drop)
    ds = _decoded_dataset(variables, attrs, decoders, drop)
    if info.get("unlimited_dims"):
        ds.encoding["unlimited_dims"] = set(info["unlimited_dims"])
    return ds


def _selected_rows(table, filter):
    """The ids of the rows `filter` selects (None for a row without one), and their count."""
    ids, count = set(), 0
    for row in table.scan(project=[], filter=filter):
        ids.add(row.global_attrs.get("id"))
        count += 1
    return ids, count


def _open_filtered(table, filter, id, drop, decoders):
    """The one dataset (or plain row) whose rows `filter` selects."""
    if id is not None:
        filter = f"({filter}) AND {_id_filter(id)}"
    ids, count = _selected_rows(table, filter)
    if count == 0:
        raise InvalidArgumentError(f"the filter {filter!r} selects no row")
    if ids == {None}:
        if count > 1:
            raise InvalidArgumentError(
                f"the filter {filter!r} selects {count} rows of no dataset (without an id): "
                f"narrow the filter to one row, or pass id=")
        row = next(iter(table.scan(filter=filter, limit=1)))
        return _decoded_dataset(_plain_variables(row, drop), row.global_attrs, decoders, drop)
    if len(ids) > 1:
        named = sorted(i for i in ids if i is not None)
        plain = " and rows without an id" if None in ids else ""
        raise InvalidArgumentError(
            f"the filter {filter!r} selects rows of the datasets {named}{plain}: narrow the "
            f"filter to one dataset, or pass id=")
    return _open_dataset(table, _dataset_info(table, ids.pop()), drop, decoders)


def open_table_dataset(table, id=None, drop_variables=None, filter=None, **decoders):
    """The dataset `id` of `table` (a Table or a uri) as a lazily loaded xarray.Dataset; with
    `filter` (SQL), the dataset whose rows the filter selects. `decoders` are xarray's CF
    decoder options (mask_and_scale, decode_times, ...), all on by default."""
    if isinstance(table, str):
        table = _lance_nd.open(table)
    drop = set(drop_variables or ())
    if filter is not None:
        return _open_filtered(table, filter, id, drop, decoders)
    return _open_dataset(table, _dataset_info(table, id), drop, decoders)


class LanceNdBackendEntrypoint(BackendEntrypoint):
    """xarray backend for lance-nd tables (engine="lance_nd")."""

    open_dataset_parameters = ("filename_or_obj", "drop_variables", "id", "version",
                               "filter") + CF_DECODERS
    description = "Open a dataset stored in a lance-nd table (chunk rows read lazily)"

    def open_dataset(self, filename_or_obj, *, drop_variables=None, id=None, version=None,
                     filter=None, mask_and_scale=True, decode_times=True,
                     concat_characters=True, decode_coords=True, use_cftime=None,
                     decode_timedelta=None):
        table = filename_or_obj
        if not isinstance(table, _lance_nd.Table):
            table = _lance_nd.open(os.fspath(table))
        if version is not None:
            table = table.checkout(version)
        decoders = dict(mask_and_scale=mask_and_scale, decode_times=decode_times,
                        concat_characters=concat_characters, decode_coords=decode_coords,
                        use_cftime=use_cftime, decode_timedelta=decode_timedelta)
        return open_table_dataset(table, id, drop_variables, filter, **decoders)

    def guess_can_open(self, filename_or_obj):
        if isinstance(filename_or_obj, _lance_nd.Table):
            return True
        return isinstance(filename_or_obj, str) and filename_or_obj.rstrip("/").endswith(".lance")

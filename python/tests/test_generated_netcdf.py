"""A seeded corpus of generated netCDF files (classic, 64-bit offset and netCDF-4) round-trips
through `lance-nd import`, the xarray backend and `lance-nd export`: every group opens through
the backend, and from the exported file, as xarray's netcdf4 engine opens the source, decoded
and raw.

The files vary the number and sizes of dimensions (unlimited ones of length 0 too, several in
netCDF-4, not always first there, records shorter than their dimension), every numeric type
the format has, chars and strings, scalars, _FillValue / missing_value (also of another type)
with the fill occurring in the data, packing, CF times, names with spaces, signs, dots and
non-ASCII letters, attributes of several types, and netCDF-4 groups two levels deep whose
variables use their parents' dimensions or shadow them. Imports split random dimensions with
--chunks; the backend also reads random regions lazily.

GEN_SEEDS=N runs N seeds instead of the default ones (a wider sweep)."""

import os
import subprocess

import numpy as np
import pytest
import xarray as xr

netCDF4 = pytest.importorskip("netCDF4")

CLI = os.environ.get("LANCE_ND_CLI", "")
pytestmark = [
    pytest.mark.skipif(not os.path.isfile(CLI),
                       reason="LANCE_ND_CLI (lance-nd with the netcdf layer) not set"),
    # What xarray says of the files, opened by either engine: a _FillValue and a different
    # missing_value both mask, and missing times decode from NaN.
    pytest.mark.filterwarnings("ignore:variable .* has multiple fill values"),
    pytest.mark.filterwarnings("ignore:invalid value encountered in cast:RuntimeWarning"),
]

SEEDS = range(int(os.environ.get("GEN_SEEDS", 40)))
FORMATS = ("NETCDF4", "NETCDF3_CLASSIC", "NETCDF3_64BIT_OFFSET")
NC4_NUMBERS = ("i1", "u1", "i2", "u2", "i4", "u4", "i8", "u8", "f4", "f8")
CLASSIC_NUMBERS = ("i1", "i2", "i4", "f4", "f8")
# Characters netCDF allows in names ('/' never; no trailing space), non-ASCII ones in NFC. No
# name begins with '_': netCDF keeps those for its own attributes, and lance-nd reserves
# __global_attrs__ and __stats__* (docs/FORMAT.md).
FIRST_CHARS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZéÅ中"
NAME_CHARS = FIRST_CHARS + "0123456789_. -+@é"
# Names of the chunk keys and of lance-nd's renaming (global attributes so named are stored as
# 'source:NAME' and restored), and common names, for variables and global attributes.
SPECIAL_NAMES = ("id", "chunk_index", "chunk_dims", "source:id", "time", "title")
TEXTS = ("", "m s-1", "degrees_north", "héllo wörld", "✓ ok", "a;b,c", "long " * 12)
TIME_UNITS = ("days since 2000-01-01", "hours since 1970-01-01 00:00:00",
              "seconds since 2010-06-15T12:00:00")
CALENDARS = ("standard", "gregorian", "noleap", "360_day", "proleptic_gregorian")
# The decoders each file is compared under: decoded, raw (stored values and attributes), and
# times decoded without masking or scaling.
DECODERS = ({}, {"decode_cf": False}, {"mask_and_scale": False})


def signature(value):
    """The Arrow type an attribute value is stored as: a table has one type per attribute key of
    a column (and of the global attributes), whichever dataset of the file it comes from."""
    if isinstance(value, str):
        return "utf8"
    if isinstance(value, list):
        return "list<utf8>"
    value = np.asarray(value)
    return value.dtype.str if value.ndim == 0 else "list<" + value.dtype.str + ">"


class FileGenerator:
    """A random netCDF file of one seed. Names shared by several groups of the file keep one
    type: a table has one column per variable name and one type per attribute key, so names
    whose types conflict would be refused by any import (FORMAT.md, nd record batches)."""

    def __init__(self, rng, fmt):
        self.rng, self.fmt = rng, fmt
        self.nc4 = fmt == "NETCDF4"
        self.number_types = NC4_NUMBERS if self.nc4 else CLASSIC_NUMBERS
        self.var_kinds = {}  # variable name -> "str", "char" or a numpy dtype string
        self.attr_types = {}  # (variable name or None, key) -> signature
        self.dim_names = set()
        self.var_names = set()
        self.chunkable = {}  # dimension -> size (not character dimensions)
        self.random_keys = set()  # attribute keys random_attrs made

    def chance(self, p):
        return self.rng.random() < p

    def pick(self, options):
        return options[int(self.rng.integers(0, len(options)))]

    def fresh_name(self, taken, dots=True):
        # Variables are Lance columns, whose names Lance refuses with a '.' (docs/FORMAT.md):
        # no dots in variable names; other names have them.
        allowed = NAME_CHARS if dots else NAME_CHARS.replace(".", "")
        while True:
            chars = [self.pick(FIRST_CHARS)]
            chars += [self.pick(allowed) for _ in range(int(self.rng.integers(0, 8)))]
            name = "".join(chars).rstrip()
            if name not in taken and name not in self.dim_names and name not in self.var_names:
                return name

    # Attributes.

    def text(self):
        return self.pick(TEXTS)

    def numbers(self, dtype, n):
        dtype = np.dtype(dtype)
        if dtype.kind == "f":
            out = (self.rng.standard_normal(n) * 1000).astype(dtype)
            out[self.rng.random(n) < 0.1] = self.pick((np.nan, np.inf, -np.inf, -0.0))
            return out
        info = np.iinfo(dtype)
        return self.rng.integers(info.min, info.max, n, dtype=dtype, endpoint=True)

    def random_signature(self):
        choice = int(self.rng.integers(0, 5 if self.nc4 else 4))
        dtype = np.dtype(self.pick(self.number_types)).str
        if choice == 0:
            return "utf8"
        if choice == 1:
            return dtype
        if choice in (2, 3):
            return "list<" + dtype + ">"
        return "list<utf8>"

    def value_of(self, sig):
        if sig == "utf8":
            return self.text()
        if sig == "list<utf8>":
            return [self.text() for _ in range(int(self.rng.integers(2, 4)))]
        if sig.startswith("list<"):
            n = 0 if self.chance(0.1) else int(self.rng.integers(2, 5))
            return self.numbers(sig[5:-1], n)
        return self.numbers(sig, 1)[0]

    def put_attr(self, obj, owner, key, value):
        sig = self.attr_types.setdefault((owner, key), signature(value))
        assert sig == signature(value), (owner, key, sig, value)
        if isinstance(value, str) and self.nc4 and self.chance(0.2):
            obj.setncattr_string(key, value)  # one NC_STRING (exported as text)
        else:
            obj.setncattr(key, value)

    def random_attrs(self, obj, owner, count, extra_keys=()):
        keys = list(extra_keys) + [f"a{self.fresh_name(())}" for _ in range(count)]
        reusable = sorted(k for o, k in self.attr_types if o == owner and k in self.random_keys)
        for key in keys:
            if reusable and self.chance(0.3):
                key = self.pick(reusable)
            if key in obj.ncattrs():
                continue
            sig = self.attr_types.get((owner, key)) or self.random_signature()
            self.random_keys.add(key)
            self.put_attr(obj, owner, key, self.value_of(sig))

    # Dimensions.

    def define_dims(self, group, parent_dims, root):
        """The dimensions the group's variables may use: its own (unlimited ones too, one at
        most in classic files) and those of its ancestors that it does not shadow."""
        visible = dict(parent_dims)
        if root or (self.nc4 and self.chance(0.3)):
            if self.chance(0.7):
                name = self.fresh_name(())
                group.createDimension(name, None)
                length = 0 if self.chance(0.3) else int(self.rng.integers(1, 5))
                visible[name] = ("unlimited", length)
                self.dim_names.add(name)
        for _ in range(int(self.rng.integers(0 if not root else 1, 4))):
            if parent_dims and self.chance(0.2):
                name = self.pick(sorted(parent_dims))  # a parent's name, shadowed
                size = parent_dims[name][1] if self.chance(0.5) else int(self.rng.integers(1, 6))
                if parent_dims[name][0] == "unlimited" or name in group.dimensions:
                    continue
            else:
                name = self.fresh_name(())
                size = int(self.rng.integers(1, 6))
            group.createDimension(name, size)
            visible[name] = ("fixed", size)
            self.dim_names.add(name)
        for name, (kind, size) in visible.items():
            self.chunkable[name] = max(self.chunkable.get(name, 0), size)
        return visible

    # Variables.

    def variable_kind(self, name, coordinate):
        if name in self.var_kinds:
            return self.var_kinds[name]
        kinds = list(self.number_types) + (["str"] if self.nc4 else [])
        return self.pick(kinds if coordinate else kinds + ["char"])

    def variable_dims(self, visible):
        dims = [d for d, (kind, _) in visible.items() if kind == "fixed"]
        unlimited = [d for d, (kind, _) in visible.items() if kind == "unlimited"]
        self.rng.shuffle(dims)
        dims = dims[: int(self.rng.integers(0, min(4, len(dims)) + 1))]
        for d in unlimited:
            if self.chance(0.6) and len(dims) < 4:
                # Classic files need the record dimension first; netCDF-4 takes it anywhere.
                dims.insert(0 if not self.nc4 else int(self.rng.integers(0, len(dims) + 1)), d)
        return dims

    def add_variables(self, group, visible, owned):
        count = 0 if self.chance(0.1) else int(self.rng.integers(1, 6))  # empty groups too
        for _ in range(count):
            reusable = sorted(self.var_kinds.keys() - set(group.variables) - self.dim_names)
            special = [n for n in SPECIAL_NAMES if n not in set(group.variables) | self.dim_names]
            if reusable and self.chance(0.25):
                name = self.pick(reusable)
            elif special and self.chance(0.1):
                name = self.pick(special)
            else:
                name = self.fresh_name(group.variables, dots=False)
            self.add_variable(group, name, self.variable_dims(visible), visible)
        for dim in owned:  # coordinate variables of the group's own dimensions
            plain = visible[dim][0] == "fixed" and "." not in dim and dim not in group.variables
            if plain and self.chance(0.4):
                self.add_variable(group, dim, [dim], visible, coordinate=True)

    def add_variable(self, group, name, dims, visible, coordinate=False):
        kind = self.variable_kind(name, coordinate)
        self.var_kinds[name] = kind
        self.var_names.add(name)
        shape = [visible[d][1] for d in dims]
        if kind == "char":
            self.add_char_variable(group, name, dims, shape)
        elif kind == "str":
            self.add_string_variable(group, name, dims, shape)
        else:
            self.add_number_variable(group, name, dims, shape, np.dtype(kind), coordinate)

    def write(self, var, values, shorten=True):
        """The values of the variable; netCDF-4 records of some variables shorter than their
        unlimited dimension (read back as the fill value)."""
        if values.size == 0:
            return
        var.set_auto_maskandscale(False)  # the values as stored, not packed by netCDF4
        if values.ndim == 0:
            var[...] = values
            return
        region = [slice(0, n) for n in values.shape]
        unlimited = [i for i, d in enumerate(var.get_dims()) if d.isunlimited()]
        # Past the written part of a variable, libnetcdf 4.9.0 reads garbage when it has two
        # unlimited dimensions, and netCDF4-python 1.6 misplaces values when its unlimited
        # dimension is not the first (ncdump shows fill values there): only variables whose
        # one unlimited dimension comes first are shortened.
        if shorten and self.nc4 and unlimited == [0] and self.chance(0.15):
            if values.shape[unlimited[0]] > 1:
                region[unlimited[0]] = slice(0, values.shape[unlimited[0]] - 1)
        var[tuple(region)] = values[tuple(region)]

    def add_char_variable(self, group, name, dims, shape):
        # Char variables have no fill handling (docs/netcdf.md): no _FillValue.
        width = int(self.rng.integers(1, 7))
        if self.chance(0.15):
            char_dims, shape = (), ()
            width = 1
        else:
            char_dim = self.fresh_name(())
            group.createDimension(char_dim, width)
            self.dim_names.add(char_dim)
            char_dims = tuple(dims) + (char_dim,)
        var = group.createVariable(name, "S1", char_dims)
        var.set_auto_chartostring(False)
        words = [w for w in ("", "a", "ab", "héllo", "✓", "xyz12", "wörds")
                 if len(w.encode()) <= width]  # whole UTF-8 characters
        strings = [self.pick(words).encode() for _ in range(int(np.prod(shape, dtype=int)))]
        values = np.array(strings, dtype=f"S{width}")
        if char_dims:
            chars = values.view("S1").reshape(tuple(shape) + (width,))
        else:
            chars = values.reshape(())
        if self.chance(0.3):
            var.setncattr("_Encoding", "utf-8")
            self.attr_types.setdefault((name, "_Encoding"), "utf8")
        self.random_attrs(var, name, int(self.rng.integers(0, 3)))
        self.write(var, chars)

    def add_string_variable(self, group, name, dims, shape):
        fill = None
        if self.chance(0.5):
            fill = self.pick(("", "fill", "n/a", "é"))
            self.attr_types.setdefault((name, "_FillValue"), "utf8")
        var = group.createVariable(name, str, dims, fill_value=fill)
        words = np.array(["", "a", "héllo", "✓ ok", "longer text " * 3, "fill", "n/a", "é"],
                         dtype=object)
        values = words[self.rng.integers(0, len(words), shape)]
        self.random_attrs(var, name, int(self.rng.integers(0, 3)))
        self.write(var, np.asarray(values, dtype=object))

    def number_values(self, dtype, shape, meaning):
        n = int(np.prod(shape, dtype=int))
        if dtype.kind == "f" and meaning != "time":
            values = (self.rng.standard_normal(n) * 100).astype(dtype)
            values[self.rng.random(n) < 0.1] = np.nan
        elif meaning != "time" and self.chance(0.5):
            values = self.numbers(dtype, n)  # the whole range
        else:
            values = self.rng.integers(0, 10, n).astype(dtype)  # so that fills occur
            if meaning == "time":
                values += self.rng.integers(0, 1000, n).astype(dtype)
        return values.reshape(shape)

    def add_number_variable(self, group, name, dims, shape, dtype, coordinate):
        meaning = self.meaning(dtype)
        values = self.number_values(dtype, shape, meaning)
        fill_kind = self.pick(("none", "fill", "missing", "both")) if not coordinate else "none"
        fill = None
        if fill_kind in ("fill", "both"):
            if meaning != "time" and self.chance(0.3):
                fill = self.numbers(dtype, 1)[0]
            else:  # a time, also decoded when masking is off
                fill = dtype.type(self.rng.integers(0, 10))
            if dtype.kind == "f" and meaning != "time" and self.chance(0.2):
                fill = dtype.type(np.nan)
        var = group.createVariable(name, dtype, dims, fill_value=fill)
        if fill is not None:
            self.attr_types.setdefault((name, "_FillValue"), dtype.str)
        if fill_kind in ("missing", "both"):
            self.add_missing_value(var, name, dtype, fill, values)
        if fill is not None and values.size:
            values[self.rng.random(values.shape) < 0.2] = fill
        # xarray (with cftime) fails to decode times of calendars other than the standard
        # one when some are missing or there are none, whichever the engine.
        cftime = fill_kind == "none" and values.size > 0
        self.add_meaning(var, name, meaning, cftime)
        self.random_attrs(var, name, int(self.rng.integers(0, 3)))
        # Records never written read as netCDF's default fill, no time.
        self.write(var, values, shorten=meaning != "time")

    def add_missing_value(self, var, name, dtype, fill, values):
        """missing_value: one value, or several of which only the first occurs in the data, of
        the variable's type or (without a _FillValue) another one. A null comes back as the
        _FillValue, else the first missing_value (docs/netcdf.md): a missing value that differs
        from the fill value must not occur in the data."""
        sig = self.attr_types.get((name, "missing_value"))
        if sig is None:
            mtype = dtype
            if fill is None and self.chance(0.3):
                # CF asks for the variable's type; files have others (a float on a short).
                mtype = np.dtype(self.pick(("<f8", "<f4", "<i4")))
            sig = f"list<{mtype.str}>" if self.chance(0.4) else mtype.str
            self.attr_types[(name, "missing_value")] = sig
        vector = sig.startswith("list<")
        mtype = np.dtype(sig[5:-1] if vector else sig)
        unseen = self.numbers(dtype, 1)[0] if dtype.kind in "iu" else dtype.type(-9999.5)
        if mtype != dtype:
            unseen = dtype.type(11)  # exact in every type
        if fill is not None and mtype != dtype:
            first = dtype.type(12)  # never in the data: nulls come from the _FillValue
        else:
            first = fill if fill is not None else dtype.type(self.rng.integers(0, 10))
        if values.size:
            values[values == unseen] = fill if fill is not None else dtype.type(0)
            values[values == dtype.type(12)] = dtype.type(0)
            if first != dtype.type(12):
                values[self.rng.random(values.shape) < 0.2] = first
        entries = np.array([first, unseen] if vector else first, dtype=dtype)
        var.setncattr("missing_value", entries.astype(mtype))

    def meaning(self, dtype):
        """What xarray decodes: CF packing, time units, _Unsigned (classic), else plain units."""
        choice = self.rng.integers(0, 4)
        if choice == 0 and dtype.kind in "iu" and dtype.itemsize <= 4:
            return "packed"
        if choice == 1 and dtype.str in ("<i2", "<i4", "<i8", "<f4", "<f8"):
            return "time"
        if choice == 2 and not self.nc4 and dtype.kind == "i" and dtype.itemsize <= 2:
            return "unsigned"
        return "units"

    def add_meaning(self, var, name, meaning, cftime):
        if meaning == "packed":
            sig = self.attr_types.get((name, "scale_factor"), self.pick(("<f4", "<f8")))
            for key, value in (("scale_factor", 0.01), ("add_offset", 20.0)):
                if self.chance(0.8) or key == "scale_factor":
                    self.put_attr(var, name, key, np.dtype(sig).type(value))
        elif meaning == "time":
            self.put_attr(var, name, "units", self.pick(TIME_UNITS))
            if self.chance(0.6):
                calendars = CALENDARS if cftime else CALENDARS[:2]
                self.put_attr(var, name, "calendar", self.pick(calendars))
        elif meaning == "unsigned":
            self.put_attr(var, name, "_Unsigned", "true")
        else:
            self.put_attr(var, name, "units", self.text())

    # Groups and the file.

    def fill_group(self, group, parent_dims, depth):
        root = depth == 0
        visible = self.define_dims(group, parent_dims, root)
        owned = list(group.dimensions)
        self.add_variables(group, visible, owned)
        keys = [self.pick(SPECIAL_NAMES)] if self.chance(0.3) else []
        self.random_attrs(group, None, int(self.rng.integers(0, 4)), keys)
        if not self.nc4 or depth >= 2:
            return
        for _ in range(int(self.rng.integers(1 if root else 0, 3 if root else 2))):
            child = group.createGroup(self.fresh_name(group.groups))
            self.fill_group(child, visible, depth + 1)

    def make(self, path):
        with netCDF4.Dataset(path, "w", format=self.fmt) as ds:
            self.fill_group(ds, {}, 0)


def group_paths(path):
    """The paths of every group of the file, the root ("") first."""
    out = []

    def walk(group, prefix):
        out.append(prefix)
        for name, child in group.groups.items():
            walk(child, f"{prefix}/{name}" if prefix else name)

    with netCDF4.Dataset(path) as ds:
        walk(ds, "")
    return out


def run_cli(*args):
    done = subprocess.run([CLI, *map(str, args)], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    return done


def random_chunks(rng, generator):
    if not generator.chunkable or rng.random() < 0.4:
        return None
    names = sorted(generator.chunkable)
    picked = rng.choice(len(names), size=min(len(names), int(rng.integers(1, 3))), replace=False)
    return ",".join(f"{names[i]}={int(rng.integers(1, generator.chunkable[names[i]] + 2))}"
                    for i in sorted(picked))


def assert_same_attrs(expected, actual, where):
    assert set(expected) == set(actual), where
    for key, value in expected.items():
        a, b = np.asarray(value), np.asarray(actual[key])
        assert a.dtype == b.dtype, f"{where} attribute {key!r}: {a.dtype} != {b.dtype}"
        same = np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
        assert same, f"{where} attribute {key!r}: {value!r} != {actual[key]!r}"


def assert_same_dataset(expected, actual, where):
    xr.testing.assert_identical(actual, expected)
    for name, var in expected.variables.items():
        assert actual[name].dtype == var.dtype, f"{where} {name}"
        assert actual[name].dims == var.dims, f"{where} {name}"
        assert_same_attrs(var.attrs, actual[name].attrs, f"{where} variable {name!r}")
    assert_same_attrs(expected.attrs, actual.attrs, f"{where} globals")


def unlimited_dims(source, group):
    """The unlimited dimensions lance-nd records for a group: its own and its ancestors' that
    its variables use (FORMAT.md: chunk_dims and unlimited_dims of a group)."""
    with netCDF4.Dataset(source) as ds:
        g = ds[group] if group else ds
        own = {n for n, d in g.dimensions.items() if d.isunlimited()}
        used = {d for v in g.variables.values() for d in v.get_dims() if d.isunlimited()}
        return own | {d.name for d in used}


def open_source(source, group, decoders):
    return xr.open_dataset(source, engine="netcdf4", group=group or None, **decoders).load()


def random_region(rng, var):
    """{dim: index or slice (with a step)} over some of the variable's dimensions."""
    region = {}
    most_step = 1 if var.dtype == object else 2  # netCDF4 cannot stride strings
    for dim, size in var.sizes.items():
        if size == 0 or rng.random() < 0.3:
            continue
        start = int(rng.integers(0, size))
        if rng.random() < 0.3:
            region[dim] = start
        else:
            # Not empty: xarray fails to decode an empty selection of cftime times lazily.
            stop = int(rng.integers(start + 1, size + 1))
            region[dim] = slice(start, stop, int(rng.integers(1, most_step + 1)))
    return region


def check_backend(table, id, source, group, decoders, rng):
    lazy = xr.open_dataset(table, engine="lance_nd", id=id, **decoders)
    # Region reads first (only the chunk rows they overlap), against the same lazy reads of
    # the netcdf4 engine (xarray decodes a selection as it is: a scalar in float64).
    with xr.open_dataset(source, engine="netcdf4", group=group or None, **decoders) as theirs:
        for name, var in theirs.variables.items():
            region = random_region(rng, var)
            expected = var.isel(region).load()
            actual = lazy.variables[name].isel(region).load()
            assert actual.identical(expected), f"{id!r} {name!r} {region} {decoders}"
    theirs = open_source(source, group, decoders)
    ours = lazy.load()
    # The dataset's id in the table, a global attribute the source does not have (a source's
    # own "id" stays).
    if "id" not in theirs.attrs:
        assert ours.attrs.pop("id") == id
    assert_same_dataset(theirs, ours, f"backend {id!r} {decoders}")
    assert set(ours.encoding.get("unlimited_dims", ())) == unlimited_dims(source, group)


def check_export(out, source, group, decoders):
    theirs = open_source(source, group, decoders)
    back = xr.open_dataset(out, engine="netcdf4", group=group or None, **decoders).load()
    assert_same_dataset(theirs, back, f"export {group!r} {decoders}")
    assert back.encoding["unlimited_dims"] == theirs.encoding["unlimited_dims"]


@pytest.mark.parametrize("seed", SEEDS)
def test_a_generated_file_round_trips(tmp_path, seed):
    rng = np.random.default_rng(seed)
    generator = FileGenerator(rng, FORMATS[seed % len(FORMATS)])
    source = tmp_path / "source.nc"
    generator.make(source)
    table, out, id = tmp_path / "t.lance", tmp_path / "out.nc", f"g{seed}"
    command = ["import", table, source, "--id", id]
    chunks = random_chunks(rng, generator)
    if chunks:
        command += ["--chunks", chunks]
    run_cli(*command)
    run_cli("export", table, out, "--id", id)
    for group in group_paths(source):
        for decoders in DECODERS:
            dataset = f"{id}/{group}" if group else id
            check_backend(str(table), dataset, source, group, decoders, rng)
            check_export(out, source, group, decoders)


def import_and_open(tmp_path, source, **decoders):
    table = tmp_path / "t.lance"
    if not table.exists():
        run_cli("import", table, source, "--id", "f")
    return xr.open_dataset(table, engine="lance_nd", id="f", **decoders)


def test_char_variables_open_as_netcdf_gives_them(tmp_path):
    """Char variables are stored as strings over their other dimensions; the backend gives them
    back as netCDF does (S1 characters along the character dimension), for xarray to join."""
    source = tmp_path / "chars.nc"
    with netCDF4.Dataset(source, "w", format="NETCDF3_CLASSIC") as ds:
        ds.createDimension("station", 3)
        ds.createDimension("name_len", 6)
        utf8 = {"_Encoding": "utf-8"}
        for name, words, attrs in (("name", [b"alpha", b"b", b""], {}),
                                   ("label", ["héllo".encode(), b"", b"x"], utf8)):
            var = ds.createVariable(name, "S1", ("station", "name_len"))
            var.setncatts(attrs)
            var.set_auto_chartostring(False)
            var[:] = np.array(words, "S6").view("S1").reshape(3, 6)
        ds.createVariable("letter", "S1", ())[...] = np.array(b"x", "S1")
    for decoders in ({}, {"concat_characters": False}, {"decode_cf": False}):
        ours = import_and_open(tmp_path, source, **decoders)
        theirs = xr.open_dataset(source, engine="netcdf4", **decoders)
        assert ours["name"][1].load().identical(theirs["name"][1].load()), decoders
        ours = ours.load()
        del ours.attrs["id"]
        assert_same_dataset(theirs.load(), ours, f"chars {decoders}")


def test_a_source_attribute_id_opens_as_id(tmp_path):
    """The source's own global attribute "id" (stored as 'source:id') wins over the dataset's
    id, which the backend gives as "id" otherwise."""
    source = tmp_path / "with_id.nc"
    with netCDF4.Dataset(source, "w") as ds:
        ds.setncattr("id", "the source's id")
        ds.setncattr("chunk_index", np.int32(7))
    ours = import_and_open(tmp_path, source)
    assert ours.attrs == {"id": "the source's id", "chunk_index": 7}

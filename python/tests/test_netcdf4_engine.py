"""netCDF files imported with `lance-nd import` open through the backend exactly as xarray's
netcdf4 engine opens the files themselves (CF decoding, fill values, times, dtypes)."""

import os
import pathlib
import shutil
import subprocess

import numpy as np
import pytest
import xarray as xr

pytest.importorskip("netCDF4")

CLI = os.environ.get("LANCE_ND_CLI", "")
FERRET = pathlib.Path(os.environ.get("LANCE_ND_FERRET_DATA", "/usr/share/ferret-vis/data"))
pytestmark = pytest.mark.skipif(not os.path.isfile(CLI),
                                reason="LANCE_ND_CLI (lance-nd with the netcdf layer) not set")


def import_file(table, source, id, chunks=None):
    command = [CLI, "import", str(table), str(source), "--id", id]
    if chunks:
        command += ["--chunks", chunks]
    done = subprocess.run(command, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def assert_opens_like_netcdf4(table, id, source, **decoders):
    ours = xr.open_dataset(table, engine="lance_nd", id=id, **decoders).load()
    theirs = xr.open_dataset(source, engine="netcdf4", **decoders).load()
    # Dropped from ours: the global attribute "id", the dataset's name in the table (the
    # chunk convention's key, FORMAT.md §3.6), which the file does not have.
    del ours.attrs["id"]
    # Encodings are not compared (assert_identical ignores them): ours has no file source,
    # netCDF-4 storage chunking or compression; only the unlimited dimensions must agree.
    xr.testing.assert_identical(ours, theirs)
    for name, var in theirs.variables.items():
        assert ours[name].dtype == var.dtype, name
        assert ours[name].dims == var.dims, name
    assert set(ours.encoding.get("unlimited_dims", ())) == set(theirs.encoding["unlimited_dims"])


# COADS's TIME is in "hour since 0000-01-01", which xarray cannot decode (year 0) with either
# engine: both open it with decode_times=False. monthly_navy_winds's times decode.
FERRET_CASES = [
    ("coads_climatology.cdf", None, {"decode_times": False}),
    ("coads_climatology.cdf", "TIME=1,COADSY=40", {"decode_times": False}),
    ("levitus_climatology.cdf", "ZAXLEVITR=7", {}),
    ("monthly_navy_winds.cdf", "TIME=25", {}),
]


@pytest.mark.parametrize("name,chunks,decoders", FERRET_CASES)
def test_ferret_files_open_like_the_netcdf4_engine(tmp_path, name, chunks, decoders):
    source = FERRET / name
    if not source.exists():
        pytest.skip(f"{source} missing (Debian package ferret-vis)")
    table = tmp_path / "t.lance"
    import_file(table, source, "f", chunks)
    assert_opens_like_netcdf4(str(table), "f", source, **decoders)


def cdl_values(values):
    return ", ".join(f'"{v}"' if isinstance(v, str) else str(v) for v in values.ravel())


def netcdf4_cdl(rng, nt, ns):
    """A netCDF-4 file's CDL: a CF time coordinate, ints with _FillValue (some values equal to
    it), a packed short, unsigned and 64-bit ints, floats with a fill value, strings."""
    def with_fill(values, fill, share=0.25):
        values = values.copy()
        values[rng.random(values.shape) < share] = fill
        return values

    days = np.cumsum(rng.integers(1, 400, nt))
    counts = with_fill(rng.integers(-1000, 1000, (nt, ns)), -999)
    flags = with_fill(rng.integers(0, 200, (nt, ns)), 255)
    packed = with_fill(rng.integers(-3000, 3000, (nt, ns)), -32767)
    temp = with_fill(np.round(rng.standard_normal((nt, ns)) * 10, 3), -1e34)
    big = rng.integers(0, 2**63, (nt, ns), dtype="u8") + np.uint64(2**63 - 1)
    signed = with_fill(rng.integers(-(2**62), 2**62, (nt, ns)), -(2**62) - 1)
    level = rng.integers(0, 65535, ns)
    uid = rng.integers(0, 2**32 - 1, ns)
    names = np.array([f"station {i}" for i in range(ns)])
    return f"""netcdf generated {{
dimensions:
  time = UNLIMITED ;
  station = {ns} ;
variables:
  int time(time) ;
    time:units = "days since 1900-01-01" ;
    time:calendar = "standard" ;
  int counts(time, station) ;
    counts:_FillValue = -999 ;
    counts:long_name = "counts with a fill value" ;
  ubyte flags(time, station) ;
    flags:_FillValue = 255UB ;
  short packed(time, station) ;
    packed:_FillValue = -32767s ;
    packed:scale_factor = 0.01 ;
    packed:add_offset = 20. ;
  double temp(time, station) ;
    temp:_FillValue = -1.e+34 ;
    temp:missing_value = -1.e+34 ;
    temp:units = "degC" ;
  uint64 big(time, station) ;
  int64 signed(time, station) ;
    signed:_FillValue = {-(2**62) - 1}LL ;
  ushort level(station) ;
  uint uid(station) ;
  string name(station) ;

// global attributes:
  :title = "generated netCDF-4" ;
  :version = 3 ;
data:
  time = {cdl_values(days)} ;
  counts = {cdl_values(counts)} ;
  flags = {cdl_values(flags)} ;
  packed = {cdl_values(packed)} ;
  temp = {cdl_values(temp)} ;
  big = {cdl_values(big)} ;
  signed = {cdl_values(signed)} ;
  level = {cdl_values(level)} ;
  uid = {cdl_values(uid)} ;
  name = {cdl_values(names)} ;
}}
"""


@pytest.mark.parametrize("seed", range(3))
def test_a_generated_netcdf4_file_opens_like_the_netcdf4_engine(tmp_path, seed):
    if shutil.which("ncgen") is None:
        pytest.skip("ncgen (netcdf-bin) missing")
    rng = np.random.default_rng(seed)
    nt, ns = int(rng.integers(2, 9)), int(rng.integers(1, 5))
    cdl = tmp_path / "generated.cdl"
    cdl.write_text(netcdf4_cdl(rng, nt, ns))
    source = tmp_path / "generated.nc"
    subprocess.run(["ncgen", "-k", "nc4", "-o", str(source), str(cdl)], check=True)
    for chunks in (None, f"time={int(rng.integers(1, nt + 1))}"):
        table = tmp_path / f"t{chunks is None}.lance"
        import_file(table, source, "g", chunks)
        assert_opens_like_netcdf4(str(table), "g", source)

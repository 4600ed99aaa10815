#!/usr/bin/python3
"""`lance-nd import` and `lance-nd export` end to end, with ncgen / ncdump from netcdf-bin.

    netcdf_cli_test.py LANCE_ND_BINARY FEATURES.cdl [FERRET_DATA_DIR]

A netCDF-4 file made by ncgen (groups, strings, char and 64-bit variables) and, when the
ferret-datasets files are there, COADS (split by --chunks TIME=1 and COADSX=7) go through
import and export; `ncdump` of the export must equal `ncdump` of the source but for the first
line, which names the file. Then every error: its exit status, its single stderr line, and a
table version that did not move. Exit 77 (skipped) without ncgen / ncdump.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import pty_run  # noqa: E402

BIN, CDL = sys.argv[1], sys.argv[2]
FERRET = sys.argv[3] if len(sys.argv) > 3 else "/usr/share/ferret-vis/data"
FAILURES = []

if not shutil.which("ncgen") or not shutil.which("ncdump"):
    print("SKIP: ncgen / ncdump (netcdf-bin) not installed")
    sys.exit(77)


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def run(*args):
    p = subprocess.run([BIN, *args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


def ok(*args):
    rc, out, err = run(*args)
    check(rc == 0, f"{' '.join(args)}: exit {rc}, stderr {err!r}")
    return out


def fails(args, expected_rc, fragment):
    rc, out, err = run(*args)
    check(rc == expected_rc, f"{' '.join(args)}: exit {rc}, expected {expected_rc}; stderr {err!r}")
    lines = err.strip().split("\n")
    check(len(lines) == 1, f"{' '.join(args)}: stderr should be one line: {err!r}")
    check(fragment in err, f"{' '.join(args)}: stderr {err!r} lacks {fragment!r}")


def run_stderr_tty(*args):
    """Run with a pseudo-terminal as stderr (stdout piped) and no delay before a progress bar;
    returns (exit, stdout, the terminal's text)."""
    env = dict(os.environ, LANCE_ND_PROGRESS_DELAY_MS="0")
    return pty_run.run_tty([BIN, *args], tty_stdout=False, tty_stderr=True, env=env)


def version(table):
    rc, out, _ = run("info", table, "--json")
    return json.loads(out)["version"] if rc == 0 else 0


def ncdump_body(path):
    out = subprocess.run(["ncdump", path], capture_output=True, text=True, check=True).stdout
    return out.split("\n", 1)[1]  # the first line names the file


def round_trip(tmp, source, table, export_args, name, known_loss=None):
    """`known_loss` = (source line, exported line): a difference docs/netcdf.md states."""
    out = os.path.join(tmp, name + "_export.nc")
    ok("export", table, out, *export_args)
    expected = ncdump_body(source)
    if known_loss:
        check(known_loss[0] in expected, f"{name}: {known_loss[0]!r} not in the source")
        expected = expected.replace(known_loss[0], known_loss[1])
    got = ncdump_body(out)
    check(expected == got, f"{name}: ncdump of the export differs:\n{expected}\n---\n{got}")


with tempfile.TemporaryDirectory() as tmp:
    features = os.path.join(tmp, "features.nc")
    subprocess.run(["ncgen", "-4", "-o", features, CDL], check=True)
    table = os.path.join(tmp, "t.lance")

    out = ok("import", table, features, "--id", "feat")
    check(out == "imported 1 file, 3 datasets, 3 rows; version 1\n", f"import output {out!r}")
    # s = 1, 7, 8, 2 with missing_value = 7, 8: both nulls come back as the first, 7.
    round_trip(tmp, features, table, ["--id", "feat"], "features",
               (" s = 1, 7, 8, 2 ;", " s = 1, 7, 7, 2 ;"))
    out = ok("cat", table, "--filter", "__global_attrs__.id = 'feat/surface'", "--project", "level")
    check('"feat/surface"' in out, f"cat of the surface group: {out!r}")

    # Errors: exit 1 (2 for usage), one line, nothing committed.
    notnc = os.path.join(tmp, "notes.nc")
    with open(notnc, "w") as f:
        f.write("plain text\n")
    fails(["import", table, notnc], 1, notnc)
    fails(["import", table, features, notnc, "--id", "x"], 1, "2 files were given")
    fails(["import", table, features, "--id", "f2", "--chunks", "nope=3"], 1,
          "--chunks names dimension nope")
    fails(["import", table, features, "--id", "f2", "--chunks", "time"], 1, "is not name=N")
    fails(["import", table, features, "--id", "f2", "--chunks", "name_len=2"], 1,
          "character dimension of char variable station_name")
    fails(["import", table, features, "--id", "feat"], 1, "dataset feat is already in the table")
    fails(["import", table, features, "--id", "f2", "--casting", "sometimes"], 1, "casting")
    fails(["export", table, os.path.join(tmp, "x.nc")], 1, "exactly one of --id ID and --filter")
    fails(["export", table, os.path.join(tmp, "x.nc"), "--id", "missing"], 1, "no rows")
    check(not os.path.exists(os.path.join(tmp, "x.nc")), "a failed export left a file")
    fails(["import", table], 2, "files is required")
    for level in ("0", "23"):
        fails(["import", table, features, "--id", "f2", "--compression-level", level], 1,
              f"compression level {level} is out of range; zstd levels are 1 to 22")
    fails(["import", table, features, "--id", "f2", "--compression-level", "high"], 2,
          "--compression-level")
    check(version(table) == 1, f"table version moved to {version(table)}")

    # --skip-bad: the bad file is listed, the others are imported.
    good = os.path.join(tmp, "second.nc")
    shutil.copy(features, good)
    rc, out, err = run("import", table, notnc, good, "--skip-bad")
    check(rc == 0, f"--skip-bad: exit {rc}, {err!r}")
    check(f"skipped {notnc}: " in err, f"--skip-bad: stderr {err!r}")
    check(out.startswith("imported 1 file, 3 datasets"), f"--skip-bad: {out!r}")
    check(version(table) == 2, "--skip-bad: one commit expected")
    rc, out, err = run("import", table, notnc, "--skip-bad")
    check(rc == 1 and "nothing was imported" in err, f"only bad files: {rc} {err!r}")

    # Automatic chunking: a target below the largest variable splits it and says so.
    auto_table = os.path.join(tmp, "auto.lance")
    out = ok("import", auto_table, features, "--id", "auto", "--chunk-target-mb", "0.00001")
    check("\nchunks of auto: " in out and "(auto, ~" in out, f"automatic chunks: {out!r}")
    fails(["import", auto_table, features, "--id", "a2", "--chunk-target-mb", "-1"], 1,
          "--chunk-target-mb must be a size in MiB")

    # On a terminal, import and export draw a progress bar on stderr and clear it; stdout keeps
    # its summary line. (Piped, every command above wrote nothing to stderr.)
    bar_table = os.path.join(tmp, "bar.lance")
    rc, out, err = run_stderr_tty("import", bar_table, features, "--id", "bar")
    check(rc == 0 and out.startswith("imported 1 file"), f"import on a terminal: {rc} {out!r}")
    check("import [" in err and err.endswith("\r\x1b[K"), f"import drew no bar: {err!r}")
    rc, out, err = run_stderr_tty("export", bar_table, os.path.join(tmp, "bar.nc"), "--id", "bar")
    check(rc == 0, f"export on a terminal: {rc} {out!r}")
    check("export [" in err and err.endswith("\r\x1b[K"), f"export drew no bar: {err!r}")

    for command in ("import", "export"):
        rc, out, _ = run(command, "--help")
        check(rc == 0 and "Example:" in out, f"{command} --help has no example")

    coads = os.path.join(FERRET, "coads_climatology.cdf")
    if os.path.exists(coads):
        for chunks in ("TIME=1", "COADSX=7", "TIME=5,COADSY=40"):
            t = os.path.join(tmp, "coads_" + chunks.replace("=", "").replace(",", "_") + ".lance")
            ok("import", t, coads, "--chunks", chunks, "--stats", "--compression-level", "4")
            round_trip(tmp, coads, t, ["--filter", "__global_attrs__.id = 'coads_climatology'"],
                       "coads_" + chunks)
    else:
        print("note: ferret-datasets missing; COADS round trips not run")

print(f"netcdf_cli_test: {len(FAILURES)} failures")
sys.exit(1 if FAILURES else 0)

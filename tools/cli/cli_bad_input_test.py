#!/usr/bin/python3
"""Bad input gets a clear error and nothing is lost (issue 33).

    cli_bad_input_test.py LANCE_ND_BINARY

- Output files (export, slice --out) are replaced only when complete: a failed command leaves
  the file that was there byte for byte, and no temporary file; a write the disk refuses (a
  file size limit standing in for a full disk) says why.
- A path that is a file, not a table, is named as such (a netCDF file gets an import hint).
- `cat` writes valid JSON whatever bytes a stored string holds.
- A corrupt manifest gives our one error line, no libprotobuf log lines.
- Concurrent `append --create` on a new path all succeed; a failed `--create` leaves nothing.
"""
import glob
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile

BIN = sys.argv[1]
FAILURES = []


def check(condition, message):
    if not condition:
        FAILURES.append(message)
        print("FAIL:", message)


def run(*args, stdin=None, preexec_fn=None, cwd=None):
    p = subprocess.run([BIN, *args], input=stdin, capture_output=True, preexec_fn=preexec_fn,
                       cwd=cwd)
    return p.returncode, p.stdout, p.stderr.decode("utf-8", "replace")


def ok(*args, **kw):
    rc, out, err = run(*args, **kw)
    check(rc == 0, f"{' '.join(args)}: exit {rc}, stderr {err!r}")
    return out


def fails(args, command, expected, **kw):
    """The command exits 1 with one stderr line `lance-nd: COMMAND: ...` containing `expected`."""
    rc, _, err = run(*args, **kw)
    what = " ".join(args)
    check(rc == 1, f"{what}: exit {rc}, expected 1 (stderr {err!r})")
    check(err.count("\n") == 1 and err.startswith(f"lance-nd: {command}: "),
          f"{what}: stderr is not one line of {command}: {err!r}")
    check(expected in err, f"{what}: stderr {err!r} lacks {expected!r}")
    return err


def temporaries(directory):
    return [f for f in os.listdir(directory) if ".tmp-" in f]


def has_netcdf():
    rc, out, _ = run("--help")
    return rc == 0 and b"export" in out


GRID = {"global_attrs": {"id": "g"},
        "arrays": {"v": {"dtype": "int16", "dim_names": ["x"], "dim_sizes": [3],
                         "values": [1, 2, 3]},
                   "flag": {"dtype": "bool", "values": [True]},
                   "name": {"dtype": "utf8", "values": ["marker-7f3a-\u00e9-end"]}}}


def make_table(tmp, name, rows):
    path = os.path.join(tmp, name)
    ok("append", path, "-", "--create", stdin="".join(json.dumps(r) + "\n" for r in rows).encode())
    return path


def file_size_limit(limit):
    """A preexec_fn: files may not grow past `limit` bytes (writes fail with EFBIG)."""
    def apply():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
    return apply


def test_output_files_are_replaced_only_when_complete(tmp, netcdf):
    table = make_table(tmp, "grid.lance", [GRID])
    big = make_table(tmp, "big.lance", [{"global_attrs": {"id": "big"}, "arrays": {"w": {
        "dtype": "float64", "dim_names": ["x"], "dim_sizes": [100000],
        "values": [i * 0.5 for i in range(100000)]}}}])
    keep = os.path.join(tmp, "keep.out")
    precious = b"precious bytes\n"

    def reset():
        with open(keep, "wb") as f:
            f.write(precious)

    def kept(what):
        if not os.path.exists(keep):
            check(False, f"{what}: {keep} was removed")
            reset()
            return
        with open(keep, "rb") as f:
            check(f.read() == precious, f"{what}: {keep} was changed")
        reset()
        check(temporaries(tmp) == [], f"{what}: temporary files left: {temporaries(tmp)}")

    reset()
    fails(["slice", table, "--id", "g", "--var", "name", "--format", "npy", "--out", keep],
          "slice", "which has no .npy form")
    kept("slice npy of strings")
    fails(["slice", table, "--id", "nosuch", "--var", "v", "--out", keep], "slice", "nosuch")
    kept("slice of a missing dataset")
    fails(["slice", big, "--id", "big", "--var", "w", "--out", keep], "slice",
          f"cannot write {keep}: File too large", preexec_fn=file_size_limit(65536))
    kept("slice json past the file size limit")
    fails(["slice", table, "--id", "g", "--var", "v", "--out", os.path.join(tmp, "no", "x.json")],
          "slice", f"the directory {os.path.join(tmp, 'no')} does not exist")
    ok("slice", table, "--id", "g", "--var", "v", "--out", keep)
    with open(keep, "rb") as f:
        check(json.loads(f.read())["values"] == [1, 2, 3], "slice --out did not replace the file")
    check(temporaries(tmp) == [], f"slice --out left {temporaries(tmp)}")
    if not netcdf:
        return
    reset()
    fails(["export", table, keep, "--id", "nosuch"], "export", "dataset id nosuch")
    kept("export of a missing dataset")
    fails(["export", table, keep, "--id", "g"], "export",
          f"writing netCDF file {keep}: dataset g: variable flag: values of type bool")
    kept("export of a bool variable")
    fails(["slice", table, "--id", "g", "--var", "flag", "--format", "nc", "--out", keep],
          "slice", f"writing netCDF file {keep}: variable flag")
    kept("slice nc of a bool variable")
    fails(["export", big, keep, "--id", "big"], "export",
          f"writing netCDF file {keep}: dataset big: variable w: writing values: NetCDF: HDF "
          "error (netCDF error -101; system error: File too large)",
          preexec_fn=file_size_limit(65536))
    kept("export past the file size limit")
    missing_dir = os.path.join(tmp, "no", "such")
    fails(["export", table, os.path.join(missing_dir, "x.nc"), "--id", "g"], "export",
          f"cannot write {missing_dir}/x.nc: the directory {missing_dir} does not exist")
    if os.geteuid() != 0:  # root writes into read-only directories
        read_only = os.path.join(tmp, "ro")
        os.mkdir(read_only, 0o555)
        fails(["export", table, os.path.join(read_only, "x.nc"), "--id", "g"], "export",
              f"cannot write {read_only}/x.nc: cannot create a file in {read_only}: "
              "Permission denied")
    ok("export", big, keep, "--id", "big")
    with open(keep, "rb") as f:
        check(f.read(8) == b"\x89HDF\r\n\x1a\n", "a successful export did not replace the file")
    check(temporaries(tmp) == [], f"export left {temporaries(tmp)}")


def test_not_a_table(tmp, netcdf):
    files = {"classic.nc": b"CDF\x01" + bytes(28), "offset64.nc": b"CDF\x02" + bytes(28),
             "cdf5.nc": b"CDF\x05" + bytes(28), "hdf5.nc": b"\x89HDF\r\n\x1a\n" + bytes(24),
             "notes.txt": b"CDF but not netCDF\n"}
    rows = os.path.join(tmp, "rows.jsonl")
    with open(rows, "w") as f:
        f.write(json.dumps(GRID) + "\n")
    for name, content in files.items():
        path = os.path.join(tmp, name)
        with open(path, "wb") as f:
            f.write(content)
        if name.endswith(".nc"):
            expected = (f"no table at {path}: it is a netCDF file; import it with "
                        f"`lance-nd import TABLE {path}`")
        else:
            expected = f"no table at {path}: it is a file, not a table directory"
        commands = [["cat", path], ["info", path], ["ls", path], ["schema", path],
                    ["versions", path], ["delete", path, "--where", "true"],
                    ["slice", path, "--id", "g", "--var", "v"], ["append", path, rows],
                    ["append", path, rows, "--create"]]
        if netcdf:
            commands += [["export", path, os.path.join(tmp, "out.nc"), "--id", "g"],
                         ["import", path, path]]
        for args in commands:
            fails(args, args[0], expected)
        with open(path, "rb") as f:
            check(f.read() == content, f"{path} changed")
    missing = os.path.join(tmp, "missing.lance")
    fails(["cat", missing], "cat", f"no table at {missing}; make one with `lance-nd append "
          f"{missing} rows.jsonl --create` or `lance-nd import`")


def test_cat_of_strings_that_are_not_utf8(tmp):
    table = make_table(tmp, "latin1.lance", [GRID])
    marker = "marker-7f3a-\u00e9-end".encode()
    patched = 0
    for path in glob.glob(os.path.join(table, "data", "*.lance")):
        with open(path, "rb") as f:
            data = f.read()
        if marker in data:  # é in Latin-1, then a byte never valid in UTF-8
            with open(path, "wb") as f:
                f.write(data.replace(marker, b"marker-7f3a-\xe9\xff-end"))
            patched += 1
    check(patched == 1, f"the string was not found once in the data files ({patched})")
    for args in (["cat", table], ["slice", table, "--id", "g", "--var", "name"]):
        out = ok(*args)
        try:
            text = out.decode("utf-8")
            json.loads(text.splitlines()[0])
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            check(False, f"{' '.join(args)}: output is not valid JSON: {e}: {out!r}")
            continue
        check("marker-7f3a-\ufffd\ufffd-end" in text,
              f"{' '.join(args)}: invalid bytes not replaced by U+FFFD: {text!r}")


def test_corrupt_manifest_gives_one_line(tmp):
    table = make_table(tmp, "corrupt.lance", [GRID])
    [manifest] = glob.glob(os.path.join(table, "_versions", "*.manifest"))
    with open(manifest, "rb") as f:
        data = f.read()
    check(b"__global_attrs__" in data, "no field name to damage in the manifest")
    # A field name (a protobuf string) that is not UTF-8: libprotobuf logs an error for it.
    with open(manifest, "wb") as f:
        f.write(data.replace(b"__global_attrs__", b"__global_attr\xff\xfe\xfd"))
    err = fails(["cat", table], "cat", "the manifest protobuf")
    check("libprotobuf" not in err, f"libprotobuf logged: {err!r}")


def test_concurrent_creates_all_append(tmp):
    for round_ in range(4):
        table = os.path.join(tmp, f"race{round_}.lance")
        procs = []
        for i in range(4):
            line = json.dumps({"global_attrs": {"id": f"r{i}"},
                               "arrays": {"v": {"dtype": "int32", "values": [i]}}}) + "\n"
            if i % 2 == 0:
                path = os.path.join(tmp, f"race{round_}_{i}.jsonl")
                with open(path, "w") as f:
                    f.write(line)
                procs.append((subprocess.Popen([BIN, "append", table, path, "--create"],
                                               stdout=subprocess.PIPE, stderr=subprocess.PIPE),
                              None))
            else:
                procs.append((subprocess.Popen([BIN, "append", table, "-", "--create"],
                                               stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                               stderr=subprocess.PIPE), line.encode()))
        for p, stdin in procs:
            _, err = p.communicate(stdin)
            check(p.returncode == 0,
                  f"round {round_}: a racing append --create failed: {err.decode()!r}")
        out = ok("cat", table, "--project", "")
        ids = sorted(json.loads(l)["global_attrs"]["id"]["value"] for l in out.splitlines())
        check(ids == ["r0", "r1", "r2", "r3"], f"round {round_}: the table holds {ids}")
        txns = os.listdir(os.path.join(table, "_transactions"))
        versions = ok("versions", table).splitlines()
        check(len(txns) == len(versions), f"round {round_}: {len(txns)} .txn files for "
              f"{len(versions)} versions")
        check(temporaries(tmp) == [], f"round {round_}: left {temporaries(tmp)}")


def test_failed_create_leaves_nothing(tmp):
    good = json.dumps({"arrays": {"v": {"dtype": "int32", "values": [1]}}})
    wider = json.dumps({"arrays": {"v": {"dtype": "float64", "values": [1.5]}}})
    bad = json.dumps({"arrays": {"v": {"dtype": "flaot32", "values": [1]}}})
    cases = [
        ([good, bad], [], "line 2: unknown dtype 'flaot32'"),
        # The widening commits line 1 before line 3 fails: the new table must still go.
        ([good, wider, bad], ["--casting", "promote"], "line 3: unknown dtype 'flaot32'"),
        ([], [], "no rows in - to create the table from"),
    ]
    for n, (lines, extra, expected) in enumerate(cases):
        table = os.path.join(tmp, f"failed{n}.lance")
        fails(["append", table, "-", "--create", *extra], "append", expected,
              stdin="".join(l + "\n" for l in lines).encode())
        check(not os.path.exists(table), f"case {n}: a failed --create left {table}: "
              f"{[p for p in glob.glob(table + '/**', recursive=True)]}")
        check(temporaries(tmp) == [], f"case {n}: left {temporaries(tmp)}")


def main():
    netcdf = has_netcdf()
    tests = [
        lambda tmp: test_output_files_are_replaced_only_when_complete(tmp, netcdf),
        lambda tmp: test_not_a_table(tmp, netcdf),
        test_cat_of_strings_that_are_not_utf8,
        test_corrupt_manifest_gives_one_line,
        test_concurrent_creates_all_append,
        test_failed_create_leaves_nothing,
    ]
    for test in tests:
        with tempfile.TemporaryDirectory() as tmp:
            test(tmp)
    if FAILURES:
        print(f"{len(FAILURES)} failures")
        sys.exit(1)
    print("ok")


if __name__ == "__main__":
    main()

"""Scans, writes (the writer encodes and writes in the background), staged writes and commits
release the GIL.

A background Python thread counts in a loop while the main thread makes one call. When the call
releases the GIL, the counter runs at about the rate it has while the main thread sleeps; when
the call holds it, the counter only moves in the slices the interpreter hands over at the
call's boundaries (a switch interval each, set to 0.1 ms here). A builtin that runs in C
holding the GIL (sum over a range) is the control that shows the measure can tell the two.
"""

import itertools
import sys
import threading
import time

import numpy as np
import pytest

import lance_nd

ROWS, VALUES = 8, 1 << 20  # 8 rows of 1M float32: 32 MB
SWITCH_INTERVAL = 1e-4
RELEASED = 0.12  # a call that releases the GIL lets the counter reach this share of its free rate
HELD = 0.05  # the GIL-holding control stays under this share
ATTEMPTS = 3  # a loaded machine only lowers the share: the best of these attempts counts


class Counter(threading.Thread):
    def __init__(self):
        super().__init__(daemon=True)
        self.count = 0
        self.stopped = False

    def run(self):
        while not self.stopped:
            self.count += 1


def counted(counter, call):
    """(counts made by the background thread during call(), the call's seconds)."""
    before, start = counter.count, time.perf_counter()
    call()
    elapsed = time.perf_counter() - start
    return counter.count - before, elapsed


def rows(seed):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(ROWS):
        values = np.round(rng.standard_normal(VALUES) * 50).astype("f4")  # compressible
        out.append(lance_nd.NdRecordBatch({"v": lance_nd.NdArray("x", values)}, {"row": i}))
    return out


def hold_the_gil(seconds):
    """A call of about `seconds` that holds the GIL throughout (a C loop of the interpreter)."""
    n = 1 << 22
    start = time.perf_counter()
    sum(range(n))
    per_item = (time.perf_counter() - start) / n
    return lambda: sum(range(int(seconds / per_item)))


@pytest.fixture
def counter():
    old = sys.getswitchinterval()
    sys.setswitchinterval(SWITCH_INTERVAL)
    thread = Counter()
    thread.start()
    yield thread
    thread.stopped = True
    thread.join()
    sys.setswitchinterval(old)


def written_table(path, data):
    with lance_nd.create(path) as writer:
        writer.write(data)
    return path


def operations(tmp_path, data):
    """{name: (setup, call)}, each call made once per attempt after its setup; the writers."""
    zstd = {"compression": "zstd"}
    writers, uris = [], (str(tmp_path / f"w{i}.lance") for i in itertools.count())

    def new_writer():
        writers.append(lance_nd.create(next(uris), column_defaults=zstd))

    def scan():
        for _ in range(2):
            for row in lance_nd.open(scanned).scan():
                row["v"].to_numpy()

    def stage():
        lance_nd.stage(str(tmp_path / "staged.lance"), data, column_defaults=zstd)

    scanned = written_table(str(tmp_path / "scanned.lance"), data)
    nothing = lambda: None  # noqa: E731
    calls = {
        "write (create, write, finish)": (nothing, lambda: lance_nd.write(
            next(uris), data, column_defaults=zstd)),
        "finish (flush and commit)": (lambda: (new_writer(), writers[-1].write(data)),
                                      lambda: writers[-1].finish()),
        "scan": (nothing, scan),
        "stage": (nothing, stage),
    }
    return calls, writers


def best_share(counter, free_rate, setup, call):
    best = 0.0
    for _ in range(ATTEMPTS):
        setup()
        count, seconds = counted(counter, call)
        best = max(best, count / (free_rate * seconds))
        if best > RELEASED:
            break
    return best


def test_scans_writes_and_commits_release_the_gil(tmp_path, counter):
    data = rows(0)
    calls, writers = operations(tmp_path, data)
    time.sleep(0.05)  # the counter thread is running
    free_count, free_seconds = counted(counter, lambda: time.sleep(0.3))
    free_rate = free_count / free_seconds
    held_count, held_seconds = counted(counter, hold_the_gil(0.5))
    assert held_count < HELD * free_rate * held_seconds, (held_count, free_rate, held_seconds)
    for name, (setup, call) in calls.items():
        share = best_share(counter, free_rate, setup, call)
        assert share > RELEASED, f"{name}: the counter ran at {share:.0%} of its free rate: " \
                                 f"the GIL was held"
    for writer in writers:
        if not writer._native.closed:
            writer.abort()

"""Scans, writes, staged writes and commits release the GIL.

A background Python thread counts in a loop while the main thread makes one call. When the call
releases the GIL, the counter runs at about the rate it has while the main thread sleeps; when
the call holds it, the counter only moves in the slices the interpreter hands over at the
call's boundaries (a switch interval each, set to 0.1 ms here). A builtin that runs in C
holding the GIL (sum over a range) is the control that shows the measure can tell the two.
"""

import sys
import threading
import time

import numpy as np
import pytest

import lance_nd

ROWS, VALUES = 8, 1 << 21  # 8 rows of 2M float32: 64 MB
SWITCH_INTERVAL = 1e-4
RELEASED = 0.15  # a call that releases the GIL lets the counter reach this share of its free rate
HELD = 0.05  # the GIL-holding control must stay under this share


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
    n = 1 << 20
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


def test_scans_writes_and_commits_release_the_gil(tmp_path, counter):
    data = rows(0)
    zstd = {"compression": "zstd", "compression_level": 9}
    writer = lance_nd.create(str(tmp_path / "w.lance"), column_defaults=zstd,
                             target_fragment_bytes=16 << 20)
    table_uri = str(tmp_path / "s.lance")
    staged = []

    def scan():
        for _ in range(4):
            for row in lance_nd.open(str(tmp_path / "w.lance")).scan():
                row["v"].to_numpy()

    calls = {
        "write": lambda: writer.write(data),
        "finish (flush and commit)": writer.finish,
        "scan": scan,
        "stage": lambda: staged.append(lance_nd.stage(table_uri, data, column_defaults=zstd)),
    }
    time.sleep(0.05)  # the counter thread is running
    free_count, free_seconds = counted(counter, lambda: time.sleep(0.3))
    free_rate = free_count / free_seconds
    held_count, held_seconds = counted(counter, hold_the_gil(0.3))
    assert held_count < HELD * free_rate * held_seconds, (held_count, free_rate, held_seconds)
    for name, call in calls.items():
        count, seconds = counted(counter, call)
        share = count / (free_rate * seconds)
        assert share > RELEASED, f"{name}: the counter ran {share:.0%} of its free rate " \
                                 f"over {seconds:.3f} s: the GIL was held"
    assert lance_nd.commit_staged(table_uri, staged).count_rows() == ROWS

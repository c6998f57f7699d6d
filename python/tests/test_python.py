"""Python specifics: labels keep their identity, the GIL is released,
threads agree, Ctrl-C interrupts."""

import os
import signal
import subprocess
import sys
import textwrap
import threading
import time

import pytest

import exactly

from test_counts import langford, queens


def test_tuple_and_frozenset_labels_keep_identity():
    labels = [("r", r, c) for r in range(4) for c in range(4)]
    options = {lab: [("row", lab[1]), ("col", lab[2])] for lab in labels}
    p = exactly.Problem(options)
    for sol in p.solutions():
        for lab in sol:
            assert any(lab is x for x in labels)
    a, b = frozenset({1, 2}), frozenset({3})
    items = [frozenset({"i", 1}), frozenset({"i", 2})]
    p = exactly.Problem({a: [items[0]], b: [items[1]]})
    first = p.first()
    assert {id(x) for x in first} == {id(a), id(b)}
    assert all(any(i is j for j in items) for i in p.items)


def test_list_options_are_numbered():
    p = exactly.Problem([[1, 2], [3], [1], [2, 3]])
    assert sorted(map(sorted, p.solutions())) == [[0, 1], [2, 3]]


def test_mapping_types_and_iterables():
    from collections import OrderedDict

    p = exactly.Problem(OrderedDict(A=(1, 2), B={3}, C=frozenset({1, 2, 3})))
    assert p.count() == 2


def test_threads_agree():
    p = langford(10)
    counts = {p.count(threads=t) for t in (1, 2, 3, 8)}
    assert counts == {p.count()}


def test_gil_is_released():
    p = queens(12)
    result = []
    worker = threading.Thread(target=lambda: result.append(p.count(threads=1)))
    ticks = 0
    worker.start()
    while worker.is_alive():
        ticks += 1
        time.sleep(0.001)
    worker.join()
    assert result == [14200]
    # with the GIL held the whole count, this thread could not have run
    assert ticks > 5


def test_searches_in_parallel_threads():
    p = langford(10)
    want = p.count(threads=1)
    out = []
    threads = [threading.Thread(target=lambda: out.append(p.count(threads=1))) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert out == [want] * 4


SCRIPT = textwrap.dedent(
    """
    import sys, time, exactly
    sys.path.insert(0, {tests!r})
    from test_counts import queens
    p = queens(18)
    how = sys.argv[1]
    print("ready", flush=True)
    try:
        if how == "count1":
            p.count(threads=1)
        elif how == "count":
            p.count()
        elif how == "solutions":
            for s in p.solutions():
                pass
        print("finished", flush=True)
    except KeyboardInterrupt:
        print("interrupted", time.monotonic(), flush=True)
    """
)


@pytest.mark.skipif(os.name != "posix", reason="SIGINT")
@pytest.mark.parametrize("how", ["count1", "count", "solutions"])
def test_ctrl_c_interrupts(how):
    script = SCRIPT.format(tests=os.path.dirname(os.path.abspath(__file__)))
    proc = subprocess.Popen(
        [sys.executable, "-c", script, how], stdout=subprocess.PIPE, text=True
    )
    assert proc.stdout.readline().strip() == "ready"
    time.sleep(0.3)
    sent = time.monotonic()
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=30)
    words = out.split()
    assert words[0] == "interrupted", out
    latency = float(words[1]) - sent
    print(f"{how}: KeyboardInterrupt {latency:.3f} s after SIGINT")
    # generous, for a loaded machine; typically a few hundredths of a second
    assert latency < 2.0

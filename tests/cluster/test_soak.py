"""The fault soak's short form (tests/cluster/soak.py, docs/server.md "The fault soak"):
12 tables of the six kinds on three processes through nginx and a PostgreSQL of its own,
each fault once (kill -9, the rolling restart of each process, PostgreSQL restarted,
process 0's link to it stalled until its tables were taken over, nginx reloaded and
restarted), and after each fault its checks: no acknowledged move lost, stored twice or
forked, no frame showing a card its seat may not see, every table moving again within
10 s of the fault's end and every connected person back within 15 s of each cut.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from soak import FAULTS, soak  # noqa: E402


@pytest.mark.slow
@pytest.mark.soak
def test_the_short_soak_passes(tmp_path: Path) -> None:
    lines: list[str] = []

    def log(line: str) -> None:
        lines.append(line)
        print(line, flush=True)

    ok, s = soak(tables=12, rounds=1, data_dir=tmp_path / "soak", log=log)
    report = s.report()
    print(report)
    # Every fault ran and was checked (a soak that stopped early proves nothing).
    assert [r.fault for r in s.results] == ["(no fault)", *FAULTS], report
    assert all(r.events > 0 for r in s.results[1:]), report
    assert ok, "\n".join([*lines, report, *(f"{r.fault}: {f}" for r in s.results
                                           for f in r.failures)])

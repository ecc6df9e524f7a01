"""The fault soak's short form (tests/cluster/soak.py; its long form is a command in
docs/server.md): 12 tables of every kind on three processes through nginx, each fault
once (kill -9, a rolling restart, PostgreSQL stopped and started, process 0's link to
PostgreSQL stalled, nginx reloaded and restarted), and after each one every check of the
soak: every announced move stored once and in order, every table moving again, every
client back, no frame leaking a hidden card.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from soak import soak  # noqa: E402


@pytest.mark.slow
def test_short_soak_passes_every_check_after_every_fault(tmp_path: Path) -> None:
    from helpers import warm_compiled_search

    # The bots' compiled search is built once, not by three processes at once mid-soak.
    warm_compiled_search()
    ok, s = soak(tables=12, rounds=1, settle=1.0, data_dir=tmp_path / "soak")
    print("\n" + s.report())
    failures = [(r.fault, r.failures) for r in s.results if r.failures]
    assert ok and not failures, failures
    # Each fault was inflicted and checked, and the checks saw real traffic.
    assert len(s.results) == 1 + 8
    assert all(r.events > 0 and r.frames > 0 for r in s.results)

"""The clocks across a restart: a clean shutdown's clocks stand still, a crash's
downtime counts as spent, another turn's saved clocks do not move the running turn."""

from __future__ import annotations

from golf.server.tables.clocks import Clocks

OPTIONS = {"turn_timer": 20, "reserve": 30, "grace": 60, "bot_delay": 0}


def fresh(now: float) -> Clocks:
    c = Clocks(OPTIONS, 2)
    c.track_turn((1, 0), now=now)
    return c


def timeout_at(c: Clocks, now: float) -> float:
    p = c.plan(7, seat=0, mover=None, connected=True, wait_when_gone=False, now=now)
    assert p is not None and p.kind == "timeout"
    return p.at


def test_a_clean_shutdown_keeps_the_time_left() -> None:
    before = fresh(100.0)
    before.track_turn((1, 1), now=110.0)  # seat 0 took 10 s: within the timer
    before.track_turn((1, 0), now=140.0)  # seat 1 took 30 s: 10 s of its reserve
    snap = before.snapshot(final=True, now=145.0)  # 5 s into seat 0's turn
    after = fresh(1000.0)
    after.restore(snap, (1, 0), now=1000.0)
    assert after.reserve_left == [30.0, 20.0]
    # 20 s timer + 30 s reserve - the 5 s already spent.
    assert abs(timeout_at(after, 1000.0) - 1045.0) < 0.5


def test_a_crash_counts_its_downtime_as_spent() -> None:
    before = fresh(100.0)
    snap = before.snapshot(final=False, now=105.0)
    snap["at"] -= 10.0  # taken 10 s before the restart
    snap["turn_started"] -= 10.0
    after = fresh(1000.0)
    after.restore(snap, (1, 0), now=1000.0)
    assert abs(timeout_at(after, 1000.0) - 1035.0) < 0.5


def test_an_absence_goes_on_from_what_was_left() -> None:
    before = fresh(100.0)
    before.plan(3, seat=0, mover=None, connected=False, wait_when_gone=False, now=100.0)
    snap = before.snapshot(final=True, now=112.0)  # away for 12 s of 60
    after = fresh(1000.0)
    after.restore(snap, (1, 0), now=1000.0)
    p = after.plan(3, seat=0, mover=None, connected=False, wait_when_gone=False, now=1000.0)
    # The turn's 50 s (timer and reserve) and the 60 s of grace: 12 s of each were spent.
    assert p is not None and p.kind == "timeout" and abs(p.at - 1038.0) < 0.5
    absence = after.absence_started[0]
    assert absence is not None and abs((1000.0 - absence) - 12.0) < 0.5


def test_another_turns_clocks_keep_the_running_turn_fresh() -> None:
    before = fresh(100.0)
    snap = before.snapshot(final=True, now=115.0)
    after = Clocks(OPTIONS, 2)
    after.track_turn((1, 1), now=1000.0)
    after.restore(snap, (1, 1), now=1000.0)
    p = after.plan(9, seat=1, mover=None, connected=True, wait_when_gone=False, now=1000.0)
    assert p is not None and abs(p.at - 1050.0) < 0.01

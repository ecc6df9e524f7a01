"""The end of a hole and of a match at a live table (issue 22): a page asks for its view
again (``sync``); the next hole waits for the people to read the last one's end (``ready``,
or a countdown); a rematch is an invitation each person accepts."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from harness import Client, ServerProcess, play_out

from conftest import BACKENDS, make_server

#: The longest break between holes of this module's servers (``golf serve --hole-break``;
#: 15 s by default): long enough for a test to act and say ``ready`` well within it, short
#: enough that waiting the countdown out costs a few seconds.
BREAK = 5.0


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One server per backend for this module, its hole break shortened to BREAK."""
    srv = make_server(request.param, tmp_path_factory.mktemp("srv"), request)
    srv.args = ["--hole-break", f"{BREAK:g}"]
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def test_sync_sends_this_seats_state_again(server: ServerProcess) -> None:
    async def run() -> None:
        t, tokens = server.table_with_people(people=2, preset="german", rules={"holes": 1})
        tid = t["table"]["id"]
        a, b = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await a.wait(lambda c: c.summary is not None, what="the table")
        await a.send({"type": "sync"})
        assert (await a.wait_error(1))["code"] == "not_started"
        server.start_table(tid, tokens[0])
        # Until seat 0 has finished a turn of its own (its first draw is behind it).
        await play_out([a, b], random.Random(3),
                       until=lambda: a.state is not None and a.state["view"]["turns"][0] > 0)
        await asyncio.sleep(0.2)

        async def synced(**extra: bool) -> dict[str, object]:
            a.frames.clear()
            await a.send({"type": "sync", **extra})
            await a.wait(lambda c: any(f["type"] == "state" for f in c.frames), what="a state")
            return next(f for f in a.frames if f["type"] == "state")

        again = await synced()
        assert again["event"] is None and again["version"] == b.version
        view = again["view"]
        assert view["seat"] == 0
        peeked = [p for p in view["peeked"] if not view["face_up"][0][p - 1]]
        assert peeked, view["peeked"]  # one still face down (a turn changes one card)
        # Memory mode: past the first draw the server sends them as unknown...
        assert all(view["grids"][0][p - 1] is None for p in peeked)
        # ...unless this player keeps them shown, and hidden again when they stop.
        kept = (await synced(show_peeks=True))["view"]
        assert all(kept["grids"][0][p - 1] is not None for p in peeked)
        hidden = (await synced(show_peeks=False))["view"]
        assert all(hidden["grids"][0][p - 1] is None for p in peeked)
        await a.close()
        await b.close()

    asyncio.run(run())


def hole_ended(c: Client) -> bool:
    event = (c.state or {}).get("event") or {}
    return any(f["type"] == "hole_end" for f in event.get("facts") or [])


def test_the_next_hole_waits_for_ready_or_the_countdown(server: ServerProcess) -> None:
    """The break is the server's ``--hole-break`` (BREAK here): both people saying
    ``ready`` end it long before its countdown would; nobody saying it, the countdown
    ends it, not earlier."""
    async def run() -> None:
        seats = [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "easy"}]
        t, tokens = server.table_with_people(people=2, seats=seats, rules={"holes": 3},
                                             options={"bot_delay": 0})
        tid = t["table"]["id"]
        a, b = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await a.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        await a.wait(lambda c: c.state is not None, what="the first state")

        async def to_hole_end() -> None:
            # Moves by hand: play_out would say ready for them.
            rng = random.Random(8)
            while not (hole_ended(a) and hole_ended(b)):
                for c in (a, b):
                    s = c.state
                    if s and s["your_turn"] and not hole_ended(c):
                        await c.act(rng.choice(s["legal_actions"]), s["version"])
                        await c.wait(lambda c, v=s["version"]: c.version > v, what="a move")
                await asyncio.sleep(0.05)

        # Hole 1: both people read the hole's end; the next hole starts at once.
        await to_hole_end()
        ended = time.monotonic()
        held = a.version
        for c in (a, b):
            assert c.state["your_turn"] is False
            clock = c.state["clock"]
            assert clock["kind"] == "next_hole" and clock["seat"] is None
            # The server's --hole-break, not the default 15 s.
            assert clock["waiting"] == [0, 1] and clock["remaining"] <= BREAK * 1000
        first = a.state["view"]["current_player"]
        mover = (a, b)[first] if first in (0, 1) else None
        if mover is not None:  # an action now is refused, without a state
            mover.frames.clear()
            await mover.act(mover.state["view"]["legal_actions"][0], held)
            err = await mover.wait_error(len(mover.errors) + 1)
            assert err["code"] == "hole_break" and "state" not in err
        await asyncio.sleep(1.0)
        assert a.version == held and b.version == held  # the bot waits too
        await a.send({"type": "ready"})
        await b.wait(lambda c: any(f["type"] == "clock" and f["clock"]["waiting"] == [1]
                                   for f in c.frames), what="the clock waiting for seat 1")
        started = time.monotonic()
        await b.send({"type": "ready"})
        await a.wait(lambda c: c.state["clock"] is None or c.state["clock"]["kind"] != "next_hole",
                     what="the next hole")
        assert time.monotonic() - started < BREAK / 2
        # The ready ended it: the countdown still had seconds to run.
        assert time.monotonic() - ended < BREAK - 1.5
        await a.wait(lambda c: c.version > held or bool(c.state["your_turn"])
                     or bool(b.state["your_turn"]), what="a turn of hole 2")

        # Hole 2: nobody says ready; the countdown starts the next hole by itself.
        await to_hole_end()
        started = time.monotonic()
        await a.wait(lambda c: c.state["clock"] is None or c.state["clock"]["kind"] != "next_hole",
                     timeout=BREAK + 10, what="the countdown's end")
        assert time.monotonic() - started > BREAK - 1
        await a.close()
        await b.close()

    asyncio.run(run())


def test_the_rematch_is_an_invitation_each_person_accepts(server: ServerProcess) -> None:
    async def run() -> None:
        t, tokens = server.table_with_people(people=2, rules={"holes": 1})
        tid = t["table"]["id"]
        a, b = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await a.wait(lambda c: c.summary is not None, what="the table")
        early = server.post(f"/api/tables/{tid}/rematch/accept", {}, token=tokens[1])
        assert early.status_code == 409 and early.json()["error"]["code"] == "no_rematch"
        server.start_table(tid, tokens[0])
        await play_out([a, b], random.Random(2))
        r = server.post(f"/api/tables/{tid}/rematch/accept", {}, token=tokens[1])
        assert r.json()["error"]["code"] == "no_rematch"
        r = server.post(f"/api/tables/{tid}/rematch", {}, token=tokens[0])
        assert r.status_code == 200 and r.json()["rematch"]["waiting"] == [1]
        await asyncio.sleep(0.3)
        assert a.state["match"] == 1 and b.summary["status"] == "finished"
        r = server.post(f"/api/tables/{tid}/rematch/accept", {}, token=tokens[1])
        assert r.status_code == 200 and r.json()["match"] == 2
        for c in (a, b):
            await c.wait(lambda c: c.state["match"] == 2, what="the new match")
            assert c.summary["rematch"] is None
        await a.close()
        await b.close()

    asyncio.run(run())


def test_a_rematch_can_be_declined(server: ServerProcess) -> None:
    """Issue 38: a person says no to the offered rematch; the offer is dropped, everyone is
    told who declined, and the host may offer again."""
    async def run() -> None:
        t, tokens = server.table_with_people(people=2, rules={"holes": 1})
        tid = t["table"]["id"]
        a, b = [await Client(server.ws_url, tid, tok).connect() for tok in tokens]
        await a.wait(lambda c: c.summary is not None, what="the table")
        server.start_table(tid, tokens[0])
        await play_out([a, b], random.Random(2))
        r = server.post(f"/api/tables/{tid}/rematch/decline", {}, token=tokens[1])
        assert r.status_code == 409 and r.json()["error"]["code"] == "no_rematch"
        assert server.post(f"/api/tables/{tid}/rematch", {}, token=tokens[0]).status_code == 200
        a.frames.clear()
        r = server.post(f"/api/tables/{tid}/rematch/decline", {}, token=tokens[1])
        assert r.status_code == 200 and r.json()["rematch"] is None
        await a.wait(lambda c: any(f["type"] == "rematch_declined" for f in c.frames),
                     what="who declined")
        frame = next(f for f in a.frames if f["type"] == "rematch_declined")
        assert frame == {"type": "rematch_declined", "table": tid, "by": 1}
        await a.wait(lambda c: c.summary["rematch"] is None, what="the offer dropped")
        # Accepting the dropped offer is refused; the host may offer again.
        r = server.post(f"/api/tables/{tid}/rematch/accept", {}, token=tokens[1])
        assert r.json()["error"]["code"] == "no_rematch"
        r = server.post(f"/api/tables/{tid}/rematch", {}, token=tokens[0])
        assert r.status_code == 200 and r.json()["rematch"]["waiting"] == [1]
        await a.close()
        await b.close()

    asyncio.run(run())


def test_a_break_whose_end_could_not_be_stored_ends_when_it_can(tmp_path: Path) -> None:
    """Issue 37, found by the fault soak: the break's countdown ran out while the database
    could not be reached. The break was ended in memory before its end was stored, so the
    retry planned the next hole's first turn instead of the break's end: nobody was told
    of the new hole, the database kept the break, and a table of people stood still for
    good. Now the break stands until its end is stored, and the retry ends it; a `ready`
    whose write fails leaves the break as stored too."""
    from golf.server.cluster.lease import Leases
    from golf.server.storage import db
    from golf.server.storage.errors import Unavailable
    from golf.server.storage.records import SeatRecord, TableRecord
    from golf.server.storage.store import Store
    from golf.server.tables.hub import Hub

    async def run() -> None:
        engine = db.make_engine(db.default_url(tmp_path))
        await db.migrate(engine)
        store = Store(engine, Leases(engine, "x:1"))
        try:
            # Two people seated (their tokens' hashes), neither connected.
            seats = [SeatRecord(0, "human", "Ann", None, "a" * 64, 1),
                     SeatRecord(1, "human", "Bob", None, "b" * 64, 2)]
            await store.create_table(TableRecord(
                "T1", "t", "waiting", "six-card", {}, False, {}, 0, "inv-T1", 1,
                time.time(), seats))
            room = await Hub(store).room("T1")
            await room.start()
            async with room.lock:
                # A hole ended with both people to wait for, its break stored, ending soon.
                room.clocks.begin_break({0, 1})
                room.clocks.break_until = time.monotonic() + 0.1
                await room.finish.save_break()
                room.reschedule()
            assert (await store.load("T1")).hole_break is not None  # type: ignore[union-attr]
            # The database cannot be reached when the break's end is written, once.
            real = store.save_pending
            failed: list[object] = []

            async def flaky(table_id: str, **values: object) -> None:
                if not failed:
                    failed.append(values)
                    raise Unavailable()
                await real(table_id, **values)  # type: ignore[arg-type]

            store.save_pending = flaky  # type: ignore[method-assign]
            deadline = time.monotonic() + 5
            while time.monotonic() < deadline:
                stored = await store.load("T1")
                if failed and stored is not None and stored.hole_break is None:
                    break
                await asyncio.sleep(0.05)
            assert failed == [{"hole_break": None}]
            # Stored by the retry, and the room agrees: the next hole runs.
            assert (await store.load("T1")).hole_break is None  # type: ignore[union-attr]
            assert not room.clocks.breaking
            plan = room.plan()
            assert plan is None or plan.kind != "next_hole"
            # A `ready` whose write fails is refused and leaves the break as stored: the
            # person is still waited for, and their next `ready` counts.
            async with room.lock:
                room.clocks.begin_break({0, 1})
                await room.finish.save_break()
            failed.clear()
            with pytest.raises(Unavailable):
                await room.finish.ready(room.seats[0])
            assert room.clocks.waiting == {0, 1} and len(failed) == 1
            await room.finish.ready(room.seats[0])
            assert room.clocks.waiting == {1}
            assert (await store.load("T1")).hole_break["waiting"] == [1]  # type: ignore[union-attr,index]
        finally:
            await store.close()

    asyncio.run(run())

"""A connection's frames leave in the order pushed, each exactly once, whether the socket
takes a frame at once or makes the send wait (before writing, or after writing while it
drains), and a close comes after everything pushed before it.

The socket here is a stand-in with uvicorn's two ways of waiting; the real server's
sockets are exercised by every other server test.
"""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from golf.server.tables.sockets import MAX_QUEUE, Connection


class Socket:
    """Records what was written. ``gate`` closed: a send waits for it, ``before`` the
    write (the socket is not writable) or after it (the socket is draining)."""

    def __init__(self, before: bool) -> None:
        self.before = before
        self.gate = asyncio.Event()
        self.gate.set()
        self.written: list[str] = []
        self.closed: list[tuple[int, str]] = []

    async def send_text(self, text: str) -> None:
        if self.before and not self.gate.is_set():
            await self.gate.wait()
        self.written.append(text)
        if not self.before and not self.gate.is_set():
            await self.gate.wait()

    async def close(self, code: int, reason: str) -> None:
        self.closed.append((code, reason))


def connection(sock: Socket) -> Connection:
    return Connection(sock, hub=None)  # type: ignore[arg-type]


async def settle() -> None:
    for _ in range(20):
        await asyncio.sleep(0)


@settings(max_examples=60, deadline=None)
@given(plan=st.lists(st.tuples(st.booleans(), st.booleans()), min_size=1, max_size=30),
       before=st.booleans())
def test_frames_leave_in_order_exactly_once(plan: list[tuple[bool, bool]],
                                            before: bool) -> None:
    """``plan``: per frame, whether the socket blocks before it is pushed, and whether the
    loop runs (the socket may unblock) after it."""

    async def run() -> list[str]:
        sock = Socket(before)
        conn = connection(sock)
        for i, (block, settle_after) in enumerate(plan):
            if block:
                sock.gate.clear()
            conn.push(f"f{i}")
            if settle_after:
                sock.gate.set()
                await settle()
        sock.gate.set()
        await conn.finished(timeout=1)
        assert sock.closed == [(1000, "")]
        return sock.written

    written = asyncio.run(run())
    assert written == [f"f{i}" for i in range(len(plan))]


@pytest.mark.parametrize("before", [True, False])
def test_a_close_follows_the_frames_pushed_before_it(before: bool) -> None:
    async def run() -> Socket:
        sock = Socket(before)
        conn = connection(sock)
        sock.gate.clear()
        conn.push("a")
        conn.push("b")
        conn.close_soon(4000, "kicked", "you were removed")
        conn.push("after the close")  # dropped: the connection is closing
        assert sock.closed == []
        sock.gate.set()
        await conn.finished(timeout=1)
        return sock

    sock = asyncio.run(run())
    assert sock.written[:2] == ["a", "b"]
    assert '"bye"' in sock.written[2] and '"kicked"' in sock.written[2]
    assert len(sock.written) == 3
    assert sock.closed == [(4000, "kicked")]


def test_a_client_that_falls_too_far_behind_is_closed() -> None:
    async def run() -> tuple[Socket, Connection]:
        sock = Socket(before=True)
        conn = connection(sock)
        sock.gate.clear()
        for i in range(MAX_QUEUE + 5):
            conn.push(f"f{i}")
        assert conn.closing == (1008, "too_slow")
        sock.gate.set()
        await conn.finished(timeout=5)
        return sock, conn

    sock, _ = asyncio.run(run())
    # The frame in flight, then the MAX_QUEUE queued behind it, then the bye; the rest
    # were never sent.
    assert sock.written[:MAX_QUEUE + 1] == [f"f{i}" for i in range(MAX_QUEUE + 1)]
    assert '"too_slow"' in sock.written[-1] and len(sock.written) == MAX_QUEUE + 2
    assert sock.closed == [(1008, "too_slow")]


def test_a_broken_socket_stops_sending_without_raising() -> None:
    class Broken(Socket):
        async def send_text(self, text: str) -> Any:
            raise RuntimeError("the socket is gone")

    async def run() -> Broken:
        sock = Broken(before=True)
        conn = connection(sock)
        conn.push("a")
        conn.push("b")
        await conn.finished(timeout=1)
        return sock

    sock = asyncio.run(run())
    assert sock.written == [] and sock.closed == []

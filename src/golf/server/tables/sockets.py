"""The WebSocket endpoint: one connection per client, messages as in docs/protocol.md.

A connection reads frames, checks each one (size, JSON, type, fields, rate) and hands
it to its table. A frame is written to the socket at once when nothing waits before it
and the socket takes it without waiting; otherwise the send goes on in a flusher task with
the frames pushed meanwhile queued behind it, so a slow client never holds up a table; one
that falls far behind is closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Coroutine
from typing import Any

from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.protocol import (
    BUCKET_CAPACITY,
    BUCKET_RATE,
    CHAT_BURST,
    CHAT_RATE,
    FLOOD_STRIKES,
    FLOOD_WINDOW,
    MAX_CHAT,
    PROTOCOL,
    ProtocolError,
    TokenBucket,
    clean_text,
    decode,
    dumps,
    field,
    now_ms,
)
from ..core.tokens import hash_token
from .hub import Hub
from .room import Room, Seat

log = logging.getLogger("golf.server")
#: Messages queued for one client before it counts as gone.
MAX_QUEUE = 1000


async def _resume(step: Coroutine[Any, Any, Any], waits_on: Any) -> None:
    """Run a coroutine that was started by hand (``step.send``) on to its end: wait for
    what it waits on, then step it again, until it returns."""
    while True:
        if waits_on is None:
            await asyncio.sleep(0)  # a bare yield: it only gave up its turn
        else:
            await waits_on
        try:
            waits_on = step.send(None)
        except StopIteration:
            return


class Connection:
    def __init__(self, ws: WebSocket, hub: Hub) -> None:
        self.ws = ws
        self.hub = hub
        self.room: Room | None = None
        self.seat: Seat | None = None
        #: The task finishing a send that had to wait (None: the socket is idle), and the
        #: frames pushed meanwhile, which it sends next.
        self._flusher: asyncio.Task[None] | None = None
        self._backlog: deque[str] = deque()
        self._broken = False
        self.bucket = TokenBucket(BUCKET_CAPACITY, BUCKET_RATE)
        self.chat_bucket = TokenBucket(CHAT_BURST, CHAT_RATE)
        self.strikes: list[float] = []
        self.closing: tuple[int, str] | None = None

    # --- sending -------------------------------------------------------------------------
    def push(self, text: str) -> None:
        """Send a frame after every frame pushed before it; never waits."""
        if self.closing is not None or self._broken:
            return
        if len(self._backlog) >= MAX_QUEUE:
            self.close_soon(1008, "too_slow", "this connection fell too far behind")
            return
        self._enqueue(text)

    def _enqueue(self, text: str) -> None:
        if self._flusher is None:
            self._send_now(text)
        else:
            self._backlog.append(text)

    def _send_now(self, text: str) -> None:
        """Start sending on an idle socket, in place: most sends never wait (the socket
        takes the frame at once), and then cost no task switch and no queue. A send that
        has to wait is carried on by a flusher task from exactly where it waits (never
        abandoned and sent again), and frames pushed meanwhile queue behind it."""
        step = self.ws.send_text(text)
        try:
            waits_on = step.send(None)
        except StopIteration:
            return
        except Exception:
            self._broken = True  # the socket is gone; its reader sees the disconnect
            return
        self._flusher = asyncio.get_running_loop().create_task(self._flush(step, waits_on))

    async def _flush(self, step: Coroutine[Any, Any, Any] | None, waits_on: Any) -> None:
        """Finish the send in progress, then the frames queued behind it, then the close
        asked for meanwhile; the socket is idle again after it."""
        backlog = self._backlog
        try:
            if step is not None:
                await _resume(step, waits_on)
            while backlog:
                await self.ws.send_text(backlog.popleft())
        except Exception:
            self._broken = True
        finally:
            backlog.clear()  # what a broken socket left: nobody will read it
            self._flusher = None
        if self.closing is not None:
            with contextlib.suppress(Exception):
                await self.ws.close(self.closing[0], self.closing[1])

    def send(self, payload: dict[str, Any]) -> None:
        self.push(dumps(payload))

    def close_soon(self, code: int, reason: str, message: str) -> None:
        """Send ``bye``, then close with ``code`` once everything queued is out."""
        if self.closing is not None:
            return
        if not self._broken:
            self._enqueue(dumps({"type": "bye", "reason": reason, "message": message}))
        self.closing = (code, reason)
        self._close_when_sent()

    def _close_when_sent(self) -> None:
        """Close the socket after the send in flight, if any (its flusher closes after it);
        an idle socket gets a flusher with nothing to send, only the close."""
        if self._flusher is None and not self._broken:
            self._flusher = asyncio.get_running_loop().create_task(self._flush(None, None))

    async def finished(self, timeout: float) -> None:
        """The reader is done: close normally once what was pushed is out (unless a close
        was asked for already), waiting at most ``timeout`` seconds."""
        if self.closing is None:
            self.closing = (1000, "")
            self._close_when_sent()
        if self._flusher is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._flusher, timeout=timeout)

    # --- receiving -----------------------------------------------------------------------
    def _admit(self) -> bool:
        """The token bucket; too many refusals in a window close the connection."""
        if self.bucket.take():
            return True
        now = time.monotonic()
        self.strikes = [t for t in self.strikes if now - t < FLOOD_WINDOW]
        self.strikes.append(now)
        if len(self.strikes) >= FLOOD_STRIKES:
            self.close_soon(1008, "flooding", "too many messages; the connection is closed")
        else:
            self.send(self.rate_limited().payload())
        return False

    def rate_limited(self) -> ProtocolError:
        """The refusal of a frame over the bucket: when to try again and, at a table, the
        version now (so a client can tell whether its action still fits)."""
        extra: dict[str, Any] = {"retry_after": self.bucket.wait_ms()}
        if self.room is not None:
            extra["version"] = self.room.version
        return ProtocolError("rate_limited", f"too many messages: at most {BUCKET_CAPACITY} "
                             f"at once and {BUCKET_RATE:g} per second (an accepted action "
                             "does not count); this one was ignored: send it again after "
                             "retry_after ms", extra=extra)

    async def handle(self, frame: str | bytes) -> None:
        if not self._admit():
            return
        try:
            msg = decode(frame)
            await self.dispatch(msg)
        except ProtocolError as e:
            payload = e.payload()
            state = getattr(e, "state", None)
            if state is not None:
                payload["state"] = state
            self.send(payload)

    async def dispatch(self, msg: dict[str, Any]) -> None:
        kind = msg["type"]
        if kind == "ping":
            self.send({"type": "pong", "time": now_ms()})
            return
        if kind == "hello":
            await self.hello(msg)
            return
        room = self.room
        if room is None:
            raise ProtocolError("not_joined", 'send "hello" with the table id (and your seat '
                                "token) first")
        if kind == "action":
            version = field(msg, "version", int, "the state version the action was made on")
            text = field(msg, "action", str, "action notation such as 'draw' or 'swap 3'")
            if len(text) > 32:
                raise ProtocolError("bad_action", "an action is short notation such as "
                                    "'draw' or 'swap 3'")
            await room.act(self, version, text)
            # Accepted: the match paces actions, so they never use up the bucket.
            self.bucket.give_back()
        elif kind == "chat":
            await self.chat(room, msg)
        elif kind == "mute":
            await self.mute(room, msg)
        elif kind == "hint":
            version = field(msg, "version", int, "the state version", optional=True)
            self.send(await room.coach.hint(self.seat, room.version if version is None
                                             else version))
        elif kind == "sync":
            await self.sync(room, msg)
        elif kind == "ready":
            await room.finish.ready(self.seat)

    async def hello(self, msg: dict[str, Any]) -> None:
        if self.room is not None:
            raise ProtocolError("already_joined", "this connection already joined a table; "
                                "open another connection for another table")
        protocol = field(msg, "protocol", int, f"the protocol version, {PROTOCOL}")
        if protocol != PROTOCOL:
            raise ProtocolError("unsupported_protocol", f"this server speaks protocol "
                                f"{PROTOCOL}, not {protocol}")
        table_id = field(msg, "table", str, "the table id")
        token = field(msg, "token", str, "your seat token, or null to watch", optional=True)
        room = await self.hub.room(table_id)
        seat = None
        if token is not None:
            seat = room.seat_of(hash_token(token))
            if seat is None:
                raise ProtocolError("bad_token", "this token holds no seat at this table (it "
                                    "may be for another table, or the seat was removed); "
                                    "send hello without a token to watch")
        keep = field(msg, "show_peeks", bool, "true to keep peeked cards shown", optional=True)
        self.room, self.seat = room, seat
        async with room.lock:
            if seat is not None and keep is not None:
                room.show_peeks(seat, keep)
            room.attach(self)

    async def chat(self, room: Room, msg: dict[str, Any]) -> None:
        if self.seat is None:
            raise ProtocolError("spectator", "spectators cannot chat")
        text = clean_text(field(msg, "text", str, "the chat text"))
        if not text:
            raise ProtocolError("chat_empty", "the chat message is empty")
        if len(text) > MAX_CHAT:
            raise ProtocolError("chat_too_long", f"a chat message has at most {MAX_CHAT} "
                                f"characters, this one has {len(text)}")
        if not self.chat_bucket.take():
            raise ProtocolError("rate_limited", f"at most {CHAT_BURST} chat messages at once "
                                f"and {CHAT_RATE:g} per second; this one was not sent",
                                extra={"retry_after": self.chat_bucket.wait_ms(),
                                       "version": room.version})
        await room.chat(self.seat, text, now_ms())

    async def sync(self, room: Room, msg: dict[str, Any]) -> None:
        """This connection's ``state`` again, after its player changed ``show_peeks`` (keep
        the cards they peeked at shown after their first draw, or not)."""
        keep = field(msg, "show_peeks", bool, "true to keep peeked cards shown", optional=True)
        async with room.lock:
            if self.seat is not None and keep is not None:
                room.show_peeks(self.seat, keep)
            if room.live is None:
                raise ProtocolError("not_started", "there is no match yet; its state comes "
                                    "when the host starts it")
            self.send(room.state_for(None if self.seat is None else self.seat.position))

    async def mute(self, room: Room, msg: dict[str, Any]) -> None:
        if self.seat is None:
            raise ProtocolError("spectator", "spectators see no chat to mute")
        seat = field(msg, "seat", int, "the seat number to mute")
        muted = field(msg, "muted", bool, "true to mute, false to unmute")
        await room.seating.mute(self.seat, seat, muted)


async def endpoint(ws: WebSocket, hub: Hub) -> None:
    """Serve one WebSocket until it closes."""
    await ws.accept()
    conn = Connection(ws, hub)
    if hub.draining:
        conn.close_soon(1012, "reconnect", "the server is restarting; reconnect")
    try:
        while conn.closing is None:
            message = await ws.receive()
            if message["type"] == "websocket.disconnect":
                break
            frame = message.get("text")
            if frame is None:
                frame = message.get("bytes") or b""
            await conn.handle(frame)
    except (WebSocketDisconnect, RuntimeError):
        pass
    finally:
        if conn.room is not None:
            room = conn.room
            async with room.lock:
                room.detach(conn)
        await conn.finished(timeout=5)

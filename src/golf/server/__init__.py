"""The Golf server: many tables over WebSockets, people and bots, nothing hidden leaks.

``golf serve`` runs it (see ``docs/server.md``); the protocol is ``docs/protocol.md``.
Modules: :mod:`~golf.server.bridge` (the only code that touches the engine),
:mod:`~golf.server.room` (a live table), :mod:`~golf.server.hub` (all tables),
:mod:`~golf.server.sockets` (the WebSocket), :mod:`~golf.server.lobby` (REST),
:mod:`~golf.server.store` and :mod:`~golf.server.db` (persistence),
:mod:`~golf.server.app` and :mod:`~golf.server.serve` (the application, uvicorn).
Needs the ``web`` extra: ``pip install 'golf-cards[web]'``.
"""

from __future__ import annotations

__all__ = ["PROTOCOL"]

PROTOCOL = 1

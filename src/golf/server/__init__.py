"""The Golf server: many tables over WebSockets, people and bots, nothing hidden leaks.

``golf serve`` runs it (see ``docs/server.md``); the protocol is ``docs/protocol.md``.
Needs the ``web`` extra: ``pip install 'golf-cards[web]'``.

Each folder is one capability, and a layer: a module imports from its own folder and the
folders above it in this list, never from one below (tests/server/test_boundaries.py
checks it; docs/architecture.md draws the map).

* :mod:`~golf.server.core`: the wire protocol, tokens, the engine bridge;
* :mod:`~golf.server.http`: the origin guard and trusted proxies, before any route;
* :mod:`~golf.server.storage`: the database, migrations, the store and its errors;
* :mod:`~golf.server.cluster`: leases and handovers between processes;
* :mod:`~golf.server.players`: guests, accounts, sessions, passkeys, sign-in limits;
* :mod:`~golf.server.ratings`: rated matches, profiles, leaderboards;
* :mod:`~golf.server.moderation`: blocks and reports;
* :mod:`~golf.server.tables`: live tables, the WebSocket, making a table;
* :mod:`~golf.server.matchmaking`: quick play's queues;
* :mod:`~golf.server.api`: the REST routes.

The process itself stays here: :mod:`~golf.server.app` (the application),
:mod:`~golf.server.serve` (uvicorn, the drain) and :mod:`~golf.server.metrics`.
"""

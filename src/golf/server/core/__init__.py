"""What every room of the server stands on: the wire protocol, tokens, the engine bridge.

:mod:`.protocol` holds the protocol's constants, error codes and :class:`ProtocolError`,
the frame and text checks (names, chat) and the JSON encoder; :mod:`.tokens` makes the
unguessable things (seat tokens, invite codes, table ids, seeds); :mod:`.bridge` is the
only code that touches :class:`golf.Game` (views for replays, rule checks, bot labels,
the coach, the timeout's default move). Imports nothing else of the server.
"""

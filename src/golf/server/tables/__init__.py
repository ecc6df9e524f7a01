"""Live tables: the hub that holds every live table of the process (:mod:`.hub`), one
table (:mod:`.room`, made of :mod:`.seating`, :mod:`.finish`, :mod:`.patience`,
:mod:`.match`, :mod:`.audience` and :mod:`.clocks`), the WebSocket endpoint
(:mod:`.sockets`), the one path that makes a table and the checks of its changes
(:mod:`.creation`), and finished matches' replays (:mod:`.replays`).
"""

"""What a write to the database can come back with, besides its result: the storage's
two refusals, both ``try_again`` for the client (nothing was stored).

:class:`Unavailable` is the store's (and the hub's) answer when the database cannot be
reached; :class:`Fenced` is the answer to a write of a table whose lease this process
no longer holds (raised by :meth:`golf.server.cluster.lease.Leases.check`, which the
store calls inside every write transaction when several processes share a database).
"""

from __future__ import annotations

from ..core.protocol import ProtocolError

__all__ = ["Fenced", "Unavailable"]


class Fenced(ProtocolError):
    """A write of a table whose lease this process no longer holds: refused."""

    def __init__(self, table_id: str) -> None:
        super().__init__("try_again", f"table {table_id} moved to another server process; "
                         "reconnect and try again")
        self.table_id = table_id


class Unavailable(ProtocolError):
    """The database cannot be reached: nothing was stored, the client may try again."""

    def __init__(self) -> None:
        super().__init__("try_again", "the server cannot reach its database right now; "
                         "nothing was stored, try again in a moment")

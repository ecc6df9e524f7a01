"""What a write to the database can come back with, besides its result: the storage's
two refusals, both ``try_again`` for the client (nothing was stored).

:class:`Unavailable` is the store's (and the hub's) answer when the database cannot be
reached; :class:`Fenced` is the answer to a write of a table whose lease this process
no longer holds (raised by :meth:`golf.server.cluster.lease.Leases.check`, which the
store calls inside every write transaction when several processes share a database).
"""

from __future__ import annotations

from ..core.protocol import ProtocolError

__all__ = ["Behind", "Fenced", "Unavailable"]


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


class Behind(Unavailable):
    """A write of a table refused because the database already holds what it would write
    (the key of a move's row is taken): this process's copy of the table is behind what
    is stored. That happens when a commit succeeded but its answer was lost (a statement
    timeout or a cut connection during ``COMMIT``): the move was refused to its player
    and the table went back to its copy in memory, without it. The table must be read
    again from the database (the hub gives it up; its clients reconnect)."""

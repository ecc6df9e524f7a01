"""The database: its tables and engine (:mod:`.db`), the Alembic migrations
(``migrations/``, found next to :mod:`.db` and shipped as package data), whether this
release may use a database (:mod:`.schema`), the store every table writes through with
group commit (:mod:`.store`) and what a write can be refused for (:mod:`.errors`).
Imports only :mod:`golf.server.core`; the cluster's leases reach the store as a
:class:`~golf.server.storage.store.Fence` it is given.
"""

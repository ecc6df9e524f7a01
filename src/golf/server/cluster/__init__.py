"""Several server processes on one PostgreSQL database: table leases with fencing
(:mod:`.lease`) and the handover messages between processes (:mod:`.notify`).
Imports only :mod:`golf.server.storage` and below.
"""

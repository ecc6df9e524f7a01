"""Who is asking: guest profiles, accounts, sessions and their cookies, the FastAPI
dependency "this player" (:mod:`.accounts`), passkeys (:mod:`.passkeys`) and the sign-in
limits kept in the database (:mod:`.limits`): the server's side of :mod:`golf.identity`.
Never reaches a live table: the routes do that.
"""

"""The REST half of the protocol: one router module per service it calls (the lobby's
tables in :mod:`.lobby`, with its bodies in :mod:`.lobby_bodies`; accounts and the checked
write in :mod:`.accounts`; :mod:`.quickplay`; :mod:`.care`; :mod:`.ratings`), the error
shape of every refusal (:mod:`.errors`) and the OpenAPI document's error codes
(:mod:`.openapi`). Each route calls one service method below it.
"""

"""Quick play ("Play now"): the queues that match people by rating and fill seats with
bots (:mod:`.quickplay`); its tables are made by :mod:`golf.server.tables.creation`.
"""

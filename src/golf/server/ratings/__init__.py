"""Ratings in the server: rated matches recorded and rebuilt
(:mod:`.rating_service`, over the model in :mod:`golf.ratings`), public profiles,
leaderboards and the rating graph read from the database (:mod:`.profiles`).
"""

"""Care: players blocking and reporting each other, and what an operator does about it
(:mod:`.care`, used by ``golf admin`` and the REST routes).
"""

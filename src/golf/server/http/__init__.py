"""What every HTTP request passes before a route sees it: the origin guard and body
checks (:mod:`.guard`, one ASGI middleware) and which peers' forwarded headers are
believed (:mod:`.proxies`). Imports only :mod:`golf.server.core`.
"""

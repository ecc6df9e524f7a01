"""Cross-site request checks: a state-changing request must come from our own pages.

Cookies are ``SameSite`` (``Lax`` or ``Strict``), and on top of that every request
that changes state (sign-in, claim, password change, sign-out, table actions) is
checked with :func:`same_origin`: its ``Origin`` header, or when a browser sent none
its ``Referer``, must name one of the site's own origins. A request with neither,
or with ``Origin: null`` (sandboxed frames, some redirects), is refused: a browser
that sends neither is not one the site supports for changing state.

>>> allowed = allowed_origins(["https://golf.example", "http://127.0.0.1:8000"])
>>> same_origin("https://golf.example", None, allowed)
True
>>> same_origin("https://evil.example", "https://golf.example/", allowed)
False
>>> same_origin(None, "http://127.0.0.1:8000/play?t=1", allowed)
True
"""

from __future__ import annotations

from collections.abc import Iterable
from urllib.parse import urlsplit

__all__ = ["allowed_origins", "normalise_origin", "same_origin"]

_DEFAULT_PORTS = {"http": 80, "https": 443}


def normalise_origin(text: str) -> str | None:
    """``scheme://host[:port]`` of a URL or origin, in lower case, without a default
    port; None when it has no http(s) scheme and host (``null`` included).

    >>> normalise_origin("HTTPS://Golf.Example:443/x"), normalise_origin("null")
    ('https://golf.example', None)
    """
    try:
        parts = urlsplit(text.strip())
        port = parts.port
    except ValueError:
        return None
    scheme, host = parts.scheme.lower(), (parts.hostname or "").lower()
    if scheme not in _DEFAULT_PORTS or not host:
        return None
    if ":" in host:  # an IPv6 literal is written in brackets
        host = f"[{host}]"
    if port is None or port == _DEFAULT_PORTS[scheme]:
        return f"{scheme}://{host}"
    return f"{scheme}://{host}:{port}"


def allowed_origins(origins: Iterable[str]) -> frozenset[str]:
    """The site's own origins, normalised (e.g. from its configured public URL and
    the address it listens on); ValueError for one that is not an http(s) origin."""
    out = set()
    for text in origins:
        origin = normalise_origin(text)
        if origin is None:
            raise ValueError(f"not an http(s) origin: {text!r}")
        out.add(origin)
    return frozenset(out)


def same_origin(origin: str | None, referer: str | None, allowed: frozenset[str]) -> bool:
    """Whether a state-changing request with these ``Origin`` and ``Referer`` headers
    comes from the site itself. ``Origin`` decides when present; ``Referer`` only
    when it is absent; neither is a refusal."""
    claimed = origin if origin is not None else referer
    if claimed is None:
        return False
    return normalise_origin(claimed) in allowed

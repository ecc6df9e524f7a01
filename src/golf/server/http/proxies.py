"""Which peers' ``X-Forwarded-For`` and ``X-Forwarded-Proto`` headers are believed.

A reverse proxy (nginx, a TLS terminator) tells the server who the client is in
``X-Forwarded-For`` and whether it came over TLS in ``X-Forwarded-Proto``. Anyone can
send those headers, so they are believed only from the proxies named with ``golf serve
--trusted-proxy ADDR`` (an address or a CIDR network, repeatable); from any other peer
they are ignored and the peer's own address is the client's (for the sign-in limits
per address, logs and sessions lists alike). With no trusted proxy, no header is ever
believed.

The client is the right-most address of ``X-Forwarded-For`` that is not itself a
trusted proxy (each proxy appends the address it saw, so addresses left of the last
untrusted one may be made up by the client).

>>> trusted = parse_trusted(["127.0.0.1", "10.0.0.0/8"])
>>> client_of("127.0.0.1", "198.51.100.7, 10.1.2.3", trusted)
'198.51.100.7'
>>> client_of("192.0.2.9", "198.51.100.7", trusted)
'192.0.2.9'
>>> client_of("127.0.0.1", "6.6.6.6, 198.51.100.7", trusted)
'198.51.100.7'
"""

from __future__ import annotations

import ipaddress
from collections.abc import Iterable
from typing import Any

from ...errors import GolfError

__all__ = ["ProxyHeaders", "client_of", "parse_trusted"]

Network = ipaddress.IPv4Network | ipaddress.IPv6Network


def parse_trusted(values: Iterable[str]) -> tuple[Network, ...]:
    """The networks of ``--trusted-proxy`` values (an address is a network of one).

    >>> parse_trusted(["::1", "192.0.2.0/24"])
    (IPv6Network('::1/128'), IPv4Network('192.0.2.0/24'))
    >>> try:
    ...     parse_trusted(["proxy.example"])
    ... except GolfError as e:
    ...     print(str(e)[-31:])
    10.0.0.0/8, not 'proxy.example'
    """
    out = []
    for value in values:
        try:
            out.append(ipaddress.ip_network(value.strip(), strict=False))
        except ValueError:
            raise GolfError("--trusted-proxy must be an IP address or a CIDR network such as "
                            f"10.0.0.0/8, not {value!r}") from None
    return tuple(out)


def _is_trusted(host: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(host.strip().strip("[]"))
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    return any(ip in net for net in trusted)


def client_of(peer: str, forwarded_for: str | None, trusted: tuple[Network, ...]) -> str:
    """The client's address: ``peer`` itself unless it is a trusted proxy that says
    whom it forwards."""
    if not forwarded_for or not _is_trusted(peer, trusted):
        return peer
    hops = [h.strip() for h in forwarded_for.split(",") if h.strip()]
    for hop in reversed(hops):
        if not _is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else peer


class ProxyHeaders:
    """ASGI middleware: a trusted proxy's forwarded client address and scheme replace
    the connection's; every other peer's headers change nothing."""

    def __init__(self, app: Any, trusted: tuple[str, ...] = ()) -> None:
        self.app = app
        self.trusted = parse_trusted(trusted)

    async def __call__(self, scope: Any, receive: Any, send: Any) -> None:
        client = scope.get("client")
        if scope["type"] in ("http", "websocket") and client and self.trusted \
                and _is_trusted(client[0], self.trusted):
            headers = {k: v for k, v in scope["headers"]
                       if k in (b"x-forwarded-for", b"x-forwarded-proto")}
            scope = dict(scope)
            if b"x-forwarded-for" in headers:
                forwarded = b",".join(v for k, v in scope["headers"]
                                      if k == b"x-forwarded-for").decode("latin-1")
                scope["client"] = (client_of(client[0], forwarded, self.trusted), 0)
            proto = headers.get(b"x-forwarded-proto", b"").decode("latin-1")
            proto = proto.split(",")[0].strip().lower()
            if proto in ("http", "https"):
                secure = proto == "https"
                scope["scheme"] = ("wss" if secure else "ws") if scope["type"] == "websocket" \
                    else proto
        await self.app(scope, receive, send)

"""``X-Forwarded-For`` and ``X-Forwarded-Proto`` are believed only from the proxies named
with ``golf serve --trusted-proxy``; any other peer's are ignored (a real server, peers
on loopback addresses of their own)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from harness import ServerProcess
from test_accounts import Browser

from golf.identity.ratelimit import ADDRESS_POLICY

#: uvicorn's own default would believe 127.0.0.1: it must not, unless named.
UNTRUSTED = "127.0.0.1"
PROXY = "127.0.0.2"


@pytest.fixture(scope="module")
def proxied(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    srv = ServerProcess(tmp_path_factory.mktemp("proxy"))
    srv.args = ["--trusted-proxy", f"{PROXY}/32", "--trusted-proxy", "10.0.0.0/8"]
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


def fail(b: Browser, forwarded: str) -> int:
    """One wrong sign-in (a username of its own) said to come from ``forwarded``."""
    r = b.post("/api/signin", {"username": f"nobody{secrets.token_hex(4)}",
                               "password": "nope nope nope"},
               headers={"X-Forwarded-For": forwarded})
    return r.status_code


def first_cookies(server: ServerProcess, peer: str) -> list[str]:
    """The cookies a new browser at ``peer`` gets, its request said to come over TLS."""
    with httpx.Client(base_url=server.base, transport=httpx.HTTPTransport(
            local_address=peer)) as http:
        r = http.get("/api/me", headers={"X-Forwarded-Proto": "https"})
        assert r.status_code == 200, r.text
        return r.headers.get_list("set-cookie")


def test_an_untrusted_peer_cannot_pose_as_other_addresses(proxied: ServerProcess) -> None:
    b = Browser(proxied, address=UNTRUSTED)
    try:
        b.me()
        # A new made-up address on every guess: all count against the peer itself.
        codes = [fail(b, f"198.51.100.{i}") for i in range(ADDRESS_POLICY.free_failures + 2)]
        assert codes[:-1] == [401] * (ADDRESS_POLICY.free_failures + 1)
        assert codes[-1] == 429, codes
        # Nor over TLS because it says so: the cookie is not made Secure.
        cookies = first_cookies(proxied, UNTRUSTED)
        assert cookies and not any("secure" in c.lower() for c in cookies), cookies
    finally:
        b.close()


def test_a_trusted_proxy_names_the_client(proxied: ServerProcess) -> None:
    b = Browser(proxied, address=PROXY)
    try:
        b.me()
        # Through the proxy, each client meets its own limit (the proxy appends the peer
        # it saw; a client's own made-up entries on the left change nothing).
        codes = [fail(b, "6.6.6.6, 203.0.113.5")
                 for _ in range(ADDRESS_POLICY.free_failures + 2)]
        assert codes[-1] == 429, codes
        assert fail(b, "6.6.6.6, 203.0.113.6") == 401
        # A chain through a second trusted proxy (10.0.0.0/8) still finds the client.
        assert fail(b, "203.0.113.5, 10.1.2.3") == 429
        cookies = first_cookies(proxied, PROXY)
        assert cookies and all("secure" in c.lower() for c in cookies), cookies
    finally:
        b.close()


def test_a_bad_trusted_proxy_is_refused_clearly(tmp_path: Path) -> None:
    import subprocess
    import sys

    run = subprocess.run([sys.executable, "-m", "golf", "serve", "--data-dir", str(tmp_path),
                          "--trusted-proxy", "proxy.example"], capture_output=True, text=True,
                         timeout=120)
    assert run.returncode != 0
    assert "--trusted-proxy must be an IP address or a CIDR network" in run.stderr
    assert "Traceback" not in run.stderr


def test_the_cluster_trusts_its_own_nginx_only() -> None:
    from golf.cluster import Cluster

    command = Cluster(processes=1, base_port=20000, pg_url="postgresql://x@127.0.0.1/x"
                      ).command(0)
    i = command.index("--trusted-proxy")
    assert command[i + 1] == "127.0.0.1" and command.count("--trusted-proxy") == 1

"""Fixtures of the cluster suite: real `golf serve` processes on a real PostgreSQL behind a
real nginx (golf.cluster; both installed from Debian when missing, never skipped).

``make_cluster(processes=3, **kw)`` starts a Cluster on a fresh database of the session's
PostgreSQL and on free loopback ports, and stops it after the test.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "server"))

from golf.cluster import Cluster  # noqa: E402
from ports import free_port_block  # noqa: E402

# The server suite's throwaway PostgreSQL (scripts/ci/postgres.sh) and its fresh databases.
from server.conftest import fresh_database, postgres_url  # noqa: E402, F401


@pytest.fixture(scope="module")
def cluster3(request: pytest.FixtureRequest,
             tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Three processes behind nginx, shared by a module's tests (each makes its own tables
    and leaves every process running), with nginx's log of where each request went."""
    c = Cluster(processes=3, base_port=free_port_block(5),
                pg_url=fresh_database(request.getfixturevalue("postgres_url")),
                data_dir=tmp_path_factory.mktemp("cluster3"), access_log=True)
    c.start()
    try:
        yield c
    finally:
        c.stop()


@pytest.fixture
def make_cluster(request: pytest.FixtureRequest,
                 tmp_path: Path) -> Iterator[Callable[..., Cluster]]:
    made: list[Cluster] = []
    base_url = request.getfixturevalue("postgres_url")

    def make(processes: int = 3, start: bool = True, **kw: Any) -> Cluster:
        kw.setdefault("pg_url", fresh_database(base_url))
        kw.setdefault("data_dir", tmp_path / f"cluster-{len(made)}")
        c = Cluster(processes=processes, base_port=free_port_block(processes + 2), **kw)
        made.append(c)
        if start:
            c.start()
        return c

    try:
        yield make
    finally:
        for c in made:
            c.stop()

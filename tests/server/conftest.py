"""Fixtures of the server suite: real servers on SQLite and on a real PostgreSQL.

PostgreSQL comes from ``scripts/ci/postgres.sh`` (a throwaway cluster it installs and
starts), or from ``GOLF_TEST_POSTGRES`` when that names a running one. If it cannot be
had, the PostgreSQL tests fail: they are never skipped.
"""

from __future__ import annotations

import asyncio
import os
import secrets
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path.insert(0, str(HERE))

from harness import ServerProcess, free_port  # noqa: E402

BACKENDS = ["sqlite", "postgres"]


@pytest.fixture(scope="session", autouse=True)
def compiled_search() -> None:
    """The servers' search coach compiled before any server starts (see helpers)."""
    from helpers import warm_compiled_search

    warm_compiled_search()


@pytest.fixture(scope="session")
def postgres_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    url = os.environ.get("GOLF_TEST_POSTGRES")
    if url:
        yield url
        return
    port = str(free_port())
    # Not under pytest's private temp dir: the postgres user must be able to reach it.
    where = Path(tempfile.mkdtemp(prefix="golf-pg-"))
    os.chmod(where, 0o755)
    env = {**os.environ, "GOLF_PG_PORT": port, "GOLF_PG_DIR": str(where)}
    script = ROOT / "scripts" / "ci" / "postgres.sh"
    run = subprocess.run(["bash", str(script), "start"], env=env, capture_output=True,
                         text=True, timeout=900)
    if run.returncode != 0:
        pytest.fail(f"PostgreSQL could not be started for the server tests:\n{run.stderr}",
                    pytrace=False)
    line = [x for x in run.stdout.splitlines() if x.startswith("GOLF_TEST_POSTGRES=")][-1]
    try:
        yield line.split("=", 1)[1]
    finally:
        subprocess.run(["bash", str(script), "stop"], env=env, capture_output=True,
                       timeout=120)


def fresh_database(base_url: str) -> str:
    """A new empty database on the test cluster (one per server under test)."""
    import asyncpg

    name = "golf_" + secrets.token_hex(6)
    head, _, _ = base_url.rpartition("/")

    async def create() -> None:
        conn = await asyncpg.connect(base_url)
        try:
            await conn.execute(f"CREATE DATABASE {name}")
        finally:
            await conn.close()

    asyncio.run(create())
    return f"{head}/{name}"


def make_server(backend: str, tmp: Path, request: pytest.FixtureRequest) -> ServerProcess:
    db = None
    if backend == "postgres":
        db = fresh_database(request.getfixturevalue("postgres_url"))
    return ServerProcess(tmp, db)


@pytest.fixture(scope="module", params=BACKENDS)
def server(request: pytest.FixtureRequest,
           tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    """One running server per test module and backend (tests make their own tables)."""
    srv = make_server(request.param, tmp_path_factory.mktemp("srv"), request)
    srv.start()
    try:
        yield srv
    finally:
        srv.stop()


@pytest.fixture(params=BACKENDS)
def fresh_server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[ServerProcess]:
    """A server of its own (for tests that kill or restart it); started by the test."""
    srv = make_server(request.param, tmp_path, request)
    try:
        yield srv
    finally:
        srv.stop()

"""A process of another release than its database refuses to start, with real processes.

Every `golf serve` refuses a database written by a newer release (a schema revision it does
not know); with `--no-migrate` (every process of a cluster) it also refuses an older one
instead of upgrading it under the other processes. Either way the database is left as it
was. Plain `golf serve` still upgrades an older database, as before.
"""

from __future__ import annotations

import asyncio
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from golf.cluster import Cluster, ClusterError
from golf.server.app import Config
from golf.server.storage import db, schema

HEAD = schema.revisions()[-1]
FUTURE = "9999_from_a_newer_release"


def golf(*args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "golf", *args], capture_output=True,
                          text=True, timeout=timeout)


def run_sync(url: str, fn: Any) -> Any:
    async def go() -> Any:
        engine = db.make_engine(url)
        try:
            async with engine.begin() as conn:
                return await conn.run_sync(fn)
        finally:
            await engine.dispose()

    return asyncio.run(go())


def revision(url: str) -> str | None:
    def read(conn: sa.Connection) -> str | None:
        if not sa.inspect(conn).has_table("alembic_version"):
            return None
        return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()

    return run_sync(url, read)  # type: ignore[no-any-return]


def table_names(url: str) -> set[str]:
    return set(run_sync(url, lambda conn: sa.inspect(conn).get_table_names()))


def upgrade_to(url: str, target: str) -> None:
    """The schema of an older release: the migrations up to ``target`` only."""
    from alembic import command
    from alembic.config import Config as AlembicConfig

    def up(conn: sa.Connection) -> None:
        cfg = AlembicConfig()
        cfg.set_main_option("script_location", str(db.MIGRATIONS))
        cfg.attributes["connection"] = conn
        command.upgrade(cfg, target)

    run_sync(url, up)


def stamp_future(url: str) -> None:
    run_sync(url, lambda conn: conn.execute(
        sa.text("UPDATE alembic_version SET version_num = :v"), {"v": FUTURE}))


def one_line_refusal(out: subprocess.CompletedProcess[str]) -> str:
    assert out.returncode == 2, (out.returncode, out.stdout, out.stderr[-2000:])
    assert "Traceback" not in out.stderr
    lines = out.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("golf: error: "), out.stderr
    return lines[0]


@pytest.fixture
def pg(postgres_url: str) -> str:
    from server.conftest import fresh_database

    return fresh_database(postgres_url)


def test_every_process_refuses_a_database_of_a_newer_release(pg: str) -> None:
    assert golf("migrate", "--db", pg).returncode == 0
    stamp_future(pg)
    before = table_names(pg)
    for extra in ([], ["--no-migrate"]):
        out = golf("serve", "--db", pg, "--port", "18199", *extra)
        line = one_line_refusal(out)
        assert FUTURE in line and "newer release" in line and HEAD in line
    # `golf migrate` refuses it too, and nothing was touched.
    line = one_line_refusal(golf("migrate", "--db", pg))
    assert "newer release" in line
    assert revision(pg) == FUTURE
    assert table_names(pg) == before


def test_a_cluster_process_refuses_an_older_database_and_leaves_it_alone(pg: str) -> None:
    older = schema.revisions()[-2]
    upgrade_to(pg, older)
    before = table_names(pg)
    line = one_line_refusal(golf("serve", "--db", pg, "--port", "18198", "--no-migrate"))
    assert f"at revision {older}" in line and f"needs {HEAD}" in line
    assert "golf migrate" in line
    assert revision(pg) == older
    assert table_names(pg) == before


def test_no_migrate_refuses_an_empty_database(pg: str) -> None:
    line = one_line_refusal(golf("serve", "--db", pg, "--port", "18197", "--no-migrate"))
    assert "no Golf schema" in line
    assert revision(pg) is None and "golf_tables" not in table_names(pg)


def test_plain_serve_still_upgrades_an_older_database(pg: str, tmp_path: Path) -> None:
    """A single process migrates as before: it starts and the database is at the head."""
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "server"))
    from harness import ServerProcess

    upgrade_to(pg, schema.revisions()[-2])
    srv = ServerProcess(tmp_path, pg)
    srv.start()
    try:
        assert srv.get("/api/health").status_code == 200
    finally:
        srv.stop()
    assert revision(pg) == HEAD


def test_newer_sqlite_database_is_refused_too(tmp_path: Path) -> None:
    assert golf("migrate", "--data-dir", str(tmp_path)).returncode == 0
    with sqlite3.connect(tmp_path / "golf.db") as conn:
        conn.execute("UPDATE alembic_version SET version_num = ?", (FUTURE,))
    line = one_line_refusal(golf("serve", "--data-dir", str(tmp_path), "--port", "18196"))
    assert "newer release" in line
    url = Config(data_dir=tmp_path).database_url()
    assert revision(url) == FUTURE


def test_a_cluster_does_not_start_on_a_newer_database(pg: str, make_cluster: Any) -> None:
    """golf cluster migrates once before its processes start: on a newer database that
    refusal stops it, before any process ran."""
    assert golf("migrate", "--db", pg).returncode == 0
    stamp_future(pg)
    c: Cluster = make_cluster(processes=2, start=False, pg_url=pg)
    with pytest.raises(ClusterError, match="newer release"):
        c.start()
    assert all(c.pid(i) is None for i in range(c.processes))
    assert revision(pg) == FUTURE

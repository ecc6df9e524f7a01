"""The whole suite on several workers (pytest-xdist, as `make test` runs it).

Two things cannot be left to the workers:

* **Set-up that must happen once.** Debian's chromium, nginx and PostgreSQL are installed
  (apt-get takes one lock: two workers installing at once would fail), the throwaway
  PostgreSQL is started and named in ``GOLF_TEST_POSTGRES`` (the workers inherit it, so the
  server and cluster suites share one cluster and make a database each), and the search
  bot's compiled core is loaded or compiled into numba's cache. The controller does it in
  ``pytest_configure``, before any worker starts, and stops PostgreSQL at the end.
* **Which tests run together.** Our own scheduler (:func:`pytest_xdist_make_scheduler`)
  gives each test module of the server and browser suites to one worker as one unit (its
  module-scoped servers and browser start once), the cluster and Ray suites as one unit
  each (they start many processes and fixed-size port blocks); every other test is a unit
  of its own. The units are handed out in the order of :data:`HEAVY_FIRST`
  (``--no-loadscope-reorder``): the longest first, so that no worker starts a three-minute
  unit when the others are about to finish.

Without ``-n`` (a developer running one file) none of this happens: each suite's own
fixtures start what they need, as before.
"""

from __future__ import annotations

import os
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
SCRIPTS = ROOT / "scripts" / "ci"

#: Test folders and modules whose tests stay together on one worker, as one unit each,
#: and their rank: lower goes first. A module of ``tests/server`` or ``tests/browser`` is a
#: unit of its own; ``tests/cluster`` and ``tests/test_ray.py`` are one unit in all.
HEAVY_FIRST: dict[str, int] = {
    "tests/cluster": 0,
    "tests/test_ray.py": 1,
    "tests/browser": 2,
    "tests/server": 3,
}

_PG_STARTED: dict[str, str] = {}


def _workers(config: pytest.Config) -> int:
    n = config.getoption("numprocesses", default=None)
    return int(n) if isinstance(n, int) else (1 if n else 0)


def _is_controller(config: pytest.Config) -> bool:
    return not hasattr(config, "workerinput")


def _selected(config: pytest.Config, folder: str) -> bool:
    """Whether the run's arguments reach ``folder`` (or, with none, the test paths do)."""
    args = [a.split("::", 1)[0] for a in config.args] or ["tests"]
    target = (ROOT / folder).resolve()
    for arg in args:
        p = Path(arg)
        p = (p if p.is_absolute() else Path(config.invocation_params.dir) / p).resolve()
        if p == target or target in p.parents or p in target.parents:
            return True
    return False


def _run(script: str, *args: str, env: dict[str, str] | None = None) -> str:
    out = subprocess.run(["bash", str(SCRIPTS / script), *args], capture_output=True,
                         text=True, timeout=900, env=env)
    if out.returncode != 0:
        raise pytest.UsageError(f"scripts/ci/{script} {' '.join(args)} failed:\n{out.stderr}")
    return out.stdout


def pytest_configure(config: pytest.Config) -> None:
    if not _is_controller(config) or _workers(config) == 0:
        return
    needs_pg = any(_selected(config, f) for f in ("tests/server", "tests/cluster"))
    if _selected(config, "tests/browser"):
        _run("chromium.sh")
    if _selected(config, "tests/cluster"):
        _run("nginx.sh", "install")
    if _selected(config, "tests/test_external_bots.py"):
        _run("node.sh")
    if needs_pg and not os.environ.get("GOLF_TEST_POSTGRES"):
        from ports import free_port

        where = Path(tempfile.mkdtemp(prefix="golf-pg-"))
        where.chmod(0o755)  # the postgres user must reach it
        env = {**os.environ, "GOLF_PG_PORT": str(free_port()), "GOLF_PG_DIR": str(where)}
        line = [x for x in _run("postgres.sh", "start", env=env).splitlines()
                if x.startswith("GOLF_TEST_POSTGRES=")][-1]
        os.environ["GOLF_TEST_POSTGRES"] = line.split("=", 1)[1]
        _PG_STARTED.update(env)
    from helpers import warm_compiled_search

    warm_compiled_search()


def pytest_unconfigure(config: pytest.Config) -> None:
    if _PG_STARTED:
        subprocess.run(["bash", str(SCRIPTS / "postgres.sh"), "stop"], env=_PG_STARTED,
                       capture_output=True, timeout=120)
        os.environ.pop("GOLF_TEST_POSTGRES", None)
        _PG_STARTED.clear()


def unit_of(nodeid: str) -> tuple[int, str | None]:
    """A test's rank in :data:`HEAVY_FIRST` and the unit it runs in (None: alone), from its
    node id (relative to the project's root, as pytest writes it).

    >>> unit_of("tests/cluster/test_cluster.py::test_x[2]")
    (0, 'tests/cluster')
    >>> unit_of("tests/browser/test_web_layout.py::test_y")
    (2, 'tests/browser/test_web_layout.py')
    >>> unit_of("tests/test_engine.py::test_z")
    (4, None)
    """
    rel = nodeid.split("::", 1)[0]
    for prefix, rank in HEAVY_FIRST.items():
        if rel == prefix or rel.startswith(prefix + "/"):
            whole = prefix in ("tests/cluster", "tests/test_ray.py")
            return rank, (prefix if whole else rel)
    return len(HEAVY_FIRST), None


@pytest.hookimpl(tryfirst=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The units of :func:`unit_of`, each given whole to one worker.

    Not ``--dist loadgroup`` with ``xdist_group`` marks: pytest-xdist 3.8 writes the group
    into ``item._nodeid``, which pytest 9 no longer reads, so the marks were silently
    ignored (every module ran on all four workers, each starting its own servers and
    browser, and four clusters ran at once)."""
    from xdist.scheduler import LoadScopeScheduling

    class UnitScheduling(LoadScopeScheduling):  # type: ignore[misc]
        def _split_scope(self, nodeid: str) -> str:
            return unit_of(nodeid)[1] or nodeid

    return UnitScheduling(config, log)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if _workers(config) == 0 and _is_controller(config):
        return
    ranked = [(unit_of(item.nodeid)[0], i, item) for i, item in enumerate(items)]
    # A stable sort: within a rank, pytest's own order (a module's tests stay together).
    items[:] = [item for _, _, item in sorted(ranked, key=lambda r: (r[0], r[1]))]

"""Browser tests: a real `golf serve` (uvicorn, temp SQLite) and Debian's chromium driven by
Playwright for Python through ``executable_path`` (never ``playwright install``).

``scripts/ci/chromium.sh`` installs the chromium package when it is missing and prints the
real binary's path. Screenshots go to ``build/screenshots/``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

try:
    from playwright.sync_api import Browser, Playwright, sync_playwright
except ImportError as e:  # pragma: no cover - a setup error, said plainly
    raise RuntimeError(
        "the browser tests need Playwright for Python (pip install 'playwright==1.65.2', "
        "part of the dev extra); its browser is Debian's chromium, never `playwright install`"
    ) from e

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
sys.path.insert(0, str(HERE))

from webplay import Server, free_port  # noqa: E402

SCREENSHOTS = ROOT / "build" / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def compiled_search() -> None:
    """The servers' search coach compiled before any server starts (see helpers)."""
    from helpers import warm_compiled_search

    warm_compiled_search()
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


@pytest.fixture(scope="session")
def chromium_path() -> str:
    out = subprocess.run(["bash", str(ROOT / "scripts" / "ci" / "chromium.sh")],
                         check=True, capture_output=True, text=True)
    path = out.stdout.strip().splitlines()[-1]
    assert os.access(path, os.X_OK), f"no chromium binary at {path}"
    return path


# Module scope, not session: sync Playwright keeps an asyncio loop running in this thread,
# and the suite's other tests (the server's) call asyncio.run() after these modules.
@pytest.fixture(scope="module")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright, chromium_path: str) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                   args=LAUNCH_ARGS)
    yield b
    b.close()


@pytest.fixture(autouse=True)
def close_the_tests_pages(request: pytest.FixtureRequest) -> Iterator[None]:
    """The browser contexts a test opened are closed after it: a page left open keeps its
    timers, its socket and its table's frames going until the module ends, on the server
    that every later test of the worker shares."""
    if "browser" not in request.fixturenames:
        yield
        return
    browser: Browser = request.getfixturevalue("browser")
    before = set(browser.contexts)
    yield
    for context in browser.contexts:
        if context not in before:
            context.close()


@pytest.fixture(scope="session")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    s = Server(free_port(), tmp_path_factory.mktemp("golf-serve"))
    s.start()
    yield s
    s.stop()


@pytest.fixture
def own_server(tmp_path: Path) -> Iterator[Server]:
    """A server of this test alone (for tests that stop and restart it)."""
    s = Server(free_port(), tmp_path)
    s.start()
    yield s
    s.stop()


@pytest.fixture(scope="session")
def shots() -> Path:
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    return SCREENSHOTS

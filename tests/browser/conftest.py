"""Browser tests: a real `golf serve` (uvicorn, temp SQLite) and Debian's chromium driven by
Playwright for Python through ``executable_path`` (never ``playwright install``).

``scripts/ci/chromium.sh`` installs the chromium package when it is missing and prints the
real binary's path. Screenshots go to ``build/screenshots/``.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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
SCREENSHOTS = ROOT / "build" / "screenshots"
LAUNCH_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
               "--disable-component-update", "--disable-sync", "--no-first-run"]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Server:
    """A running `golf serve` subprocess on a loopback port."""

    port: int
    data_dir: Path
    proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        log = open(self.data_dir / "server.log", "ab")  # noqa: SIM115 - lives with the process
        self.proc = subprocess.Popen(
            [sys.executable, "-m", "golf", "serve", "--host", "127.0.0.1", "--port",
             str(self.port), "--data-dir", str(self.data_dir)],
            stdout=log, stderr=subprocess.STDOUT, cwd=self.data_dir)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError("golf serve exited: "
                                   + (self.data_dir / "server.log").read_text()[-2000:])
            try:
                with urllib.request.urlopen(self.url + "/api/health", timeout=2) as r:
                    if r.status == 200:
                        return
            except OSError:
                time.sleep(0.2)
        raise RuntimeError("golf serve did not answer /api/health within 60 s")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self.proc = None

    def api(self, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        req = urllib.request.Request(self.url + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        if token:
            req.add_header("Authorization", f"Bearer {token}")
        with urllib.request.urlopen(req, timeout=10) as r:
            return json.loads(r.read() or b"null")


@pytest.fixture(scope="session")
def chromium_path() -> str:
    out = subprocess.run(["bash", str(ROOT / "scripts" / "ci" / "chromium.sh")],
                         check=True, capture_output=True, text=True)
    path = out.stdout.strip().splitlines()[-1]
    assert os.access(path, os.X_OK), f"no chromium binary at {path}"
    return path


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="session")
def browser(playwright: Playwright, chromium_path: str) -> Iterator[Browser]:
    b = playwright.chromium.launch(executable_path=chromium_path, headless=True,
                                   args=LAUNCH_ARGS)
    yield b
    b.close()


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

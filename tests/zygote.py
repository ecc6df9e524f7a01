"""Test servers forked from a parent that imported the server once.

A ``golf serve`` started as ``python -m golf serve`` spends about 1.5 s of CPU importing
FastAPI, SQLAlchemy, uvicorn and the app's Pydantic models before it serves a request, and
the suites start some two hundred of them. Here one *zygote* process per pytest process
imports all of that once; each server is a ``fork()`` of it that then runs
``golf.cli.main(argv)``, as ``python -m golf`` would, with its own environment, working
directory and log. It is a real process of its own: SIGKILL, SIGTERM, its exit status and
its open sockets are what they would be. What is shared is only the imported code.

A server whose environment changes how Python starts (``PYTHONPATH`` and the like, as the
light-install test does) is not forked: :func:`spawn` starts it as a fresh interpreter.

Run as a script, this file is the zygote: requests come as JSON lines on stdin, answers
(``{"pid": n}``, then ``{"exit": n, "code": c}`` when that child ends) go to stdout.
"""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import IO, Any

#: The environment variables that change what a fresh interpreter would import.
_STARTUP = ("PYTHONPATH", "PYTHONHOME", "PYTHONSAFEPATH", "PYTHONNOUSERSITE",
            "PYTHONSTARTUP", "PYTHONEXECUTABLE", "PYTHONPLATLIBDIR")
#: The environment as the test process began (imported at collection, before any test's
#: monkeypatch): the zygote starts with it, whichever test asks for the first server.
_START_ENV = dict(os.environ)


class Forked:
    """The part of :class:`subprocess.Popen` the harnesses use, for a zygote's child."""

    def __init__(self, zygote: _Zygote, pid: int, args: Sequence[str]) -> None:
        self._zygote = zygote
        self.pid = pid
        self.args = list(args)
        self.returncode: int | None = None
        self.stdout: IO[bytes] | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            self.returncode = self._zygote.exit_code(self.pid, 0)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            code = self._zygote.exit_code(self.pid, timeout)
            if code is None:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self.returncode = code
        return self.returncode

    def send_signal(self, sig: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, sig)

    def terminate(self) -> None:
        self.send_signal(15)

    def kill(self) -> None:
        self.send_signal(9)


class _Zygote:
    def __init__(self) -> None:
        self.env = dict(_START_ENV)
        self.proc = subprocess.Popen(
            [sys.executable, "-c",
             f"import runpy; runpy.run_path({str(Path(__file__))!r}, run_name='__main__')"],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=self.env)
        self._ask = threading.Lock()
        self._changed = threading.Condition()
        self._pids: list[int] = []
        self._exits: dict[int, int] = {}
        self._gone = False
        threading.Thread(target=self._read, daemon=True, name="zygote").start()

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            msg = json.loads(line)
            with self._changed:
                if "pid" in msg:
                    self._pids.append(msg["pid"])
                else:
                    self._exits[msg["exit"]] = msg["code"]
                self._changed.notify_all()
        with self._changed:
            self._gone = True
            self._changed.notify_all()

    def fits(self, env: Mapping[str, str]) -> bool:
        return (not self._gone and self.proc.poll() is None
                and all(env.get(k) == self.env.get(k) for k in _STARTUP))

    def fork(self, argv: Sequence[str], log: str, env: Mapping[str, str], cwd: str) -> int:
        request = {"argv": list(argv), "log": log, "env": dict(env), "cwd": cwd}
        with self._ask, self._changed:
            assert self.proc.stdin is not None
            self.proc.stdin.write(json.dumps(request).encode() + b"\n")
            self.proc.stdin.flush()
            if not self._changed.wait_for(lambda: self._pids or self._gone, 60):
                raise RuntimeError("the test zygote did not fork within 60 s")
            if not self._pids:
                raise RuntimeError("the test zygote is gone")
            return self._pids.pop(0)

    def exit_code(self, pid: int, timeout: float | None) -> int | None:
        with self._changed:
            self._changed.wait_for(lambda: pid in self._exits or self._gone, timeout)
            return self._exits.get(pid, -9 if self._gone else None)


_zygote: _Zygote | None = None
_made = threading.Lock()


def spawn(argv: Sequence[str], *, log: Path, env: Mapping[str, str] | None = None,
          cwd: str | os.PathLike[str] | None = None) -> subprocess.Popen[bytes] | Forked:
    """``golf`` with ``argv`` (``["serve", ...]``), stdout and stderr appended to the file
    ``log``: forked from this process's zygote, or a fresh interpreter where the
    environment asks for one."""
    global _zygote
    env = dict(os.environ if env is None else env)
    where = str(cwd if cwd is not None else os.getcwd())
    with _made:
        if _zygote is None or _zygote.proc.poll() is not None:
            _zygote = _Zygote()
        zygote = _zygote
    if zygote.fits(env):
        log.touch()
        return Forked(zygote, zygote.fork(argv, str(log), env, where), ["golf", *argv])
    with log.open("ab") as out:
        return subprocess.Popen([sys.executable, "-m", "golf", *argv], stdout=out,
                                stderr=subprocess.STDOUT, env=env, cwd=where)


# --- the zygote itself ------------------------------------------------------------------


def _child(request: dict[str, Any], keep: Sequence[int]) -> None:
    """In the forked child: become ``python -m golf ARGV`` and never return."""
    import atexit
    import signal
    import traceback

    code = 1
    try:
        # CPython 3.11 keeps the zygote's native thread id on the forked main thread (3.12
        # resets it); the server's per-thread CPU figures look the loop thread up by it.
        if hasattr(threading.main_thread(), "_set_native_id"):
            threading.main_thread()._set_native_id()
        signal.set_wakeup_fd(-1)
        signal.signal(signal.SIGCHLD, signal.SIG_DFL)
        for fd in keep:
            os.close(fd)
        out = os.open(request["log"], os.O_WRONLY | os.O_APPEND)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        os.dup2(out, 1)
        os.dup2(out, 2)
        os.close(out)
        os.close(null)
        sys.stdin = open(0, closefd=False)  # noqa: SIM115 - fd 0 of this process
        # As PYTHONUNBUFFERED would have it: the harnesses read the log while it runs.
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        os.environ.clear()
        os.environ.update(request["env"])
        os.chdir(request["cwd"])
        sys.path[0] = os.getcwd()
        sys.argv = ["golf", *request["argv"]]
        from golf.cli import main

        try:
            code = main(request["argv"]) or 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
        atexit._run_exitfuncs()
    except BaseException:
        traceback.print_exc()
        code = 1
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(code)


def _serve() -> None:
    import select
    import signal

    # What every `golf serve` imports before it serves (importing, not running: no loop,
    # no thread, no file opened).
    import golf.cli
    import golf.commands.serve
    import golf.server.app
    import golf.server.serve  # noqa: F401
    for name in ("uvicorn.protocols.http.httptools_impl", "uvicorn.protocols.http.h11_impl",
                 "uvicorn.lifespan.on",
                 "uvicorn.loops.uvloop", "uvloop", "aiosqlite", "asyncpg",
                 "sqlalchemy.dialects.sqlite.aiosqlite", "sqlalchemy.dialects.postgresql.asyncpg",
                 "alembic.command", "alembic.runtime.migration"):
        with contextlib.suppress(ImportError):
            __import__(name)

    woke_r, woke_w = os.pipe()
    os.set_blocking(woke_w, False)
    signal.set_wakeup_fd(woke_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)

    def tell(msg: dict[str, int]) -> None:
        os.write(1, json.dumps(msg).encode() + b"\n")

    pending = b""
    while True:
        try:
            ready, _, _ = select.select([0, woke_r], [], [])
        except InterruptedError:
            continue
        if woke_r in ready:
            os.read(woke_r, 4096)
        if 0 in ready:
            chunk = os.read(0, 65536)
            if not chunk:
                return  # the pytest process is gone (its end of the pipe closed)
            pending += chunk
            while b"\n" in pending:
                line, pending = pending.split(b"\n", 1)
                request = json.loads(line)
                pid = os.fork()
                if pid == 0:
                    _child(request, (woke_r, woke_w))
                tell({"pid": pid})
        while True:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                break
            if pid == 0:
                break
            tell({"exit": pid, "code": os.waitstatus_to_exitcode(status)})


if __name__ == "__main__":
    _serve()

"""Faults the cluster tests and the soak (tests/cluster/soak.py) inflict on a running
cluster, in one place: a TCP relay that stalls a process's link to PostgreSQL (a
partition), a cluster whose process 0 reaches its database through that relay, and
nginx reloaded, stopped and started under its clients.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from golf.cluster import Cluster


class Relay:
    """A TCP relay from a loopback port to PostgreSQL, on a thread and event loop of its
    own (the cluster is started synchronously). ``stall()`` stops forwarding bytes both
    ways on every connection, old and new (new ones are still accepted); ``restore()``
    forwards again everything held back meanwhile.

    ``stall(mid_write=True)`` waits for the worst moment first: PostgreSQL's answer to an
    ``INSERT`` inside an open transaction (a move's row written, its commit not yet sent).
    That answer is held back too, so the transaction stays open on the database with its
    row locked, as a link that dies mid-transaction leaves it."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = 0
        self.loop = asyncio.new_event_loop()
        self.flowing = asyncio.Event()
        self.ready = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.server: asyncio.Server | None = None
        self.connections = 0
        self.tasks: set[asyncio.Task[Any]] = set()
        #: Stall at the next answer to an INSERT in an open transaction.
        self.armed = False
        #: Whether the stall began mid-write (the armed moment came).
        self.mid_write = False

    def start(self) -> None:
        self.thread.start()
        assert self.ready.wait(10), "the relay did not start"

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.flowing.set()
        self.server = self.loop.run_until_complete(
            asyncio.start_server(self._serve, "127.0.0.1", 0))
        self.port = int(self.server.sockets[0].getsockname()[1])
        self.ready.set()
        self.loop.run_forever()

    async def _serve(self, down_r: asyncio.StreamReader,
                     down_w: asyncio.StreamWriter) -> None:
        self.connections += 1
        task = asyncio.current_task()
        assert task is not None
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
        try:
            up_r, up_w = await asyncio.open_connection("127.0.0.1", self.upstream_port)
        except OSError:
            down_w.close()
            return
        # Cancelled by stop(): ends quietly (asyncio's stream server logs a connection
        # task that ends cancelled as an error, one traceback per connection).
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(self._pump(down_r, up_w), self._pump(up_r, down_w, True),
                                 return_exceptions=True)

    async def _pump(self, r: asyncio.StreamReader, w: asyncio.StreamWriter,
                    answers: bool = False) -> None:
        try:
            while True:
                # Stalled: nothing is read, so the sender's bytes wait in the kernel's
                # buffers as on a dead link, and are delivered once the link is back.
                await self.flowing.wait()
                data = await r.read(65536)
                if not data:
                    break
                # An INSERT's CommandComplete and a ReadyForQuery "in a transaction".
                if answers and self.armed and b"INSERT 0 " in data \
                        and data.endswith(b"Z\x00\x00\x00\x05T"):
                    self.armed = False
                    self.mid_write = True
                    self.flowing.clear()
                await self.flowing.wait()
                w.write(data)
                await w.drain()
        finally:
            with contextlib.suppress(Exception):
                w.close()

    def stall(self, mid_write: bool = False) -> None:
        if mid_write:
            self.armed = True
        else:
            self.loop.call_soon_threadsafe(self.flowing.clear)

    def stalled(self) -> bool:
        return not self.flowing.is_set()

    def restore(self) -> None:
        self.loop.call_soon_threadsafe(self.flowing.set)

    def stop(self) -> None:
        self.restore()

        def close() -> None:
            if self.server is not None:
                self.server.close()
            for task in self.tasks:
                task.cancel()
            # Once the cancelled connections have run their ends.
            self.loop.call_later(0.2, self.loop.stop)

        self.loop.call_soon_threadsafe(close)
        self.thread.join(10)


class Cut(Cluster):
    """A cluster whose process 0 reaches PostgreSQL through ``relay``."""

    relay: Relay | RelayProcess | None = None

    def command(self, i: int) -> list[str]:
        cmd = super().command(i)
        if i == 0 and self.relay is not None:
            at = cmd.index("--db") + 1
            url = urlsplit(cmd[at])
            cmd[at] = url._replace(netloc=url.netloc.replace(
                f":{url.port}", f":{self.relay.port}")).geturl()
        return cmd


def nginx(cluster: Cluster, action: str) -> None:
    """``reload`` (a new configuration; nginx's old workers keep the sockets they carry),
    ``stop`` (every socket cut at once; returns once the master has exited) or ``start``
    the cluster's nginx, as docs/server.md ("Restarting PostgreSQL or nginx") tells an
    operator to."""
    conf = cluster.nginx_dir / "nginx.conf"
    pid_file = cluster.nginx_dir / "nginx.pid"
    if action == "start":
        # The script the cluster started it with (its limits, its generated files).
        cluster.start_nginx()
        return
    pid = _pid(pid_file)
    binary = shutil.which("nginx") or "/usr/sbin/nginx"
    subprocess.run([binary, "-p", str(cluster.nginx_dir), "-c", str(conf), "-s", action],
                   check=True, capture_output=True, timeout=30)
    if action == "stop" and pid is not None:
        deadline = time.monotonic() + 30
        while Path(f"/proc/{pid}").exists() and time.monotonic() < deadline:
            time.sleep(0.05)


def _pid(path: Path) -> int | None:
    with contextlib.suppress(OSError, ValueError):
        return int(path.read_text().split()[0])
    return None


class RelayProcess:
    """A :class:`Relay` in a process of its own, stalled with SIGUSR1 and restored with
    SIGUSR2. The soak's own process is busy (its clients' frames, the leak checks): a
    relay on a thread of it would share its interpreter lock, and the process behind the
    relay would meet a slow database that no fault made."""

    def __init__(self, upstream_port: int) -> None:
        self.upstream_port = upstream_port
        self.port = 0
        self.proc: subprocess.Popen[str] | None = None

    def start(self) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(Path(__file__)), str(self.upstream_port)],
            stdout=subprocess.PIPE, text=True)
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        assert line.startswith("port "), f"the relay did not start: {line!r}"
        self.port = int(line.split()[1])

    def stall(self) -> None:
        assert self.proc is not None
        self.proc.send_signal(signal.SIGUSR1)

    def restore(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGUSR2)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(10)


def _serve_relay(upstream_port: int) -> None:
    relay = Relay(upstream_port)
    relay.start()
    signal.signal(signal.SIGUSR1, lambda *_: relay.stall())
    signal.signal(signal.SIGUSR2, lambda *_: relay.restore())
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    print(f"port {relay.port}", flush=True)
    while True:
        signal.pause()


if __name__ == "__main__":
    _serve_relay(int(sys.argv[1]))

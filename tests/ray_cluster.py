"""A real Ray cluster of several nodes on this machine, for tests and measurements.

Each node is a ``ray start ... --block`` process in a session (process group) of its
own, so stopping the cluster stops exactly the processes it started: SIGTERM to each
group (``ray start --block`` then stops its node), SIGKILL to what is left after a
while, and any process still naming the cluster's temp directory. :meth:`stop` may be
called any number of times; it also runs at interpreter exit.

    python tests/ray_cluster.py 2     # start a two-node cluster, print its address,
                                      # stop it on Ctrl-C
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from ports import free_port  # noqa: E402

RAY = str(Path(sys.executable).parent / "ray")


#: What a driver process of this cluster needs in its environment.
DRIVER_ENV = {"RAY_AUTH_MODE": "disabled", "RAY_USAGE_STATS_ENABLED": "0"}




class LocalCluster:
    """``nodes`` Ray nodes of ``cpus`` CPUs each on 127.0.0.1: a head and workers."""

    def __init__(self, nodes: int = 2, cpus: int = 1) -> None:
        self.nodes = nodes
        self.cpus = cpus
        # Ray's unix sockets live under the temp dir: keep its path short.
        self.temp = Path(tempfile.mkdtemp(prefix="rg", dir="/tmp"))
        self.port = free_port()
        self.address = f"127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen[bytes]] = []
        # Loopback only: no token authentication (a driver sets the same, see DRIVER_ENV).
        self.env = dict(os.environ, **DRIVER_ENV,
                        PYTHONPATH=os.pathsep.join(
                            [str(ROOT / "src"), *filter(None, [os.environ.get("PYTHONPATH")])]))
        self.env.pop("RAY_ADDRESS", None)
        atexit.register(self.stop)

    def start(self, timeout: float = 120.0) -> LocalCluster:
        try:
            self._node(["--head", f"--port={self.port}", "--include-dashboard=false",
                        f"--dashboard-port={free_port()}",
                        f"--temp-dir={self.temp}"], timeout)
            for _ in range(self.nodes - 1):
                self._node([f"--address={self.address}"], timeout)
        except BaseException:
            self.stop()
            raise
        return self

    def _node(self, args: list[str], timeout: float) -> None:
        log = self.temp / f"node{len(self.procs)}.log"
        cmd = [RAY, "start", *args, "--node-ip-address=127.0.0.1", f"--num-cpus={self.cpus}",
               "--block", f"--dashboard-agent-listen-port={free_port()}",
               f"--dashboard-agent-grpc-port={free_port()}",
               f"--runtime-env-agent-port={free_port()}",
               f"--metrics-export-port={free_port()}"]
        with log.open("wb") as out:
            proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT, env=self.env,
                                    start_new_session=True)
        self.procs.append(proc)
        end = time.monotonic() + timeout
        while b"Ray runtime started" not in log.read_bytes():
            if proc.poll() is not None or time.monotonic() > end:
                raise RuntimeError(f"ray start failed ({' '.join(args)}):\n"
                                   + log.read_text(errors="replace")[-3000:])
            time.sleep(0.3)

    def stop(self) -> None:
        """Stop every process this cluster started (idempotent)."""
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGTERM)
        end = time.monotonic() + 8
        for proc in self.procs:
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(max(0.1, end - time.monotonic()))
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(proc.pid, signal.SIGKILL)
            with contextlib.suppress(subprocess.TimeoutExpired):
                proc.wait(5)
        self._kill_strays()
        self.procs = []
        shutil.rmtree(self.temp, ignore_errors=True)

    def _kill_strays(self) -> None:
        """Processes of this cluster that left its process groups (they name its temp
        directory on their command line)."""
        mark = str(self.temp).encode()
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit() or int(entry.name) == os.getpid():
                continue
            try:
                if mark in (entry / "cmdline").read_bytes():
                    os.kill(int(entry.name), signal.SIGKILL)
            except (OSError, ValueError):
                continue


def _exit(*_: object) -> None:
    raise SystemExit(0)


if __name__ == "__main__":
    # Stop on Ctrl-C or a TERM (a background job of a shell may ignore SIGINT).
    signal.signal(signal.SIGINT, _exit)
    signal.signal(signal.SIGTERM, _exit)
    cluster = LocalCluster(int(sys.argv[1]) if len(sys.argv) > 1 else 2).start()
    print(cluster.address, flush=True)
    try:
        while True:
            signal.pause()
    finally:
        cluster.stop()

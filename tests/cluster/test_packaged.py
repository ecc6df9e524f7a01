"""`golf cluster` from an installed package (a wheel built from this tree, unpacked: no
scripts/ or deploy/ of a checkout next to it), and Ctrl-C pressed again and again while
it stops: nginx and PostgreSQL are stopped all the same."""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import time
import zipfile
from pathlib import Path

from golf.cluster import healthy
from ports import free_port_block

ROOT = Path(__file__).resolve().parents[2]


def listening(port: int) -> bool:
    with socket.socket() as s:
        s.settimeout(1)
        return s.connect_ex(("127.0.0.1", port)) == 0


def installed_package(tmp: Path) -> Path:
    """A directory holding golf as a wheel of this tree installs it."""
    tree = tmp / "tree"
    tree.mkdir()
    shutil.copy(ROOT / "pyproject.toml", tree)
    shutil.copy(ROOT / "README.md", tree)
    shutil.copytree(ROOT / "src", tree / "src", ignore=shutil.ignore_patterns(
        "__pycache__", "*.egg-info"))
    wheels = tmp / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation",
                    "-q", "-w", str(wheels), str(tree)], check=True, timeout=300,
                   capture_output=True)
    site = tmp / "site"
    with zipfile.ZipFile(next(wheels.glob("golf_cards-*.whl"))) as z:
        z.extractall(site)
    return site


def test_golf_cluster_from_a_wheel_and_a_second_ctrl_c(tmp_path: Path) -> None:
    site = installed_package(tmp_path)
    assert not (site / "scripts").exists() and (site / "golf" / "deploy" / "nginx.sh").is_file()
    base = free_port_block(4)  # nginx, one process, its own PostgreSQL on base + 2
    pg_port = base + 2
    data = tmp_path / "golf-cluster"
    env = {**os.environ, "PYTHONUNBUFFERED": "1",
           "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    # Its own process group, as a terminal's foreground job: a Ctrl-C reaches every member.
    proc = subprocess.Popen([sys.executable, "-m", "golf", "cluster", "--processes", "1",
                             "--port", str(base), "--data-dir", str(data)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=env, cwd=tmp_path, start_new_session=True)
    try:
        assert proc.stdout is not None
        first = proc.stdout.readline()
        if not first.startswith(f"Golf cluster on http://127.0.0.1:{base}/"):
            proc.wait(120)
            raise AssertionError(first + proc.stdout.read())
        assert healthy(f"http://127.0.0.1:{base}") and listening(pg_port)
        version = subprocess.run(
            [sys.executable, "-c", "import golf.cluster as c; print(c.__file__)"], env=env,
            capture_output=True, text=True, timeout=60).stdout
        assert version.startswith(str(site)), version  # the wheel's golf, not this tree's
        # Ctrl-C, then again every 0.2 s while it stops.
        deadline = time.monotonic() + 120
        while proc.poll() is None and time.monotonic() < deadline:
            os.killpg(proc.pid, signal.SIGINT)
            time.sleep(0.2)
        assert proc.wait(10) == 0, proc.stdout.read()
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        # Whatever this test's cluster left: stop it, so a failure leaks nothing.
        subprocess.run([sys.executable, "-m", "golf", "cluster", "stop", "--data-dir",
                        str(data)], env=env, capture_output=True, timeout=120)
    for port in (base, base + 1):
        assert not listening(port), f"port {port} still answers"
    if listening(pg_port):
        log = Path(f"/tmp/golf-cluster-pg-{pg_port}/server.log")
        raise AssertionError("PostgreSQL still runs; the cluster said:\n"
                             + (proc.stdout.read() if proc.stdout else "")
                             + "\nits log:\n" + (log.read_text()[-2000:] if log.exists() else "-"))
    assert not Path(f"/tmp/golf-cluster-pg-{pg_port}").exists()


CHILD = """
import sys
from pathlib import Path
import golf.cluster as m
here = Path(sys.argv[1])
m.NGINX_SH, m.POSTGRES_SH = here / "nginx.sh", here / "postgres.sh"
c = m.Cluster(processes=1, base_port=20000, data_dir=here / "data")
c.pg_url = "postgresql://postgres@127.0.0.1:1/fake"  # as if it had started its own
print("stopping", flush=True)
c.stop()
print("stopped", flush=True)
"""


def test_ctrl_c_again_and_again_during_a_stop_cuts_nothing_short(tmp_path: Path) -> None:
    """Cluster.stop with stand-in helper scripts (each logs its stop, nginx's slowly) while
    Ctrl-C reaches the whole process group three times."""
    log = tmp_path / "stops.log"
    (tmp_path / "nginx.sh").write_text(f'[ "$1" = stop ] && sleep 1 && echo nginx >> {log}\n')
    (tmp_path / "postgres.sh").write_text(f'[ "$1" = stop ] && echo postgres >> {log}\n')
    proc = subprocess.Popen([sys.executable, "-c", CHILD, str(tmp_path)],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            start_new_session=True)
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline().strip() == "stopping"
        for _ in range(3):
            time.sleep(0.2)
            os.killpg(proc.pid, signal.SIGINT)
        out = proc.stdout.read()
        assert proc.wait(30) == 0, out
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
    assert "stopped" in out and "still stopping the cluster" in out, out
    assert log.read_text().split() == ["nginx", "postgres"]

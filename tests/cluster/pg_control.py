"""Stopping and starting a cluster's own PostgreSQL in place (its data stays), for the
tests that take the database away from running processes (test_failover, test_db_outage).
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from golf.cluster import Cluster


def pg_ctl(cluster: Cluster, action: str) -> None:
    """``stop`` (``-m fast``: every connection is cut at once) or ``start`` the cluster's
    own PostgreSQL, as scripts/ci/postgres.sh runs it; returns once it is down or accepts
    connections again."""
    bins = sorted(Path("/usr/lib/postgresql").glob("*/bin/pg_ctl"))
    data = cluster.pg_dir / "data"
    cmd = [str(bins[-1]), "-D", str(data), "-w", "-t", "60"]
    if action == "stop":
        cmd += ["-m", "fast", "stop"]
    else:
        cmd += ["-l", str(cluster.pg_dir / "server.log"), "-o",
                f"-p {cluster.pg_port} -k {cluster.pg_dir} -c listen_addresses=127.0.0.1 "
                "-c fsync=off -c max_connections=200", "start"]
    if os.getuid() == 0:
        cmd = ["runuser", "-u", "postgres", "--", *cmd]
    subprocess.run(cmd, check=True, capture_output=True, timeout=90)

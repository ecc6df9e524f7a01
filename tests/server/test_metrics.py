"""``golf serve --metrics`` and ``--gc``: the figures a benchmark reads, off by default."""

from __future__ import annotations

from pathlib import Path

from harness import ServerProcess


def test_metrics_are_served_only_when_asked_for(tmp_path: Path) -> None:
    plain = ServerProcess(tmp_path / "plain")
    plain.data_dir.mkdir()
    plain.start()
    try:
        assert plain.get("/api/debug/metrics").status_code == 404
    finally:
        plain.stop()
    srv = ServerProcess(tmp_path / "metrics")
    srv.data_dir.mkdir()
    srv.args = ["--metrics", "--gc", "steady"]
    srv.start()
    try:
        srv.create()  # some work for the loop and the database thread
        m = srv.get("/api/debug/metrics").json()
        assert m["loop_lag_max_ms"] >= 0 and set(m["gc"]) == {"0", "1", "2"}
        assert m["gc_threshold"][0] == 50_000 and m["gc_threshold"][2] > 10**6
        assert m["gc_frozen"] > 1000  # start-up's objects were frozen
        assert m["cpu_s"]["loop"] > 0 and set(m["cpu_s"]) == {"loop", "bots", "db", "other"}
        again = srv.get("/api/debug/metrics?reset=true").json()
        assert again["rss_mb"] > 10
    finally:
        srv.stop()
    python = ServerProcess(tmp_path / "python")
    python.data_dir.mkdir()
    python.args = ["--metrics", "--gc", "python"]
    python.start()
    try:
        m = python.get("/api/debug/metrics").json()
        assert m["gc_threshold"][0] == 700 and m["gc_frozen"] == 0
    finally:
        python.stop()

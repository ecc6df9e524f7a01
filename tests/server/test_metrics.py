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
        m = srv.get("/api/debug/metrics?frozen=true").json()
        assert m["loop_lag_max_ms"] >= 0 and set(m["gc"]) == {"0", "1", "2"}
        assert m["gc_threshold"][0] == 50_000 and m["gc_threshold"][2] > 10**6
        assert m["gc_frozen"] > 1000  # start-up's objects were frozen
        assert m["cpu_s"]["loop"] > 0 and set(m["cpu_s"]) == {"loop", "bots", "db", "other"}
        again = srv.get("/api/debug/metrics?reset=true").json()
        assert again["rss_mb"] > 10 and "gc_frozen" not in again  # walking them stalls
        assert again["stalls"] == [] or all("File" in s["stack"] for s in again["stalls"])
    finally:
        srv.stop()
    python = ServerProcess(tmp_path / "python")
    python.data_dir.mkdir()
    python.args = ["--metrics", "--gc", "python"]
    python.start()
    try:
        m = python.get("/api/debug/metrics?frozen=1").json()
        assert m["gc_threshold"][0] == 700 and m["gc_frozen"] == 0
    finally:
        python.stop()


def test_a_stalled_loop_is_caught_with_its_stack() -> None:
    import asyncio
    import time

    from golf.server.metrics import Metrics

    def hold_the_loop() -> None:
        time.sleep(0.2)  # a slow callback (it lets other threads run, as Python code does)

    async def run() -> dict[str, object]:
        m = Metrics()
        m.start()
        try:
            await asyncio.sleep(0.05)
            m.reset()
            hold_the_loop()
            await asyncio.sleep(0.05)
            return m.snapshot()
        finally:
            m.stop()

    snap = asyncio.run(run())
    assert 190 <= float(snap["loop_lag_max_ms"]) < 1000  # type: ignore[arg-type]
    stalls = snap["stalls"]
    assert isinstance(stalls, list) and len(stalls) == 1
    assert "hold_the_loop" in stalls[0]["stack"] and not stalls[0]["in_collection"]

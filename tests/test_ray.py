"""--ray on a real two-node Ray cluster started on this machine (tests/ray_cluster.py):
the same results as a local run, a worker killed mid-run retried without counting its
matches twice, progress as matches finish, and a local Ray instance without an address."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from golf.arena import run_arena
from golf.backend import LocalPool, RayBackend, gather
from golf.cli import main
from golf.errors import GolfError
from golf.rules import load_rules
from golf.simulate import play_match, run_matches
from golf.tournament import Tournament, run_tournament

ray = pytest.importorskip("ray")

from ray_cluster import DRIVER_ENV, LocalCluster  # noqa: E402  (after the skip: needs ray)

pytestmark = pytest.mark.slow

ONE = load_rules("six-card", {"holes": 1})


@pytest.fixture(scope="module")
def cluster() -> Iterator[str]:
    """A head and a second node, one CPU each; this process is the driver."""
    saved = {k: os.environ.get(k) for k in DRIVER_ENV}
    os.environ.update(DRIVER_ENV)
    nodes = LocalCluster(nodes=2, cpus=1).start()
    try:
        ray.init(address=nodes.address, logging_level="WARNING")
        end = time.monotonic() + 60
        while ray.cluster_resources().get("CPU", 0) < 2 and time.monotonic() < end:
            time.sleep(0.5)
        assert len([n for n in ray.nodes() if n["Alive"]]) == 2
        yield nodes.address
    finally:
        ray.shutdown()
        nodes.stop()
        nodes.stop()  # idempotent
        for k, v in saved.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_jobs_run_on_both_nodes(cluster: str) -> None:
    def where(job: int) -> str:
        time.sleep(0.2)  # long enough that one node cannot take every task
        return str(ray.get_runtime_context().get_node_id())

    nodes = gather(RayBackend(cluster, chunk=1), where, list(range(12)))
    assert len(set(nodes)) == 2


def test_simulate_on_the_cluster_equals_the_local_pool(
        cluster: str, capsys: pytest.CaptureFixture[str]) -> None:
    args = ["simulate", "--bots", "expert,greedy", "--games", "24", "--seed", "11",
            "--rule", "holes=3", "--json", "--quiet", "--duplicate"]
    assert main([*args, "--ray", cluster]) == 0
    on_ray = json.loads(capsys.readouterr().out)
    assert main([*args, "--workers", "2"]) == 0
    local = json.loads(capsys.readouterr().out)
    assert on_ray == local and on_ray["matches"] == 48


def test_a_tournament_on_the_cluster_equals_a_local_one(cluster: str) -> None:
    t = Tournament(("random", "greedy", "easy"), ONE, deals=4, seed=3)
    seen: list[int] = []
    board = run_tournament(t, RayBackend(cluster, chunk=2),
                           progress=lambda done, total: seen.append(done))
    assert board == run_tournament(t, LocalPool(1))
    # Progress came as chunks finished, not once at the end.
    assert seen == sorted(seen) and seen[-1] == t.matches and len(seen) >= t.matches // 2


def test_the_commands_take_ray_and_print_what_a_local_run_prints(
        cluster: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    commands = [
        ["tournament", "-e", "random,greedy,easy", "--rule", "holes=1", "--deals", "2",
         "--json", "-", "--quiet", "--fresh"],
        ["arena", "--agent", "greedy", "--opponents", "easy", "--rule", "holes=1",
         "--deals", "3", "--json", "--no-progress"],
    ]
    for k, args in enumerate(commands):
        outs = []
        for backend in (["--ray", cluster], ["--workers", "1"]):
            extra = ["--state", str(tmp_path / f"{k}.jsonl")] if k == 0 else []
            assert main([*args, *backend, *extra]) == 0
            outs.append(json.loads(capsys.readouterr().out))
        assert outs[0] == outs[1]


def test_an_arena_on_the_cluster_equals_a_local_one(cluster: str) -> None:
    runs = []
    for backend in (RayBackend(cluster, chunk=1), LocalPool(1)):
        out = io.StringIO()
        res = run_arena("greedy", ["easy"], ONE, players=2, deals=4, seed=5, transcript=out,
                        backend=backend)
        runs.append((res.matches, out.getvalue()))
    assert runs[0] == runs[1]
    lines = [json.loads(x) for x in runs[0][1].splitlines()]
    assert [(x["deal"], x["seat"]) for x in lines] == [(d, s) for d in range(4) for s in (0, 1)]


def test_a_worker_killed_mid_run_is_retried_and_counted_once(
        cluster: str, tmp_path: Path) -> None:
    marker = str(tmp_path / "crashed")
    runs = str(tmp_path / "runs")

    def crash_once(index: int) -> Any:
        with open(runs, "a") as f:
            f.write(f"{index}\n")
        if index == 5 and not os.path.exists(marker):
            open(marker, "w").close()
            os._exit(1)  # the worker process dies mid-task, as a lost node's would
        return play_match(ONE, 2, ("greedy", "random"), 1000 + index, index)

    results = gather(RayBackend(cluster, chunk=2, max_retries=2), crash_once, list(range(10)))
    assert os.path.exists(marker)
    ran = Counter(int(x) for x in Path(runs).read_text().split())
    assert ran[4] == 2 and ran[5] == 2  # the lost task (matches 4 and 5) ran again
    assert [r.index for r in results] == list(range(10))
    assert results == [play_match(ONE, 2, ("greedy", "random"), 1000 + i, i) for i in range(10)]


def test_an_error_in_a_task_is_raised_as_itself(cluster: str) -> None:
    def bad(job: int) -> int:
        raise GolfError(f"job {job} is bad")

    with pytest.raises(GolfError, match=r"job \d is bad"):
        gather(RayBackend(cluster), bad, [1, 2])


def test_a_task_that_always_kills_its_worker_ends_in_a_clear_error(cluster: str) -> None:
    def die(job: int) -> int:
        os._exit(1)

    with pytest.raises(GolfError, match="worker died 2 times"):
        gather(RayBackend(cluster, max_retries=1), die, [1])


def test_simulate_with_a_local_ray_instance_equals_one_process(tmp_path: Path) -> None:
    env = {k: v for k, v in os.environ.items() if k != "RAY_ADDRESS"}
    env["RAY_USAGE_STATS_ENABLED"] = "0"
    args = [sys.executable, "-m", "golf", "simulate", "--bots", "greedy,random", "--games",
            "12", "--seed", "2", "--rule", "holes=2", "--json", "-q"]
    on_ray = subprocess.run([*args, "--ray", "--workers", "2"], capture_output=True,
                            text=True, env=env, timeout=300, cwd=tmp_path)
    assert on_ray.returncode == 0, on_ray.stderr
    local = subprocess.run([*args, "--workers", "1"], capture_output=True, text=True,
                           env=env, timeout=300, cwd=tmp_path)
    assert json.loads(on_ray.stdout) == json.loads(local.stdout)


def test_run_matches_takes_a_backend(cluster: str) -> None:
    on_ray = run_matches(ONE, 3, ["greedy", "easy"], 6, seed=8, backend=RayBackend(cluster))
    assert on_ray == run_matches(ONE, 3, ["greedy", "easy"], 6, seed=8, workers=1)


def test_an_unreachable_address_is_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    from ray_cluster import free_port

    port = free_port()  # nobody listens there
    assert main(["simulate", "--games", "2", "-q", "--ray", f"127.0.0.1:{port}"]) == 2
    err = capsys.readouterr().err
    assert "cannot reach the Ray cluster" in err and "Traceback" not in err


@pytest.mark.parametrize("port", ["²", "٣", "٦٣٧٩"])
def test_a_port_in_other_digits_is_not_read_as_a_number(port: str) -> None:
    # "²" made int() raise a bare ValueError; "٣" was read as port 3 (nobody there:
    # "cannot reach"). Neither is a port: the address goes to Ray as written.
    from golf.backend import _check_reachable

    assert _check_reachable(f"127.0.0.1:{port}", timeout=1) is None


def test_a_lab_sweep_on_the_cluster_equals_a_local_one(cluster: str, tmp_path: Path) -> None:
    """golf lab sweep --ray: every option's figures as a local pool finds them (issue 31)."""
    args = ["lab", "sweep", "six-card", "--players", "2", "--deals", "2", "--skill-deals", "0",
            "--engine", "python", "--quiet"]
    assert main([*args, "--ray", cluster, "--out", str(tmp_path / "ray")]) == 0
    assert main([*args, "--workers", "2", "--out", str(tmp_path / "local")]) == 0
    on_ray = json.loads((tmp_path / "ray.json").read_text())
    local = json.loads((tmp_path / "local.json").read_text())
    # Only the line naming what ran it differs.
    assert on_ray.pop("backend") != local.pop("backend")
    assert on_ray == local and len(on_ray["options"]) == on_ray["jobs"] - 1

"""Smoke runs of the learning examples (a few thousand steps): they run, learn through
the real libraries and log what docs/rl.md says they log. The full runs and their
measured results are in docs/rl.md."""

from __future__ import annotations

import importlib.util
import math
import sys
from pathlib import Path
from types import ModuleType

import pytest

EXAMPLES = Path(__file__).resolve().parents[2] / "examples"


def load(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"example_{name}", EXAMPLES / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_maskable_ppo_example_trains_against_random_then_greedy(
        capsys: pytest.CaptureFixture[str], tmp_path: Path,
        monkeypatch: pytest.MonkeyPatch) -> None:
    # Where sb3's default logger would make its folder: the example leaves none behind.
    monkeypatch.setenv("SB3_LOGDIR", str(tmp_path / "sb3"))
    results = load("maskable_ppo").main([
        "--random-steps", "2048", "--greedy-steps", "1024", "--envs", "2",
        "--log-every", "512", "--eval", "20", "--seed", "3"])
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0].split()[:5] == ["steps", "against", "learner", "opponent", "holes"]
    logged = [ln.split() for ln in lines if ln.startswith(" ") and len(ln.split()) == 6]
    assert {row[1] for row in logged} == {"random", "greedy"}
    assert lines[-1].split()[1:3] == ["steps", "in"]
    assert int(logged[-1][0]) >= 3072 and all(0 <= float(row[2]) < 100 for row in logged)
    assert out.count("  vs random ") == 2 and out.count("  vs greedy ") == 2
    assert [p["trained_against"] for p in results["phases"]] == ["random", "greedy"]
    assert results["phases"][-1]["steps"] >= 3072
    for phase in results["phases"]:
        for ev in phase["eval"]:
            assert math.isfinite(ev["learner"]) and 0 <= ev["wins"] <= 1
    assert results["cpu_seconds"] > 0
    assert not (tmp_path / "sb3").exists()


def test_self_play_example_learns_on_the_aec_env(capsys: pytest.CaptureFixture[str]) -> None:
    log = load("self_play").main(["--holes", "300", "--every", "150", "--measure", "40"])
    out = capsys.readouterr().out
    assert [row["holes"] for row in log] == [150, 300]
    assert len([ln for ln in out.splitlines() if ln.split()[:1] == ["300"]]) == 1
    # Random play scores about 30 a hole; 300 holes of self-play already do better.
    assert log[-1]["random"] < 28

"""A save names its bots; ``cmd:`` bots start programs, so ``golf resume`` starts them
only with consent and ``golf replay`` never does (issue 24)."""

from __future__ import annotations

import os
import shlex
import subprocess
import sys
from pathlib import Path

import golf
from golf.table import SeatSpec, save_json

SRC = str(Path(__file__).resolve().parents[1] / "src")


def _save(tmp_path: Path) -> tuple[Path, Path]:
    marker = tmp_path / "ran"
    spec = "cmd:bash -c " + shlex.quote("touch " + shlex.quote(str(marker)))
    game = golf.Game("six-card", 2, seed=3)
    seats = [SeatSpec("Mallory", spec, 1), SeatSpec("Eve", spec, 2)]
    path = tmp_path / "sent.json"
    path.write_text(save_json(game, seats, {}), encoding="utf-8")
    return path, marker


def _golf(*args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": SRC}
    return subprocess.run([sys.executable, "-m", "golf", *args], capture_output=True,
                          text=True, stdin=subprocess.DEVNULL, env=env, timeout=60)


def test_resume_refuses_programs_without_consent(tmp_path: Path) -> None:
    path, marker = _save(tmp_path)
    p = _golf("resume", "--plain", str(path))
    assert p.returncode != 0
    assert "would start programs" in p.stderr and "--allow-programs" in p.stderr
    assert "touch" in p.stderr  # the command itself is shown
    assert "Traceback" not in p.stderr
    assert not marker.exists()


def test_resume_starts_programs_with_allow_programs(tmp_path: Path) -> None:
    path, marker = _save(tmp_path)
    _golf("resume", "--plain", "--delay", "0", "--allow-programs", str(path))
    assert marker.exists()


def test_replay_never_starts_programs(tmp_path: Path) -> None:
    path, marker = _save(tmp_path)
    p = _golf("replay", "--all", str(path))
    assert p.returncode == 0, p.stderr
    assert not marker.exists()

"""The README's examples are true: its Python blocks run, and its command-line
examples of the engine exit 0 with the output they promise."""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from golf.cli import main

README = (Path(__file__).resolve().parents[1] / "README.md").read_text(encoding="utf-8")


def _blocks(lang: str) -> list[str]:
    return re.findall(rf"```{lang}\n(.*?)```", README, flags=re.S)


@pytest.mark.parametrize("code", _blocks("python"))
def test_python_examples_run(code: str) -> None:
    exec(compile(code, "README.md", "exec"), {})


def _engine_commands() -> list[str]:
    cmds = []
    for block in _blocks("sh"):
        for line in block.splitlines():
            cmd = line.split("  #")[0].strip()
            if cmd.startswith("golf ") and cmd.split()[1] in ("variants", "score", "demo"):
                cmds.append(cmd)
    return cmds


def test_readme_lists_engine_commands() -> None:
    assert len(_engine_commands()) >= 4


@pytest.mark.parametrize("cmd", _engine_commands())
def test_command_examples_succeed(cmd: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(shlex.split(cmd)[1:]) == 0
    out = capsys.readouterr().out
    assert out.strip(), f"{cmd} printed nothing"
    if " score " in f" {cmd} ":
        assert "total:" in out

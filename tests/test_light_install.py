"""`make run` installs only the `web` extra: the command line and the server must start
without the other extras' packages. A subprocess hides them from the import system (a
real ImportError, as on a light install) and builds every command's parser and the app;
then `golf play` and a real `golf serve`, with the same packages hidden, play against
every bot level and give hints (the coach there is the pure-Python expert: the search
bot needs numpy and numba, which a light install does not bring)."""

from __future__ import annotations

import asyncio
import os
import random
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest

# Packages of the extras that `make run` does not install (sim, rl, openspiel, fast,
# learn, text, ray, dev's browser driver).
HIDDEN = ["numpy", "matplotlib", "gymnasium", "pettingzoo", "pyspiel", "numba", "ray",
          "textarena", "torch", "stable_baselines3", "sb3_contrib", "playwright"]

SCRIPT = textwrap.dedent("""
    import sys
    HIDDEN = set(sys.argv[1].split(","))

    class Hide:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in HIDDEN:
                raise ImportError(f"No module named {name!r} (hidden: a light install)")
            return None

    sys.meta_path.insert(0, Hide())
    from golf.cli import build_parser, main
    parser = build_parser()
    for command in ("arena", "simulate", "tournament", "play", "serve", "variants"):
        try:
            main([command, "--help"])
        except SystemExit as e:
            assert e.code == 0, (command, e.code)
    from golf.server.app import Config, create_app
    create_app(Config())
    print("started without the extras", flush=True)
    import numpy  # the blocker works: this must fail
""")


def test_the_cli_and_the_server_start_without_the_optional_extras(tmp_path: Path) -> None:
    src = str(Path(__file__).resolve().parents[1] / "src")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([src, os.environ.get("PYTHONPATH", "")])}
    run = subprocess.run([sys.executable, "-c", SCRIPT, ",".join(HIDDEN)], cwd=tmp_path,
                         env=env, capture_output=True, text=True, timeout=120)
    assert "started without the extras" in run.stdout, run.stderr[-2000:]
    assert "hidden: a light install" in run.stderr, run.stderr[-2000:]
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith("ImportError: No module named 'numpy'"), run.stderr[-2000:]


#: Installed by PYTHONPATH in a child process: every import of a hidden package fails there.
SITECUSTOMIZE = textwrap.dedent("""
    import os
    import sys
    HIDDEN = set(os.environ["GOLF_TEST_HIDDEN"].split(","))

    class Hide:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in HIDDEN:
                raise ImportError(f"No module named {name!r} (hidden: a light install)",
                                  name=name.split(".")[0])
            return None

    sys.meta_path.insert(0, Hide())
    print("light install: hiding the optional extras", file=sys.stderr, flush=True)
""")


def light_env(tmp_path: Path) -> dict[str, str]:
    """The environment of a child process that runs as on a light install."""
    site = tmp_path / "light-site"
    site.mkdir(exist_ok=True)
    (site / "sitecustomize.py").write_text(SITECUSTOMIZE, encoding="utf-8")
    src = str(Path(__file__).resolve().parents[1] / "src")
    return {**os.environ, "GOLF_TEST_HIDDEN": ",".join(HIDDEN),
            "PYTHONPATH": os.pathsep.join([str(site), src, os.environ.get("PYTHONPATH", "")])}


def test_golf_play_starts_and_hints_without_the_optional_extras(tmp_path: Path) -> None:
    for level in ("easy", "medium", "hard"):
        run = subprocess.run([sys.executable, "-m", "golf", "play", "--bots", level],
                             input="hint\nq\n", cwd=tmp_path, env=light_env(tmp_path),
                             capture_output=True, text=True, timeout=120)
        assert "hiding the optional extras" in run.stderr, run.stderr[-2000:]
        assert run.returncode == 0, (level, run.stdout[-2000:], run.stderr[-2000:])
        assert "Hint:" in run.stdout, run.stdout[-2000:]


def test_the_server_plays_every_level_and_hints_without_the_optional_extras(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent / "server"))
    from harness import Client, ServerProcess, ended_a_hole

    for key, value in light_env(tmp_path).items():
        monkeypatch.setenv(key, value)
    server = ServerProcess(tmp_path)
    server.start()

    async def play_a_hole(level: str) -> list[dict[str, Any]]:
        """Six-card, two seats (the ladder's own rules: where the coach would be the
        search bot): a person against ``level`` plays a whole hole and asks for a hint
        on each of their turns; the hints answered."""
        t = server.create("six-card", seats=[{"kind": "human"}, {"kind": "bot", "bot": level}])
        server.start_table(t["table"]["id"], t["token"])
        c = await Client(server.ws_url, t["table"]["id"], t["token"]).connect()
        rng = random.Random(level)
        hints: list[dict[str, Any]] = []
        try:
            await c.wait(lambda x: x.state is not None, what="the first state")
            while c.state is not None and not ended_a_hole(c.state) and not c.over:
                s = c.state
                if not s["your_turn"]:
                    v = s["version"]
                    await c.wait(lambda x, v=v: x.version > v or bool(x.closes),
                                 what="a move")
                    assert not c.closes, c.closes
                    continue
                n = len(c.frames)
                await c.send({"type": "hint", "version": s["version"]})
                await c.wait(lambda x, n=n: any(f["type"] in ("hint", "error")
                                                for f in x.frames[n:]) or bool(x.closes),
                             timeout=60, what="the hint")
                assert not c.closes and not c.errors, (c.closes, c.errors)
                hints.append(next(f for f in c.frames[n:] if f["type"] == "hint"))
                await c.act(rng.choice(s["legal_actions"]), s["version"])
                await c.wait(lambda x, v=s["version"]: x.version > v or bool(x.errors),
                             what="my move")
                assert not c.errors, c.errors
        finally:
            await c.close()
        return hints

    try:
        for level in ("easy", "medium", "hard"):
            hints = asyncio.run(play_a_hole(level))
            assert hints and all(h["options"] for h in hints), (level, hints[:2])
    finally:
        server.stop()
    log = server.log.read_text(errors="replace")
    assert "hiding the optional extras" in log
    assert "needs" not in log and "Traceback" not in log, log[-3000:]


def test_a_command_that_needs_an_extra_says_which(tmp_path: Path) -> None:
    for command in (["lab", "table"], ["lab", "six-card", "--engine", "compiled"],
                    ["simulate", "--bots", "search,easy", "--games", "1"]):
        run = subprocess.run([sys.executable, "-m", "golf", *command], cwd=tmp_path,
                             env=light_env(tmp_path), capture_output=True, text=True,
                             timeout=120)
        assert run.returncode != 0 and "Traceback" not in run.stderr, run.stderr[-2000:]
        assert "golf-cards[fast]" in run.stderr, run.stderr[-2000:]


def test_the_lab_plays_at_python_tables_without_the_optional_extras(tmp_path: Path) -> None:
    """``golf lab`` needs neither numpy nor numba with the engine's own tables: slower,
    and it says so (and how to get the compiled core). ``auto`` falls back to them."""
    for engine in ("python", "auto"):
        run = subprocess.run([sys.executable, "-m", "golf", "lab", "six-card", "--rule",
                              "knock=true", "--deals", "3", "--skill-deals", "2",
                              "--engine", engine, "--json", "r.json"],
                             cwd=tmp_path, env=light_env(tmp_path), capture_output=True,
                             text=True, timeout=300)
        assert "hiding the optional extras" in run.stderr, run.stderr[-2000:]
        assert run.returncode == 0, (engine, run.stdout[-2000:], run.stderr[-2000:])
        assert "Traceback" not in run.stderr
        assert "engine: python" in run.stdout and "knocks per hole" in run.stdout
        assert "expert beats greedy by" in run.stdout, run.stdout
        assert "golf-cards[fast]" in run.stdout + run.stderr, (run.stdout, run.stderr)
        assert "slower" in run.stdout + run.stderr
        assert (tmp_path / "r.json").exists()

"""`make run` installs only the `web` extra: the command line and the server must start
without the other extras' packages. A subprocess hides them from the import system (a
real ImportError, as on a light install) and builds every command's parser and the app."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

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

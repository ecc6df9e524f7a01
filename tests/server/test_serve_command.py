"""`golf serve` on the command line: its help and its refusals."""

from __future__ import annotations

import subprocess
import sys


def golf(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "golf", *args], capture_output=True,
                          text=True, timeout=60)


def test_serve_help_names_every_option() -> None:
    out = golf("serve", "--help")
    assert out.returncode == 0
    for option in ("--host", "--port", "--db", "--data-dir", "--allow-origin", "--gc",
                   "--metrics", "--commit-interval", "--bot-wait", "--hole-break"):
        assert option in out.stdout


def test_serve_refuses_a_bad_port_in_one_line() -> None:
    out = golf("serve", "--port", "70000")
    assert out.returncode == 2
    assert out.stderr.strip() == "golf: error: --port must be from 1 to 65535, got 70000"


def test_serve_refuses_a_bad_commit_interval_in_one_line() -> None:
    out = golf("serve", "--commit-interval", "-1")
    assert out.returncode == 2
    assert out.stderr.strip() == ("golf: error: --commit-interval must be from 0 to 1000 ms, "
                                  "got -1")


def test_serve_refuses_a_bad_hole_break_in_one_line() -> None:
    out = golf("serve", "--hole-break", "-1")
    assert out.returncode == 2
    assert out.stderr.strip() == ("golf: error: --hole-break must be from 0 to 3600 seconds, "
                                  "got -1")

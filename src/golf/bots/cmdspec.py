"""How an external bot's spec is written: ``cmd:COMMAND`` or ``cmd[OPTIONS]:COMMAND``.

Apart from :mod:`golf.bots.external` (which runs the program) so that the registry
(:mod:`golf.bots.base`) can read such specs without importing the module that imports it.

>>> parse_cmd_spec("cmd[timeout=2]:python mybot.py")
('cmd', {'timeout': '2', 'command': 'python mybot.py'})
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..errors import GolfError

#: An external bot's options and their defaults (``command`` is the program's command line).
DEFAULTS: Mapping[str, Any] = {
    "command": "", "timeout": 5.0, "start_timeout": 10.0, "fallback": "forfeit",
    "stderr": "capture",
}


def is_cmd_spec(spec: str) -> bool:
    """True for an external bot's spec (``cmd:...`` or ``cmd[...]:...``)."""
    head = spec.lstrip()[:4].lower()
    return head in ("cmd:", "cmd[")


def parse_cmd_spec(spec: str) -> tuple[str, dict[str, str]]:
    """``("cmd", raw options)`` of an external bot's spec; the command line is the
    option ``command``."""
    text = spec.strip()
    rest = text[3:]
    opts: dict[str, str] = {}
    if rest.startswith("["):
        inside, close, after = rest[1:].partition("]")
        if not close:
            raise GolfError(f"bot spec {spec!r}: the options bracket is not closed; write "
                            "cmd[timeout=2,fallback=greedy]:COMMAND")
        opts = _bracket_options(spec, inside)
        rest = after
    if not rest.startswith(":"):
        raise GolfError(f"bot spec {spec!r}: write cmd:COMMAND or cmd[OPTIONS]:COMMAND, "
                        "e.g. cmd:python mybot.py")
    opts["command"] = rest[1:].strip()
    return "cmd", opts


def _bracket_options(spec: str, inside: str) -> dict[str, str]:
    opts: dict[str, str] = {}
    last = ""
    for part in filter(None, (p.strip() for p in inside.split(","))):
        key, eq, value = part.partition("=")
        key = key.strip()
        if last == "fallback" and ":" in opts[last] and key not in DEFAULTS:
            opts[last] += "," + part  # the fallback bot's own options: fallback=expert:a=1,b=2
            continue
        if not eq or not key:
            raise GolfError(f"bot spec {spec!r}: options in the brackets are KEY=VALUE "
                            "separated by commas")
        if key == "command":
            raise GolfError(f"bot spec {spec!r}: the command goes after the colon, not in "
                            "the brackets")
        opts[key] = value.strip()
        last = key
    return opts

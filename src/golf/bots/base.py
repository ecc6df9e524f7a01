"""The bot interface and the registry of bots by name.

A bot is built from the public rules, a seed and options, and decides from what its
seat may know: the engine's view (``Game.view(seat, codes=True)``) and the legal
actions. It never receives the game object. A spec names a bot with options:
``"expert:memory=0.6,noise=0.1"``.

The registry is an explicit table (:data:`BUILTIN`, name -> ``"module:class"``) whose
modules are imported on first use; a bot whose optional package is missing gets one
clear error naming the extra to install, and the import is not tried again.

Difficulty names (:data:`LEVELS`: ``easy``, ``medium``, ``hard``) stand for expert
specs wherever a bot is named; options given after one override its own:

>>> parse_spec("medium")
('expert', {'memory': '0.8', 'noise': '1.5'})
>>> parse_spec("easy:noise=2")
('expert', {'memory': '0.4', 'noise': '2'})
"""

from __future__ import annotations

import difflib
import importlib
from collections.abc import Callable
from typing import Any

from ..errors import GolfError
from ..rules import Rules
from .cmdspec import is_cmd_spec, parse_cmd_spec
from .interface import Bot, Option

__all__ = [
    "BUILTIN", "EXTRAS", "LEVELS", "Bot", "BotFactory", "Option", "bot_available", "bot_class",
    "bot_names", "make_bot", "parse_spec", "register", "split_specs",
]


#: The built-in bots: name -> "module:class", imported on first use, so that naming
#: one bot never loads another bot's dependencies.
BUILTIN: dict[str, str] = {
    "random": "golf.bots.random_bot:RandomBot",
    "greedy": "golf.bots.greedy:GreedyBot",
    "expert": "golf.bots.expert:ExpertBot",
    "openspiel-ismcts": "golf.envs.openspiel_bot:OpenSpielISMCTSBot",
    "search": "golf.bots.search:SearchBot",
    "fast-expert": "golf.bots.fast_expert:FastExpertBot",
}
#: The extra of ``golf-cards`` that installs a built-in bot's optional dependencies.
EXTRAS: dict[str, str] = {"openspiel-ismcts": "openspiel", "search": "fast",
                         "fast-expert": "fast"}

#: Named difficulties: the one place they are defined (docs/bots.md measures them).
LEVELS: dict[str, str] = {
    "easy": "expert:memory=0.4,noise=4",
    "medium": "expert:memory=0.8,noise=1.5",
    "hard": "expert",
}

_LOADED: dict[str, type[Bot]] = {}
#: Why a built-in bot could not be loaded: the import is tried once, not on every call
#: (retrying a missing package's import cost a fifth of a bot benchmark).
_FAILED: dict[str, str] = {}


def register(cls: type[Bot]) -> type[Bot]:
    """Class decorator: make a bot available by its ``name`` (for bots outside the
    built-in table; a built-in bot's class registering itself is harmless)."""
    _LOADED[cls.name] = cls
    _FAILED.pop(cls.name, None)
    return cls


def bot_names() -> list[str]:
    """Every bot name, built-in or registered, whether or not its extra is installed
    (:func:`bot_available` says which load)."""
    return sorted({*BUILTIN, *_LOADED})


def bot_available(name: str) -> bool:
    """True if the bot called ``name`` is known and its dependencies are installed."""
    try:
        bot_class(name)
    except GolfError:
        return False
    return True


def bot_class(name: str) -> type[Bot]:
    """The class of the bot called ``name``, imported on first use.

    >>> bot_class("greedy").__name__
    'GreedyBot'
    >>> bot_class("gredy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    golf.errors.GolfError: unknown bot 'gredy' (did you mean 'greedy'?); bots are: expert, ...
    """
    cls = _LOADED.get(name)
    if cls is not None:
        return cls
    if name in _FAILED:
        raise GolfError(_FAILED[name])
    target = BUILTIN.get(name)
    if target is None:
        close = difflib.get_close_matches(name, [*LEVELS, *bot_names()], n=3)
        hint = f" (did you mean {' or '.join(repr(c) for c in close)}?)" if close else ""
        raise GolfError(f"unknown bot {name!r}{hint}; bots are: {', '.join(bot_names())} "
                        f"(or a difficulty: {', '.join(LEVELS)})")
    module, _, attr = target.partition(":")
    try:
        loaded = getattr(importlib.import_module(module), attr)
    except ImportError as e:
        extra = EXTRAS.get(name)
        how = f"install the extra golf-cards[{extra}]" if extra else "reinstall golf-cards"
        _FAILED[name] = (f"bot {name!r} needs the optional package {e.name or e}, which is "
                         f"not installed: {how}")
        raise GolfError(_FAILED[name]) from None
    if not (isinstance(loaded, type) and issubclass(loaded, Bot)):  # pragma: no cover
        raise TypeError(f"{target} is not a Bot class")
    _LOADED[name] = loaded
    return loaded


def _convert(name: str, key: str, text: str, default: Any) -> Any:
    try:
        if isinstance(default, bool):
            if text.lower() in ("1", "true", "yes", "on"):
                return True
            if text.lower() in ("0", "false", "no", "off"):
                return False
            raise ValueError
        if isinstance(default, int | float) and not text.isascii():
            # int() and float() read other scripts' digits ("٣" is 3): numbers are
            # written in ASCII here, as everywhere people type them (golf.digits).
            raise ValueError
        if isinstance(default, int):
            return int(text)
        if isinstance(default, float):
            return float(text)
    except ValueError:
        kind = {bool: "true or false", int: "a whole number", float: "a number"}.get(
            type(default), type(default).__name__)
        raise GolfError(f"bot {name!r}: option {key}={text!r} must be {kind}") from None
    return text


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``"expert:memory=0.6,noise=0.1"`` into a name and raw options (a
    difficulty name becomes the spec it stands for; an external bot's ``cmd:COMMAND``
    keeps its command line whole, as the option ``command``)."""
    if is_cmd_spec(spec):
        return parse_cmd_spec(spec)
    name, _, rest = spec.strip().partition(":")
    opts: dict[str, str] = {}
    level = LEVELS.get(name.lower())
    if level is not None:
        name, opts = parse_spec(level)
    for part in filter(None, (p.strip() for p in rest.split(","))):
        key, eq, value = part.partition("=")
        if not eq or not key:
            raise GolfError(f"bot spec {spec!r}: options are KEY=VALUE separated by commas")
        opts[key.strip()] = value.strip()
    return name, opts


def split_specs(text: str) -> list[str]:
    """A command line's comma-separated list of bot specs, one per seat.

    A ``KEY=VALUE`` entry continues the options of the bot before it; commas inside an
    external bot's ``[...]`` options or inside quotes in its command do not split:

    >>> split_specs("expert:memory=0.5,noise=1,greedy")
    ['expert:memory=0.5,noise=1', 'greedy']
    >>> split_specs("cmd[timeout=2,fallback=greedy]:bash bot.sh 'a,b',hard")
    ["cmd[timeout=2,fallback=greedy]:bash bot.sh 'a,b'", 'hard']
    """
    out: list[str] = []
    for part in _top_level_parts(text):
        if not part:
            raise GolfError(f"bot list {text!r} has an empty entry; bots are: "
                            f"{', '.join(bot_names())}")
        if "=" in part and ":" not in part and out:
            if is_cmd_spec(out[-1]):
                raise GolfError(f"bot list {text!r}: {part!r} follows an external bot; its "
                                "options go in brackets: cmd[KEY=VALUE,...]:COMMAND")
            out[-1] += "," + part
        else:
            out.append(part)
    return out


def _top_level_parts(text: str) -> list[str]:
    """``text`` split at commas outside brackets and quotes, each part stripped."""
    parts: list[str] = []
    start, depth, quote = 0, 0, ""
    for i, ch in enumerate(text):
        if quote:
            quote = "" if ch == quote else quote
        elif ch in "'\"":
            quote = ch
        elif ch == "[":
            depth += 1
        elif ch == "]":
            depth = max(0, depth - 1)
        elif ch == "," and depth == 0:
            parts.append(text[start:i].strip())
            start = i + 1
    parts.append(text[start:].strip())
    return parts


def make_bot(spec: str, rules: Rules, seed: int = 0, *, programs: bool = False) -> Bot:
    """Build a registered bot from a spec such as ``"greedy"`` or ``"expert:memory=0.6"``.

    An external bot's spec (``cmd:COMMAND``, :mod:`golf.bots.external`) starts a program,
    so it is refused unless ``programs`` is true: a spec from someone else (a web
    client, a stored table) never runs a command. The local drivers (``golf.table``'s
    seat builders, the simulator, the command line) pass ``programs=True``."""
    name, raw = parse_spec(spec)
    cls = _external_class(spec, programs) if name == "cmd" else bot_class(name)
    options: dict[str, Any] = {}
    for key, text in raw.items():
        if key not in cls.defaults:
            allowed = ", ".join(cls.defaults) or "none"
            raise GolfError(f"bot {name!r} has no option {key!r}; its options: {allowed}")
        options[key] = _convert(name, key, text, cls.defaults[key])
    if name == "cmd":
        # The external bot builds its fallback through this registry, handed to it here
        # so that golf.bots.external need not import this module.
        options["build"] = make_bot
    return cls(rules, seed=seed, **options)


def _external_class(spec: str, programs: bool) -> type[Bot]:
    if not is_cmd_spec(spec):
        raise GolfError(f"bot spec {spec!r}: an external bot is written cmd:COMMAND, e.g. "
                        "cmd:python mybot.py")
    if not programs:
        raise GolfError(f"bot spec {spec!r} runs a program, which is not allowed here (only "
                        "golf play, golf simulate and golf resume start programs)")
    # Imported on first use, like every bot of the registry (it starts programs).
    external: type[Bot] = importlib.import_module(".external", __package__).ExternalBot
    return external


BotFactory = Callable[[Rules, int], Bot]

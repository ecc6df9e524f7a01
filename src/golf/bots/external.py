"""External bots: a program in any language plays a seat over a line protocol.

The spec ``cmd:COMMAND`` (options in brackets: ``cmd[timeout=2,fallback=greedy]:COMMAND``)
starts ``COMMAND`` (split like a POSIX shell would, but run without one) at the bot's
first decision of a match and talks to it one JSON line at a time; docs/bot-protocol.md
is the full description. The program sees exactly what a built-in bot sees - the
seat's view (``Game.view(seat, codes=True)``) and the legal actions - and nothing else:
no seed, no record.

Every failure of the program (it cannot start, answers the handshake wrongly, times
out, exits, writes garbage or an illegal action) is a message naming the bot, the seat,
what it answered and what was allowed. ``fallback=forfeit`` (the default) raises it as
a :class:`BotFailure`, which forfeits the match; ``fallback=NAME`` lets the registry
bot NAME play instead: that one decision after an illegal answer (the program is still
in step), the rest of the match once the program had to be stopped.

>>> parse_cmd_spec("cmd[timeout=2,fallback=greedy]:python examples/bots/first_legal.py")
('cmd', {'timeout': '2', 'fallback': 'greedy', 'command': 'python examples/bots/first_legal.py'})
>>> parse_cmd_spec("cmd:python bot.py --depth 2")
('cmd', {'command': 'python bot.py --depth 2'})
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
import selectors
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import weakref
from collections.abc import Callable, Mapping, Sequence
from typing import IO, Any, ClassVar

from ..actions import Action
from ..errors import GolfError, NotationError
from ..rules import Rules
from .cmdspec import DEFAULTS, is_cmd_spec, parse_cmd_spec
from .interface import Bot

__all__ = ["PROTOCOL", "BotFailure", "ExternalBot", "is_cmd_spec", "parse_cmd_spec"]

__all__ = ["PROTOCOL", "BotFailure", "ExternalBot", "is_cmd_spec", "parse_cmd_spec"]

#: The protocol version golf speaks; the program names it in its handshake answer.
PROTOCOL = "golf-bot/1"
#: How long a program may take to exit after its stdin is closed before it is killed.
EXIT_GRACE = 1.0
#: The longest line golf reads from a program (a longer one is garbage, not an answer).
MAX_LINE = 1 << 20
_STDERR_TAIL = 2000
_FALLBACKS = "forfeit or a bot name such as greedy or expert"

log = logging.getLogger(__name__)


class BotFailure(GolfError):
    """An external bot failed and its fallback is ``forfeit``: the match cannot go on.
    ``seat`` is the seat it played, ``spec`` its spec; the message says what happened."""

    def __init__(self, message: str, seat: int, spec: str) -> None:
        super().__init__(message)
        self.seat = seat
        self.spec = spec


class _Broken(Exception):
    """The program cannot go on (it is stopped): it exited, timed out or lost step."""


class _Wrong(Exception):
    """One answer was not a legal action; the program is still in step."""


def _argv(spec: str, command: str) -> list[str]:
    if sys.platform == "win32":  # pragma: no cover (reading with a time-out needs select)
        raise GolfError(f"bot spec {spec!r}: external bots need a POSIX system (Linux, macOS)")
    if not command:
        raise GolfError(f"bot spec {spec!r} names no command: write cmd:COMMAND, e.g. "
                        "cmd:python mybot.py")
    try:
        argv = shlex.split(command)
    except ValueError as e:
        raise GolfError(f"bot spec {spec!r}: cannot split the command line ({e})") from None
    if argv[0] in ("python", "python3"):
        argv[0] = sys.executable  # the Python golf runs on, with or without a venv on PATH
    program = argv[0]
    found = shutil.which(program) if os.sep not in program else (
        program if os.path.isfile(program) else None)
    if found is None:
        where = "no such file" if os.sep in program else "not found on PATH"
        raise GolfError(f"bot spec {spec!r}: cannot run {program!r} ({where})")
    return argv


# --- the running program --------------------------------------------------------------

def _shutdown(proc: subprocess.Popen[bytes], files: Sequence[IO[bytes]]) -> None:
    """Close stdin, give the program :data:`EXIT_GRACE` to exit, then kill its process
    group, and reap it (no zombies). Safe to call twice."""
    stdin = proc.stdin
    if stdin is not None and not stdin.closed:
        with contextlib.suppress(OSError):
            stdin.close()
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=EXIT_GRACE)
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)  # also whatever the program started
    proc.wait()
    for f in files:
        if not f.closed:
            f.close()


class _Program:
    """A started program: one line out, one line in, each within a deadline."""

    def __init__(self, argv: Sequence[str], capture_stderr: bool) -> None:
        self._err: IO[bytes] | None = (
            tempfile.TemporaryFile() if capture_stderr else None)  # noqa: SIM115 (closed by _shutdown)
        try:
            self.proc = subprocess.Popen(
                list(argv), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                stderr=self._err, bufsize=0, start_new_session=True)
        except OSError as e:
            if self._err is not None:
                self._err.close()
            raise _Broken(f"could not be started: {e.strerror or e}") from None
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in, self._out = self.proc.stdin, self.proc.stdout
        os.set_blocking(self._in.fileno(), False)
        self._buffer = b""
        files = [f for f in (self._out, self._err) if f is not None]
        self._finalizer = weakref.finalize(self, _shutdown, self.proc, files)

    def close(self) -> None:
        self._finalizer()

    def kill(self) -> None:
        """Stop a program that failed at once (no grace: it is out of step or stuck)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)
        self._finalizer()

    def send(self, line: str, timeout: float) -> None:
        data = (line + "\n").encode()
        deadline = time.monotonic() + timeout
        with selectors.DefaultSelector() as sel:
            sel.register(self._in, selectors.EVENT_WRITE)
            while data:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Broken(f"did not read its input within {timeout:g} s")
                if not sel.select(left):
                    continue
                try:
                    data = data[os.write(self._in.fileno(), data):]
                except BlockingIOError:
                    continue
                except (BrokenPipeError, ConnectionResetError):
                    raise _Broken(self.exited()) from None

    def receive(self, timeout: float) -> str:
        deadline = time.monotonic() + timeout
        fd = self._out.fileno()
        with selectors.DefaultSelector() as sel:
            sel.register(self._out, selectors.EVENT_READ)
            while b"\n" not in self._buffer:
                left = deadline - time.monotonic()
                if left <= 0:
                    raise _Broken(f"did not answer within {timeout:g} s")
                if not sel.select(left):
                    continue
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise _Broken(self.exited())
                self._buffer += chunk
                if len(self._buffer) > MAX_LINE:
                    raise _Broken(f"wrote more than {MAX_LINE} bytes without a newline")
        line, _, self._buffer = self._buffer.partition(b"\n")
        return line.decode("utf-8", errors="replace").strip()

    def unasked(self) -> str | None:
        """Output the program wrote that nobody asked for (a second line), if any."""
        if not self._buffer:
            with selectors.DefaultSelector() as sel:
                sel.register(self._out, selectors.EVENT_READ)
                if sel.select(0):
                    self._buffer += os.read(self._out.fileno(), 65536)
        if not self._buffer:
            return None
        return self._buffer.decode("utf-8", errors="replace").splitlines()[0][:200]

    def exited(self) -> str:
        try:
            code = self.proc.wait(timeout=EXIT_GRACE)
        except subprocess.TimeoutExpired:
            return "closed its output"
        how = f"was killed by signal {-code}" if code < 0 else f"exited with status {code}"
        return how + self.stderr_tail()

    def stderr_tail(self) -> str:
        if self._err is None or self._err.closed:
            return ""
        self._err.seek(0, os.SEEK_END)
        size = self._err.tell()
        self._err.seek(max(0, size - _STDERR_TAIL))
        text = self._err.read().decode("utf-8", errors="replace").strip()
        return f"; its stderr ended: {text!r}" if text else ""


# --- the bot --------------------------------------------------------------------------

class ExternalBot(Bot):
    """A seat played by an outside program over the ``golf-bot/1`` line protocol.

    Options: ``command`` (the command line), ``timeout`` (seconds per decision),
    ``start_timeout`` (seconds to start and answer the handshake), ``fallback``
    (``forfeit`` or a bot spec) and ``stderr`` (``capture``: kept, its end quoted in
    failure messages; ``inherit``: passed through to golf's stderr). The program is
    started at the bot's first decision and stopped by :meth:`close`, :meth:`reset`,
    a failure, or when the bot is garbage-collected.
    """

    name: ClassVar[str] = "cmd"
    defaults: ClassVar[Mapping[str, Any]] = DEFAULTS

    def __init__(self, rules: Rules, seed: int = 0, *,
                 build: Callable[..., Bot] | None = None, **options: Any) -> None:
        super().__init__(rules, seed, **options)
        # ``build(spec, rules, seed=...)`` makes the fallback bot: the registry's
        # make_bot, passed in by it (this module does not import the registry).
        self._build = build
        o = self.options
        self._argv = _argv(self.spec, str(o["command"]))
        for key in ("timeout", "start_timeout"):
            if not float(o[key]) > 0:
                raise GolfError(f"bot spec {self.spec!r}: {key} must be more than 0 seconds, "
                                f"got {o[key]}")
        if o["stderr"] not in ("capture", "inherit"):
            raise GolfError(f"bot spec {self.spec!r}: stderr must be capture or inherit, "
                            f"got {o['stderr']!r}")
        self._fallback = self._fallback_bot(str(o["fallback"]))
        self._program: _Program | None = None
        self._instead: Bot | None = None  # the fallback, once the program was stopped
        self._seat = -1
        #: The name the program gave in its handshake ("" until it answered).
        self.program_name = ""
        #: What went wrong in this match, one message per failure that a fallback covered.
        self.failures: list[str] = []

    def _fallback_bot(self, fallback: str) -> Bot | None:
        if fallback == "forfeit":
            return None
        if not fallback or is_cmd_spec(fallback):
            raise GolfError(f"bot spec {self.spec!r}: fallback must be {_FALLBACKS}, "
                            f"got {fallback!r}")
        if self._build is None:
            raise GolfError(f"bot spec {self.spec!r}: a fallback bot is built by the registry; "
                            "make this bot with golf.bots.make_bot")
        try:
            return self._build(fallback, self.rules, seed=self.seed)
        except GolfError as e:
            raise GolfError(f"bot spec {self.spec!r}: its fallback {fallback!r} is not "
                            f"usable: {e}") from None

    @property
    def spec(self) -> str:
        changed = {k: v for k, v in self.options.items()
                   if k != "command" and self.defaults.get(k) != v}
        opts = "[" + ",".join(f"{k}={v}" for k, v in changed.items()) + "]" if changed else ""
        return f"cmd{opts}:{self.options['command']}"

    # --- playing ----------------------------------------------------------------------
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action]) -> Action:
        if self._instead is not None:
            return self._instead.choose(view, legal)
        self._seat = int(view["seat"])
        try:
            program = self._program or self._start(view)
            extra = program.unasked()
            if extra is not None:
                raise _Broken(f"wrote a line nobody asked for: {extra!r} (one answer per "
                              "decision; diagnostics go to stderr)")
            message = {"type": "decide", "legal": [str(a) for a in legal], "view": view}
            timeout = float(self.options["timeout"])
            program.send(json.dumps(message, separators=(",", ":")), timeout)
            answer = program.receive(timeout)
            return self._action(answer, legal)
        except _Broken as e:
            if self._program is not None:
                self._program.kill()
                self._program = None
            return self._fail(str(e), view, legal, for_the_rest=True)
        except _Wrong as e:
            return self._fail(str(e), view, legal, for_the_rest=False)

    def _start(self, view: Mapping[str, Any]) -> _Program:
        program = _Program(self._argv, self.options["stderr"] == "capture")
        self._program = program
        rules = {k: v for k, v in self.rules.to_dict().items() if k != "sources"}
        hello = {"protocol": PROTOCOL, "seat": self._seat, "players": view["players"],
                 "rules": rules}
        timeout = float(self.options["start_timeout"])
        program.send(json.dumps(hello, separators=(",", ":")), timeout)
        self.program_name = _handshake(program.receive(timeout))
        return program

    def _action(self, answer: str, legal: Sequence[Action]) -> Action:
        allowed = ", ".join(str(a) for a in legal)
        text = answer
        if answer.startswith('"'):
            decoded = _json_or_none(answer)
            if isinstance(decoded, str):
                text = decoded
        if not text:
            raise _Wrong(f"answered an empty line; legal now: {allowed}")
        try:
            action = Action.parse(text)
        except NotationError as e:
            raise _Wrong(f"answered {answer[:200]!r}, which is not an action ({e}); legal "
                         f"now: {allowed}") from None
        if action not in legal:
            raise _Wrong(f"answered {answer[:200]!r}, which is not legal now; legal now: "
                         f"{allowed}")
        return action

    def _fail(self, what: str, view: Mapping[str, Any], legal: Sequence[Action],
              for_the_rest: bool) -> Action:
        who = f"bot {self.spec!r}" + (f" ({self.program_name})" if self.program_name else "")
        message = f"{who} in seat {self._seat} {what}"
        if self._fallback is None:
            raise BotFailure(message + "; the match is forfeited (fallback=forfeit)",
                             self._seat, self.spec)
        fallback = self.options["fallback"]
        if for_the_rest:
            self._instead = self._fallback
            message += f"; {fallback} plays the rest of the match"
        else:
            message += f"; {fallback} plays this decision"
        self.failures.append(message)
        log.warning("%s", message)
        return self._fallback.choose(view, legal)

    # --- the program's life -----------------------------------------------------------
    def _stop(self) -> None:
        if self._program is not None:
            self._program.close()
            self._program = None

    def close(self) -> None:
        """Stop the program (stdin closed, killed after :data:`EXIT_GRACE` seconds)."""
        self._stop()

    def reset(self) -> None:
        """A new match: the program is stopped (the next decision starts it afresh)."""
        self._stop()
        self._instead = None
        self.failures = []
        self.program_name = ""
        if self._fallback is not None:
            self._fallback.reset()

    def __enter__(self) -> ExternalBot:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _json_or_none(text: str) -> object:
    """The JSON value ``text`` holds, or None if it is not JSON."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return None


def _handshake(line: str) -> str:
    """The program's name from its handshake answer: ``{"protocol": "golf-bot/1",
    "name": "..."}`` or the plain line ``golf-bot/1 NAME``."""
    expected = (f"a line naming the protocol, {json.dumps({'protocol': PROTOCOL})} (with "
                f"an optional \"name\") or '{PROTOCOL} NAME'")
    protocol: object = None
    name: object = ""
    if line.startswith("{"):
        data = _json_or_none(line)
        if isinstance(data, dict):
            protocol, name = data.get("protocol"), data.get("name", "")
    elif line:
        protocol, _, name = line.partition(" ")
    if protocol is None:
        raise _Broken(f"answered the handshake with {line[:200]!r}; expected {expected}")
    if protocol != PROTOCOL:
        raise _Broken(f"speaks protocol {protocol!r}, but golf speaks {PROTOCOL!r}")
    return str(name).strip()[:60]

"""The ``golf`` command. Each subcommand lives in ``golf/commands/<name>.py`` and
registers itself through ``register(subparsers)``; errors a user can fix exit with
status 2 and one clear line, never a traceback."""

from __future__ import annotations

import argparse
import importlib
import pkgutil
import sys
from collections.abc import Sequence

from . import __version__, commands
from .errors import GolfError, UsageError

__all__ = ["UsageError", "build_parser", "main"]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="golf",
        description="The card game Golf: every variant of six-, four- and nine-card golf.",
        epilog="Run 'golf COMMAND --help' for the options of one command.",
    )
    parser.add_argument("--version", action="version", version=f"golf {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        if info.name.startswith("_"):
            continue
        module = importlib.import_module(f"{commands.__name__}.{info.name}")
        module.register(sub)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "func", None):
        parser.print_help()
        return 2
    try:
        result: int | None = args.func(args)
    except GolfError as e:
        print(f"golf: error: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("\ninterrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    return result or 0


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

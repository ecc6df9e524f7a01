"""The ``--workers`` and ``--ray [ADDRESS]`` options that the commands playing many
matches share (``simulate``, ``tournament``, ``arena``), and the backend they name."""

from __future__ import annotations

import argparse

from ..backend import LOCAL, Backend, make_backend

RAY_HELP = ("spread the matches over a Ray cluster: ADDRESS (host:port of its head, or "
            "'auto') or, without one, a Ray instance started on this machine for the run; "
            "the results are those of a local run with the same seed")


def add_backend_options(p: argparse.ArgumentParser, workers_help: str) -> None:
    """Add ``--workers N`` and ``--ray [ADDRESS]`` to a command's parser."""
    p.add_argument("--workers", "-w", type=int, default=None, help=workers_help)
    p.add_argument("--ray", nargs="?", const=LOCAL, default=None, metavar="ADDRESS",
                   help=RAY_HELP + " (needs the ray extra)")


def backend_from_args(args: argparse.Namespace, default_workers: int | None = None) -> Backend:
    """The backend of ``--workers``/``--ray`` (with ``--ray``, ``--workers`` caps the
    CPUs of a local Ray instance)."""
    workers = args.workers if args.workers is not None else default_workers
    return make_backend(workers, args.ray)

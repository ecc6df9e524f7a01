"""Where many independent jobs (matches) run: here, in a local worker pool, or on Ray.

``golf simulate``, ``golf tournament`` and ``golf arena`` hand their matches to one
:class:`Backend` and gather the results with :func:`gather`. Every job carries its own
index (a match's number, from which its seed comes), so the results are keyed by index
and put back in index order: the same seeds give the same results whatever runs them
and however many cores do, and a job that is run twice (a Ray task retried after its
worker died) still counts once.

* :class:`LocalPool`: ``workers`` processes of this machine (one: in this process).
* :class:`RayBackend`: tasks on a Ray cluster (``ray``, the ``ray`` extra): a new local
  Ray instance without an address, or the cluster at ``ADDRESS``. Jobs travel in
  chunks; a chunk whose worker dies is retried (``max_retries``).

>>> sorted(gather(LocalPool(1), abs, [-2, 1, -3]))
[1, 2, 3]
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import socket
import sys
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

from .digits import is_digits
from .errors import GolfError

__all__ = ["Backend", "LocalPool", "RayBackend", "chunk_size", "gather", "make_backend"]

J = TypeVar("J")
R = TypeVar("R")

#: The default address: start a Ray instance on this machine for the run.
LOCAL = "local"


class Backend(ABC):
    """Runs ``fn`` over indexed jobs and yields ``(index, result)`` as jobs finish, in
    any order. ``fn`` must be a module-level function (it travels by name to worker
    processes) and the jobs plain data."""

    @abstractmethod
    def run(self, fn: Callable[[J], R], jobs: Sequence[tuple[int, J]],
            ) -> Iterator[tuple[int, R]]:
        """Yield each job's index and result as it finishes."""

    @abstractmethod
    def describe(self) -> str:
        """Where the jobs run, for a report line (after :meth:`run`: with its cores)."""


def gather(
    backend: Backend, fn: Callable[[J], R], jobs: Sequence[J],
    progress: Callable[[int, int], None] | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """``[fn(job) for job in jobs]`` on ``backend``, in job order; ``on_result(index,
    result)`` and ``progress(done, total)`` as jobs finish. A result that arrives twice
    for one index counts once."""
    out: dict[int, R] = {}
    total = len(jobs)
    for index, result in backend.run(fn, list(enumerate(jobs))):
        if index in out:  # a retried job: its first result stands
            continue
        out[index] = result
        if on_result is not None:
            on_result(index, result)
        if progress is not None:
            progress(len(out), total)
    missing = [i for i in range(total) if i not in out]
    if missing:  # a backend bug, never a user's: say so loudly
        raise RuntimeError(f"{len(missing)} jobs never finished (first: {missing[0]})")
    return [out[i] for i in range(total)]


def chunk_size(jobs: int, cores: int, most: int = 64) -> int:
    """Jobs per task: about eight tasks per core, so that cores stay busy to the end and
    a lost task costs little, but no more than ``most``.

    >>> chunk_size(400, 2), chunk_size(1_000_000, 100), chunk_size(3, 8)
    (25, 64, 1)
    """
    return max(1, min(most, jobs // (max(1, cores) * 8)))


def _call(item: tuple[Callable[[J], R], int, J]) -> tuple[int, R]:
    fn, index, job = item
    return index, fn(job)


def _call_chunk(fn: Callable[[J], R], chunk: Sequence[tuple[int, J]]) -> list[tuple[int, R]]:
    return [(index, fn(job)) for index, job in chunk]


class LocalPool(Backend):
    """``workers`` processes of this machine (forked; spawned on Windows); one worker
    runs the jobs in this process."""

    def __init__(self, workers: int = 1) -> None:
        if workers < 1:
            raise GolfError(f"the number of workers must be at least 1, got {workers}")
        self.workers = workers

    def run(self, fn: Callable[[J], R], jobs: Sequence[tuple[int, J]],
            ) -> Iterator[tuple[int, R]]:
        if self.workers == 1 or len(jobs) <= 1:
            for index, job in jobs:
                yield index, fn(job)
            return
        ctx = multiprocessing.get_context("spawn" if sys.platform == "win32" else "fork")
        chunk = chunk_size(len(jobs), self.workers, most=16)
        with ctx.Pool(min(self.workers, len(jobs))) as pool:
            yield from pool.imap_unordered(_call, [(fn, i, j) for i, j in jobs],
                                           chunksize=chunk)

    def describe(self) -> str:
        return f"{self.workers} local worker(s)"


class RayBackend(Backend):
    """Tasks on a Ray cluster: ``address`` ``"local"`` starts a Ray instance on this
    machine for the run (``workers`` CPUs, default all) and stops it after; another
    address joins that cluster (``ray start`` runs there; every node needs the same
    golf-cards installed). A process already connected to Ray uses its connection.

    At most ``in_flight`` tasks per cluster CPU wait at a time, so that a million
    matches do not queue a million tasks; a task whose worker dies is run again up to
    ``max_retries`` times, and its results count once (:func:`gather`)."""

    def __init__(self, address: str = LOCAL, workers: int | None = None,
                 max_retries: int = 3, chunk: int | None = None, in_flight: int = 4) -> None:
        if workers is not None and workers < 1:
            raise GolfError(f"the number of workers must be at least 1, got {workers}")
        if chunk is not None and chunk < 1:
            raise GolfError(f"the chunk size must be at least 1, got {chunk}")
        self.address = address
        self.workers = workers
        self.max_retries = max_retries
        self.chunk = chunk
        self.in_flight = in_flight
        self.cores = 0

    def run(self, fn: Callable[[J], R], jobs: Sequence[tuple[int, J]],
            ) -> Iterator[tuple[int, R]]:
        if not jobs:
            return
        ray = _import_ray()
        started = self._connect(ray)
        try:
            self.cores = max(1, int(ray.cluster_resources().get("CPU", 1)))
            task = ray.remote(num_cpus=1, max_retries=self.max_retries)(_call_chunk)
            size = self.chunk or chunk_size(len(jobs), self.cores)
            chunks = iter([list(jobs[k:k + size]) for k in range(0, len(jobs), size)])
            limit = self.in_flight * self.cores
            fn_ref = ray.put(fn)
            pending: list[Any] = []
            while True:
                while len(pending) < limit and (chunk := next(chunks, None)) is not None:
                    pending.append(task.remote(fn_ref, chunk))
                if not pending:
                    break
                ready, pending = ray.wait(pending, num_returns=1)
                for ref in ready:
                    yield from _result(ray, ref, self.max_retries)
        finally:
            if started:
                ray.shutdown()

    def _connect(self, ray: Any) -> bool:
        """Connect unless connected already; True when this run started the connection."""
        if self.address != LOCAL:
            _check_reachable(self.address)
        if ray.is_initialized():
            return False
        options: dict[str, Any] = {"logging_level": logging.WARNING,
                                   "configure_logging": True}
        if self.address == LOCAL:
            options.update(address="local", include_dashboard=False,
                           num_cpus=self.workers or os.cpu_count() or 1)
        else:
            options.update(address=self.address)
        try:
            ray.init(**options)
        except (ConnectionError, ValueError, RuntimeError) as e:
            raise GolfError(f"cannot reach the Ray cluster at {self.address!r}: {e}") from None
        return True

    def describe(self) -> str:
        where = "a local Ray instance" if self.address == LOCAL else f"Ray at {self.address}"
        return f"{where} ({self.cores} CPUs)" if self.cores else where


def _result(ray: Any, ref: Any, retries: int) -> list[tuple[int, Any]]:
    """A finished task's results; its error as the error it was (a GolfError stays one)."""
    try:
        out: list[tuple[int, Any]] = ray.get(ref)
    except ray.exceptions.RayTaskError as e:
        cause = getattr(e, "cause", None)
        if isinstance(cause, Exception):
            raise cause from None
        raise
    except (ray.exceptions.WorkerCrashedError, ray.exceptions.NodeDiedError) as e:
        raise GolfError(f"a Ray task's worker died {retries + 1} times; giving up: "
                        f"{type(e).__name__}") from None
    return out


def _check_reachable(address: str, timeout: float = 5.0) -> None:
    """Fail fast on a ``host:port`` nobody answers at (Ray itself retries for minutes)."""
    host, sep, port = address.removeprefix("ray://").rpartition(":")
    if not sep or not is_digits(port):
        return  # "auto" and the like: Ray finds the cluster itself
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise GolfError(f"cannot reach the Ray cluster at {address!r}: {e.strerror or e}; "
                        "is 'ray start --head' running there?") from None


def _import_ray() -> Any:
    try:
        import ray
    except ImportError:
        raise GolfError("--ray needs the ray package: pip install 'golf-cards[ray]'") from None
    return ray


def make_backend(workers: int | None = None, ray: str | None = None) -> Backend:
    """The backend a command's ``--workers`` and ``--ray [ADDRESS]`` name: Ray when
    ``ray`` is given (``"local"`` for a new local instance), else a local pool of
    ``workers`` processes (default: the CPUs of this machine)."""
    if ray is not None:
        return RayBackend(ray or LOCAL, workers)
    count = workers if workers is not None else (os.cpu_count() or 1)
    return LocalPool(count)

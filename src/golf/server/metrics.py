"""What the server process spends its time on, for benchmarks (``golf serve --metrics``).

Off by default: nothing here runs unless the operator asks for it. When on:

* a loop-lag monitor: a task that asks to wake every ``TICK`` seconds and records how late
  it woke; the worst lateness is the longest time the event loop could not run anything
  (a garbage collection, a slow callback);
* garbage collections timed through ``gc.callbacks``, per generation: how many, the longest
  and the total pause, and how many objects they freed;
* a stall watcher: a thread that, when the loop has not woken for ``STALL`` seconds,
  records what the loop thread is running at that moment (its Python stack), so a long
  pause can be traced to its code;
* the process's CPU time per kind of thread, read from ``/proc/self/task``: the event loop
  (the main thread), the bots (the default executor's worker threads, where bots compute),
  the database driver's thread (aiosqlite), and the rest.

``GET /api/debug/metrics`` answers all of it (and resets the maxima when asked with
``?reset=1``), so a benchmark can read the server's own figures for a measuring window.

The collection policy (``golf serve --gc``) lives here too: ``python`` leaves Python's
defaults, ``steady`` keeps the loop from stopping for long (see :func:`apply_gc_policy`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import os
import sys
import threading
import time
import traceback
from collections.abc import Callable
from typing import Any

#: How often the lag monitor asks to be woken.
TICK = 0.01
#: The ``steady`` policy: young collections after this many net allocations (Python: 700),
#: so they come ~70 times less often and each still scans only the young objects.
STEADY_GEN0 = 50_000
#: The ``steady`` policy moves every tracked object to the permanent generation this often
#: (seconds; ``gc.freeze`` only joins lists, it scans nothing), so a young collection
#: never scans more than what was made since.
STEADY_FREEZE_EVERY = 1.0
#: ... and a full collection (everything unfrozen, collected, frozen again) runs only when
#: the process's memory has grown this many times since the last one and more than its
#: live tables explain: the sign of cyclic garbage that was frozen. Young cycles are
#: collected before every freeze and a table leaves memory by reference counting alone,
#: so in steady play none comes at all.
STEADY_FULL_GROWTH = 2.0
GC_POLICIES = ("python", "steady")
#: A loop that has not woken for this long (seconds) is stalled: its stack is recorded.
STALL = 0.04
#: The stalls kept (the latest), each with its stack.
STALLS_KEPT = 8


class Metrics:
    """The figures of one server process since the last reset."""

    # The window's figures (reset() sets them).
    lag_max: float
    lag_total: float
    lag_max_at: float
    _since: float
    ticks: int
    stalls: list[dict[str, Any]]

    def __init__(self) -> None:
        #: Per generation: collections, their longest and total pause, objects freed.
        self.gc: dict[int, dict[str, float]] = {g: {} for g in range(3)}
        self._gc_start = 0.0
        self._gc_cpu = 0.0
        self._task: asyncio.Task[None] | None = None
        #: When the lag monitor last woke (perf_counter).
        self._beat = time.perf_counter()
        self._watching = threading.Event()
        self.reset()

    def start(self) -> None:
        gc.callbacks.append(self._on_gc)
        self._task = asyncio.get_running_loop().create_task(self._watch_lag())
        loop_thread = threading.get_ident()
        self._watching.set()
        threading.Thread(target=self._watch_stalls, args=(loop_thread,), daemon=True,
                         name="golf-stall-watch").start()

    def stop(self) -> None:
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        if self._task is not None:
            self._task.cancel()
        self._watching.clear()

    def _watch_stalls(self, loop_thread: int) -> None:
        """Record the loop thread's stack once per stall (runs on its own thread)."""
        caught = 0.0  # the beat of the stall recorded last
        while self._watching.is_set():
            time.sleep(STALL / 4)
            beat = self._beat
            if beat == caught or time.perf_counter() - beat < STALL:
                continue
            frame = sys._current_frames().get(loop_thread)
            if frame is None:
                continue
            caught = beat
            stack = traceback.format_stack(frame, limit=14)
            self.stalls.append({"after_ms": round((time.perf_counter() - beat) * 1000, 1),
                                "in_collection": self._gc_start > beat,
                                "stack": "".join(stack)})
            del self.stalls[:-STALLS_KEPT]

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_start = time.perf_counter()
            self._gc_cpu = time.thread_time()
            return
        ms = (time.perf_counter() - self._gc_start) * 1000
        # The collection's own work; the wall time also counts a busy machine's waits.
        cpu_ms = (time.thread_time() - self._gc_cpu) * 1000
        g = self.gc[info["generation"]]
        g["count"] += 1
        g["total_ms"] += ms
        g["max_ms"] = max(g["max_ms"], ms)
        g["max_cpu_ms"] = max(g["max_cpu_ms"], cpu_ms)
        g["collected"] += info.get("collected", 0)

    async def _watch_lag(self) -> None:
        while True:
            t = time.perf_counter()
            await asyncio.sleep(TICK)
            self._beat = now = time.perf_counter()
            late = now - t - TICK
            self.ticks += 1
            self.lag_total += max(0.0, late)
            if late > self.lag_max:
                self.lag_max, self.lag_max_at = late, now - self._since

    def reset(self) -> None:
        """Start a new window: the pauses, the collections and the stalls seen from now."""
        self.lag_max = 0.0
        self.lag_total = 0.0
        #: When the longest pause ended, in seconds from the start of the window.
        self.lag_max_at = 0.0
        self._since = time.perf_counter()
        self.ticks = 0
        self.stalls = []
        for g in self.gc.values():
            g.update(count=0, max_ms=0.0, total_ms=0.0, max_cpu_ms=0.0, collected=0)

    def snapshot(self, frozen: bool = False) -> dict[str, Any]:
        """The figures; ``frozen`` adds the collector's frozen count, which Python finds by
        walking every frozen object (about 0.1 s at 2,000 tables, holding the loop), so it
        is left out unless asked for: a benchmark asks only after its window."""
        out = {
            "loop_lag_max_ms": round(self.lag_max * 1000, 2),
            "loop_lag_max_at_s": round(self.lag_max_at, 2),
            "loop_lag_mean_ms": round(self.lag_total * 1000 / max(1, self.ticks), 3),
            "gc": {str(g): {k: round(v, 2) for k, v in d.items()} for g, d in self.gc.items()},
            "gc_threshold": list(gc.get_threshold()),
            "gc_count": list(gc.get_count()),
            "cpu_s": thread_cpu(),
            "rss_mb": rss_mb(),
            "stalls": list(self.stalls),
        }
        if frozen:
            out["gc_frozen"] = gc.get_freeze_count()
        return out


def garbage_census(top: int = 40) -> dict[str, Any]:
    """What only the cycle collector can free, by type: everything is unfrozen and collected
    in full once with ``gc.DEBUG_SAVEALL`` (so the garbage is kept to be counted, then freed
    by a second collection), and frozen again if it was; with the tracked objects alive, by
    type. A debugging aid for ``--metrics`` (``GET /api/debug/garbage``): it holds the loop
    for two full collections and a walk of the heap (over a second at 1,000 tables)."""
    frozen = gc.get_freeze_count() > 0
    gc.unfreeze()
    flags = gc.get_debug()
    start = time.perf_counter()
    gc.set_debug(flags | gc.DEBUG_SAVEALL)
    try:
        gc.collect()
    finally:
        gc.set_debug(flags)
    by_type = _by_type(gc.garbage)
    gc.garbage.clear()
    gc.collect()
    ms = (time.perf_counter() - start) * 1000
    alive = _by_type(gc.get_objects())
    if frozen:
        gc.freeze()
    return {"objects": sum(by_type.values()), "ms": round(ms, 1),
            "by_type": dict(list(by_type.items())[:top]),
            "golf": {k: v for k, v in by_type.items() if k.startswith("golf.")},
            "tracked": sum(alive.values()), "tracked_by_type": dict(list(alive.items())[:top])}


def _by_type(objects: list[Any]) -> dict[str, int]:
    """How many of each type (module.qualname), most first."""
    counts: dict[str, int] = {}
    for obj in objects:
        t = type(obj)
        name = f"{t.__module__}.{t.__qualname__}"
        counts[name] = counts.get(name, 0) + 1
    return dict(sorted(counts.items(), key=lambda kv: -kv[1]))


def thread_cpu() -> dict[str, float]:
    """CPU seconds (user + system) of this process's threads, by kind."""
    kinds: dict[int, str] = {}
    main = threading.main_thread().native_id
    for t in threading.enumerate():
        if t.native_id is None:
            continue
        if t.native_id == main:
            kinds[t.native_id] = "loop"
        elif t.name.startswith(("asyncio_", "ThreadPoolExecutor-")):
            kinds[t.native_id] = "bots"  # the loop's default executor: asyncio.to_thread
        elif "_connection_worker_thread" in t.name or t.name.startswith("golf-db"):
            kinds[t.native_id] = "db"  # aiosqlite's thread, the store's writer thread
    out = {"loop": 0.0, "bots": 0.0, "db": 0.0, "other": 0.0}
    tick = os.sysconf("SC_CLK_TCK")
    with contextlib.suppress(OSError):
        for tid in os.listdir("/proc/self/task"):
            try:
                with open(f"/proc/self/task/{tid}/stat") as f:
                    parts = f.read().rsplit(")", 1)[1].split()
            except OSError:
                continue  # the thread ended meanwhile
            cpu = (int(parts[11]) + int(parts[12])) / tick
            out[kinds.get(int(tid), "other")] += cpu
    return {k: round(v, 3) for k, v in out.items()}


def rss_mb() -> float | None:
    with contextlib.suppress(OSError, ValueError, IndexError), open("/proc/self/statm") as f:
        return round(int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20, 1)
    return None


def apply_gc_policy(policy: str, tables: Callable[[], int] = lambda: 0
                    ) -> asyncio.Task[None] | None:
    """Set the collection policy once the server has started (its start-up objects exist).

    ``steady``: everything alive after start-up is frozen (modules, the app: never scanned
    again), young collections run after STEADY_GEN0 allocations instead of 700, automatic
    full collections are off, and every STEADY_FREEZE_EVERY seconds the objects made since
    the last freeze (the only ones not frozen) get a young collection, which frees the
    cycles that died young (an HTTP connection's objects once it became a WebSocket), and
    are frozen. A cycle that dies after it was frozen waits for a full collection, which
    holds the loop as long as a scan of the whole heap (458 ms at 1,000 tables); the server
    leaves none (a table that leaves memory is freed by reference counting, see
    tests/server/test_table_garbage.py), so one runs only as a safety net, when memory has
    grown more than the live ``tables`` explain (:func:`needs_full`).
    """
    if policy == "python":
        return None
    if policy != "steady":
        raise ValueError(f"the collection policy is one of {', '.join(GC_POLICIES)}")
    gc.collect()
    gc.freeze()
    _, gen1, _ = gc.get_threshold()
    # threshold2 0 would disable gen2 only together with others; a huge one never fires.
    gc.set_threshold(STEADY_GEN0, gen1, 1_000_000_000)
    return asyncio.get_running_loop().create_task(_freeze_forever(tables))


def needs_full(rss: float, tables: int, last_rss: float, last_tables: int,
               growth: float = STEADY_FULL_GROWTH) -> bool:
    """Whether memory grew ``growth`` times since the last full collection, and so did the
    memory per live table (the process itself counted as one more table).

    >>> needs_full(160.0, 0, 80.0, 0)      # idle, yet twice the memory: frozen garbage
    True
    >>> needs_full(231.0, 1000, 80.0, 0)   # a thousand tables came: it is their memory
    False
    >>> needs_full(470.0, 1000, 231.0, 1000)
    True
    """
    return (rss >= growth * last_rss
            and rss / (tables + 1) >= growth * last_rss / (last_tables + 1))


async def _freeze_forever(tables: Callable[[], int]) -> None:
    last_rss, last_tables = rss_mb() or 0.0, tables()
    while True:
        await asyncio.sleep(STEADY_FREEZE_EVERY)
        gc.collect(1)  # scans only what is not frozen: the objects of the last second
        rss, live = rss_mb(), tables()
        if rss is not None and last_rss and needs_full(rss, live, last_rss, last_tables):
            gc.unfreeze()
            gc.collect()
            last_rss, last_tables = rss_mb() or rss, live
        gc.freeze()

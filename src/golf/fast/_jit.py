"""The one place that imports numba: typed decorators for cached compilation.

Two kinds of compiled function: :func:`jit` (numba's default, may allocate arrays) and
:func:`core` (the state machine and the scorer: they allocate nothing, so they are
compiled without numba's reference counting). Every array a ``jit`` function passes on
is reference counted with atomic increments and decrements (``lock inc``/``lock dec``);
on a virtual machine one costs tens of nanoseconds, and the state machine's small
functions did several per action: 70 % of random play's time (``perf``: NRT_incref and
NRT_decref). A ``core`` function has none. A ``core`` function may call only ``core``
functions (numba types its callees under its own flags); a ``jit`` function may call both.
:func:`ix` makes an index that numba uses without its test for negative indices.

numba is an optional dependency (the ``fast`` extra); without it importing
:mod:`golf.fast` fails with a message saying how to install it.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar, cast

import numpy as np

try:
    import numba
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "golf.fast needs numba: install the 'fast' extra (pip install 'golf-cards[fast]')"
    ) from e



def source_key(folder: Path) -> str:
    """The name of the compiled cache for the Python sources in ``folder``: any change to
    any of them names another cache."""
    digest = hashlib.sha256()
    for source in sorted(folder.glob("*.py")):
        digest.update(source.name.encode() + b"\0" + source.read_bytes())
    return f"golf-fast-{digest.hexdigest()[:16]}"


def _cache_per_source() -> None:
    """Keep numba's disk cache per version of this package's compiled sources.

    numba checks a cached function against its own file's time stamp only, so a cached
    caller kept the old machine code of a callee in another file that had changed (the
    expert's mended flip in expert.py stayed out of ``policies.choose`` until the cache
    was cleared by hand). A directory named by a hash of every source here makes any change
    start a fresh cache. Under ``NUMBA_CACHE_DIR`` when that is set, else beside the
    package, else (a read-only install) in the user's cache directory.
    """
    here = Path(__file__).resolve().parent
    key = source_key(here)
    given = os.environ.get("NUMBA_CACHE_DIR")
    bases = [Path(given)] if given else [
        here / "__pycache__", Path(os.environ.get("XDG_CACHE_HOME", Path.home() / ".cache"))]
    for base in bases:
        where = base / key
        try:
            where.mkdir(parents=True, exist_ok=True)
        except OSError:
            continue
        if os.access(where, os.W_OK):
            # numba's own setting (what NUMBA_CACHE_DIR sets when it imports), read when
            # each cached function is decorated: below, before any is.
            setattr(numba.config, "CACHE_DIR", str(where))  # noqa: B010 - untyped in stubs
            return


_cache_per_source()

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options for :func:`core` (``_nrt`` is numba's switch for its runtime, which
#: its type stubs do not list).
_CORE: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False, "error_model": "numpy"}


def jit(f: F) -> F:
    """Compile ``f`` in nopython mode; machine code is cached on disk (a directory per
    version of these sources, :func:`_cache_per_source`), so only the first import of a
    version ever compiles."""
    return cast(F, numba.njit(cache=True, nogil=True)(f))


def inlined(f: F) -> F:
    """A :func:`core` function that numba inlines into each caller (at its IR level).

    For the small steps of the state machine that run on every action: a call between
    compiled functions passes each array as seven scalars (its data pointer, shape,
    strides, ...) through an indirect call into another compiled library, which LLVM
    cannot inline; for a function of a few loads and stores the call is most of the cost.
    """
    return cast(F, numba.njit(inline="always", **_CORE)(f))


def core(f: F) -> F:
    """Compile ``f`` like :func:`jit`, without reference counting (``_nrt=False``: it
    must not create arrays; views of its arguments are fine) and with numpy's error
    model (no exception path for integer division: divisors here are never zero)."""
    return cast(F, numba.njit(**_CORE)(f))


@inlined
def ix(i: int) -> np.uint64:
    """An array index as numba takes it without a test: a signed index costs every access
    a test for Python's negative indexing (and keeps loops from vectorising); the
    offsets into the state and config arrays never are negative."""
    return np.uint64(i)

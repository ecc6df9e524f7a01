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

from collections.abc import Callable
from typing import Any, TypeVar, cast

import numpy as np

try:
    import numba
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "golf.fast needs numba: install the 'fast' extra (pip install 'golf-cards[fast]')"
    ) from e

F = TypeVar("F", bound=Callable[..., Any])
#: numba's options for :func:`core` (``_nrt`` is numba's switch for its runtime, which
#: its type stubs do not list).
_CORE: dict[str, Any] = {"cache": True, "nogil": True, "_nrt": False, "error_model": "numpy"}


def jit(f: F) -> F:
    """Compile ``f`` in nopython mode; machine code is cached on disk (``NUMBA_CACHE_DIR``
    or ``__pycache__`` beside this package), so only the first import ever compiles."""
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

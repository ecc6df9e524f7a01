"""The one place that imports numba: a typed ``jit`` decorator (cached compilation).

numba is an optional dependency (the ``fast`` extra); without it importing
:mod:`golf.fast` fails with a message saying how to install it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

try:
    import numba
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError(
        "golf.fast needs numba: install the 'fast' extra (pip install 'golf-cards[fast]')"
    ) from e

F = TypeVar("F", bound=Callable[..., Any])


def jit(f: F) -> F:
    """Compile ``f`` in nopython mode; machine code is cached on disk (``NUMBA_CACHE_DIR``
    or ``__pycache__`` beside this package), so only the first import ever compiles."""
    return cast(F, numba.njit(cache=True, nogil=True)(f))



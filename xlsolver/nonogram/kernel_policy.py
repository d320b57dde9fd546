"""When line logic goes to the compiled kernel (:mod:`.kernel`), without importing numba.

The kernel finds exactly what the pure-Python loop finds, so this choice changes speed
only, never a result. numba is optional (``pip install 'xlsolver[fast]'``); importing
it and loading the cached kernel takes about 0.4 s (0.6 s where SciPy is installed),
more than a small puzzle's whole solve, so by default (``auto``) it is loaded only once
this process has done enough line solves in Python to pay for it (a batch, a large
board, a long-lived process). Then a propagation of the whole board goes to it at once,
a propagation from a few lines (a probe's) only after a first stretch in Python (a few
line solves cost less than moving the board over). A run under the user's time limit
does not load it (see :func:`handover_after`).
``XLSOLVER_KERNEL=off`` never uses it, ``on`` always does (from the first line solve).
"""

from __future__ import annotations

import gc
import os
from importlib import import_module
from importlib.util import find_spec
from types import ModuleType

# Line solves done in Python by this process before numba is loaded (about 0.4 s of
# line logic, the cost of the import).
KERNEL_AFTER_SOLVES = 20_000
# A propagation runs this many line solves in Python before it hands its queue over.
HANDOVER_SOLVES = 128
# The kernel gives control back after this many line solves (the user's deadline is
# checked in between).
KERNEL_CHUNK = 4_096

_python_solves = 0
_kernel: ModuleType | None = None
_available: bool | None = None
failure = ""  # why the kernel could not be loaded, when it could not


def mode() -> str:
    """``auto``, ``on`` or ``off`` (environment variable XLSOLVER_KERNEL)."""
    value = os.environ.get("XLSOLVER_KERNEL", "auto").strip().lower()
    if value in ("0", "off", "no", "false"):
        return "off"
    if value in ("1", "on", "yes", "true"):
        return "on"
    return "auto"


def available() -> bool:
    """True when numba is installed (looked up once, not imported)."""
    global _available
    if _available is None:
        _available = find_spec("numba") is not None
    return _available


def count_python_solves(count: int) -> None:
    """Add line solves the pure-Python loop has done."""
    global _python_solves
    _python_solves += count


def handover_after(whole: bool, timed: bool = False) -> int:
    """After how many line solves a propagation (of the whole board when ``whole``) hands
    over to the kernel; -1: never.

    A ``timed`` propagation (the user's time limit is running) uses a kernel already
    loaded but never loads it in ``auto``: loading cannot be stopped part way (0.4 s,
    about 4 s when it is compiled for the first time), and the time limit must stop the
    run on time.
    """
    how = mode()
    if how == "off" or not available():
        return -1
    if how == "on":
        return 0
    if _kernel is not None or (not timed and _python_solves >= KERNEL_AFTER_SOLVES):
        return 0 if whole else HANDOVER_SOLVES
    return -1


def kernel() -> ModuleType | None:
    """The compiled kernel (imported, and compiled or loaded from numba's cache, once);
    None when numba fails to load or compile it (line logic then stays in Python)."""
    global _kernel, _available, failure
    if _kernel is None and _available is not False:
        try:
            module = import_module(".kernel", __package__)
            module.warm_up()
        except Exception as exc:  # a broken numba or llvmlite must not stop a solve
            _available = False
            failure = f"{type(exc).__name__}: {exc}"
            return None
        _kernel = module
        # numba's import leaves some 100,000 objects that live as long as the process;
        # every full collection would walk them again (48 ms each here, against 7 ms
        # before: on TAAI 2011 in one process 12 s of 88). Frozen, collections skip them;
        # garbage already there is collected first, so that none is kept for good.
        gc.collect()
        gc.freeze()
    return _kernel

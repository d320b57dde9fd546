"""Arrays made on first use, so that a fast start never imports numpy.

``xlsolver solve small.non`` of a puzzle that line logic finishes prints text made from
the board's row bit masks; the numpy arrays of its Result (and the goal the file
holds) are made only when someone reads them. numpy's import alone costs more than
reading, solving and printing such a puzzle.

    shown = picture((0b011, 0b110), 3)   # rows "##." and ".##", held as masks
    shown.text()                         # ["##.", ".##"], without numpy
    shown.make()                         # the 2×3 boolean array (numpy imported now)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class Deferred:
    """An array not made yet: ``make()`` builds it from picklable parts.

    ``shape`` is known before; ``text`` (optional) gives its rows as strings without
    building it.
    """

    __slots__ = ("build", "args", "shape", "rows")

    def __init__(
        self,
        build: Callable[..., Any],
        args: tuple,
        shape: tuple[int, int],
        rows: Callable[..., list[str]] | None = None,
    ):
        self.build = build
        self.args = args
        self.shape = shape
        self.rows = rows

    def make(self) -> Any:
        """The array."""
        return self.build(*self.args)

    def text(self) -> list[str] | None:
        """Its rows as strings without numpy, None when only the array can tell."""
        return None if self.rows is None else self.rows(*self.args)


def resolve(value: Any) -> Any:
    """The value itself, or the array a :class:`Deferred` makes."""
    return value.make() if isinstance(value, Deferred) else value


class Meta(dict):
    """A puzzle's metadata; a :class:`Deferred` value is made when it is read."""

    def __getitem__(self, key):
        value = super().__getitem__(key)
        if isinstance(value, Deferred):
            value = value.make()
            super().__setitem__(key, value)
        return value

    def get(self, key, default=None):
        """``meta[key]``, or ``default``."""
        return self[key] if key in self else default

    def __iter__(self):  # not dict's own: dict(meta) and {**meta} then read through [key]
        return iter(list(super().keys()))

    def keys(self):
        """The keys (a list)."""
        return list(super().keys())

    def items(self):
        """(key, value) pairs, every value made."""
        return [(k, self[k]) for k in self]

    def values(self):
        """Every value, made."""
        return [self[k] for k in self]

    def copy(self) -> Meta:
        """A copy with every value made."""
        return Meta(self.items())

    def __reduce__(self):
        return (Meta, (self.items(),))


def bits_rows(masks: tuple[int, ...], width: int) -> list[str]:
    """Row masks (bit c = column c black) as ``#``/``.`` rows."""
    return ["".join("#" if m >> c & 1 else "." for c in range(width)) for m in masks]


def bits_array(masks: tuple[int, ...], width: int):
    """Row masks as a boolean numpy array."""
    import numpy as np

    size = (width + 7) >> 3
    raw = b"".join(m.to_bytes(size, "little") for m in masks)
    bits = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little")
    return bits.reshape(len(masks), size * 8)[:, :width].astype(bool)


def picture(masks: tuple[int, ...], width: int) -> Deferred:
    """A boolean picture (True = black) held as row masks until it is read."""
    return Deferred(bits_array, (tuple(masks), width), (len(masks), width), bits_rows)


def states_array(black: tuple[int, ...], white: tuple[int, ...], width: int, states: tuple):
    """Row masks of black and white cells as a uint8 state grid (``states`` = the two)."""
    import numpy as np

    g = np.zeros((len(black), width), dtype=np.uint8)
    g[bits_array(black, width)] = states[0]
    g[bits_array(white, width)] = states[1]
    return g


def states_rows(black: tuple[int, ...], white: tuple[int, ...], width: int, states: tuple):
    """The same grid as text: ``#`` black, ``.`` white, ``?`` unknown."""
    return [
        "".join("#" if b >> c & 1 else "." if w >> c & 1 else "?" for c in range(width))
        for b, w in zip(black, white, strict=True)
    ]


def state_grid(black, white, width: int, states: tuple) -> Deferred:
    """A state grid held as row masks until it is read."""
    args = (tuple(black), tuple(white), width, states)
    return Deferred(states_array, args, (len(black), width), states_rows)

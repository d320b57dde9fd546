"""Bit masks of one line as a person reads them: cells, spans, runs of cells.

Bit i of a mask is cell i of the line (0-based).
"""

from __future__ import annotations


def bits(mask: int) -> list[int]:
    """The set bit positions of a mask, low to high."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def span(a: int, e: int) -> int:
    """Bits a..e inclusive (empty when e < a)."""
    return ((1 << (e - a + 1)) - 1) << a if e >= a else 0


def runs_in(mask: int, n: int) -> list[tuple[int, int]]:
    """Maximal runs of set bits as (first, last)."""
    out = []
    i = 0
    while i < n:
        if mask >> i & 1:
            j = i
            while j + 1 < n and mask >> (j + 1) & 1:
                j += 1
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def start_bounds(starts: int) -> tuple[int, int]:
    """Lowest and highest start in a start mask."""
    return (starts & -starts).bit_length() - 1, starts.bit_length() - 1

"""Counting tilings breadth first: all search states of one depth at a time, in numpy.

Glossary
    state         ``(filled, used)`` as in :mod:`.solver` (covered cells, placed pieces),
                  held as a row of three arrays: ``filled`` (uint64), ``used`` (uint16)
                  and ``ways`` (int64), the number of ways the search reaches the state
    level         the states with the same number of pieces placed. The next level is
                  every state's children (a piece covering its first empty cell); equal
                  children are merged and their ways added, so a state is expanded once
                  however many paths lead to it (the memo of a depth-first count, with no
                  recursion and one numpy pass per level instead of one Python call per
                  state)
    candidates    per cell, the placements whose first cell it is, as a table padded to
                  one width with the ``pad`` mask, a cell that is always covered, so a
                  padding entry never fits
    walls         the bit shifts to a cell's four neighbours when the numbering is the
                  board's bounding box: a state with an empty cell walled in on all sides
                  is dropped as soon as it appears
    chunk         at most ``CHUNK`` states are expanded at once, to bound memory
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

CHUNK = 1 << 15  # states expanded in one numpy pass (× up to 63 candidates each)
WORD = 64  # bits in the state words


@dataclass(frozen=True)
class Numbering:
    """How cells are bits for the count: the board's own numbering or a compact one."""

    full: int  # every bit that must end covered
    pad: int  # a bit set in every state: the padding mask, which never fits
    walls: tuple[int, int, int] | None  # (stride, not_first, not_last) for the wall check
    remap: Callable[[int], int]  # a solver mask in this numbering


def numbering(nbits: int, start: int, stride: int, not_first: int, not_last: int) -> Numbering:
    """The solver's bits when they fit a word with one spare, else the free cells packed."""
    if nbits < WORD:
        pad = 1 << (WORD - 1)
        walls = (stride, not_first, not_last)
        return Numbering(((1 << nbits) - 1) | pad, pad, walls, int)
    if nbits == WORD and start:
        return Numbering((1 << WORD) - 1, start & -start, (stride, not_first, not_last), int)
    index = {bit: k for k, bit in enumerate(b for b in range(nbits) if not start >> b & 1)}
    pad = 1 << (WORD - 1)

    def remap(mask: int) -> int:
        return sum(1 << index[b] for b in range(nbits) if mask >> b & 1 and b in index)

    return Numbering(((1 << len(index)) - 1) | pad, pad, None, remap)


def candidate_table(
    placements: Sequence[tuple[int, int]], cells: int, pad: int
) -> tuple[np.ndarray, np.ndarray]:
    """``(masks, pieces)`` tables, a row per first cell (and a last row of padding)."""
    rows: list[list[tuple[int, int]]] = [[] for _ in range(cells + 1)]
    for piece, mask in placements:
        rows[(mask & -mask).bit_length() - 1].append((piece, mask))
    width = max(1, max(len(row) for row in rows))
    masks = np.full((cells + 1, width), pad, dtype=np.uint64)
    pieces = np.zeros((cells + 1, width), dtype=np.uint16)
    for i, row in enumerate(rows):
        for k, (piece, mask) in enumerate(row):
            masks[i, k] = mask
            pieces[i, k] = piece
    return masks, pieces


def _first_empty(free: np.ndarray) -> np.ndarray:
    """The index of each row's lowest set bit (rows are non-zero)."""
    low = free & (~free + np.uint64(1))
    return np.log2(low.astype(np.float64)).astype(np.intp)


def _walled_in(free: np.ndarray, walls: tuple[int, int, int]) -> np.ndarray:
    """Rows with an empty cell whose four neighbours are all covered."""
    stride, not_first, not_last = (np.uint64(w) for w in walls)
    one = np.uint64(1)
    near = ((free & not_first) >> one) | ((free & not_last) << one)
    near |= (free >> stride) | (free << stride)
    return (free & ~near) != 0


def _merge(filled: np.ndarray, used: np.ndarray, ways: np.ndarray):
    """Equal states made one, their ways added."""
    if len(filled) < 2:
        return filled, used, ways
    order = np.lexsort((used, filled))
    filled, used, ways = filled[order], used[order], ways[order]
    first = np.empty(len(filled), dtype=bool)
    first[0] = True
    first[1:] = (filled[1:] != filled[:-1]) | (used[1:] != used[:-1])
    at = np.flatnonzero(first)
    return filled[at], used[at], np.add.reduceat(ways, at)


class LevelCounter:
    """Counts the ways to finish covering from some states, one level at a time."""

    def __init__(self, placements: Sequence[tuple[int, int]], layout: Numbering):
        self.layout = layout
        self.full = np.uint64(layout.full)
        cells = max(1, (layout.full & ~layout.pad).bit_length())
        self.masks, self.pieces = candidate_table(
            [(p, layout.remap(m)) for p, m in placements], cells, layout.pad
        )
        self.expanded = 0  # states expanded so far (work done)

    def _children(self, filled: np.ndarray, used: np.ndarray, ways: np.ndarray):
        """Every child of some states: a free piece covering each one's first empty cell."""
        first = _first_empty(~filled & self.full)
        masks, pieces = self.masks[first], self.pieces[first]
        fits = ((masks & filled[:, None]) == 0) & ((pieces & used[:, None]) == 0)
        row, col = np.nonzero(fits)
        filled = filled[row] | masks[row, col]
        used = used[row] | pieces[row, col]
        ways = ways[row]
        if self.layout.walls is not None:
            alive = ~_walled_in(~filled & self.full, self.layout.walls)
            filled, used, ways = filled[alive], used[alive], ways[alive]
        return filled, used, ways

    def count(self, starts: Sequence[tuple[int, int, int]], tick: Callable[[float], None]) -> int:
        """Ways to cover every cell from ``(filled, used, ways)`` starts.

        ``tick(levels)`` is called after each chunk with the levels done so far (a
        fraction within the level being expanded); it may raise to stop the count.
        """
        pad = self.layout.pad
        filled = np.array([self.layout.remap(f) | pad for f, _, _ in starts], dtype=np.uint64)
        used = np.array([u for _, u, _ in starts], dtype=np.uint16)
        ways = np.array([w for _, _, w in starts], dtype=np.int64)
        total = level = 0
        while len(filled):
            done = filled == self.full
            total += int(ways[done].sum())
            filled, used, ways = filled[~done], used[~done], ways[~done]
            parts = []
            for at in range(0, len(filled), CHUNK):
                part = slice(at, at + CHUNK)
                parts.append(self._children(filled[part], used[part], ways[part]))
                self.expanded += min(CHUNK, len(filled) - at)
                tick(level + min(1.0, (at + CHUNK) / len(filled)))
            if not parts:
                break
            level += 1
            filled, used, ways = _merge(*(np.concatenate(p) for p in zip(*parts, strict=True)))
        return total

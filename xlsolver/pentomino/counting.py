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
    candidates    per cell, the placements whose first cell it is; states are grouped
                  by their first empty cell and each group meets only its candidates
    walls         the bit shifts to a cell's four neighbours when the numbering is the
                  board's bounding box: a state with an empty cell walled in on all sides
                  is dropped as soon as it appears
    chunk         at most ``CHUNK`` states are expanded at once, to bound memory
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

CHUNK = 1 << 15  # states expanded in one pass (× up to 63 candidates each: 16 MB)
WORD = 64  # bits in the state words
PIECE_BITS = 12  # bits of ``used``: one per piece letter


@dataclass(frozen=True)
class Numbering:
    """How cells are bits for the count: the board's own numbering or a packed one."""

    full: int  # every bit that must end covered
    walls: tuple[int, int, int] | None  # (stride, not_first, not_last) for the wall check
    remap: Callable[[int], int]  # a solver mask in this numbering


def numbering(nbits: int, start: int, stride: int, not_first: int, not_last: int) -> Numbering:
    """The solver's bits when they fit a word, else the free cells packed (no wall check)."""
    if nbits <= WORD:
        return Numbering((1 << nbits) - 1, (stride, not_first, not_last), int)
    index = {bit: k for k, bit in enumerate(b for b in range(nbits) if not start >> b & 1)}

    def remap(mask: int) -> int:
        return sum(1 << index[b] for b in range(nbits) if mask >> b & 1 and b in index)

    return Numbering((1 << len(index)) - 1, None, remap)


def candidate_rows(
    placements: Sequence[tuple[int, int]], cells: int
) -> list[tuple[np.ndarray, np.ndarray]]:
    """Per first cell, the ``(masks, pieces)`` of the placements starting there."""
    rows: list[list[tuple[int, int]]] = [[] for _ in range(cells)]
    for piece, mask in placements:
        rows[(mask & -mask).bit_length() - 1].append((piece, mask))
    return [
        (
            np.array([m for _, m in row], dtype=np.uint64),
            np.array([p for p, _ in row], dtype=np.uint16),
        )
        for row in rows
    ]


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


def _merge(filled: np.ndarray, used: np.ndarray, ways: np.ndarray, full: np.uint64):
    """Equal states made one, their ways added.

    Sorting one word is faster than two: the cells below the lowest first empty cell
    are covered in every state, so when the rest and the 12 piece bits fit a word,
    states are sorted by that word.
    """
    if len(filled) < 2:
        return filled, used, ways
    free = ~filled & full
    free = free[free != 0]
    low = int(_first_empty(free).min()) if len(free) else 0
    if int(filled.max()).bit_length() - low + PIECE_BITS <= WORD:
        order = np.argsort(((filled >> np.uint64(low)) << np.uint64(PIECE_BITS)) | used)
    else:
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
        cells = layout.full.bit_length()
        self.rows = candidate_rows([(p, layout.remap(m)) for p, m in placements], cells)
        self.expanded = 0  # states expanded so far (work done)

    def _children(self, filled: np.ndarray, used: np.ndarray, ways: np.ndarray):
        """Every child of some states: a free piece covering each one's first empty cell.

        States are grouped by their first empty cell, so each group meets only that
        cell's candidates.
        """
        first = _first_empty(~filled & self.full)
        order = np.argsort(first, kind="stable")
        first = first[order]
        cuts = [0, *(np.flatnonzero(first[1:] != first[:-1]) + 1).tolist(), len(first)]
        out = []
        for a, b in itertools.pairwise(cuts):
            at = order[a:b]
            masks, pieces = self.rows[first[a]]
            f, u = filled[at], used[at]
            row, col = np.nonzero(((f[:, None] & masks) == 0) & ((u[:, None] & pieces) == 0))
            out.append((f[row] | masks[col], u[row] | pieces[col], ways[at][row]))
        filled, used, ways = (np.concatenate(part) for part in zip(*out, strict=True))
        if self.layout.walls is not None:
            alive = ~_walled_in(~filled & self.full, self.layout.walls)
            filled, used, ways = filled[alive], used[alive], ways[alive]
        return filled, used, ways

    def count(self, starts: Sequence[tuple[int, int, int]], tick: Callable[[float], None]) -> int:
        """Ways to cover every cell from ``(filled, used, ways)`` starts.

        ``tick(levels)`` is called after each chunk with the levels done so far (a
        fraction within the level being expanded); it may raise to stop the count.
        """
        filled = np.array([self.layout.remap(f) for f, _, _ in starts], dtype=np.uint64)
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
            filled, used, ways = _merge(
                *(np.concatenate(p) for p in zip(*parts, strict=True)), self.full
            )
        return total

"""Blocks: the groups of cells on a sheet that stand apart from one another.

A block is every non-empty cell (a value, a fill, a border) within two rows and columns
of another cell of the block: two or more empty rows or columns all round part blocks,
as they part two puzzles. When a sheet cannot be read as a whole, each block is read on
its own (see :func:`layout.read_puzzles`): a table of scores or a numbered list of
instructions beside the puzzle is then a block that holds no puzzle, set aside and
reported, while a block that looks like a puzzle (a grid with clue bands on two sides
and no numbers inside) keeps its own error.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np

from ..sheets.protocol import Rect, holds
from .finder import find_grids
from .scan import CLUE, EMPTY, JUNK, STRONG, TEXT, Facts

REACH = 2  # cells this many rows or columns apart (one empty line between) join a block
MIN_SIDE = 2  # a grid narrower than this does not make a block look like a puzzle
CROWDED = 0.1  # a grid with more than this share of values inside is a table
MIN_DRAWING = 6  # 0/1 cells that make a sheet of nothing else a typed drawing


def _labels(used: np.ndarray) -> tuple[np.ndarray, int]:
    """Block numbers 1…n per used cell (0 elsewhere) and n."""
    h, w = used.shape
    label = np.zeros((h, w), dtype=np.int32)
    n = 0
    for i0, j0 in np.argwhere(used):
        if label[i0, j0]:
            continue
        n += 1
        label[i0, j0] = n
        stack = [(int(i0), int(j0))]
        while stack:
            i, j = stack.pop()
            a, b = max(i - REACH, 0), max(j - REACH, 0)
            window = used[a : i + REACH + 1, b : j + REACH + 1] & (
                label[a : i + REACH + 1, b : j + REACH + 1] == 0
            )
            for di, dj in np.argwhere(window):
                label[a + di, b + dj] = n
                stack.append((a + int(di), b + int(dj)))
    return label, n


def blocks(facts: Facts) -> list[tuple[Rect, Facts]]:
    """The blocks of a scanned sheet in reading order: each one's sheet range and a scan
    of that range holding the block's cells alone (other blocks' cells made empty)."""
    used = (facts.kind != EMPTY) | facts.filled | facts.boxed
    label, n = _labels(used)
    out = []
    for k in range(1, n + 1):
        rows, cols = np.nonzero(label == k)
        i0, i1, j0, j1 = int(rows.min()), int(rows.max()), int(cols.min()), int(cols.max())
        mine = label[i0 : i1 + 1, j0 : j1 + 1] == k
        others = ~mine & used[i0 : i1 + 1, j0 : j1 + 1]
        kind = facts.kind[i0 : i1 + 1, j0 : j1 + 1].copy()
        kind[others] = EMPTY
        strength = facts.strength[i0 : i1 + 1, j0 : j1 + 1].copy()
        strength[others] = 0
        first, last = facts.cell(i0, j0), facts.cell(i1, j1)
        rect = (*first, *last)
        sub = replace(
            facts,
            origin=first,
            values=[row[j0 : j1 + 1] for row in facts.values[i0 : i1 + 1]],
            formats=None
            if facts.formats is None
            else [row[j0 : j1 + 1] for row in facts.formats[i0 : i1 + 1]],
            kind=kind,
            strength=strength,
            filled=facts.filled[i0 : i1 + 1, j0 : j1 + 1] & mine,
            boxed=facts.boxed[i0 : i1 + 1, j0 : j1 + 1] & mine,
            formulas={c: f for c, f in facts.formulas.items() if holds(rect, c)},
        )
        out.append((rect, sub))
    return sorted(out, key=lambda item: (item[0][0], item[0][1]))


def looks_like_puzzle(facts: Facts, *, ones: bool = False) -> bool:
    """True when a block holds a grid the finder places with clue bands on two sides, at
    least MIN_SIDE cells each way, and next to nothing typed inside it (marks aside): a
    puzzle with an error of its own, not a table of numbers or a list. ``ones``: a 0 or
    1 inside counts as typed too (in a sheet of nothing else they are not marks)."""
    for g in find_grids(facts):
        w, h = max(g.clue_w, g.boxed_w), max(g.clue_h, g.boxed_h)
        if min(w, h) < MIN_SIDE or not g.clue_w or not g.clue_h:
            continue
        top, left, bottom, right = g.rects(facts, w, h)[0]
        r0, c0 = facts.origin
        rows = slice(max(top - r0, 0), max(bottom - r0 + 1, 0))
        cols = slice(max(left - c0, 0), max(right - c0 + 1, 0))
        inside = facts.kind[rows, cols]
        strong = (inside == CLUE) & (ones | (facts.strength[rows, cols] == STRONG))
        typed = strong | np.isin(inside, (JUNK, TEXT))
        if inside.size and typed.sum() <= CROWDED * inside.size:
            return True
    return False


def typed_drawing(facts: Facts) -> Rect | None:
    """The range of a picture typed in 0 and 1 (or in 1 alone) when that is all a sheet
    holds: at least MIN_DRAWING such cells, no number above 1 and no border anywhere.
    A puzzle has clues above 1, a grid drawn with borders, or an empty grid between
    bands of 1s; this is a drawing for ``make``, not clues."""
    weak = (facts.kind == CLUE) & (facts.strength != STRONG)
    if weak.sum() < MIN_DRAWING or ((facts.kind == CLUE) & ~weak).any() or facts.boxed.any():
        return None
    if looks_like_puzzle(facts, ones=True):
        return None
    rows, cols = np.nonzero(weak)
    return (
        *facts.cell(int(rows.min()), int(cols.min())),
        *facts.cell(int(rows.max()), int(cols.max())),
    )

"""Symmetries of the clues: a place to look for solutions first.

When the clues of a board are unchanged by a flip or a turn (of the box inside its empty
border lines), the same map sends every solution to a solution. Cells a symmetry maps
onto each other can share one SAT variable (:func:`substituted`), so a symmetric
solution is looked for on a fraction of the board; and a solution the map changes gives
another one for free (:func:`mirrored`).
"""

from __future__ import annotations

import numpy as np

from .board import Board


def _dihedral(h: int, w: int):
    """The picture maps of a h×w box: (name, rows/cols clue map, numpy map)."""

    def lr(rc):
        return [r[::-1] for r in rc[0]], rc[1][::-1]

    def ud(rc):
        return rc[0][::-1], [c[::-1] for c in rc[1]]

    def tr(rc):
        return rc[1], rc[0]

    maps = [
        (lr, np.fliplr),
        (ud, np.flipud),
        (lambda rc: ud(lr(rc)), lambda a: np.flipud(np.fliplr(a))),
    ]
    if h == w:
        maps += [
            (lambda rc, f=f: tr(f(rc)), lambda a, g=g: g(a).T)
            for f, g in [(lambda rc: rc, lambda a: a)] + maps
        ]
    return maps


def symmetry_maps(board: Board) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each symmetry of the clues as (cell, image) flat cell indices of its box.

    Empty border lines are left out, so a picture framed by empty lines still counts.
    """
    h, w = board.h, board.w
    rows = [tuple(c) for c in board.clues[:h]]
    cols = [tuple(c) for c in board.clues[h:]]
    used_r = [r for r in range(h) if rows[r]]
    used_c = [c for c in range(w) if cols[c]]
    if not used_r or not used_c:
        return []
    r0, r1, c0, c1 = used_r[0], used_r[-1], used_c[0], used_c[-1]
    box = (rows[r0 : r1 + 1], cols[c0 : c1 + 1])
    bh, bw = r1 - r0 + 1, c1 - c0 + 1
    idx = (np.arange(r0, r1 + 1)[:, None] * w + np.arange(c0, c1 + 1)[None, :]) + 1
    maps = []
    for clue_map, cell_map in _dihedral(bh, bw):
        mapped = clue_map(box)
        if list(mapped[0]) == list(box[0]) and list(mapped[1]) == list(box[1]):
            maps.append((idx.ravel() - 1, cell_map(idx).ravel() - 1))
    return maps


def map_pairs(cells: np.ndarray, images: np.ndarray) -> list[tuple[int, int]]:
    """The cell-variable pairs (1-based) one map makes equal."""
    return sorted(
        {(a + 1, b + 1) for a, b in zip(cells.tolist(), images.tolist(), strict=True) if a < b}
    )


def symmetric_pairs(board: Board) -> list[tuple[int, int]]:
    """Cell-variable pairs equal in a solution that keeps every symmetry of the clues.

    Any such solution is a real one; it is only a place to look first.
    """
    pairs: set[tuple[int, int]] = set()
    for cells, images in symmetry_maps(board):
        pairs.update(map_pairs(cells, images))
    return sorted(pairs)


def mirrored(board: Board, solution: np.ndarray) -> list[np.ndarray]:
    """The images of a solution under the symmetries of the clues that change it."""
    out = []
    for cells, images in symmetry_maps(board):
        flat = solution.reshape(-1).copy()
        flat[cells] = solution.reshape(-1)[images]
        image = flat.reshape(solution.shape)
        if not np.array_equal(image, solution) and not any(np.array_equal(image, o) for o in out):
            out.append(image)
    return out


def representatives(pairs: list[tuple[int, int]]) -> dict[int, int]:
    """Each variable of a pair → the smallest variable it must equal (union-find)."""
    parent: dict[int, int] = {}

    def find(x: int) -> int:
        while parent.get(x, x) != x:
            x = parent[x]
        return x

    for a, b in pairs:
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    return {v: find(v) for v in parent}


def substituted(clauses: list[list[int]], rep: dict[int, int]) -> list[list[int]]:
    """The clauses with every variable replaced by its representative.

    Clauses that hold no substituted variable are passed on as they are. A repeated
    literal or a clause with a variable in both signs is left in: the solver sorts every
    clause it is given and drops both itself (Glucose, as MiniSat does).
    """
    keys = rep.keys()
    get = rep.get
    return [
        clause
        if keys.isdisjoint(map(abs, clause))
        else [get(lit, lit) if lit > 0 else -get(-lit, -lit) for lit in clause]
        for clause in clauses
    ]

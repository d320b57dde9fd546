"""Cells that touch, grouped: the one flood fill of the pentomino reader (a board among
marks), the teaching verdict (patches two solutions disagree on) and the drawing reader
(the bordered area around a drawing's marks)."""

from __future__ import annotations

from collections.abc import Iterable

Coord = tuple[int, int]
SIDES = ((1, 0), (-1, 0), (0, 1), (0, -1))
AROUND = tuple((dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if dr or dc)


def touching(cells: Iterable[Coord], *, corners: bool = True) -> list[list[Coord]]:
    """The cells in groups that touch by sides (and ``corners``), each group sorted, in
    the order of each group's first cell among ``cells``."""
    order = list(dict.fromkeys(cells))
    todo = set(order)
    steps = AROUND if corners else SIDES
    out = []
    for cell in order:
        if cell not in todo:
            continue
        todo.discard(cell)
        group, stack = [], [cell]
        while stack:
            r, c = stack.pop()
            group.append((r, c))
            for dr, dc in steps:
                near = (r + dr, c + dc)
                if near in todo:
                    todo.discard(near)
                    stack.append(near)
        out.append(sorted(group))
    return out

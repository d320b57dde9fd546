"""Depth-first search for the logic path: guess a cell, propagate, backtrack.

Used when line logic and probing stall and a full trace is wanted (explanations,
hints, difficulty). The fast path uses the SAT back end instead (:mod:`xlsolver.nonogram.sat`).
"""

from __future__ import annotations

import time

from .board import Board, Contradiction, Timeout
from .cells import BLACK, WHITE
from .result import RULE_GUESS, SEARCH, Step


def branch_cell(board: Board) -> tuple[int, int]:
    """An unknown cell in the line with the fewest unknown cells."""
    best = None
    for line in range(board.h + board.w):
        free = board.length[line] - (board.black[line] | board.white[line]).bit_count()
        if free and (best is None or free < best[0]):
            best = (free, line)
    assert best is not None, "branch_cell on a solved board"
    line = best[1]
    known = board.black[line] | board.white[line]
    bit = ((~known) & -(~known)).bit_length() - 1
    return board.cell(line, bit)


def dfs(
    board: Board,
    found: list,
    limit: int,
    deadline: float | None,
    steps: list[Step] | None = None,
    depth: int = 0,
) -> None:
    """Append solutions of a propagated board to ``found`` until ``limit`` are known."""
    if board.solved:
        found.append(board.solution())
        return
    if deadline is not None and time.perf_counter() > deadline:
        raise Timeout
    r, c = branch_cell(board)
    for black in (True, False):
        if len(found) >= limit:
            return
        child = board.copy()
        trace = None if steps is None else []
        try:
            child.set_cell(r, c, black)
            if trace is not None:
                trace.append(
                    Step(
                        kind=SEARCH,
                        rule=RULE_GUESS,
                        cells=[(r, c, BLACK if black else WHITE)],
                        cell=(r, c),
                        assumed=BLACK if black else WHITE,
                        depth=depth + 1,
                    )
                )
            child.propagate([r, board.h + c], trace, depth + 1, deadline)
        except Contradiction:
            continue
        before = len(found)
        dfs(child, found, limit, deadline, trace, depth + 1)
        if steps is not None and len(found) > before and before == 0:
            steps.extend(trace)

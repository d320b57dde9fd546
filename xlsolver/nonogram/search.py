"""Depth-first search for the logic path: guess a cell, propagate, backtrack.

Used when line logic and probing stall and a full trace is wanted (explanations,
hints, difficulty). The fast path uses the SAT back end instead (:mod:`xlsolver.nonogram.sat`).
"""

from __future__ import annotations

from .board import Board, Contradiction, stop_if_past
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


def _set_colour(board: Board, r: int, c: int, state: int) -> None:
    """Set one cell to BLACK or WHITE."""
    board.set_cell(r, c, state == BLACK)


def _guesses(board: Board) -> tuple[int, int, tuple[int, ...]]:
    """The cell to guess and its states in order: black first."""
    r, c = branch_cell(board)
    return r, c, (BLACK, WHITE)


def dfs(
    board: Board,
    found: list,
    limit: int,
    deadline: float | None,
    steps: list[Step] | None = None,
    depth: int = 0,
) -> None:
    """Append solutions of a propagated board to ``found`` until ``limit`` are known."""
    guess_search(board, found, limit, deadline, steps, depth, _guesses, _set_colour, True)


def guess_search(board, found, limit, deadline, steps, depth, guesses, assume, clock) -> None:
    """Depth-first search on any board: ``guesses(board)`` gives a cell and its states in
    order, ``assume(child, r, c, state)`` sets one; ``clock`` checks the deadline at
    every node (else only propagation does). The trace of the first solution is kept.
    """
    if board.solved:
        found.append(board.solution())
        return
    if clock:
        stop_if_past(deadline)
    r, c, states = guesses(board)
    for state in states:
        if len(found) >= limit:
            return
        child = board.copy()
        trace = None if steps is None else []
        try:
            assume(child, r, c, state)
            if trace is not None:
                trace.append(
                    Step(
                        kind=SEARCH,
                        rule=RULE_GUESS,
                        cells=[(r, c, state)],
                        cell=(r, c),
                        assumed=state,
                        depth=depth + 1,
                    )
                )
            child.propagate([r, board.h + c], trace, depth + 1, deadline)
        except Contradiction:
            continue
        before = len(found)
        guess_search(child, found, limit, deadline, trace, depth + 1, guesses, assume, clock)
        if steps is not None and len(found) > before and before == 0:
            steps.extend(trace)

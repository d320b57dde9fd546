"""Probing: assume a cell, propagate, and learn from what happens.

A cell is *assumed* (its colour without the CONC flag) on a copy of the board and
propagated. If the assumption runs into a line with no placement (a DISCREPANCY),
the opposite colour is proved (now CONC). If both assumptions survive, every cell
they agree on is proved as well.
"""

from __future__ import annotations

from collections.abc import Iterator

from .board import Board, Contradiction, stop_if_past
from .cells import BLACK, BLACK_CONC, WHITE, WHITE_CONC
from .result import PROBE, RULE_BOTH_WAYS, RULE_CONTRADICTION, Step


def unknown_cells(board: Board) -> Iterator[tuple[int, int]]:
    """Unknown cells, most promising first: those in the most constrained rows and columns."""
    h, w = board.h, board.w
    free = [board.length[i] - (board.black[i] | board.white[i]).bit_count() for i in range(h + w)]
    cells = []
    for r in range(h):
        known = board.black[r] | board.white[r]
        for c in range(w):
            if not known >> c & 1:
                cells.append((free[r] + free[h + c], r, c))
    cells.sort()
    for _, r, c in cells:
        yield r, c


def trial(board: Board, r: int, c: int, black: bool, deadline: float | None) -> Board | None:
    """The board after assuming one cell and propagating; None on a contradiction.

    The deadline is checked here too: a trial that settles in a few line solves never
    reaches propagation's own check (a 300×300 board makes 180,000 such trials)."""
    stop_if_past(deadline)
    trial_board = board.copy()
    try:
        trial_board.set_cell(r, c, black)
        trial_board.propagate([r, board.h + c], deadline=deadline)
    except Contradiction:
        return None
    return trial_board


def probe_once(
    board: Board, steps: list[Step] | None, deadline: float | None, depth: int = 0
) -> bool:
    """One sweep of probes over the unknown cells; True when anything was proved."""
    progress = False
    for r, c in list(unknown_cells(board)):
        if board.cell_state(r, c):
            continue
        as_black = trial(board, r, c, True, deadline)
        as_white = trial(board, r, c, False, deadline)
        if as_black is None and as_white is None:
            raise Contradiction(r)
        if as_black is None or as_white is None:
            black = as_black is not None
            if steps is not None:
                steps.append(
                    Step(
                        kind=PROBE,
                        rule=RULE_CONTRADICTION,
                        cells=[(r, c, BLACK_CONC if black else WHITE_CONC)],
                        cell=(r, c),
                        assumed=WHITE if black else BLACK,
                        depth=depth,
                    )
                )
            board.set_cell(r, c, black)
            board.propagate([r, board.h + c], steps, depth, deadline)
            progress = True
            continue
        agreed = _agreement(board, as_black, as_white)
        if agreed:
            if steps is not None:
                steps.append(
                    Step(
                        kind=PROBE,
                        rule=RULE_BOTH_WAYS,
                        cells=[(rr, cc, BLACK_CONC if b else WHITE_CONC) for rr, cc, b in agreed],
                        cell=(r, c),
                        assumed=None,
                        depth=depth,
                    )
                )
            lines = set()
            for rr, cc, b in agreed:
                board.set_cell(rr, cc, b)
                lines.update((rr, board.h + cc))
            board.propagate(sorted(lines), steps, depth, deadline)
            progress = True
    return progress


def _agreement(board: Board, a: Board, b: Board) -> list[tuple[int, int, bool]]:
    """Cells unknown on the board but the same colour on both trial boards."""
    out = []
    for r in range(board.h):
        known = board.black[r] | board.white[r]
        black = a.black[r] & b.black[r] & ~known
        white = a.white[r] & b.white[r] & ~known
        for mask, colour in ((black, True), (white, False)):
            while mask:
                low = mask & -mask
                out.append((r, low.bit_length() - 1, colour))
                mask ^= low
    return out


def probe(board: Board, steps: list[Step] | None, deadline: float | None, depth: int = 0) -> None:
    """Probe until a sweep proves nothing more (or the board is solved)."""
    while not board.solved and probe_once(board, steps, deadline, depth):
        pass

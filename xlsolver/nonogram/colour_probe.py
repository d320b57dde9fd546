"""Probing and depth-first search on a colour board.

Probing: each colour still possible in a cell is *assumed* in turn (on a copy, without
CERTAIN) and propagated. A colour whose trial runs into a line with no placement is
ruled out; a colour no surviving trial gives to some other cell is ruled out there
too (every surviving trial agrees). Search: when probing stalls, a cell is guessed
colour by colour and the search backtracks, for the logic path with a full trace.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .board import Contradiction, stop_if_past
from .cells import CERTAIN
from .colour_board import ColourBoard
from .result import PROBE, RULE_BOTH_WAYS, RULE_CONTRADICTION, Step
from .search import guess_search


def colours_of(state: int) -> list[int]:
    """The colour numbers of a set, inks first and the background last."""
    out = [c for c in range(1, state.bit_length()) if state >> c & 1]
    return out + [0] if state & 1 else out


def open_cells(board: ColourBoard) -> Iterator[tuple[int, int]]:
    """Open cells, most promising first: those in the most constrained rows and columns."""
    h = board.h
    free = [board.open_mask(line).bit_count() for line in range(h + board.w)]
    cells = []
    for r in range(h):
        mask = board.open_mask(r)
        while mask:
            low = mask & -mask
            c = low.bit_length() - 1
            cells.append((free[r] + free[h + c], r, c))
            mask ^= low
    cells.sort()
    for _, r, c in cells:
        yield r, c


def trial(board: ColourBoard, r: int, c: int, colour: int, deadline) -> ColourBoard | None:
    """The board after assuming one cell's colour and propagating; None on a contradiction
    (the deadline is checked here too, as in :func:`probe.trial`)."""
    stop_if_past(deadline)
    trial_board = board.copy()
    try:
        trial_board.restrict_cell(r, c, 1 << colour)
        trial_board.propagate([r, board.h + c], deadline=deadline)
    except Contradiction:
        return None
    return trial_board


def _union_narrows(board: ColourBoard, boards: list[ColourBoard]) -> list[tuple[int, list[int]]]:
    """Rows the surviving trials narrow together: (row, masks) where their union is smaller."""
    out = []
    for r in range(board.h):
        union = [0] * (board.inks + 1)
        for other in boards:
            for colour, m in enumerate(other.can[r]):
                union[colour] |= m
        masks = [a & b for a, b in zip(board.can[r], union, strict=True)]
        if masks != board.can[r]:
            out.append((r, masks))
    return out


def _changed_cells(board: ColourBoard, narrows: list[tuple[int, list[int]]]):
    """(row, col, new state | CERTAIN) of every cell the row narrowings change."""
    cells = []
    for r, masks in narrows:
        gone = 0
        for colour, m in enumerate(masks):
            gone |= board.can[r][colour] & ~m
        while gone:
            low = gone & -gone
            c = low.bit_length() - 1
            state = sum(1 << colour for colour, m in enumerate(masks) if m >> c & 1)
            cells.append((r, c, state | CERTAIN))
            gone ^= low
    return cells


def probe_cell(board: ColourBoard, r: int, c: int, steps, deadline, depth: int = 0) -> bool:
    """Probe one open cell; True when anything was proved. Contradiction if no colour fits."""
    survivors = []
    failed = []
    for colour in colours_of(board.cell_state(r, c)):
        result = trial(board, r, c, colour, deadline)
        if result is None:
            failed.append(colour)
        else:
            survivors.append(result)
    if not survivors:
        raise Contradiction(r)
    progress = False
    if failed:
        for colour in failed:
            board.restrict_cell(r, c, board.cell_state(r, c) & ~(1 << colour))
            if steps is not None:
                state = board.cell_state(r, c) | CERTAIN
                cells = [(r, c, state)]
                steps.append(
                    Step(
                        PROBE,
                        RULE_CONTRADICTION,
                        cells,
                        cell=(r, c),
                        assumed=1 << colour,
                        depth=depth,
                    )
                )
        board.propagate([r, board.h + c], steps, depth, deadline)
        progress = True
    if len(survivors) > 1:
        narrows = _union_narrows(board, survivors)
        if narrows:
            if steps is not None:
                cells = _changed_cells(board, narrows)
                steps.append(
                    Step(PROBE, RULE_BOTH_WAYS, cells, cell=(r, c), assumed=None, depth=depth)
                )
            lines: set[int] = set()
            for row, masks in narrows:
                lines.add(row)
                board.narrow(row, masks, lines.add)
            board.propagate(sorted(lines), steps, depth, deadline)
            progress = True
    return progress


def probe(board: ColourBoard, steps, deadline, depth: int = 0) -> None:
    """Probe until a sweep proves nothing more (or the board is solved)."""
    while True:
        progress = False
        for r, c in list(open_cells(board)):
            if board.cell_state(r, c).bit_count() > 1 and probe_cell(
                board, r, c, steps, deadline, depth
            ):
                progress = True
        if not progress or board.solved:
            return


def branch_cell(board: ColourBoard) -> tuple[int, int]:
    """An open cell in the line with the fewest open cells."""
    best = None
    for line in range(board.h + board.w):
        free = board.open_mask(line).bit_count()
        if free and (best is None or free < best[0]):
            best = (free, line)
    assert best is not None, "branch_cell on a solved board"
    mask = board.open_mask(best[1])
    return board.cell(best[1], (mask & -mask).bit_length() - 1)


def _guesses(board: ColourBoard) -> tuple[int, int, list[int]]:
    """The cell to guess and its colours (as one-colour sets), inks first."""
    r, c = branch_cell(board)
    return r, c, [1 << colour for colour in colours_of(board.cell_state(r, c))]


def _restrict(board: ColourBoard, r: int, c: int, state: int) -> None:
    """Keep only the colours of ``state`` in one cell."""
    board.restrict_cell(r, c, state)


def dfs(
    board: ColourBoard,
    found: list[np.ndarray],
    limit: int,
    deadline,
    steps: list[Step] | None = None,
    depth: int = 0,
) -> None:
    """Append solutions of a propagated board to ``found`` until ``limit`` are known.

    The deadline is checked by propagation only, as it always was here.
    """
    guess_search(board, found, limit, deadline, steps, depth, _guesses, _restrict, False)

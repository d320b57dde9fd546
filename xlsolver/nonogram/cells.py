"""Cell states: a byte of flags, as in the original VBA analyzer.

Glossary
    BLANK        nothing known about the cell
    BLACK        the cell is black (assumed, unless CONC is also set)
    WHITE        the cell is white (assumed, unless CONC is also set)
    DISCREPANCY  BLACK|WHITE: both colours were forced, a contradiction
    CONC         confirmed: proved, not merely assumed during a trial

``state & COLOUR`` is the colour, ``state & CONC`` the certainty; the ``is_*``
predicates read one state, numpy masks (``grid & COLOUR == BLACK``) read a grid.
"""

from __future__ import annotations

import numpy as np

BLANK = 0
BLACK = 1
WHITE = 2
DISCREPANCY = BLACK | WHITE
CONC = 4
BLACK_CONC = BLACK | CONC
WHITE_CONC = WHITE | CONC
DISCREPANCY_CONC = DISCREPANCY | CONC
COLOUR = BLACK | WHITE

STATE_NAMES = {
    BLANK: "blank",
    BLACK: "black",
    WHITE: "white",
    DISCREPANCY: "discrepancy",
    BLACK_CONC: "black (confirmed)",
    WHITE_CONC: "white (confirmed)",
    DISCREPANCY_CONC: "discrepancy (confirmed)",
}


def is_black(state: int) -> bool:
    """True when the cell is black and nothing else."""
    return state & COLOUR == BLACK


def is_white(state: int) -> bool:
    """True when the cell is white and nothing else."""
    return state & COLOUR == WHITE


def is_blank(state: int) -> bool:
    """True when nothing is known of the cell's colour."""
    return state & COLOUR == BLANK


def is_discrepancy(state: int) -> bool:
    """True when both colours were forced on the cell."""
    return state & COLOUR == DISCREPANCY


def is_conc(state: int) -> bool:
    """True when the cell's value is confirmed, not assumed."""
    return bool(state & CONC)


def empty_grid(height: int, width: int) -> np.ndarray:
    """A height×width grid of BLANK cells (numpy uint8)."""
    return np.zeros((height, width), dtype=np.uint8)


def grid_from_solution(solution: np.ndarray) -> np.ndarray:
    """Confirmed states for a boolean solution (True = black)."""
    return np.where(np.asarray(solution, dtype=bool), BLACK_CONC, WHITE_CONC).astype(np.uint8)


def solution_rows(solution: np.ndarray) -> list[str]:
    """A boolean solution as row strings of ``#`` (black) and ``.`` (white)."""
    return ["".join("#" if v else "." for v in row) for row in np.asarray(solution, dtype=bool)]


def solution_from_rows(rows: list[str]) -> np.ndarray:
    """The inverse of :func:`solution_rows`."""
    return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool).reshape(len(rows), -1)


def grid_text(grid: np.ndarray) -> list[str]:
    """A state grid as text: ``#`` black, ``.`` white, ``?`` unknown, ``!`` discrepancy."""
    chars = {BLANK: "?", BLACK: "#", WHITE: ".", DISCREPANCY: "!"}
    return ["".join(chars[int(v) & COLOUR] for v in row) for row in grid]

"""Cell states: a byte of flags, as in the original VBA analyzer.

Glossary
    BLANK        nothing known about the cell
    BLACK        the cell is black (assumed, unless CONC is also set)
    WHITE        the cell is white (assumed, unless CONC is also set)
    DISCREPANCY  BLACK|WHITE: both colours were forced, a contradiction
    CONC         confirmed: proved, not merely assumed during a trial

``state & COLOUR`` is the colour, ``state & CONC`` the certainty; the ``is_*``
predicates read one state, numpy masks (``grid & COLOUR == BLACK``) read a grid.

Colour puzzles (k inks) hold a different state per cell, the set of colours still
possible, with CERTAIN in the place of CONC: see "colour puzzles" below.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
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
    import numpy as np

    return np.zeros((height, width), dtype=np.uint8)


def grid_from_solution(solution: np.ndarray) -> np.ndarray:
    """Confirmed states for a boolean solution (True = black)."""
    import numpy as np

    return np.where(np.asarray(solution, dtype=bool), BLACK_CONC, WHITE_CONC).astype(np.uint8)


def solution_rows(solution: np.ndarray) -> list[str]:
    """A boolean solution as row strings of ``#`` (black) and ``.`` (white)."""
    import numpy as np

    return ["".join("#" if v else "." for v in row) for row in np.asarray(solution, dtype=bool)]


def solution_from_rows(rows: list[str]) -> np.ndarray:
    """The inverse of :func:`solution_rows`."""
    import numpy as np

    return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool).reshape(len(rows), -1)


def grid_text(grid: np.ndarray) -> list[str]:
    """A state grid as text: ``#`` black, ``.`` white, ``?`` unknown, ``!`` discrepancy."""
    chars = {BLANK: "?", BLACK: "#", WHITE: ".", DISCREPANCY: "!"}
    return ["".join(chars[int(v) & COLOUR] for v in row) for row in grid]


# -- colour puzzles ---------------------------------------------------------------------
# A colour puzzle has k inks, numbered 1..k, and the background, numbered 0. A cell's
# state is then the *set of colours still possible*: bit c (``colour_bit(c)``) for colour
# c, bit 0 for the background, held in a numpy uint32 grid. All k+1 bits: nothing known
# (the BLANK idea); one bit: the cell's colour (the BLACK/WHITE idea); no bit: every
# colour was ruled out, a contradiction (the DISCREPANCY idea). CERTAIN is the CONC idea:
# set when the set was proved, clear while it is only assumed during a trial.
# Two colours read as the black-and-white byte: {background} is WHITE, {ink 1} is BLACK,
# both is BLANK, none is DISCREPANCY. BLACK/WHITE/DISCREPANCY/CONC stay the names of the
# two-colour byte above; the names below belong to colour-set states only.

BACKGROUND = 0  # the colour number of the background
MAX_INKS = 30  # inks 1..30 and the background fit below CERTAIN
CERTAIN = 1 << 31  # confirmed: proved, not merely assumed (CONC for colour-set states)
POSSIBLE = CERTAIN - 1  # the colour bits of a colour-set state


def colour_bit(colour: int) -> int:
    """The bit of one colour (0 = background) in a colour-set state."""
    return 1 << colour


def every_colour(inks: int) -> int:
    """The set of all colours of a puzzle with ``inks`` inks: nothing known yet."""
    return (1 << (inks + 1)) - 1


def given_count(givens: np.ndarray, inks: int | None = None) -> int:
    """How many cells of a grid of givens hold a mark: black or white (``inks`` None), or,
    in a colour puzzle of ``inks`` inks, fewer colours than all of them."""
    import numpy as np

    if inks is not None:
        return int(((np.asarray(givens, dtype=np.uint32) & POSSIBLE) != every_colour(inks)).sum())
    colours = np.asarray(givens, dtype=np.uint8) & COLOUR
    return int(((colours == BLACK) | (colours == WHITE)).sum())


def known_colour(state: int) -> int | None:
    """The colour number when exactly one colour is possible, else None."""
    bits = state & POSSIBLE
    if bits and not bits & (bits - 1):
        return bits.bit_length() - 1
    return None


def is_open(state: int) -> bool:
    """True when two or more colours are still possible."""
    bits = state & POSSIBLE
    return bool(bits & (bits - 1))


def is_conflict(state: int) -> bool:
    """True when no colour is possible (the DISCREPANCY of colour cells)."""
    return not state & POSSIBLE


def is_certain(state: int) -> bool:
    """True when a colour-set state is confirmed, not assumed."""
    return bool(state & CERTAIN)


def colour_states(solution: np.ndarray) -> np.ndarray:
    """Confirmed colour-set states for a solution of colour numbers (0 = background)."""
    import numpy as np

    sol = np.asarray(solution, dtype=np.int64)
    return ((np.uint32(1) << sol.astype(np.uint32)) | np.uint32(CERTAIN)).astype(np.uint32)


def colour_state_text(grid: np.ndarray, letters: str) -> list[str]:
    """Colour-set states as text: ``letters[c]`` for a known colour, ``?`` open, ``!`` none."""
    out = []
    for row in grid:
        chars = []
        for v in row:
            colour = known_colour(int(v))
            chars.append("!" if is_conflict(int(v)) else "?" if colour is None else letters[colour])
        out.append("".join(chars))
    return out

"""A player's marks inside a grid: what a person typed or painted to say black or white.

Black: ``1``, ``■``, ``#``, ``x``, ``●`` (and ``o``), ``★``, ``黒``, a ticked checkbox (TRUE)
or a dark fill; white: ``0``, ``×``, ``・``, ``.``, ``-``, ``/``, ``白`` or a crossed cell
(both diagonals);
an unticked checkbox (FALSE) is an empty cell. They are not clues: the finder skips
them, ``--givens`` keeps them and ``grade`` reads a student's answer from them, through
:func:`read_states`.
"""

from __future__ import annotations

import numpy as np

from ..nonogram.cells import BLACK_CONC, BLANK, WHITE_CONC
from ..sheets.protocol import DISCREPANCY_STYLE, Rect, Sheet
from .clues import normalise

# A checkbox cell (Excel's and Google Sheets' checkboxes) holds TRUE or FALSE: ticked is
# black, as a tick in a paper grid; unticked is a cell not yet marked.
TICKED, UNTICKED = "☑", "☐"
BLACK_MARKS = frozenset(
    {
        "1",
        "■",
        "#",
        "x",
        "●",
        "o",
        "◼",
        "█",
        "✓",
        "✔",
        "★",
        "⬛",
        "▪",
        "◾",
        "•",
        "⚫",
        "黒",
        TICKED,
    }
)
WHITE_MARKS = frozenset(
    {"0", "×", "・", ".", "·", "-", "/", "✕", "✗", "□", "⬜", "◽", "▫", "◻", "白"}
)
SYMBOLS = (BLACK_MARKS | WHITE_MARKS | {UNTICKED}) - {"0", "1"}  # marks never clues
FLAG_RED = DISCREPANCY_STYLE.fill.lower()  # Hint and Solve paint a wrong mark so
DARK = 0.7  # fills darker than this (relative luminance) are black givens
PAPER = 0.95  # fills lighter than this count as unfilled paper


def no_fill(fill: str | None) -> bool:
    """True for a cell without a fill, or filled white."""
    return (fill or "#FFFFFF").upper() == "#FFFFFF"


def luminance(color: str) -> float:
    """Relative luminance 0 (black) … 1 (white) of ``#RRGGBB``."""
    h = color.lstrip("#")
    r, g, b = (int(h[i : i + 2], 16) / 255 for i in (0, 2, 4))
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def mark_text(value: object) -> str | None:
    """A cell's value as a mark symbol (lower case, NFKC) or None when it is not one."""
    if isinstance(value, bool):
        return TICKED if value else UNTICKED
    if value is None:
        return None
    if isinstance(value, (int, float)):
        return str(int(value)) if value in (0, 1) else None
    if isinstance(value, str):
        text = normalise(value)
        text = text if text in ("×", "・") else text.lower()  # NFKC keeps × and ・ apart
        return text if text in SYMBOLS or text in ("0", "1") else None
    return None


def is_symbol(value: object) -> bool:
    """True for a mark that is not a number (``■``, ``x``, ``・``…): never a clue."""
    text = mark_text(value)
    return text is not None and text in SYMBOLS


def cell_state(
    value: object,
    fill: str | None,
    crossed: bool,
    *,
    any_fill: bool = False,
    white: frozenset[str] = frozenset(),
) -> int:
    """BLACK_CONC, WHITE_CONC or BLANK for one grid cell.

    ``any_fill``: any visible fill is black (a student's answer, a teacher's drawing);
    otherwise only a dark fill is (givens: a light highlight is not a mark). ``white``:
    black marks read as white here (grading keeps a student's ``x`` white, as documented).
    """
    text = mark_text(value)
    if fill is not None and luminance(fill) < (PAPER if any_fill else DARK):
        if fill.lower() == FLAG_RED and (crossed or text in WHITE_MARKS):
            return WHITE_CONC  # a white mark Hint or Solve flagged red: still the mark
        return BLACK_CONC
    if text in white:
        return WHITE_CONC
    if text in BLACK_MARKS:
        return BLACK_CONC
    if crossed or text in WHITE_MARKS:
        return WHITE_CONC
    return BLANK


def read_states(
    sheet: Sheet, grid: Rect, *, any_fill: bool = False, white: frozenset[str] = frozenset()
) -> np.ndarray:
    """The marks of a grid as uint8 states (BLACK_CONC / WHITE_CONC / BLANK)."""
    h, w = grid[2] - grid[0] + 1, grid[3] - grid[1] + 1
    values = sheet.read_values(grid)
    fills = sheet.read_fills(grid)
    crossed = sheet.read_diagonals(grid)
    out = np.full((h, w), BLANK, dtype=np.uint8)
    for r in range(h):
        for c in range(w):
            out[r, c] = cell_state(
                values[r][c], fills[r][c], crossed[r][c], any_fill=any_fill, white=white
            )
    return out


def read_black(sheet: Sheet, grid: Rect, white: frozenset[str] = frozenset()) -> np.ndarray:
    """A player's answer as booleans (True = black): any fill or a black mark."""
    return read_states(sheet, grid, any_fill=True, white=white) == BLACK_CONC

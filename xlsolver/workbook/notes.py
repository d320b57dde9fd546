"""Notes: what a person typed beside a puzzle that belongs to no clue band.

The finder reads a sheet as it stands first: text ends a clue band, and a number in
line with a band is a clue. When that reading fails, the sheet is read again with its
text notes and labels set aside, then with stray cells too; a reading is kept when it
succeeds and sets no number aside within the puzzle it reads (there the number was a
clue: a single dot's lone ``1``). Notes are

- text (a word of two letters or more, a sentence, a label such as ``Name:``): it
  neither ends a band nor is read as clues, wherever it stands;
- a stray cell: a number or a short text with no other cell of a puzzle within two
  rows and columns (a year typed under the grid, a page number far to the right);
- a width/height label typed against the clues (``Rows:`` beside the row clues): the
  number beside it is a clue, not a size.

Last, marks beside the clues are set aside: a column of ticks (checkboxes, ``x``) left of
the row clues or a row of them above the column clues, where a player records the lines
done. A mark is never a clue; marks within the grid stay (they are the player's cells).

The cells set aside are reported with the puzzle (``ignored``: ``"Q4 note"``, ``"B4:B8
ticks"``). When the
second reading fails too, the clue cells are taken away one at a time: a cell beside the
puzzle without which the sheet reads is named in the first reading's error, with the
``--range`` that leaves it out; otherwise the first reading's error stands as it was.
"""

from __future__ import annotations

import numpy as np

from ..sheets.protocol import Cell, Rect, holds
from .address import cell_ref, rect_ref, where
from .bands import LABEL_OFFSETS
from .clues import dimension_label
from .scan import CLUE, EMPTY, JUNK, MARK, RULER, TEXT, Facts

NOTE_GAP = 2  # empty rows and columns all around a stray cell (as between two puzzles)
NOTE_CELLS = 2  # a stray group holds at most this many cells ("3/1" and "2026")
NAMED_NOTES = 3  # an error names at most this many notes
MIN_WORD = 2  # letters that make a short text a word


def _window_counts(mask: np.ndarray, reach: int) -> np.ndarray:
    """Per cell, how many True cells lie within ``reach`` rows and columns of it."""
    h, w = mask.shape
    prefix = np.zeros((h + 1, w + 1), dtype=np.int64)
    prefix[1:, 1:] = mask.astype(np.int64).cumsum(0).cumsum(1)
    i0, i1 = np.clip(np.arange(h) - reach, 0, h), np.clip(np.arange(h) + reach + 1, 0, h)
    j0, j1 = np.clip(np.arange(w) - reach, 0, w), np.clip(np.arange(w) + reach + 1, 0, w)
    outer = prefix[np.ix_(i1, j1)] + prefix[np.ix_(i0, j0)]
    return outer - prefix[np.ix_(i0, j1)] - prefix[np.ix_(i1, j0)]


def stray_cells(facts: Facts) -> np.ndarray:
    """Clue-like cells standing apart: at most NOTE_CELLS of them together, with NOTE_GAP
    empty rows and columns between them and any other clue, mark, fill or border."""
    occupied = np.isin(facts.kind, (CLUE, JUNK, MARK, RULER)) | facts.filled | facts.boxed
    lonely = np.isin(facts.kind, (CLUE, JUNK)) & (_window_counts(occupied, NOTE_GAP) <= NOTE_CELLS)
    while True:  # a group is stray only when every cell near it is stray too
        others = _window_counts(occupied & ~lonely, NOTE_GAP) > 0
        if not (lonely & others).any():
            return lonely
        lonely &= ~others


def _words(facts: Facts) -> np.ndarray:
    """Short text that is a word (``ok``, ``Ann``), not a mistyped clue (``3a``, ``l``)."""
    out = np.zeros(facts.shape, dtype=bool)
    for i, j in np.argwhere(facts.kind == JUNK):
        value = facts.values[i][j]
        if isinstance(value, str):
            letters = sum(ch.isalpha() for ch in value)
            out[i, j] = letters >= MIN_WORD and not any(ch.isdigit() for ch in value)
    return out


def _label_cell(facts: Facts, label: str, number: Cell) -> Cell | None:
    """The cell of the width/height label whose number stands at ``number``."""
    for di, dj in LABEL_OFFSETS:
        cell = (number[0] - di, number[1] - dj)
        if dimension_label(facts.at(cell)) == label:
            return cell
    return None


def _beside_clues(facts: Facts, before: np.ndarray, cell: Cell, used: set[Cell]) -> bool:
    """True when a cell touches a clue (read before the size labels were taken)."""
    ij = facts.index(cell)
    if ij is None:
        return False
    h, w = facts.shape
    for i in range(max(ij[0] - 1, 0), min(ij[0] + 2, h)):
        for j in range(max(ij[1] - 1, 0), min(ij[1] + 2, w)):
            if (i, j) != ij and before[i, j] in (CLUE, JUNK) and facts.cell(i, j) not in used:
                return True
    return False


def set_aside(
    facts: Facts, before: np.ndarray, dims: dict, used: set[Cell], strays: bool = True
) -> tuple[dict, set[Cell], dict[Cell, bool]]:
    """Set the notes of a scanned sheet aside (their cells become EMPTY in ``facts``):
    the sizes and size cells that stay, and the note cells (True: text). Without
    ``strays``, text and labels only: numbers standing apart stay."""
    dims, used = dict(dims), set(used)
    notes: dict[Cell, bool] = {}
    for label, (_, number) in list(dims.items()):
        label_cell = _label_cell(facts, label, number)
        if label_cell is None or not _beside_clues(facts, before, number, used):
            continue
        del dims[label]
        used -= {number, label_cell}
        ij = facts.index(number)
        if ij is not None:
            facts.kind[ij] = before[ij]  # the number is a clue again
        notes[label_cell] = False
    text = (facts.kind == TEXT) | _words(facts)
    stray = stray_cells(facts) if strays else np.zeros_like(text)
    for i, j in np.argwhere(stray | text):
        cell = facts.cell(int(i), int(j))
        if cell not in used:
            facts.kind[i, j] = EMPTY
            notes.setdefault(cell, bool(text[i, j]))
    return dims, used, notes


def marks_aside(facts: Facts) -> set[Cell]:
    """Set every mark of a scanned sheet aside (its cells become EMPTY); their cells."""
    found = np.argwhere(facts.kind == MARK)
    facts.kind[facts.kind == MARK] = EMPTY
    return {facts.cell(int(i), int(j)) for i, j in found}


def tick_labels(cells: set[Cell]) -> list[str]:
    """``A6:A15 ticks`` per column of marks set aside, then ``F1:O1 ticks`` per row of
    the others (a range from the first mark to the last: unticked cells between)."""
    out, left = [], set(cells)
    for axis in (1, 0):  # a column holds the marks of its cells' column index
        lines: dict[int, list[Cell]] = {}
        for cell in left:
            lines.setdefault(cell[axis], []).append(cell)
        for key in sorted(lines):
            line = sorted(lines[key])
            if len(line) > 1 or axis == 0:
                out.append(f"{rect_ref((*line[0], *line[-1]))} ticks")
                left -= set(line)
    return out


def clue_set_aside(before: np.ndarray, notes: dict[Cell, bool], facts: Facts, boxes) -> bool:
    """True when a number set aside stands within one of ``boxes`` (a puzzle's grid and
    clue bands): there it was a clue, and the reading without it is a different puzzle."""
    for cell in notes:
        ij = facts.index(cell)
        if ij is None or before[ij] != CLUE:
            continue
        if any(holds(box, cell) for box in boxes):
            return True
    return False


def reported(
    notes: dict[Cell, bool], piece: Rect, bands: tuple[Rect | None, Rect | None]
) -> list[Cell]:
    """The notes of one puzzle: in its piece, stray cells and labels anywhere, text only
    in line with a clue band (the rows of its column clues, the columns of its row clues)."""
    rows, cols = bands
    out = []
    for (r, c), is_text in sorted(notes.items()):
        if not holds(piece, (r, c)):
            continue
        beside_cols = cols is not None and cols[0] <= r <= cols[2]
        beside_rows = rows is not None and rows[1] <= c <= rows[3]
        if not is_text or beside_cols or beside_rows:
            out.append((r, c))
    return out


def labels(cells: list[Cell]) -> list[str]:
    """``Q4 note`` per note, as ``--json`` reports them under ``ignored``."""
    return [f"{cell_ref(c)} note" for c in cells]


def advice(sheet: str, error: str, culprits: list[Cell], box: Rect) -> str:
    """A failed reading's error, naming the cells beside the puzzle without which the
    sheet reads, and the range of the puzzle read without them."""
    shown = ", ".join(where(sheet, c) for c in culprits[:NAMED_NOTES])
    if len(culprits) > NAMED_NOTES:
        shown += ", …"
    one = len(culprits) == 1
    message = (
        f"{error}; the puzzle reads without {shown}: if {'it is a note' if one else 'one is'}, "
        f"move it away from the clues"
    )
    if "--range" not in error:
        message += f" or pick the puzzle with --range {where(sheet, box)}"
    return message

"""Finding grids on a scanned sheet: where each puzzle's grid and clue bands are.

The scan is cut into pieces at two or more empty rows or columns (several puzzles on
one sheet, side by side or stacked; titles and notes do not join pieces). In a piece,
the grid's corner is the cell with the most clues above-right and below-left and none
inside, seen in the four ways a sheet can hold its bands (above/below, left/right).
Clues of 0 or 1 are weighed only when nothing else places the corner, so a player's
``1`` marks inside the grid do not move it; boxed cells (borders) choose among equal
corners and extend the grid past empty clue lines; index rulers are set aside first.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..sheets.errors import WorkbookError
from ..sheets.protocol import Rect
from .address import where
from .bands import band_extent, band_top, boxed_run
from .rulers import Ruler, find_rulers, give_back, misplaced
from .scan import CLUE, JUNK, MARK, RULER, STRONG, Facts

MIN_GAP = 2  # empty rows or columns that part two puzzles
LEFTOVER_CLUES = 3  # this many clues outside a found puzzle's bands: another puzzle is there
FLIPS = ((False, False), (False, True), (True, False), (True, True))  # rows, cols mirrored
NO_SCORE = np.iinfo(np.int64).min


@dataclass(frozen=True)
class Frame:
    """A piece of the scan (array indices, inclusive) seen with its bands above and left."""

    piece: Rect
    flip_rows: bool = False
    flip_cols: bool = False

    @property
    def shape(self) -> tuple[int, int]:
        """(rows, columns) of the piece."""
        return self.piece[2] - self.piece[0] + 1, self.piece[3] - self.piece[1] + 1

    def view(self, array: np.ndarray) -> np.ndarray:
        """The piece of an array of the scan, mirrored as the frame sees it."""
        i0, j0, i1, j1 = self.piece
        out = array[i0 : i1 + 1, j0 : j1 + 1]
        if self.flip_rows:
            out = out[::-1, :]
        if self.flip_cols:
            out = out[:, ::-1]
        return out

    def rect(self, facts: Facts, top: int, left: int, bottom: int, right: int) -> Rect:
        """A frame rectangle as a sheet rectangle."""
        h, w = self.shape
        rows = [h - 1 - top, h - 1 - bottom] if self.flip_rows else [top, bottom]
        cols = [w - 1 - left, w - 1 - right] if self.flip_cols else [left, right]
        r0, c0 = facts.origin[0] + self.piece[0], facts.origin[1] + self.piece[1]
        return (r0 + min(rows), c0 + min(cols), r0 + max(rows), c0 + max(cols))


@dataclass
class Grid:
    """A grid found in a piece: its corner in the frame and what the bands and borders say."""

    frame: Frame
    corner: tuple[int, int]
    band_top: int
    band_left: int
    clue_w: int  # columns the column clues reach
    clue_h: int  # rows the row clues reach
    boxed_w: int  # boxed cells from the corner across
    boxed_h: int  # … and down
    rulers: list[Ruler] = field(default_factory=list)

    def rects(self, facts: Facts, width: int, height: int) -> tuple[Rect, Rect | None, Rect | None]:
        """(grid, row band, column band) on the sheet for a grid of this size."""
        gr, gc = self.corner
        f = self.frame
        grid = f.rect(facts, gr, gc, gr + height - 1, gc + width - 1)
        rows = f.rect(facts, gr, self.band_left, gr + height - 1, gc - 1)
        cols = f.rect(facts, self.band_top, gc, gr - 1, gc + width - 1)
        return grid, rows if self.band_left < gc else None, cols if self.band_top < gr else None


def corner_scores(weights: np.ndarray) -> tuple[int, list[tuple[int, int]]]:
    """The best corner score and every corner that has it (clues above and left needed)."""
    h, w = weights.shape
    prefix = np.zeros((h + 1, w + 1), dtype=np.int64)
    prefix[1:, 1:] = weights.cumsum(0).cumsum(1)
    total = prefix[h, w]
    above = prefix[:, w : w + 1] - prefix  # rows above, columns right of the corner
    left = prefix[h : h + 1, :] - prefix  # rows below, columns left of the corner
    inside = total - prefix - above - left
    score = above + left - prefix - inside
    score[(above == 0) | (left == 0)] = NO_SCORE
    best = int(score.max())
    if best == NO_SCORE:
        return best, []
    return best, [(int(r), int(c)) for r, c in np.argwhere(score == best)]


def _weights(facts: Facts, strong: bool) -> np.ndarray:
    """Clue cells that place a corner: strong clues only, or every clue."""
    clue = facts.kind == CLUE
    return (clue & (facts.strength == STRONG) if strong else clue).astype(np.int64)


def best_frame(facts: Facts, piece: Rect) -> tuple[Frame, list[tuple[int, int]]] | None:
    """The way of seeing the piece with the best corner, and its corners; None if none."""
    for strong in (True, False):
        weights = _weights(facts, strong)
        best: tuple[int, Frame, list[tuple[int, int]]] | None = None
        for flips in FLIPS:
            frame = Frame(piece, *flips)
            score, corners = corner_scores(frame.view(weights))
            if corners and (best is None or score > best[0]):
                best = (score, frame, corners)
        if best is not None:
            return best[1], best[2]
    return None


def _pick(frame: Frame, facts: Facts, corners: list[tuple[int, int]]) -> tuple[int, int]:
    """Among equal corners a boxed one, nearest the bands; then past any ruler line."""
    boxed = frame.view(facts.boxed)
    kind = frame.view(facts.kind)
    gr, gc = min(corners, key=lambda rc: (not boxed[rc], rc))
    h, w = kind.shape
    while gr + 1 < h and (kind[gr, gc:] == RULER).any() and not boxed[gr, gc]:
        gr += 1
    while gc + 1 < w and (kind[gr:, gc] == RULER).any() and not boxed[gr, gc]:
        gc += 1
    return gr, gc


def locate(facts: Facts, piece: Rect) -> Grid | None:
    """The grid of one piece, None when the piece holds no corner."""
    chosen = best_frame(facts, piece)
    if chosen is None:
        return None
    frame, corners = chosen
    gr, gc = _pick(frame, facts, corners)
    kind, boxed = frame.view(facts.kind), frame.view(facts.boxed)
    h, w = kind.shape
    top = band_top(kind, gr, gc, w - 1)
    left = band_top(kind.T, gc, gr, h - 1)
    return Grid(
        frame,
        (gr, gc),
        top,
        left,
        clue_w=band_extent(kind, top, gr - 1, gc),
        clue_h=band_extent(kind.T, left, gc - 1, gr),
        boxed_w=boxed_run(boxed, gr, gc, True),
        boxed_h=boxed_run(boxed, gr, gc, False),
    )


def _occupied(facts: Facts) -> np.ndarray:
    """Cells that belong to some puzzle: clues, marks, rulers, fills, borders (not text)."""
    return np.isin(facts.kind, (CLUE, JUNK, MARK, RULER)) | facts.filled | facts.boxed


def _parts(used: np.ndarray, offset: int) -> list[tuple[int, int]]:
    """Spans (first, last) of a 1-D occupancy split at MIN_GAP or more empty entries."""
    idx = np.nonzero(used)[0]
    if not len(idx):
        return []
    spans, start = [], idx[0]
    for a, b in zip(idx[:-1], idx[1:], strict=True):
        if b - a > MIN_GAP:
            spans.append((offset + start, offset + a))
            start = b
    spans.append((offset + start, offset + idx[-1]))
    return spans


def pieces(
    facts: Facts, occupied: np.ndarray | None = None, piece: Rect | None = None
) -> list[Rect]:
    """The scan cut at empty rows and columns into pieces that each hold a corner."""
    occupied = _occupied(facts) if occupied is None else occupied
    if piece is None:
        h, w = facts.shape
        piece = (0, 0, h - 1, w - 1)
    i0, j0, i1, j1 = piece
    sub = occupied[i0 : i1 + 1, j0 : j1 + 1]
    for across in (True, False):
        spans = _parts(sub.any(1) if across else sub.any(0), i0 if across else j0)
        if len(spans) < 2:
            continue
        parts = [(a, j0, b, j1) if across else (i0, a, i1, b) for a, b in spans]
        if all(best_frame(facts, p) is not None for p in parts):
            return [q for p in parts for q in pieces(facts, occupied, p)]
    return [piece]


def find_grids(facts: Facts) -> list[Grid]:
    """Every grid of the scan, rulers set aside (and given back where they are clues)."""
    rulers = find_rulers(facts)
    grids = [g for g in (locate(facts, p) for p in pieces(facts)) if g is not None]
    wrong = [r for r in rulers for g in grids if misplaced(r, *_footprint(facts, g))]
    if wrong:
        rulers = give_back(facts, rulers, wrong)
        grids = [g for g in (locate(facts, p) for p in pieces(facts)) if g is not None]
    for g in grids:
        g.rulers = [r for r in rulers if _touches(facts, g, r)]
    return grids


def _footprint(facts: Facts, g: Grid) -> tuple[Rect, Rect | None, Rect | None]:
    """Grid and bands at the size the clues and borders give."""
    return g.rects(facts, max(g.clue_w, g.boxed_w, 1), max(g.clue_h, g.boxed_h, 1))


def _touches(facts: Facts, g: Grid, ruler: Ruler) -> bool:
    """True when a ruler lies in the grid's piece."""
    top, left, bottom, right = g.frame.rect(facts, 0, 0, *(n - 1 for n in g.frame.shape))
    r = ruler.rect
    return top <= r[0] and r[2] <= bottom and left <= r[1] and r[3] <= right


def leftovers(facts: Facts, g: Grid, footprint: list[Rect]) -> Rect | None:
    """The bounding box of strong clues in the grid's piece outside its footprint, when
    there are LEFTOVER_CLUES or more: another puzzle that cannot be told apart."""
    i0, j0, i1, j1 = g.frame.piece
    mask = np.zeros(facts.shape, dtype=bool)
    mask[i0 : i1 + 1, j0 : j1 + 1] = _weights(facts, True)[i0 : i1 + 1, j0 : j1 + 1] > 0
    r0, c0 = facts.origin
    for top, left, bottom, right in footprint:
        a, b = max(top - r0, 0), max(left - c0, 0)
        mask[a : max(bottom - r0 + 1, 0), b : max(right - c0 + 1, 0)] = False
    if mask.sum() < LEFTOVER_CLUES:
        return None
    rows, cols = np.nonzero(mask)
    first = facts.cell(int(rows.min()), int(cols.min()))
    last = facts.cell(int(rows.max()), int(cols.max()))
    return (*first, *last)


def ambiguous(sheet: str, found: Rect, other: Rect) -> WorkbookError:
    """One line naming the ranges that could not be told apart and how to pick one."""
    a, b = where(sheet, found), where(sheet, other)
    return WorkbookError(
        f"{sheet}: cannot tell the puzzles at {a} and {b} apart; leave two empty rows or "
        f"columns between puzzles, or pick one with --range {a} (or a defined name PuzzleGrid)"
    )

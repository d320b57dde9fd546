"""Finding grids on a scanned sheet: where each puzzle's grid and clue bands are.

The scan is cut into pieces at two or more empty rows or columns where each part holds a
corner (several puzzles on one sheet, side by side or stacked; titles and notes do not
join pieces). Puzzles one empty line apart cannot be told from a spacer between clues
and grid; when reading such a piece as one puzzle fails, its parts are named instead. In a piece,
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
from ..sheets.protocol import Rect, bounds, holds, side_by_side
from .address import where
from .bands import band_extent, band_top, boxed_run
from .rulers import Ruler, find_rulers, give_back, misplaced
from .scan import BAND_KINDS, CLUE, EMPTY, JUNK, MARK, RULER, STRONG, Facts
from .totals import hidden_from_the_finder, put_back

MIN_GAP = 2  # empty rows or columns that part two puzzles (when each part holds a corner)
PART_SPAN = 3  # a part cut off spans at least a third of the piece across the cut
CLOSE_GAP = 1  # a narrower gap parts them only to name them when reading them as one fails
LEFTOVER_CLUES = 3  # this many clues outside a found puzzle's bands: another puzzle is there
FLIPS = ((False, False), (False, True), (True, False), (True, True))  # rows, cols mirrored
NO_SCORE = np.iinfo(np.int64).min
Size = tuple[int | None, int | None]  # width and height a sheet gives (None: not given)


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
        return (
            int(r0 + min(rows)),
            int(c0 + min(cols)),
            int(r0 + max(rows)),
            int(c0 + max(cols)),
        )


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


def best_frames(
    facts: Facts, piece: Rect, *, strong_only: bool = False, every_clue: bool = False
) -> list[tuple[Frame, list[tuple[int, int]]]]:
    """The ways of seeing the piece that share the best corner score, with their corners
    (strong clues first; ``every_clue``: clues of 0 and 1 weighed from the start)."""
    passes = (True,) if strong_only else (False,) if every_clue else (True, False)
    for strong in passes:
        weights = _weights(facts, strong)
        scored = []
        for flips in FLIPS:
            frame = Frame(piece, *flips)
            score, corners = corner_scores(frame.view(weights))
            if corners:
                scored.append((score, frame, corners))
        if scored:
            top = max(s for s, _, _ in scored)
            return [(f, c) for s, f, c in scored if s == top]
    return []


def _only_rulers(line: np.ndarray) -> bool:
    """True when a line holds a ruler and nothing else."""
    return bool((line == RULER).any() and ((line == RULER) | (line == EMPTY)).all())


def _first_with(lines: np.ndarray, first: int, last: int) -> int:
    """The first index in first…last whose line holds band content, else ``first``."""
    for i in range(first, last + 1):
        if np.isin(lines[i], BAND_KINDS).any():
            return i
    return first


def _boxed_before(boxed: np.ndarray, r: int, c: int) -> bool | None:
    """Whether the cell diagonally above-left of (r, c) is boxed, when the cells above and
    left of it are (None otherwise): False marks the inner corner of a box drawn around
    the grid and both clue bands, True a corner inside a box drawn over everything."""
    if not (r and c and boxed[r - 1, c] and boxed[r, c - 1]):
        return None
    return bool(boxed[r - 1, c - 1])


def _reach(kind: np.ndarray, gr: int, gc: int) -> tuple[int, int, int, int]:
    """(band top, band left, columns the column clues reach, rows the row clues reach) of
    a corner."""
    h, w = kind.shape
    top = band_top(kind, gr, gc, w - 1)
    left = band_top(kind.T, gc, gr, h - 1)
    return top, left, band_extent(kind, top, gr - 1, gc), band_extent(kind.T, left, gc - 1, gr)


def _fitting(kind: np.ndarray, corners: list[tuple[int, int]], size: Size) -> list[tuple[int, int]]:
    """The corners whose clues stay within a size the sheet gives (all when none does)."""
    width, height = size
    fit = []
    for r, c in corners:
        _, _, clue_w, clue_h = _reach(kind, r, c)
        if (width is None or clue_w <= width) and (height is None or clue_h <= height):
            fit.append((r, c))
    return fit or corners


def _pick(
    frame: Frame, facts: Facts, corners: list[tuple[int, int]], size: Size = (None, None)
) -> tuple[int, int]:
    """Among equal corners the inner corner of boxed bands, else a boxed one (not one
    boxed all around above and left); else the first row with a row clue left of it and
    the first column with a column clue above it (clues of 1 do not place a corner, so
    the corners run over lines whose clues are all 1s); then past a line of rulers."""
    boxed = frame.view(facts.boxed)
    kind = frame.view(facts.kind)
    # a corner boxed on all sides above and left (a box drawn over bands and corner
    # too) is not placed by its borders: the clues place it
    boxed_corners = [(r, c) for r, c in corners if boxed[r, c] and not _boxed_before(boxed, r, c)]
    inner = [(r, c) for r, c in boxed_corners if _boxed_before(boxed, r, c) is False]
    if inner:  # borders on the bands too: the grid is where the two bands' boxes meet
        gr, gc = min(inner)
    elif boxed_corners:
        gr, gc = min(boxed_corners)
    else:
        corners = _fitting(kind, corners, size)  # a width/height label breaks a tie
        rows, cols = [r for r, _ in corners], [c for _, c in corners]
        gr, gc = min(rows), min(cols)
        for _ in range(2):  # each choice sharpens the other
            gr = _first_with(kind[:, :gc], min(rows), max(rows))
            gc = _first_with(kind[:gr, :].T, min(cols), max(cols))
    h, w = kind.shape
    while not boxed[gr, gc]:
        if gr + 1 < h and _only_rulers(kind[gr, gc + 1 :]):
            gr += 1
        elif gc + 1 < w and _only_rulers(kind[gr + 1 :, gc]):
            gc += 1
        else:
            break
    return gr, gc


def _grid_in(
    facts: Facts, frame: Frame, corners: list[tuple[int, int]], size: Size = (None, None)
) -> Grid:
    """The grid at the chosen corner of a frame, with its bands' reach."""
    gr, gc = _pick(frame, facts, corners, size)
    kind, boxed = frame.view(facts.kind), frame.view(facts.boxed)
    top, left, clue_w, clue_h = _reach(kind, gr, gc)
    return Grid(
        frame,
        (gr, gc),
        top,
        left,
        clue_w=clue_w,
        clue_h=clue_h,
        boxed_w=boxed_run(boxed, gr, gc, True),
        boxed_h=boxed_run(boxed, gr, gc, False),
    )


def locate(facts: Facts, piece: Rect, size: Size = (None, None)) -> Grid | None:
    """The grid of one piece, None when the piece holds no corner.

    Equal scores in two frames (a sheet read transposed scores the same) are decided by
    a boxed corner, then by the larger grid: clue bands are shallower than grids are wide.
    ``size`` (width, height; None where the sheet gives none) breaks ties between corners
    that clues alone cannot.
    """
    best = _best(facts, best_frames(facts, piece), size)
    if best is None or _sound(best, size):
        return best
    # a band of clues all 0 or 1 (a column of single dots) weighs nothing above: when the
    # strong clues alone place no boxed grid their bands fit, every clue is weighed
    other = _best(facts, best_frames(facts, piece, every_clue=True), size)
    return other if other is not None and _sound(other, size) else best


def _best(facts: Facts, frames: list, size: Size) -> Grid | None:
    """The grid of the best frame: a boxed one first, then the larger."""
    grids = [_grid_in(facts, f, c, size) for f, c in frames]
    if not grids:
        return None
    return max(
        grids, key=lambda g: (g.boxed_w > 0, max(g.clue_w, g.boxed_w) * max(g.clue_h, g.boxed_h))
    )


def _sound(g: Grid, size: Size) -> bool:
    """True when a grid is boxed, its clue bands fit the box, and the box has the size
    the sheet gives (if any)."""
    if not (g.boxed_w and g.boxed_h) or g.clue_w > g.boxed_w or g.clue_h > g.boxed_h:
        return False
    width, height = size
    return (width is None or width == g.boxed_w) and (height is None or height == g.boxed_h)


def _occupied(facts: Facts) -> np.ndarray:
    """Cells that belong to some puzzle: clues, marks, rulers, fills, borders (not text)."""
    return np.isin(facts.kind, (CLUE, JUNK, MARK, RULER)) | facts.filled | facts.boxed


def _parts(used: np.ndarray, offset: int, gap: int) -> list[tuple[int, int]]:
    """Spans (first, last) of a 1-D occupancy split at ``gap`` or more empty entries."""
    idx = np.nonzero(used)[0]
    if not len(idx):
        return []
    ids = [int(i) for i in idx]
    spans, start = [], ids[0]
    for a, b in zip(ids[:-1], ids[1:], strict=True):
        if b - a > gap:
            spans.append((offset + start, offset + a))
            start = b
    spans.append((offset + start, offset + ids[-1]))
    return spans


def _lines(mask: np.ndarray, offset: int) -> tuple[int, int] | None:
    """The first and last index (plus ``offset``) where a 1-D mask is true."""
    idx = np.nonzero(mask)[0]
    return (offset + int(idx[0]), offset + int(idx[-1])) if len(idx) else None


def _span(occupied: np.ndarray, rect: Rect, across: bool) -> int:
    """How many columns (``across``: a cut between rows) or rows a rectangle's cells span."""
    i0, j0, i1, j1 = rect
    ends = _lines(occupied[i0 : i1 + 1, j0 : j1 + 1].any(0 if across else 1), 0)
    return ends[1] - ends[0] + 1 if ends else 0


def _whole(facts: Facts, occupied: np.ndarray, part: Rect, piece: Rect, across: bool) -> bool:
    """True when a part cut from a piece can be a puzzle of its own: strong clues above
    and left of a corner, and as broad as a puzzle beside another (not a band alone)."""
    if not best_frames(facts, part, strong_only=True):
        return False
    return _span(occupied, part, across) * PART_SPAN >= _span(occupied, piece, across)


def _band_apart(facts: Facts, band: Rect, grid: Rect, across: bool) -> bool:
    """True when ``band`` holds the clues of the boxed grid in the part ``grid`` next to it,
    typed away from it in a deep band: ``band`` has no boxed cells and lies within the
    grid's columns (``across``: the parts are stacked) or rows, and the grid's own part
    holds no clue on either side of the box over those columns (or rows)."""
    b0, c0, b1, c1 = band
    g0, h0, g1, h1 = grid
    boxed = facts.boxed[g0 : g1 + 1, h0 : h1 + 1]
    box_span = _lines(boxed.any(0) if across else boxed.any(1), h0 if across else g0)
    if box_span is None:
        return False
    lo, hi = box_span  # over the box's columns (rows): boxed size labels aside stay apart
    over = (
        (slice(b0, b1 + 1), slice(lo, hi + 1)) if across else (slice(lo, hi + 1), slice(c0, c1 + 1))
    )
    if facts.boxed[over].any():
        return False  # a grid of its own
    # the band's clues (not a title's formula nor the boxed size labels beside them)
    used = np.isin(facts.kind[b0 : b1 + 1, c0 : c1 + 1], (CLUE, MARK, RULER))
    band_span = _lines(used.any(0) if across else used.any(1), c0 if across else b0)
    if band_span is None:
        return False
    if band_span[0] < box_span[0] or band_span[1] > box_span[1]:
        return False
    first, last = _lines(boxed.any(1) if across else boxed.any(0), g0 if across else h0)
    lo, hi = box_span
    if across:  # the grid part's rows above and below the box, over the box's columns
        beside = [facts.kind[g0:first, lo : hi + 1], facts.kind[last + 1 : g1 + 1, lo : hi + 1]]
    else:
        beside = [facts.kind[lo : hi + 1, h0:first], facts.kind[lo : hi + 1, last + 1 : h1 + 1]]
    return not any((k == CLUE).any() for k in beside)


def _join_bands(facts: Facts, parts: list[Rect], across: bool) -> list[Rect]:
    """Neighbouring parts joined where one is the other's clue band typed far from its grid."""
    out = [parts[0]]
    for part in parts[1:]:
        prev = out[-1]
        if _band_apart(facts, prev, part, across) or _band_apart(facts, part, prev, across):
            out[-1] = bounds([prev, part])
        else:
            out.append(part)
    return out


def pieces(
    facts: Facts,
    occupied: np.ndarray | None = None,
    piece: Rect | None = None,
    gap: int = MIN_GAP,
) -> list[Rect]:
    """The scan cut at ``gap`` or more empty rows or columns into pieces that each hold
    a corner (a boxed grid's clues typed two or more lines away stay with it)."""
    occupied = _occupied(facts) if occupied is None else occupied
    if piece is None:
        h, w = facts.shape
        piece = (0, 0, h - 1, w - 1)
    i0, j0, i1, j1 = piece
    sub = occupied[i0 : i1 + 1, j0 : j1 + 1]
    for across in (True, False):
        spans = _parts(sub.any(1) if across else sub.any(0), i0 if across else j0, gap)
        if len(spans) < 2:
            continue
        parts = [(a, j0, b, j1) if across else (i0, a, i1, b) for a, b in spans]
        parts = _join_bands(facts, parts, across)
        if len(parts) < 2:
            continue
        if all(_whole(facts, occupied, p, piece, across) for p in parts):
            return [q for p in parts for q in pieces(facts, occupied, p, gap)]
    return [piece]


def find_grids(facts: Facts, size: Size = (None, None)) -> list[Grid]:
    """Every grid of the scan, rulers set aside (and given back where they are clues);
    ``size`` is the width and height labels give, used on a sheet of one piece."""
    rulers = find_rulers(facts)
    parts = pieces(facts)
    if len(parts) > 1:
        size = (None, None)  # size labels belong to a sheet with one puzzle
    grids = _located(facts, parts, size)
    wrong = [
        r
        for r in rulers
        for g in grids
        if _touches(facts, g, r) and misplaced(facts, r, *_footprint(facts, g))
    ]
    if wrong:
        rulers = give_back(facts, rulers, wrong)
        grids = _located(facts, pieces(facts), size)
    for g in grids:
        g.rulers = sorted(
            (r for r in rulers if _touches(facts, g, r)), key=lambda r: (r.across, r.rect)
        )
    return grids


def _located(facts: Facts, parts: list[Rect], size: Size) -> list[Grid]:
    """The grid of each piece, found with a line of totals whose counts are partly wrong
    left out of the weighing (a column of counts outweighs row clues of 1s, and the
    corner went astray); it stays in the piece, to be named beside the grid found."""
    hidden = hidden_from_the_finder(facts)
    try:
        return [g for g in (locate(facts, p, size) for p in parts) if g is not None]
    finally:
        put_back(facts, hidden)


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


def close_parts(facts: Facts, piece: Rect) -> list[Rect]:
    """The sheet ranges of a piece's parts one empty line apart (one range: no parts)."""
    occupied = _occupied(facts)
    out = []
    for i0, j0, i1, j1 in pieces(facts, occupied, piece, CLOSE_GAP):
        rows, cols = np.nonzero(occupied[i0 : i1 + 1, j0 : j1 + 1])
        first = facts.cell(i0 + int(rows.min()), j0 + int(cols.min()))
        last = facts.cell(i0 + int(rows.max()), j0 + int(cols.max()))
        out.append((*first, *last))
    return out


def boxed_grids(facts: Facts, ranges: list[Rect]) -> list[Rect]:
    """The sheet ranges of the boxed blocks (cells drawn on every side, 2×2 or more)
    within the bounds of ``ranges``: the grids a person can pick by their range."""
    area = bounds(ranges)
    boxed = [facts.cell(int(i), int(j)) for i, j in np.argwhere(facts.boxed)]
    out = []
    for block in side_by_side(cell for cell in boxed if holds(area, cell)):
        rect = bounds((r, c, r, c) for r, c in block)
        if rect[2] > rect[0] and rect[3] > rect[1]:
            out.append(rect)
    return sorted(out)


def ambiguous(sheet: str, ranges: list[Rect], grids: list[Rect] = ()) -> WorkbookError:
    """One line naming the ranges that could not be told apart and how to pick one (by
    its grid, where ``grids`` holds two or more)."""
    on_sheet = [(max(t, 1), max(left, 1), max(b, 1), max(r, 1)) for t, left, b, r in ranges]
    names = list(dict.fromkeys(where(sheet, r) for r in on_sheet))  # never beyond an edge
    if len(names) == 1:  # one range found twice: not two puzzles
        return WorkbookError(
            f"{names[0]}: clues run into the grid, or the grid into its clues; leave the "
            f"grid empty (or marked) and its clues beside it, or pick the puzzle with --range"
        )
    if len(grids) > 1:
        picks = [where(sheet, g) for g in grids]
        return WorkbookError(
            f"{sheet}: cannot tell the puzzles at {', '.join(names[:-1])} and {names[-1]} "
            f"apart; leave two empty rows or columns between puzzles, or pick one by its "
            f"grid: --range {picks[0]} (or {', '.join(picks[1:])}), or give that range the "
            "name PuzzleGrid"
        )
    return WorkbookError(
        f"{sheet}: cannot tell the puzzles at {', '.join(names[:-1])} and {names[-1]} apart; "
        f"leave two empty rows or columns between puzzles, or pick one with --range "
        f"{names[0]} (or a defined name PuzzleGrid)"
    )

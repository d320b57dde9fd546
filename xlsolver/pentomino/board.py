"""A board to tile: its cells, the pieces fixed on it by the user, and its symmetries.

Glossary
    board      the cells to cover, ``(row, col)`` from 0; the rest of its bounding box
               are holes
    fixed      cells the user already gave a piece letter; each letter's cells must form
               that pentomino and are kept as they are
    free cells board cells not fixed: what the solver covers
    symmetry   a map of the bounding box onto itself (turning or flipping it) that maps
               board cells to board cells and every fixed letter to the same letter
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from ..sheets.protocol import column_letter
from .pieces import LETTERS, PIECE_SIZE, ROTATIONS, TRANSFORMS, Coord, identify

BOARD_CELLS = len(LETTERS) * PIECE_SIZE  # 60: the full set covers 60 cells
NAMED_BOARDS = ("6x10", "5x12", "4x15", "3x20", "8x8-hole")
HOLE_MARK = "."
CELL_MARK = "#"


class BoardError(ValueError):
    """The board cannot be tiled as asked; the message names the reason (exit status 2)."""


class BoardSizeError(BoardError):
    """The board's cell count is not what the pieces cover (another set may fit)."""


class SeveralBoards(BoardError):
    """Marked cells on a sheet that could each be the board: a board drawn, but which?
    ``largest``: the cells of the largest group (none of the size the pieces cover when
    it differs from that)."""

    def __init__(self, message: str, largest: int = 0):
        super().__init__(message)
        self.largest = largest


@dataclass(frozen=True)
class PentominoBoard:
    """Cells to tile with pentominoes plus fixed piece letters, from 0 in the bounding box."""

    cells: frozenset[Coord]
    fixed: Mapping[Coord, str] = field(default_factory=dict)
    name: str = "board"
    sheet: str | None = None  # the worksheet it was read from
    origin: Coord = (1, 1)  # sheet (row, col), 1-based, of the bounding box's top left

    def cell_name(self, cell: Coord) -> str:
        """A cell as the user finds it: ``Sheet1!C4`` on a sheet, ``r1c2`` otherwise."""
        r, c = cell
        if self.sheet is None:
            return f"r{r + 1}c{c + 1}"
        return f"{self.sheet}!{column_letter(self.origin[1] + c)}{self.origin[0] + r}"

    def where(self) -> str:
        """The board's place for messages: ``Sheet1!B2:K7`` or its name."""
        if self.sheet is None:
            return self.name
        last = self.cell_name((self.height - 1, self.width - 1)).split("!")[1]
        first = self.cell_name((0, 0))
        return first if first.endswith(f"!{last}") else f"{first}:{last}"

    @property
    def height(self) -> int:
        """Rows of the bounding box."""
        return max(r for r, _ in self.cells) + 1

    @property
    def width(self) -> int:
        """Columns of the bounding box."""
        return max(c for _, c in self.cells) + 1

    @property
    def free_cells(self) -> frozenset[Coord]:
        """The board cells the solver must cover."""
        return self.cells - set(self.fixed)

    def text(self) -> str:
        """The board as lines: ``#`` to cover, ``.`` a hole, a letter for a fixed piece."""
        return "\n".join(
            "".join(
                self.fixed.get((r, c), CELL_MARK if (r, c) in self.cells else HOLE_MARK)
                for c in range(self.width)
            )
            for r in range(self.height)
        )


def tiling_text(board: PentominoBoard, solution: Mapping[Coord, str]) -> str:
    """A tiling as lines of letters, ``.`` for holes."""
    return "\n".join(
        "".join(solution.get((r, c), HOLE_MARK) for c in range(board.width))
        for r in range(board.height)
    )


def make_board(
    cells: Iterable[Coord],
    fixed: Mapping[Coord, str] | None = None,
    name: str = "board",
    sheet: str | None = None,
    origin: Coord = (1, 1),
) -> PentominoBoard:
    """A board shifted so its bounding box starts at (0, 0); fixed cells join the board.

    ``origin`` is the sheet cell of ``cells``' (0, 0); it moves with the shift.
    """
    fixed = dict(fixed or {})
    cells = set(cells) | set(fixed)
    if not cells:
        raise BoardError("the board has no cells")
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return PentominoBoard(
        frozenset((r - top, c - left) for r, c in cells),
        {(r - top, c - left): v for (r, c), v in fixed.items()},
        name,
        sheet,
        (origin[0] + top, origin[1] + left),
    )


def rectangle(height: int, width: int, holes: Iterable[Coord] = ()) -> PentominoBoard:
    """A height×width rectangle less some holes."""
    holes = set(holes)
    cells = {(r, c) for r in range(height) for c in range(width)} - holes
    return make_board(cells, name=f"{height}x{width}")


def named_board(name: str) -> PentominoBoard:
    """``6x10``, ``5x12``, ``4x15``, ``3x20``, ``8x8-hole`` (centre 2×2 left out), or ``HxW``."""
    key = name.strip().lower()
    if key == "8x8-hole":
        board = rectangle(8, 8, holes=[(3, 3), (3, 4), (4, 3), (4, 4)])
        return PentominoBoard(board.cells, {}, "8x8-hole")
    m = re.fullmatch(r"(\d+)\s*[x×]\s*(\d+)", key)
    if not m:
        raise BoardError(f"unknown board {name!r}: use one of {', '.join(NAMED_BOARDS)} or HxW")
    height, width = int(m.group(1)), int(m.group(2))
    if height < 1 or width < 1:
        raise BoardError(f"board {name!r} has no cells")
    return rectangle(height, width)


def parse_board(text: str, name: str = "board") -> PentominoBoard:
    """A board drawn as text: ``.`` or space a hole, a piece letter fixed, anything else a cell."""
    cells: set[Coord] = set()
    fixed: dict[Coord, str] = {}
    for r, line in enumerate(text.splitlines()):
        for c, ch in enumerate(line):
            if ch in (HOLE_MARK, " "):
                continue
            if ch.upper() in LETTERS and ch.isalpha():
                fixed[(r, c)] = ch.upper()
            cells.add((r, c))
    return make_board(cells, fixed, name)


def check_board(board: PentominoBoard, pieces: str = LETTERS, one_sided: bool = False) -> str:
    """Validate a board for a piece set; the letters left for the solver, else BoardError."""
    pieces = pieces.upper()
    unknown = sorted(set(pieces) - set(LETTERS))
    if unknown:
        raise BoardError(f"unknown piece letter(s) {''.join(unknown)}: use {LETTERS}")
    if len(set(pieces)) != len(pieces):
        raise BoardError(f"piece letters repeat in {pieces!r}: each piece is used once")
    at = f"{board.where()}: "
    n = len(board.cells)
    need = len(pieces) * PIECE_SIZE
    cells = f"{n} cell" if n == 1 else f"{n} cells"
    if pieces == LETTERS and n != BOARD_CELLS:
        raise BoardSizeError(
            f"{at}the board has {cells}; the 12 pentominoes cover exactly {BOARD_CELLS}"
            f"{_difference(board, BOARD_CELLS)}"
        )
    if n % PIECE_SIZE:
        raise BoardSizeError(f"{at}the board has {cells}, not a multiple of {PIECE_SIZE}")
    if n != need:
        raise BoardSizeError(f"{at}the board has {cells} but the pieces {pieces} cover {need}")
    by_letter: dict[str, list[Coord]] = {}
    for cell, letter in board.fixed.items():
        by_letter.setdefault(letter, []).append(cell)
    for letter, cells in sorted(by_letter.items()):
        names = [board.cell_name(cell) for cell in sorted(cells)]
        where = " ".join(names if len(names) <= PIECE_SIZE else [*names[:3], "…", names[-1]])
        if letter not in pieces:
            raise BoardError(f"fixed piece {letter} at {where} is not among the pieces {pieces}")
        if len(cells) != PIECE_SIZE:
            raise BoardError(
                f"fixed piece {letter} has {len(cells)} cell{'' if len(cells) == 1 else 's'} "
                f"({where}); a pentomino has 5"
                " (mark plain board cells with a fill or a character that is no piece letter)"
            )
        found = identify(cells, one_sided)
        if found != letter:
            kind = " (one-sided: turns only)" if one_sided else ""
            shape = "no pentomino" if found is None else f"the {found} pentomino"
            if found is None and one_sided and identify(cells, False) == letter:
                shape = f"{letter} turned over"
            raise BoardError(
                f"fixed cells {where} marked {letter} form {shape}, not {letter}{kind}"
            )
    return "".join(p for p in pieces if p not in by_letter)


def _difference(board: PentominoBoard, need: int) -> str:
    """Where a board of one cell too many or too few differs from a full rectangle:
    ``; Sheet1!E5 is the one cell outside a 6×10 rectangle`` (empty otherwise)."""
    n = len(board.cells)
    h, w = board.height, board.width
    box = {(r, c) for r in range(h) for c in range(w)}
    if n == need + 1:  # a rectangle of ``need`` cells and one cell sticking out
        for r0, c0, r1, c1 in ((1, 0, h, w), (0, 0, h - 1, w), (0, 1, h, w), (0, 0, h, w - 1)):
            rect = {(r, c) for r in range(r0, r1) for c in range(c0, c1)}
            if len(rect) == need and rect <= board.cells:
                (extra,) = board.cells - rect
                return f"; {board.cell_name(extra)} is the one cell outside a full rectangle"
    if n == need - 1 and h * w == need:
        (gap,) = box - board.cells
        return f"; {board.cell_name(gap)} is the one cell of the rectangle not marked"
    typed: dict[str, list[Coord]] = {}
    for cell, letter in board.fixed.items():
        typed.setdefault(letter, []).append(cell)
    odd = sorted((k, v) for k, v in typed.items() if len(v) != PIECE_SIZE)
    if odd:
        letter, cells = odd[0]
        return (
            f"; {_cells_typed(cells, letter, board.cell_name(min(cells)))} fixing the "
            f"{letter} piece; type 0 or . in a hole"
        )
    return ""


def symmetries(board: PentominoBoard, one_sided: bool = False) -> list[dict[Coord, Coord]]:
    """The maps of the board onto itself keeping fixed letters; the identity first.

    One-sided pieces may not be turned over, so only turns count then.
    """
    h, w = board.height, board.width
    out: list[dict[Coord, Coord]] = []
    for t in ROTATIONS if one_sided else TRANSFORMS:
        box = [(r, c) for r in range(h) for c in range(w)]
        moved = [t(r, c) for r, c in box]
        top = min(r for r, _ in moved)
        left = min(c for _, c in moved)
        perm = {cell: (r - top, c - left) for cell, (r, c) in zip(box, moved, strict=True)}
        if max(r for r, _ in perm.values()) != h - 1:
            continue  # a quarter turn of a non-square box
        if all(perm[cell] in board.cells for cell in board.cells) and all(
            board.fixed.get(perm[cell]) == letter for cell, letter in board.fixed.items()
        ):
            out.append({cell: perm[cell] for cell in board.cells})
    return out


def _cells_typed(cells: list, letter: str, first: str) -> str:
    """``the 4 cells typed F (B2 …) are board cells`` / ``the cell typed F (B2) is a
    board cell``."""
    if len(cells) == 1:
        return f"the cell typed {letter} ({first}) is a board cell"
    return f"the {len(cells)} cells typed {letter} ({first} …) are board cells"

"""A nonogram puzzle: row clues and column clues, validated.

Glossary
    clue    one number: the length of one block of black cells
    line    one row or one column, with its clues in order (``[]`` for an empty line)
    LineId  ``("row", i)`` or ``("col", i)``, i from 0
"""

from __future__ import annotations

import numbers
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .deferred import Meta

if TYPE_CHECKING:
    import numpy as np


LineId = tuple[str, int]


class PuzzleError(ValueError):
    """The clues themselves are wrong; the message names the line at fault."""

    def __init__(self, message: str, line: LineId | None = None):
        super().__init__(message)
        self.line = line


LINE_NAMES = {  # per language: how a row and a column are named, people counting from 1
    "en": ("row {}", "column {}"),
    "ja": ("{}行目", "{}列目"),
}


def line_name(line: LineId, lang: str = "en") -> str:
    """``("row", 3)`` → ``"row 4"`` (``"4行目"`` in Japanese)."""
    kind, index = line
    row, column = LINE_NAMES[lang]
    return (row if kind == "row" else column).format(index + 1)


def clue_text(clues: Sequence[int]) -> str:
    """Clues as a person writes them: ``"3 1 2"``, ``"0"`` for an empty line."""
    return " ".join(str(c) for c in clues) if clues else "0"


def min_length(clues: Sequence[int]) -> int:
    """The fewest cells that hold these clues: blocks plus single gaps."""
    return sum(clues) + max(len(clues) - 1, 0)


def _clean_line(values: Iterable, line: LineId) -> tuple[int, ...]:
    """Integers ≥1 from a clue list; a lone 0 means an empty line."""
    out: list[int] = []
    raw = list(values)
    for v in raw:
        if isinstance(v, bool) or not isinstance(v, numbers.Integral):
            if isinstance(v, float) and v.is_integer():
                v = int(v)
            else:
                raise PuzzleError(f"{line_name(line)}: clue {v!r} is not a whole number", line)
        v = int(v)
        if v < 0:
            raise PuzzleError(f"{line_name(line)}: clue {v} is negative", line)
        out.append(v)
    if any(v == 0 for v in out):
        if out == [0]:  # one 0: an empty line
            return ()
        raise PuzzleError(
            f"{line_name(line)}: clue 0 stands among other clues ({clue_text(out)})", line
        )
    return tuple(out)


# characters XML 1.0 and Excel's cells refuse (tab, line feed and carriage return stay)
_CONTROL = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def printable(text: str) -> str:
    """Text without the control characters no workbook or XML file can hold."""
    return _CONTROL.sub("", text)


class Lines:
    """What every puzzle has: ``rows`` and ``cols`` of clues, and pictures checked line by line.

    A subclass gives ``rows``, ``cols``, ``runs`` (a line's clues from a line of the
    picture) and ``picture`` (a solution as the array ``runs`` reads).
    """

    rows: tuple
    cols: tuple

    def __post_init__(self) -> None:
        """Control characters out of the title and text metadata: no workbook, XML
        file or sheet name can hold them (a raw BEL byte in a ``.non`` title)."""
        title = getattr(self, "title", "")
        if isinstance(title, str) and _CONTROL.search(title):
            object.__setattr__(self, "title", printable(title))
        meta = getattr(self, "meta", None)
        if isinstance(meta, dict):
            for key, value in dict.items(meta):
                if isinstance(value, str) and _CONTROL.search(value):
                    dict.__setitem__(meta, key, printable(value))

    @staticmethod
    def runs(cells: Iterable) -> tuple:
        """The clues a line of a picture has."""
        raise NotImplementedError

    @staticmethod
    def picture(solution: np.ndarray) -> np.ndarray:
        """A solution as the array :meth:`runs` reads."""
        import numpy as np

        return np.asarray(solution)

    @property
    def height(self) -> int:
        """Number of rows."""
        return len(self.rows)

    @property
    def width(self) -> int:
        """Number of columns."""
        return len(self.cols)

    def lines(self) -> list[tuple[LineId, tuple, int]]:
        """Every line as (id, clues, length): rows first, then columns."""
        return [(("row", i), c, self.width) for i, c in enumerate(self.rows)] + [
            (("col", i), c, self.height) for i, c in enumerate(self.cols)
        ]

    def clues(self, line: LineId) -> tuple:
        """The clues of one line."""
        kind, i = line
        return self.rows[i] if kind == "row" else self.cols[i]

    def check_size(self) -> None:
        """Raise :class:`PuzzleError` for a grid without rows or columns."""
        if self.height == 0:
            raise PuzzleError("the grid has no rows (height 0)")
        if self.width == 0:
            raise PuzzleError("the grid has no columns (width 0)")

    def check(self, solution: np.ndarray) -> list[LineId]:
        """The lines a solution breaks (empty when it satisfies every clue)."""
        sol = self.picture(solution)
        if sol.shape != (self.height, self.width):
            return [line for line, _, _ in self.lines()]
        runs = self.runs
        bad: list[LineId] = [("row", i) for i, c in enumerate(self.rows) if runs(sol[i]) != c]
        bad += [("col", i) for i, c in enumerate(self.cols) if runs(sol[:, i]) != c]
        return bad

    def is_solution(self, solution: np.ndarray) -> bool:
        """True when a solution satisfies every clue."""
        return not self.check(solution)


def too_long(line: LineId, text: str, need: int, length: int) -> PuzzleError:
    """The fault of a line whose clues (``text``) need more cells than it has."""
    side = "wide" if line[0] == "row" else "high"
    return PuzzleError(
        f"{line_name(line)}: clues {text} need {need} cells but the grid is {length} {side}",
        line,
    )


@dataclass(frozen=True)
class Puzzle(Lines):
    """Row clues (top to bottom) and column clues (left to right)."""

    rows: tuple[tuple[int, ...], ...]
    cols: tuple[tuple[int, ...], ...]
    title: str = ""
    meta: dict = field(default_factory=Meta, compare=False, hash=False)

    @classmethod
    def from_clues(
        cls,
        rows: Iterable[Iterable],
        cols: Iterable[Iterable],
        title: str = "",
        meta: dict | None = None,
        validate: bool = True,
    ) -> Puzzle:
        """Build and (by default) validate a puzzle from any lists of numbers."""
        r = tuple(_clean_line(v, ("row", i)) for i, v in enumerate(rows))
        c = tuple(_clean_line(v, ("col", i)) for i, v in enumerate(cols))
        puzzle = cls(r, c, title, Meta(meta or {}))
        if validate:
            puzzle.validate()
        return puzzle

    @classmethod
    def from_solution(
        cls, solution: np.ndarray, title: str = "", meta: dict | None = None
    ) -> Puzzle:
        """The clues of a black-and-white picture (True = black)."""
        import numpy as np

        sol = np.asarray(solution, dtype=bool)
        rows, cols = [runs(row) for row in sol], [runs(col) for col in sol.T]
        return cls.from_clues(rows, cols, title=title, meta=meta)

    @staticmethod
    def runs(cells: Iterable) -> tuple[int, ...]:
        """The block lengths of a line of booleans."""
        return runs(cells)

    @staticmethod
    def picture(solution: np.ndarray) -> np.ndarray:
        """A solution as booleans (True = black)."""
        import numpy as np

        return np.asarray(solution, dtype=bool)

    def validate(self) -> None:
        """Raise :class:`PuzzleError` naming the first fault in the clues."""
        self.check_size()
        for line, clues, length in self.lines():
            need = min_length(clues)
            if need > length:
                raise too_long(line, clue_text(clues), need, length)
        row_total = sum(map(sum, self.rows))
        col_total = sum(map(sum, self.cols))
        if row_total != col_total:
            raise PuzzleError(f"rows hold {row_total} black cells, columns {col_total}")


def runs(cells: Iterable) -> tuple[int, ...]:
    """The block lengths of a line of booleans (True = black)."""
    out: list[int] = []
    n = 0
    for v in cells:
        if v:
            n += 1
        elif n:
            out.append(n)
            n = 0
    if n:
        out.append(n)
    return tuple(out)

"""A colour puzzle: a palette, and clues that each carry a colour.

Glossary
    ink       one of the k paint colours, numbered 1..k; 0 is the background
    palette   the background and the inks, each with a name, a letter and an ``#rrggbb``
    letter    the one character that names a colour in a solution row (``.`` is the
              background); taken from the puzzle file (a clue letter such as the ``a``
              of ``3a``, else the file's display character), else the first free a–z
    clue      ``(length, ink)``: a block of ``length`` cells of colour ``ink``
    solution  an H×W integer array of colour numbers (0 = background)

The rules (webpbn's and the extended .non's): blocks of the same colour are separated
by at least one background cell; blocks of different colours may touch. A
black-and-white puzzle stays a :class:`~xlsolver.nonogram.puzzle.Puzzle`; this type is
for two inks or more (one ink works too, the engine just takes the longer road).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cells import MAX_INKS
from .deferred import Meta
from .puzzle import LineId, Lines, PuzzleError, line_name, too_long

if TYPE_CHECKING:
    import numpy as np

ColourClue = tuple[int, int]  # (length, ink)

BACKGROUND_LETTER = "."
NOT_LETTERS = set(".,?!\"'|[]<>&;") | set("0123456789")
SPARE_LETTERS = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
RGB = re.compile(r"#?([0-9A-Fa-f]{6}|[0-9A-Fa-f]{3})")


SAME_SHADE = 24.0  # RGB distance within which two colours are one ink (a tenth of a shade step)


def rgb_distance(a: str, b: str) -> float:
    """Euclidean distance of two ``#rrggbb`` colours in RGB."""
    pairs = zip(bytes.fromhex(a[1:]), bytes.fromhex(b[1:]), strict=True)
    return sum((x - y) ** 2 for x, y in pairs) ** 0.5


def parse_rgb(text: str) -> str | None:
    """``FF0000``, ``#ff0000`` or ``f00`` as ``#ff0000``; None when it is no colour."""
    match = RGB.fullmatch(text.strip())
    if not match:
        return None
    digits = match.group(1).lower()
    if len(digits) == 3:
        digits = "".join(ch * 2 for ch in digits)
    return "#" + digits


def is_letter(text: str) -> bool:
    """True when a text can name a colour in a solution row and in a clue (``3a``)."""
    return len(text) == 1 and text.isprintable() and not text.isspace() and text not in NOT_LETTERS


@dataclass(frozen=True)
class Colour:
    """One colour: its name in the puzzle file, its letter and its ``#rrggbb``."""

    name: str
    letter: str
    rgb: str


WHITE_BACKGROUND = Colour("white", BACKGROUND_LETTER, "#ffffff")


@dataclass(frozen=True)
class Palette:
    """The background (colour 0) and the inks (colours 1..k)."""

    inks: tuple[Colour, ...]
    background: Colour = WHITE_BACKGROUND

    @classmethod
    def build(
        cls,
        inks: Iterable[tuple[str, str, str | None]],
        background: tuple[str, str] = ("white", "#ffffff"),
    ) -> Palette:
        """A palette from (name, rgb, display character or None) per ink; letters chosen.

        An ink's letter is its name when that is one usable character, else its display
        character, else the first free letter a–z (never ``.``, a digit or a space).
        """
        chosen: list[tuple[str, str, str | None]] = list(inks)
        used: set[str] = set()
        letters: list[str | None] = []
        for name, _, char in chosen:
            pick = next((x for x in (name, char) if x and is_letter(x) and x not in used), None)
            letters.append(pick)
            if pick:
                used.add(pick)
        out = []
        spare = (ch for ch in SPARE_LETTERS if ch not in used)
        for (name, rgb, _), letter in zip(chosen, letters, strict=True):
            out.append(Colour(name, letter or next(spare), parse_rgb(rgb) or rgb))
        bname, brgb = background
        return cls(tuple(out), Colour(bname, BACKGROUND_LETTER, parse_rgb(brgb) or brgb))

    def __post_init__(self) -> None:
        if len(self.inks) > MAX_INKS:
            raise PuzzleError(f"{len(self.inks)} colours: at most {MAX_INKS} are supported")
        letters = [c.letter for c in self.inks]
        for colour in self.inks:
            if not is_letter(colour.letter):
                raise PuzzleError(f'colour "{colour.name}": "{colour.letter}" cannot be a letter')
            if letters.count(colour.letter) > 1:
                raise PuzzleError(f'two colours have the letter "{colour.letter}"')
            if parse_rgb(colour.rgb) != colour.rgb:
                raise PuzzleError(f'colour "{colour.name}": "{colour.rgb}" is not #rrggbb')

    @property
    def k(self) -> int:
        """The number of inks."""
        return len(self.inks)

    def colour(self, number: int) -> Colour:
        """Colour number ``number`` (0 = the background)."""
        return self.background if number == 0 else self.inks[number - 1]

    @property
    def letters(self) -> str:
        """``letters[c]`` is colour c's letter (``.`` first, for the background)."""
        return BACKGROUND_LETTER + "".join(c.letter for c in self.inks)

    def ink(self, key: int | str) -> int:
        """The number of an ink given by number, letter or name; KeyError if none."""
        if isinstance(key, int) and not isinstance(key, bool):
            if 1 <= key <= self.k:
                return key
            raise KeyError(key)
        for number, colour in enumerate(self.inks, 1):
            if key in (colour.letter, colour.name):
                return number
        raise KeyError(key)

    def colours_json(self) -> dict[str, str]:
        """``{"a": "#ff0000", …}``: every ink's letter and colour."""
        return {c.letter: c.rgb for c in self.inks}

    def rows_text(self, solution: np.ndarray) -> list[str]:
        """A solution as row strings: ``.`` background, each ink's letter."""
        import numpy as np

        letters = self.letters
        return ["".join(letters[int(v)] for v in row) for row in np.asarray(solution)]

    def from_rows(self, rows: Sequence[str]) -> np.ndarray:
        """The inverse of :meth:`rows_text`; KeyError for a character of no colour."""
        import numpy as np

        index = {ch: i for i, ch in enumerate(self.letters)}
        return np.array([[index[ch] for ch in row] for row in rows], dtype=np.int8).reshape(
            len(rows), -1
        )


def colour_runs(cells: Iterable) -> tuple[ColourClue, ...]:
    """The blocks of a line of colour numbers as ``(length, ink)`` (0 = background)."""
    out: list[ColourClue] = []
    run, ink = 0, 0
    for v in cells:
        v = int(v)
        if v == ink:
            run += 1
            continue
        if ink:
            out.append((run, ink))
        run, ink = 1, v
    if ink:
        out.append((run, ink))
    return tuple(out)


def colour_min_length(clues: Sequence[ColourClue]) -> int:
    """The fewest cells that hold these clues: blocks, and a gap between same colours."""
    gaps = sum(1 for a, b in zip(clues, clues[1:], strict=False) if a[1] == b[1])
    return sum(n for n, _ in clues) + gaps


def colour_clue_text(clues: Sequence[ColourClue], palette: Palette) -> str:
    """Clues as a person writes them: ``"3a 1b"``, ``"0"`` for an empty line."""
    letters = palette.letters
    return " ".join(f"{n}{letters[ink]}" for n, ink in clues) if clues else "0"


def _clean_line(values: Iterable, palette: Palette, line: LineId) -> tuple[ColourClue, ...]:
    """``(length, ink)`` pairs from a clue list; a lone ``(0, …)`` means an empty line."""
    import numpy as np

    out: list[ColourClue] = []
    for item in values:
        if not isinstance(item, Sequence) or isinstance(item, str) or len(item) != 2:
            raise PuzzleError(f"{line_name(line)}: clue {item!r} is not (length, colour)", line)
        length, key = item
        if isinstance(length, bool) or not isinstance(length, (int, np.integer)) or length < 0:
            raise PuzzleError(f"{line_name(line)}: clue {length!r} is not a whole number", line)
        try:
            ink = palette.ink(int(key) if isinstance(key, np.integer) else key)
        except KeyError:
            raise PuzzleError(
                f"{line_name(line)}: clue colour {key!r} is not in the palette", line
            ) from None
        out.append((int(length), ink))
    if any(n == 0 for n, _ in out):
        if all(n == 0 for n, _ in out):
            return ()
        raise PuzzleError(f"{line_name(line)}: clue 0 stands among other clues", line)
    return tuple(out)


@dataclass(frozen=True)
class ColourPuzzle(Lines):
    """Row clues and column clues of ``(length, ink)``, and the palette they use."""

    rows: tuple[tuple[ColourClue, ...], ...]
    cols: tuple[tuple[ColourClue, ...], ...]
    palette: Palette
    title: str = ""
    meta: dict = field(default_factory=Meta, compare=False, hash=False)

    @classmethod
    def from_clues(
        cls,
        rows: Iterable[Iterable],
        cols: Iterable[Iterable],
        palette: Palette,
        title: str = "",
        meta: dict | None = None,
        validate: bool = True,
    ) -> ColourPuzzle:
        """Build and (by default) validate a puzzle; a clue's colour is a number or letter."""
        r = tuple(_clean_line(v, palette, ("row", i)) for i, v in enumerate(rows))
        c = tuple(_clean_line(v, palette, ("col", i)) for i, v in enumerate(cols))
        puzzle = cls(r, c, palette, title, Meta(meta or {}))
        if validate:
            puzzle.validate()
        return puzzle

    @classmethod
    def from_solution(
        cls, solution: np.ndarray, palette: Palette, title: str = "", meta: dict | None = None
    ) -> ColourPuzzle:
        """The clues of a colour picture (colour numbers, 0 = background)."""
        import numpy as np

        sol = np.asarray(solution)
        if sol.ndim != 2 or sol.size and (sol.min() < 0 or sol.max() > palette.k):
            raise PuzzleError(f"a picture of colour numbers 0..{palette.k} is needed")
        return cls.from_clues(
            [colour_runs(row) for row in sol],
            [colour_runs(col) for col in sol.T],
            palette,
            title,
            meta=meta,
        )

    @staticmethod
    def runs(cells: Iterable) -> tuple[ColourClue, ...]:
        """The ``(length, ink)`` blocks of a line of colour numbers."""
        return colour_runs(cells)

    def clue_text(self, line: LineId) -> str:
        """One line's clues as ``"3a 1b"``."""
        return colour_clue_text(self.clues(line), self.palette)

    def validate(self) -> None:
        """Raise :class:`PuzzleError` naming the first fault in the clues."""
        self.check_size()
        k = self.palette.k
        for line, clues, length in self.lines():
            for n, ink in clues:
                if not 1 <= ink <= k or n < 1:
                    raise PuzzleError(f"{line_name(line)}: clue ({n}, {ink}) is not valid", line)
            need = colour_min_length(clues)
            if need > length:
                raise too_long(line, colour_clue_text(clues, self.palette), need, length)
        for ink in range(1, k + 1):
            in_rows = sum(n for clues in self.rows for n, c in clues if c == ink)
            in_cols = sum(n for clues in self.cols for n, c in clues if c == ink)
            if in_rows != in_cols:
                colour = self.palette.colour(ink)
                raise PuzzleError(
                    f'rows hold {in_rows} cells of colour "{colour.name}" ({colour.letter}), '
                    f"columns {in_cols}"
                )


def is_colour(puzzle: object) -> bool:
    """True for a colour puzzle (the analyzer and the formats dispatch on this)."""
    return isinstance(puzzle, ColourPuzzle)

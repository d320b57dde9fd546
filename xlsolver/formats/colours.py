"""What the colour formats share: colours declared and used, and the puzzle they make.

Glossary
    key     how a file names a colour in its clues: a letter (``3a``), a name
            (``red``, ``aF78900``) or None for the file's default colour
    draft   the colours a file declared (key, ``#rrggbb``, display character) and the
            keys its clues used, each with the line that first used it

A file whose clues use one colour only is a black-and-white :class:`Puzzle`; two or
more make a :class:`ColourPuzzle` whose palette holds the colours the clues use, in
the order the file declares them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..nonogram.colour_puzzle import ColourPuzzle, Palette, parse_rgb
from ..nonogram.puzzle import Puzzle, PuzzleError
from .base import FormatError, build_puzzle

if TYPE_CHECKING:
    import numpy as np

# Colours for keys a file uses without declaring them (the extended .non allows it)
AUTO_COLOURS = (
    "#000000",
    "#ff0000",
    "#0000ff",
    "#00a000",
    "#ff8c00",
    "#800080",
    "#8b4513",
    "#00bcd4",
    "#ff69b4",
    "#808000",
)

Key = str | None
Line = list[tuple[int, Key]]


@dataclass
class ColourDraft:
    """The colours of one puzzle as a file gives them, before the palette is made."""

    source: str
    declared: dict[str, tuple[str, str | None]] = field(default_factory=dict)  # key → rgb, char
    used: dict[Key, int] = field(default_factory=dict)  # key → first line using it
    background: tuple[str, str] = ("white", "#ffffff")

    def declare(self, key: str, rgb_text: str, char: str | None, lineno: int | None) -> None:
        """A colour the file defines; a bad colour value is a FormatError on its line."""
        rgb = parse_rgb(rgb_text)
        if rgb is None:
            raise FormatError(f'colour "{key}": "{rgb_text}" is not RRGGBB', self.source, lineno)
        self.declared[key] = (rgb, char)

    def use(self, key: Key, lineno: int | None) -> None:
        """Note a colour a clue uses."""
        self.used.setdefault(key, lineno or 0)

    def is_colour(self) -> bool:
        """True when the clues use two colours or more."""
        return len(self.used) > 1

    def palette(self, undeclared_ok: bool, default_name: str = "black") -> Palette:
        """The palette of the colours the clues use (declared order first)."""
        keys = [k for k in self.declared if k in self.used]
        keys += [k for k in self.used if k not in self.declared]
        inks = []
        spare = iter(c for c in AUTO_COLOURS if c not in {v[0] for v in self.declared.values()})
        for key in keys:
            if key in self.declared:
                rgb, char = self.declared[key]
                inks.append((key, rgb, char))
            elif key is None:
                inks.append((default_name, "#000000", None))
            elif undeclared_ok:
                inks.append((key, next(spare, "#000000"), None))
            else:
                raise FormatError(f'colour "{key}" is not declared', self.source, self.used[key])
        try:
            return Palette.build(inks, background=self.background)
        except PuzzleError as exc:
            raise FormatError(str(exc), self.source, min(self.used.values(), default=None)) from exc

    def ink_numbers(self, palette: Palette) -> dict[Key, int]:
        """Each key the clues use → its ink number in the palette."""
        keys = [k for k in self.declared if k in self.used]
        keys += [k for k in self.used if k not in self.declared]
        return {key: number for number, key in enumerate(keys, 1)}


def colour_puzzle(
    draft: ColourDraft,
    rows: Sequence[Line],
    cols: Sequence[Line],
    *,
    title: str = "",
    meta: dict | None = None,
    line: int | None = None,
    undeclared_ok: bool = False,
) -> Puzzle | ColourPuzzle:
    """The puzzle of clue lines of (length, key): black and white when one colour is used."""
    meta = dict(meta or {})
    if title:
        meta.setdefault("title", title)
    if line is not None:
        meta.setdefault("line", line)
    if not draft.is_colour():
        return build_puzzle(
            [[n for n, _ in clues] for clues in rows],
            [[n for n, _ in clues] for clues in cols],
            title=title,
            meta=meta,
            source=draft.source,
            line=line,
        )
    palette = draft.palette(undeclared_ok)
    number = draft.ink_numbers(palette)
    try:
        return ColourPuzzle.from_clues(
            [[(n, number[key]) for n, key in clues] for clues in rows],
            [[(n, number[key]) for n, key in clues] for clues in cols],
            palette,
            title=title,
            meta=meta,
            validate=False,
        )
    except PuzzleError as exc:
        raise FormatError(str(exc), draft.source, line) from exc


def goal_picture(
    rows: Sequence[str], puzzle: Puzzle | ColourPuzzle, chars: dict[str, int | bool]
) -> np.ndarray | None:
    """A goal given as row strings, through a map of characters; None if one is unknown."""
    import numpy as np

    try:
        cells = [[chars[ch] for ch in row] for row in rows]
    except KeyError:
        return None
    if len(cells) != puzzle.height or any(len(row) != puzzle.width for row in cells):
        return None
    dtype = np.int8 if isinstance(puzzle, ColourPuzzle) else bool
    return np.array(cells, dtype=dtype).reshape(puzzle.height, puzzle.width)

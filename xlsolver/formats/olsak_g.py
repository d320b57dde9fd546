"""Olšák's ``.g`` format (Petr and Mirek Olšák's ``grid`` solver; read by pbnsolve).

Free text first (ignored, up to a line that starts with ``:`` or ``#``); a line
starting ``#d`` (``#D``, ``#deklarace``…) opens the colour declarations, one a line::

    <inchar>:<outchar>  <colour>  <comment>

``inchar`` is the letter a clue carries (``3r``), ``outchar`` how the colour is shown,
``colour`` an X11 name (``red``) or ``#RRGGBB``. Inchar ``0`` declares the background
(white unless declared) and ``1`` the default colour, for clue numbers without a letter.
Then a line starting ``:`` opens the rows, one clue line each; the next ``:`` line opens
the columns, and another ``:`` line (or the end of the file) ends them. An empty line,
or ``0``, is an empty line of the grid. Without declarations the puzzle is black and
white. The first short line of the free text is kept as the title.

Triddlers (``#t``), triangles (a colour such as ``black/orange``) and glued triangles
(``<``, ``>``) are refused: they are not rectangular black-and-colour grids.
"""

from __future__ import annotations

import re

from ..nonogram.colour_puzzle import ColourPuzzle, parse_rgb
from ..nonogram.puzzle import Puzzle
from .base import FormatError, split_lines, whole_number
from .colours import ColourDraft, Line, colour_puzzle
from .nonogrid_toml import NAMED_COLOURS

NAME = "g"
EXTENSIONS = (".g",)
COLOUR = True  # writes colour puzzles

DEFAULT_KEY = "1"  # the inchar of the default colour
BACKGROUND_KEY = "0"
TRIDDLER_KEY = "6"  # the colour around a triddler
MAX_TITLE = 40  # a longer first line of free text is a description, not a title
CLUE = re.compile(r"(\d+)(\S?)")
DECLARATION = re.compile(r"[ \t]*(\S):(.)[ \t]*(\S+)(.*)")
# X11's rgb.txt, where it differs from the CSS names that the TOML reader knows
X11_COLOURS = {
    **NAMED_COLOURS,
    "green": "00ff00",
    "gray": "bebebe",
    "grey": "bebebe",
    "maroon": "b03060",
    "purple": "a020f0",
}


def sniff(text: str) -> bool:
    """True when a ``#d`` declaration line or a ``:`` line opens the clues, and another
    ``:`` line opens the columns, with clue lines between them."""
    lines = split_lines(text)
    if not lines or lines[0][:1].isdigit():
        return False
    marks = [k for k, line in enumerate(lines) if line.startswith(":")]
    if len(marks) < 2:
        return False
    rows = lines[marks[0] + 1 : marks[1]]
    return bool(rows) and all(_is_clue_line(line) for line in rows)


def _is_clue_line(line: str) -> bool:
    """True for a line of clue tokens (``3``, ``3r``) or an empty line."""
    return all(CLUE.fullmatch(token) for token in line.split())


def _colour_value(word: str, key: str, source: str, lineno: int) -> str:
    """``#rrggbb`` for a declaration's colour word (an X11 name or ``#RRGGBB``)."""
    if "/" in word or "\\" in word:
        raise FormatError(
            f'colour "{key}" is a triangle ({word}): only whole-cell colours are supported',
            source,
            lineno,
        )
    if word.startswith("#"):
        rgb = parse_rgb(word)
        if rgb is None:
            raise FormatError(f'colour "{key}": "{word}" is not #RRGGBB', source, lineno)
        return rgb
    named = X11_COLOURS.get(word.lower().replace(" ", ""))
    if named is None:
        raise FormatError(
            f'colour "{key}": "{word}" is not a colour name this reader knows; write it as #RRGGBB',
            source,
            lineno,
        )
    return "#" + named


def _declarations(
    lines: list[str], start: int, draft: ColourDraft, source: str
) -> tuple[int, bool]:
    """Read the colour lines from ``lines[start]`` up to the ``:`` line; returns that
    line's index and whether a default colour was declared."""
    default = False
    k = start
    while k < len(lines) and not lines[k].startswith(":"):
        lineno, text = k + 1, lines[k]
        k += 1
        if not text.strip():
            continue
        match = DECLARATION.fullmatch(text)
        if not match:
            raise FormatError(
                f'"{text.strip()}" is not a colour line "LETTER:SHOWN  COLOUR"', source, lineno
            )
        key, shown, word, rest = match.groups()
        if rest.strip()[:1] in ("<", ">"):
            raise FormatError(
                f'colour "{key}" glues triangles ({rest.strip()[:1]}): not supported',
                source,
                lineno,
            )
        if key == TRIDDLER_KEY:
            continue
        if key.isdigit() and key not in (DEFAULT_KEY, BACKGROUND_KEY) or key == ",":
            raise FormatError(f'"{key}" cannot name a colour (a digit or a comma)', source, lineno)
        rgb = _colour_value(word, key, source, lineno)
        if key == BACKGROUND_KEY:
            draft.background = (word.lower(), rgb)
            continue
        default |= key == DEFAULT_KEY
        draft.declare(key, rgb, shown if shown.strip() else None, lineno)
    if k == len(lines):
        raise FormatError('no ":" line after the colour declarations', source, len(lines))
    return k, default


def _clue_lines(
    lines: list[str], first: int, draft: ColourDraft, default: str | None, source: str
) -> list[Line]:
    """The clue lines of one section (``lines[0]`` is file line ``first``)."""
    out: list[Line] = []
    for k, text in enumerate(lines):
        lineno = first + k
        clues: Line = []
        for token in text.split():
            match = CLUE.fullmatch(token)
            if not match:
                raise FormatError(f'clue "{token}" is not a number and a colour', source, lineno)
            number = whole_number(match.group(1), "clue", source, lineno)
            letter = match.group(2) or default
            if match.group(2) and match.group(2) not in draft.declared:
                raise FormatError(
                    f'clue "{token}": no colour "{letter}" is declared', source, lineno
                )
            if letter is None and draft.declared and number != 0:  # "0": an empty line
                raise FormatError(
                    f'clue "{token}" has no colour letter and no default colour ("1:") is declared',
                    source,
                    lineno,
                )
            if number == 0:
                if len(text.split()) > 1:
                    raise FormatError(
                        f"clue 0 stands among other clues ({text.strip()})", source, lineno
                    )
                continue
            draft.use(letter, lineno)
            clues.append((number, letter))
        out.append(clues)
    return out


def _title(lines: list[str]) -> str:
    """The first line of the free text, when it is short enough to be a title."""
    text = next((line.strip() for line in lines if line.strip()), "")
    return text if len(text) <= MAX_TITLE else ""


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """The puzzle of a ``.g`` text."""
    lines = split_lines(text)
    draft = ColourDraft(source)
    default: str | None = None
    k = 0
    while k < len(lines) and not lines[k].startswith(":"):
        mark = lines[k][:2].lower()
        if mark == "#t":
            raise FormatError(
                "a triddler (#t): only rectangular grids are supported", source, k + 1
            )
        if mark == "#d":
            preamble = lines[:k]
            k, declared = _declarations(lines, k + 1, draft, source)
            default = DEFAULT_KEY if declared else None
            break
        k += 1
    else:
        preamble = lines[:k]
    if k == len(lines):
        if lines and lines[0][:1].isdigit():
            raise FormatError("no ':' line: a file that starts with a number is .mk", source, 1)
        raise FormatError('no ":" line opens the row clues', source, max(len(lines), 1))
    rows_at = k
    ends = [j for j in range(rows_at + 1, len(lines)) if lines[j].startswith(":")]
    if not ends:
        raise FormatError('no ":" line opens the column clues', source, rows_at + 1)
    cols_at = ends[0]
    cols_end = ends[1] if len(ends) > 1 else len(lines)
    column_lines = lines[cols_at + 1 : cols_end]
    if len(ends) == 1:  # no closing ":" line: blank lines ending the file are not columns
        while column_lines and not column_lines[-1].strip():
            column_lines.pop()
    rows = _clue_lines(lines[rows_at + 1 : cols_at], rows_at + 2, draft, default, source)
    cols = _clue_lines(column_lines, cols_at + 2, draft, default, source)
    if not rows:
        raise FormatError("no rows between the two ':' lines", source, cols_at + 1)
    title = _title(preamble)
    meta = {"title": title} if title else {}
    meta["row_lines"] = [rows_at + 2 + k for k in range(len(rows))]  # where a clue error is
    meta["col_lines"] = [cols_at + 2 + k for k in range(len(cols))]
    return [colour_puzzle(draft, rows, cols, title=title, meta=meta, line=rows_at + 1)]


def _clue_text(clues, letters: str | None) -> str:
    """One clue line: ``3 1`` or ``3a 1b``; an empty line stays empty, as Olšák writes
    it (pbnsolve takes ``0`` only where a default colour is declared)."""
    if letters is None:
        return " ".join(str(n) for n in clues)
    return " ".join(f"{n}{letters[ink]}" for n, ink in clues)


def dumps(puzzle: Puzzle | ColourPuzzle) -> str:
    """The ``.g`` text of a puzzle: a colour puzzle declares its inks by letter and
    ``#rrggbb``, and every clue carries its letter."""
    out = []
    title = " ".join(puzzle.title.split())
    if title:
        # a first character of ":", "#" or a digit would be read as data
        out.append(title if not (title[0] in ":#" or title[0].isdigit()) else f" {title}")
    letters = None
    if isinstance(puzzle, ColourPuzzle):
        palette = puzzle.palette
        letters = palette.letters
        out.append("#d")
        out.append(f"   {BACKGROUND_KEY}:.  {palette.background.rgb}")
        out += [f"   {c.letter}:{c.letter}  {c.rgb}  {c.name}" for c in palette.inks]
    out.append(": rows")
    out += [_clue_text(clues, letters) for clues in puzzle.rows]
    out.append(": columns")
    out += [_clue_text(clues, letters) for clues in puzzle.cols]
    out.append(": end")
    return "\n".join(out) + "\n"

"""Steve Simpson's ``.non`` format, with the nonogram-db extensions.

Keywords one per line: ``width N``, ``height N``, ``rows`` / ``columns`` each followed by
one line per line of the grid (clues separated by commas; blank or ``0`` for an empty
line), and optional quoted strings ``title``, ``by``, ``copyright``, ``catalogue``,
``license`` (an SPDX code or a quoted string) and ``goal "0101…"`` (the solution, row by
row). ``color a #ff0000`` lines and clue letters (``3a``) belong to colour puzzles,
which are rejected. Unknown lines are ignored. A ``.nonpack`` holds several puzzles
separated by ``====`` lines.
"""

from __future__ import annotations

import html
import re

import numpy as np

from ..nonogram.puzzle import Puzzle
from .base import FormatError, build_puzzle, split_lines

NAME = "non"
EXTENSIONS = (".non", ".nonpack")

STRING_KEYS = ("catalogue", "title", "by", "copyright", "license")
SIZE_KEYS = ("width", "height")
SECTION_KEYS = {"rows": "height", "columns": "width"}
KEYWORDS = {*STRING_KEYS, *SIZE_KEYS, *SECTION_KEYS, "goal", "color"}
BUNDLE_DIVIDER = "===="
BACKGROUND = "#ffffff"
EMPTY_GOAL_CELL = "0"
CLUE_TOKEN = re.compile(r"(\d+)([a-z]?)")
COLOUR_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]+")
SPDX_CODE = re.compile(r"[A-Za-z0-9.+-]+")
SIZE_LINE = re.compile(r"^\s*(width|height)\s+\d+\s*$", re.MULTILINE)
SECTION_LINE = re.compile(r"^\s*(rows|columns)\s*$", re.MULTILINE)


def sniff(text: str) -> bool:
    """True when the text has ``width``/``height`` and ``rows``/``columns`` keywords."""
    return bool(SIZE_LINE.search(text) and SECTION_LINE.search(text))


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """Every puzzle of a ``.non`` text (a ``.nonpack`` holds several)."""
    entries: list[Puzzle | FormatError] = []
    for first, chunk in _bundles(split_lines(text)):
        if not any(line.strip() for line in chunk):
            continue
        try:
            entries.append(_parse(chunk, first, source))
        except FormatError as exc:
            entries.append(exc)
    return entries


def _bundles(lines: list[str]) -> list[tuple[int, list[str]]]:
    """The puzzles of a bundle as (number of the first line, lines)."""
    out: list[tuple[int, list[str]]] = []
    first, chunk = 1, []
    for lineno, line in enumerate(lines, 1):
        if line.strip() == BUNDLE_DIVIDER:
            out.append((first, chunk))
            first, chunk = lineno + 1, []
        else:
            chunk.append(line)
    out.append((first, chunk))
    return out


def _unquote(value: str) -> str:
    """A quoted string's text with HTML escapes resolved (unquoted text as it is)."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    return html.unescape(value)


def _is_keyword_line(text: str) -> bool:
    """True when a stripped line starts with a word: it ends a rows/columns section.

    Nonny's colour lines (``red 1 yellow 2``: colour names before their numbers) are
    clue lines, not keywords.
    """
    if not text or not text[0].isalpha():
        return False
    tokens = text.split()
    if tokens[0].lower() in KEYWORDS:
        return True
    return not (
        any(t.isdigit() for t in tokens)
        and all(t.isdigit() or COLOUR_NAME.fullmatch(t) for t in tokens)
    )


def _section(lines: list[str], start: int, count: int | None) -> list[str]:
    """The clue lines of a section: ``count`` lines, or up to a blank line if unknown."""
    out: list[str] = []
    for line in lines[start:]:
        text = line.strip()
        if _is_keyword_line(text) or (count is None and not text):
            break
        if count is not None and len(out) == count:
            break
        out.append(text)
    return out


def _check_section_end(
    lines: list[str], end: int, count: int | None, first: int, source: str
) -> None:
    """A section cut short by a line that is no keyword: that line is at fault."""
    if count is None or end >= len(lines):
        return
    text = lines[end].strip()
    word = text.split()[0].lower() if text else ""
    known = word in SIZE_KEYS or word in SECTION_KEYS or word in STRING_KEYS
    if text and not known and word not in ("goal", "color"):
        raise FormatError(f'"{text}" is not a line of clues', source, first + end)


def _clue_line(text: str, source: str, lineno: int, letters: dict[str, int]) -> tuple[int, ...]:
    """One line of clues; colour letters are recorded with their first line."""
    clues: list[int] = []
    for token in filter(None, re.split(r"[,\s]+", text)):
        if COLOUR_NAME.fullmatch(token):  # Nonny's variant: a colour name before its numbers
            letters.setdefault(token.lower(), lineno)
            continue
        match = CLUE_TOKEN.fullmatch(token)
        if not match:
            raise FormatError(f'clue "{token}" is not a number', source, lineno)
        clues.append(int(match.group(1)))
        if match.group(2):
            letters.setdefault(match.group(2), lineno)
    if 0 in clues and len(clues) > 1:
        raise FormatError(f"clue 0 stands among other clues ({text})", source, lineno)
    return tuple(c for c in clues if c)


def _parse(lines: list[str], first: int, source: str) -> Puzzle:
    """One puzzle from its lines; ``first`` is the file line number of ``lines[0]``."""
    meta: dict = {}
    size: dict[str, int] = {}
    sections: dict[str, list[tuple[int, ...]]] = {}
    section_line: dict[str, int] = {}
    letters: dict[str, int] = {}  # colour letter → first line using it
    goal: tuple[str, int] | None = None
    i = 0
    while i < len(lines):
        lineno, text = first + i, lines[i].strip()
        i += 1
        key, _, value = text.partition(" ")
        key, value = key.lower(), value.strip()
        if key in SIZE_KEYS:
            if not value.isdigit():
                raise FormatError(f'{key} "{value}" is not a number', source, lineno)
            size[key] = int(value)
        elif key in SECTION_KEYS and not value:
            count = size.get(SECTION_KEYS[key])
            body = _section(lines, i, count)
            _check_section_end(lines, i + len(body), count, first, source)
            sections[key] = [
                _clue_line(t, source, i + first + k, letters) for k, t in enumerate(body)
            ]
            section_line[key] = lineno
            i += len(body)
        elif key in STRING_KEYS:
            meta[key] = _unquote(value)
        elif key == "goal":
            goal = (_unquote(value), lineno)
        elif key == "color":
            _colour(value, source, lineno, letters)
    return _assemble(meta, size, sections, section_line, letters, goal, first, source)


def _colour(value: str, source: str, lineno: int, letters: dict[str, int]) -> None:
    """Record a ``color a #rrggbb`` (or Nonny's ``color NAME RRGGBB CHAR``) line.

    White is the background, not an ink.
    """
    parts = value.split()
    simpson = len(parts) == 2 and len(parts[0]) == 1
    nonny = len(parts) == 3 and re.fullmatch(r"#?[0-9A-Fa-f]{6}", parts[1]) is not None
    if not (simpson or nonny):
        raise FormatError(f'color "{value}" is not "LETTER #RRGGBB"', source, lineno)
    if parts[1].lower().lstrip("#") != BACKGROUND.lstrip("#"):
        letters.setdefault(parts[0].lower(), lineno)


def _assemble(
    meta: dict,
    size: dict[str, int],
    sections: dict[str, list[tuple[int, ...]]],
    section_line: dict[str, int],
    letters: dict[str, int],
    goal: tuple[str, int] | None,
    first: int,
    source: str,
) -> Puzzle:
    """Check the parts read against each other and build the puzzle."""
    if len(letters) > 1:
        second = sorted(letters.values())[1]
        names = ", ".join(sorted(letters))
        raise FormatError(f"colour puzzles are not supported (colours {names})", source, second)
    for key, size_key in SECTION_KEYS.items():
        if key not in sections:
            raise FormatError(f'no "{key}" section', source, first)
        declared = size.get(size_key, len(sections[key]))
        if declared != len(sections[key]):
            raise FormatError(
                f"{key}: {len(sections[key])} lines of clues but {size_key} is {declared}",
                source,
                section_line[key],
            )
    rows, cols = sections["rows"], sections["columns"]
    if goal is not None:
        meta["goal"] = _goal(goal[0], len(rows), len(cols), source, goal[1])
    return build_puzzle(
        rows, cols, title=meta.get("title", ""), meta=meta, source=source, line=first
    )


def _goal(text: str, height: int, width: int, source: str, lineno: int) -> np.ndarray:
    """The solution of a ``goal`` line as an H×W boolean array."""
    if len(text) != height * width:
        raise FormatError(
            f"goal has {len(text)} cells but the grid has {height}×{width} = {height * width}",
            source,
            lineno,
        )
    cells = np.array([ch != EMPTY_GOAL_CELL for ch in text], dtype=bool)
    return cells.reshape(height, width)


def _quote(value: str) -> str:
    """A string value quoted, with HTML escapes for the characters that need them."""
    return '"' + html.escape(value, quote=True) + '"'


def dumps(puzzle: Puzzle) -> str:
    """The ``.non`` text of a puzzle (with its goal when meta holds one)."""
    meta = dict(puzzle.meta)
    if puzzle.title:
        meta.setdefault("title", puzzle.title)
    out: list[str] = []
    for key in STRING_KEYS:
        value = meta.get(key)
        if not value:
            continue
        if key == "license" and SPDX_CODE.fullmatch(str(value)):
            out.append(f"{key} {value}")
        else:
            out.append(f"{key} {_quote(str(value))}")
    out += [f"width {puzzle.width}", f"height {puzzle.height}", "", "rows"]
    out += [",".join(map(str, clues)) or "0" for clues in puzzle.rows]
    out += ["", "columns"]
    out += [",".join(map(str, clues)) or "0" for clues in puzzle.cols]
    goal = meta.get("goal")
    if goal is not None and np.shape(goal) == (puzzle.height, puzzle.width):
        cells = "".join("1" if v else EMPTY_GOAL_CELL for v in np.asarray(goal, bool).ravel())
        out += ["", f'goal "{cells}"']
    return "\n".join(out) + "\n"

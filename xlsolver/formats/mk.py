"""The ``.mk`` format (Johny's ``mk`` program; read by Olšák's ``grid`` and pbnsolve).

First line ``H W`` (the number of rows, then of columns: the reverse of ``.nin``); then
H lines of row clues, a line ``#``, and W lines of column clues, numbers separated by
spaces (or commas); ``0`` or an empty line is an empty line. Blank lines after the
clues a header asks for (before the ``#``, and at the end) are padding, as pbnsolve
reads them. Black and white only; one puzzle per file.
"""

from __future__ import annotations

import re

from ..nonogram.puzzle import Puzzle, PuzzleError, clue_text
from .base import FormatError, build_puzzle, parse_numbers, size_error, split_lines, whole_number

NAME = "mk"
EXTENSIONS = (".mk",)

HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*")
CLUE_LINE = re.compile(r"[\d\s,]*")
DIVIDER = "#"


def sniff(text: str) -> bool:
    """True for an ``H W`` line, lines of numbers, one ``#`` line and more numbers."""
    lines = split_lines(text)
    if not lines or not HEADER.fullmatch(lines[0]):
        return False
    body = [line.strip() for line in lines[1:]]
    return body.count(DIVIDER) == 1 and all(
        line == DIVIDER or CLUE_LINE.fullmatch(line) for line in body
    )


def clue_section(
    lines: list[str], first: int, count: int, what: str, source: str, end: int
) -> list[tuple[int, ...]]:
    """``count`` lines of clues from ``lines`` (the first is file line ``first``); the
    lines after them may only be blank. Too few lines is an error on line ``end`` (where
    the section stops). Shared with ``.cwd``."""
    if len(lines) < count:
        raise too_few(count, what, lines, source, end)
    extra = next((k for k in range(count, len(lines)) if lines[k].strip()), None)
    if extra is not None:
        raise FormatError(
            f'"{lines[extra].strip()}": more lines of clues than the {count} {what} the '
            "header gives",
            source,
            first + extra,
        )
    return [
        parse_numbers(re.split(r"[\s,]+", line.strip()) if line.strip() else [], source, first + k)
        for k, line in enumerate(lines[:count])
    ]


def too_few(count: int, what: str, lines: list[str], source: str, end: int) -> FormatError:
    """The error of a section with fewer lines than the header gives (on line ``end``)."""
    return FormatError(
        f"the header gives {count} {what}, the file has {len(lines)} lines for them", source, end
    )


def padded_tail(
    lines: list[str], count: int, short: FormatError
) -> tuple[list[str], FormatError | None]:
    """The file's last ``count`` lines with the empty clue lines an editor trims off a
    file's end put back, and ``short``, the error to give if the clues then do not add
    up (None: no line was missing). Shared with ``.cwd`` and ``.nin``."""
    if len(lines) >= count:
        return lines, None
    return [*lines, *[""] * (count - len(lines))], short


def checked(puzzle: Puzzle, short: FormatError | None) -> Puzzle:
    """A puzzle read with empty lines put back at the file's end, if its clues add up;
    else the error of the missing lines."""
    if short is not None:
        try:
            puzzle.validate()
        except PuzzleError:
            raise short from None
    return puzzle


def size(header: re.Match, source: str, lineno: int, order: str = "HW") -> tuple[int, int]:
    """Width and height from a header match, each checked (``order``: which comes first)."""
    first, second = (whole_number(header.group(k), "size", source, lineno) for k in (1, 2))
    height, width = (first, second) if order == "HW" else (second, first)
    too_big = size_error(width, height, source, lineno)
    if too_big is not None:
        raise too_big
    return width, height


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """The puzzle of a ``.mk`` text."""
    lines = split_lines(text)
    start = next((k for k, line in enumerate(lines) if line.strip()), None)
    if start is None:
        return []
    header = HEADER.fullmatch(lines[start])
    if not header:
        reason = f'"{lines[start].strip()}" is not a "ROWS COLUMNS" line'
        raise FormatError(reason, source, start + 1)
    width, height = size(header, source, start + 1)
    body = lines[start + 1 :]
    divider = next((k for k, line in enumerate(body) if line.strip() == DIVIDER), None)
    if divider is None:
        raise FormatError(
            'no "#" line between the row clues and the column clues', source, start + 1
        )
    first = start + 2  # the file line of body[0]
    rows = clue_section(body[:divider], first, height, "rows", source, first + divider)
    last = max(len(lines), first + divider)
    section = body[divider + 1 :]
    tail, short = padded_tail(section, width, too_few(width, "columns", section, source, last))
    cols = clue_section(tail, first + divider + 1, width, "columns", source, last)
    meta = {  # where a clue error is
        "row_lines": [first + k for k in range(height)],
        "col_lines": [first + divider + 1 + k for k in range(width)],
    }
    puzzle = build_puzzle(rows, cols, meta=meta, source=source, line=start + 1)
    return [checked(puzzle, short)]


def dumps(puzzle: Puzzle) -> str:
    """The ``.mk`` text of a puzzle (``0`` for an empty line)."""
    lines = [f"{puzzle.height} {puzzle.width}"]
    lines += [clue_text(clues) for clues in puzzle.rows]
    lines += [DIVIDER]
    lines += [clue_text(clues) for clues in puzzle.cols]
    return "\n".join(lines) + "\n"

"""The ``.cwd`` format (QNonograms, Vladimir Sukhoy's solver; read by pbnsolve).

A line with the number of rows H, a line with the number of columns W, then H lines of
row clues, one blank line, and W lines of column clues, numbers separated by spaces;
``0`` or an empty line is an empty line (the blank line between the two groups is told
by the counts, as pbnsolve tells it). Black and white only; one puzzle per file.
"""

from __future__ import annotations

import re

from ..nonogram.puzzle import Puzzle, clue_text
from .base import FormatError, build_puzzle, split_lines
from .mk import CLUE_LINE, checked, clue_section, padded_tail, size, too_few

NAME = "cwd"
EXTENSIONS = (".cwd",)

NUMBER_LINE = re.compile(r"\s*(\d+)\s*")


def sniff(text: str) -> bool:
    """True for two lines of one number each, then lines of numbers with a blank one."""
    lines = split_lines(text)
    if len(lines) < 3 or not all(NUMBER_LINE.fullmatch(line) for line in lines[:2]):
        return False
    body = lines[2:]
    return any(not line.strip() for line in body) and all(
        CLUE_LINE.fullmatch(line) for line in body
    )


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """The puzzle of a ``.cwd`` text."""
    lines = split_lines(text)
    if not any(line.strip() for line in lines):
        return []
    for k in (0, 1):
        if k >= len(lines) or not NUMBER_LINE.fullmatch(lines[k]):
            what = "the number of rows" if k == 0 else "the number of columns"
            shown = lines[k].strip() if k < len(lines) else ""
            raise FormatError(f'line {k + 1} must hold {what}, not "{shown}"', source, k + 1)
    header = re.fullmatch(r"(\d+)\s+(\d+)", f"{lines[0].strip()} {lines[1].strip()}")
    width, height = size(header, source, 1)
    gap = 2 + height  # the index of the blank line between rows and columns
    rows = clue_section(lines[2:gap], 3, height, "rows", source, len(lines))
    if gap >= len(lines):
        raise FormatError("no column clues after the row clues", source, len(lines))
    if lines[gap].strip():
        raise FormatError(
            f'"{lines[gap].strip()}": a blank line must follow the {height} rows the first '
            "line gives",
            source,
            gap + 1,
        )
    section = lines[gap + 1 :]
    missing = too_few(width, "columns", section, source, len(lines))
    tail, short = padded_tail(section, width, missing)
    cols = clue_section(tail, gap + 2, width, "columns", source, len(lines))
    meta = {  # where a clue error is
        "row_lines": [3 + k for k in range(height)],
        "col_lines": [gap + 2 + k for k in range(width)],
    }
    return [checked(build_puzzle(rows, cols, meta=meta, source=source, line=1), short)]


def dumps(puzzle: Puzzle) -> str:
    """The ``.cwd`` text of a puzzle (``0`` for an empty line)."""
    lines = [str(puzzle.height), str(puzzle.width)]
    lines += [clue_text(clues) for clues in puzzle.rows]
    lines += [""]
    lines += [clue_text(clues) for clues in puzzle.cols]
    return "\n".join(lines) + "\n"

"""Jakub Wilk's ``.nin`` format.

First line ``W H`` (width, then height); then H lines of row clues and W lines of
column clues, numbers separated by spaces; ``0`` or an empty line is an empty line.
Another ``W H`` line after them starts another puzzle (jwilk's data142.nin holds five).
"""

from __future__ import annotations

import re

from ..nonogram.puzzle import Puzzle, clue_text
from .base import FormatError, build_puzzle, parse_numbers, size_error, split_lines, whole_number
from .mk import checked, padded_tail

NAME = "nin"
EXTENSIONS = (".nin",)

HEADER = re.compile(r"\s*(\d+)\s+(\d+)\s*")
CLUE_LINE = re.compile(r"[\d\s]*")


def sniff(text: str) -> bool:
    """True when the first line is ``W H`` and the rest holds only numbers."""
    lines = split_lines(text)
    if not lines or not HEADER.fullmatch(lines[0]):
        return False
    return all(CLUE_LINE.fullmatch(line) for line in lines[1:])


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """The puzzles of a ``.nin`` text: usually one, but a file may hold several in a row."""
    lines = split_lines(text)
    entries: list[Puzzle | FormatError] = []
    pos = 0
    while True:
        while pos < len(lines) and not lines[pos].strip():
            pos += 1
        if pos == len(lines):
            return entries
        header = HEADER.fullmatch(lines[pos])
        if not header:
            reason = f'"{lines[pos].strip()}" is not a "WIDTH HEIGHT" line'
            if entries:
                reason = f"more clue lines than the puzzle above needs: {reason}"
            entries.append(FormatError(reason, source, pos + 1))
            return entries  # nothing tells where the next puzzle starts
        width, height = (whole_number(header.group(k), "size", source, pos + 1) for k in (1, 2))
        too_big = size_error(width, height, source, pos + 1)
        if too_big is not None:
            entries.append(too_big)
            return entries
        body = lines[pos + 1 : pos + 1 + width + height]
        reason = (
            f"the header declares {width}x{height}: {width + height} clue lines, "
            f"the file has {len(body)} after it"
        )
        body, short = padded_tail(body, width + height, FormatError(reason, source, pos + 1))
        try:
            clues = [
                parse_numbers(line.split(), source, pos + 2 + k) for k, line in enumerate(body)
            ]
            puzzle = build_puzzle(clues[:height], clues[height:], source=source, line=pos + 1)
            puzzle.meta["row_lines"] = [pos + 2 + k for k in range(height)]  # a clue error's
            puzzle.meta["col_lines"] = [pos + 2 + height + k for k in range(width)]  # line
            entries.append(checked(puzzle, short))
        except FormatError as exc:
            entries.append(exc)
        if short is not None:
            return entries
        pos += 1 + width + height


def dumps(puzzle: Puzzle) -> str:
    """The ``.nin`` text of a puzzle."""
    lines = [f"{puzzle.width} {puzzle.height}"]
    lines += [clue_text(clues) for clues in puzzle.rows + puzzle.cols]
    return "\n".join(lines) + "\n"


def dumps_all(puzzles: list[Puzzle]) -> str:
    """Several puzzles, one after another (each ``W H`` line starts the next)."""
    return "".join(dumps(puzzle) for puzzle in puzzles)

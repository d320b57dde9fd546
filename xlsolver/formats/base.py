"""What every format module shares: the error type and the clue-line helpers.

Glossary
    entry   one item read from a file: a Puzzle, or a FormatError standing in its place
    source  the file name shown in messages (``<string>`` when reading text)
    lineno  a line number in the file, from 1
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from pathlib import Path

from ..limits import MAX_FILE_SIDE
from ..nonogram.puzzle import Puzzle, PuzzleError, clue_text, line_name

STRING_SOURCE = "<string>"
MAX_DIGITS = 9  # a clue or a size needs no more (MAX_FILE_SIDE is 1000)
NUMBER = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")  # ASCII digits only: int("²") fails


def one_line(text: str) -> str:
    """Text quoted from a file, safe to print on one line: control characters and line
    separators escaped (``\\x0b``), the rest as it is."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() or c == " " else repr(c)[1:-1] for c in text)


class FormatError(ValueError):
    """A puzzle file that cannot be read; the message names the file and the line."""

    def __init__(self, message: str, path: str | Path | None = None, line: int | None = None):
        self.reason = one_line(message)
        self.path = str(path) if path is not None else STRING_SOURCE
        self.line = line
        self.index: int | None = None
        super().__init__(self._text())

    def _text(self) -> str:
        """``file:line: reason`` (``file: reason`` when no line applies)."""
        where = f"{self.path}:{self.line}" if self.line is not None else self.path
        return f"{where}: {self.reason}"


def split_lines(text: str) -> list[str]:
    """The lines of a text whatever its line ends (LF, CRLF or CR), without the ends."""
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    return lines


def whole_number(text: str, what: str, source: str, lineno: int | None) -> int:
    """A whole number of at most MAX_DIGITS ASCII digits, else FormatError naming the line."""
    if not NUMBER.fullmatch(text):
        shown = text if len(text) <= 20 else text[:20] + "…"
        raise FormatError(f'{what} "{shown}" is not a number', source, lineno)
    return int(text)


def size_error(width: int, height: int, source: str, lineno: int | None) -> FormatError | None:
    """The error for a size with a side outside 1…MAX_FILE_SIDE (None when it fits),
    checked before anything of that size is made."""
    if 1 <= width <= MAX_FILE_SIDE and 1 <= height <= MAX_FILE_SIDE:
        return None
    return FormatError(
        f"size {width}x{height}: each side must be 1…{MAX_FILE_SIDE}", source, lineno
    )


def parse_numbers(tokens: Sequence[str], source: str, lineno: int) -> tuple[int, ...]:
    """Clue numbers from text tokens; ``0`` alone (or nothing) is an empty line."""
    numbers: list[int] = []
    for token in tokens:
        numbers.append(whole_number(token, "clue", source, lineno))
    if any(n == 0 for n in numbers) and len(numbers) > 1:
        text = " ".join(map(str, numbers))
        raise FormatError(f"clue 0 stands among other clues ({text})", source, lineno)
    return tuple(n for n in numbers if n)


def build_puzzle(
    rows: Iterable[Iterable[int]],
    cols: Iterable[Iterable[int]],
    *,
    title: str = "",
    meta: dict | None = None,
    source: str = STRING_SOURCE,
    line: int | None = None,
) -> Puzzle:
    """An unvalidated Puzzle (the caller validates it); meta records its first line."""
    meta = dict(meta or {})
    if title:
        meta.setdefault("title", title)
    if line is not None:
        meta.setdefault("line", line)
    try:
        return Puzzle.from_clues(rows, cols, title=title, meta=meta, validate=False)
    except PuzzleError as exc:
        raise FormatError(str(exc), source, line) from exc


def _clue_words(puzzle, clues: Sequence) -> str:
    """A line's clues as a person writes them (``3a 1b`` in a colour puzzle)."""
    palette = getattr(puzzle, "palette", None)
    if palette is None:
        return clue_text(clues)
    from ..nonogram.colour_puzzle import colour_clue_text

    return colour_clue_text(clues, palette)


def check_goal(puzzle, rows: Sequence[Sequence], source: str, lineno: int | None) -> None:
    """FormatError naming the first row or column where a goal picture (rows of cells:
    booleans, or colour numbers) breaks the clues the file gives with it. Clues that are
    wrong in themselves are left to validation, which names their fault."""
    try:
        puzzle.validate()
    except PuzzleError:
        return
    columns = list(zip(*rows, strict=True))
    for line, clues, _ in puzzle.lines():
        kind, i = line
        found = puzzle.runs(rows[i] if kind == "row" else columns[i])
        if found != clues:
            raise FormatError(
                f"the goal does not match the clues: {line_name(line)} of the goal is "
                f"{_clue_words(puzzle, found)}, its clues are {_clue_words(puzzle, clues)}",
                source,
                lineno,
            )

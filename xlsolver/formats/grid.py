"""The ``GRID`` text format of the picross-solver project.

::

    # a comment
    GRID Note
    ROWS
    [ 3 ]
    [ ]
    COLUMNS
    [ 1 1 ]

Several puzzles per file. ``[ ]`` or ``[ 0 ]`` is an empty line. A clue or section
line may end in a comment (``[ 3 ] # top``); a ``GRID`` line is the name whole, ``#`` and
all, as picross-solver reads it. A missing section gives a puzzle of height (or width) 0,
which validation reports. Any other line is a syntax error: it becomes one FormatError
entry (the puzzle it stands in is dropped) and reading goes on at the next ``GRID``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..nonogram.puzzle import Puzzle
from .base import FormatError, build_puzzle, parse_numbers, split_lines

NAME = "grid"
EXTENSIONS: tuple[str, ...] = ()  # shares .txt with TAAI: told apart by sniffing

COMMENT = "#"
GRID = "GRID"
SECTIONS = {"ROWS": "rows", "COLUMNS": "cols"}
CLUE_LINE = re.compile(r"\[([^\]]*)\]")
TRAILING_COMMENT = re.compile(r"\s*#.*")  # after a clue or section line
GRID_LINE = re.compile(r"GRID(\s.*)?")


@dataclass
class _Draft:
    """A puzzle being read: its name, first line and the clue lines so far."""

    name: str
    line: int
    rows: list[tuple[int, ...]] = field(default_factory=list)
    cols: list[tuple[int, ...]] = field(default_factory=list)
    row_lines: list[int] = field(default_factory=list)  # the file line of each clue line
    col_lines: list[int] = field(default_factory=list)
    section: str = ""
    broken: bool = False


def sniff(text: str) -> bool:
    """True when the first meaningful line is ``GRID …``, ``ROWS`` or ``COLUMNS``."""
    for line in split_lines(text):
        text = line.strip()
        if text and not text.startswith(COMMENT):
            return bool(GRID_LINE.fullmatch(text)) or text in SECTIONS
    return False


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """Every puzzle of a GRID text, with FormatError entries where lines are wrong."""
    entries: list[Puzzle | FormatError] = []
    draft: _Draft | None = None

    def finish() -> None:
        """Close the puzzle being read (a broken one was already reported)."""
        if draft is not None and not draft.broken:
            title = draft.name
            meta = {"name": title, "row_lines": draft.row_lines, "col_lines": draft.col_lines}
            try:
                entries.append(
                    build_puzzle(
                        draft.rows,
                        draft.cols,
                        title=title,
                        meta=meta,
                        source=source,
                        line=draft.line,
                    )
                )
            except FormatError as exc:
                entries.append(exc)

    skipping = False  # after a syntax error, until the next GRID line
    for lineno, raw in enumerate(split_lines(text), 1):
        line = raw.strip()
        if not line or line.startswith(COMMENT):
            continue
        if GRID_LINE.fullmatch(line):
            finish()
            draft, skipping = _Draft(line[len(GRID) :].strip(), lineno), False
            continue
        if skipping:
            continue
        line = _without_comment(line)
        if line not in SECTIONS and not line.startswith("["):
            if draft is not None and draft.section != "cols":
                draft.broken = True  # cut off before its columns: the one error is this
            finish()  # an unknown keyword ends the puzzle being read
            entries.append(FormatError(f'unknown keyword "{line.split()[0]}"', source, lineno))
            draft, skipping = None, True
            continue
        try:
            draft = _read_line(draft, line, lineno, source)
        except FormatError as exc:
            if draft is not None:
                draft.broken = True  # a bad clue line spoils its puzzle
            finish()
            entries.append(exc)
            draft, skipping = None, True
    finish()
    return entries


def _without_comment(line: str) -> str:
    """A clue or section line without the ``# comment`` that may end it."""
    end = line.find("]") + 1 if line.startswith("[") else 0
    comment = TRAILING_COMMENT.search(line, end)
    return line[: comment.start()] if comment else line


def _read_line(draft: _Draft | None, line: str, lineno: int, source: str) -> _Draft:
    """Apply a section line or a clue line to the puzzle being read."""
    if line in SECTIONS:
        draft = draft or _Draft("", lineno)
        draft.section = SECTIONS[line]
        return draft
    clue = CLUE_LINE.fullmatch(line)
    if clue is None:
        raise FormatError(f'"{line}" is not a clue line like "[ 3 1 ]"', source, lineno)
    if draft is None or not draft.section:
        raise FormatError('clue line outside a "ROWS" or "COLUMNS" section', source, lineno)
    getattr(draft, draft.section).append(parse_numbers(clue.group(1).split(), source, lineno))
    (draft.row_lines if draft.section == "rows" else draft.col_lines).append(lineno)
    return draft


def _clue_text(clues: tuple[int, ...]) -> str:
    """``[ 3 1 ]``, or ``[ ]`` for an empty line."""
    return "[ " + "".join(f"{c} " for c in clues) + "]"


def dumps(puzzle: Puzzle) -> str:
    """The GRID text of a puzzle."""
    name = " ".join(str(puzzle.meta.get("name") or puzzle.title).split())  # on its one line
    lines = [f"{GRID} {name}".rstrip(), "ROWS"]
    lines += [_clue_text(c) for c in puzzle.rows]
    lines.append("COLUMNS")
    lines += [_clue_text(c) for c in puzzle.cols]
    return "\n".join(lines) + "\n"


def dumps_all(puzzles: list[Puzzle]) -> str:
    """Several puzzles, a blank line between them."""
    return "\n".join(dumps(puzzle) for puzzle in puzzles)

"""The TAAI / TCGA computer-olympiad batch format, and its solutions files.

A batch holds many puzzles, each a line ``$n`` followed by the column-clue lines and
then the row-clue lines, numbers separated by tabs. Boards are square: the number of
clue lines after ``$n`` is twice the size (25×25 in the tournaments). An empty line is
``0`` or a blank line; blank lines at the end of a block are empty last rows as far as the
board needs them (the fewest that make the clues add up), separators beyond that. A
solutions file holds one board per puzzle: size lines of tab-separated ``0``/``1``, maybe
after ``$n``.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

from ..nonogram.puzzle import Puzzle, PuzzleError
from .base import FormatError, build_puzzle, parse_numbers, split_lines

if TYPE_CHECKING:
    import numpy as np

NAME = "taai"
EXTENSIONS: tuple[str, ...] = ()  # shares .txt with GRID text: told apart by sniffing

HEADER = re.compile(r"\s*\$(\d+)\s*")
SOLUTION_CELLS = {"0": False, "1": True}
SOLUTIONS_FILE = "a solutions file of a batch (boards of 0 and 1), not clues"

Block = tuple[int, str, list[tuple[int, str]]]  # header line, number, (lineno, text) lines
Clues = list[tuple[int, ...]]


def sniff(text: str) -> bool:
    """True when the first non-blank line is a ``$n`` header of clues (not of a board)."""
    for line in split_lines(text):
        if line.strip():
            return bool(HEADER.fullmatch(line)) and not is_solutions(text)
    return False


def is_solutions(text: str) -> bool:
    """True when the first block is a board (n lines of n cells ``0``/``1``), as in a
    solutions file; n lines of n numbers cannot be clues (n clues need 2n - 1 cells)."""
    lines = []
    for line in split_lines(text):
        if HEADER.fullmatch(line) or not line.strip():
            if lines:
                break
            continue
        lines.append(line.split())
    return len(lines) >= 2 and all(
        len(cells) == len(lines) and set(cells) <= SOLUTION_CELLS.keys() for cells in lines
    )


def _blocks(lines: list[str]) -> list[Block]:
    """The ``$n`` blocks of a file, trailing blank lines dropped; number "" before any."""
    blocks: list[Block] = []
    for lineno, line in enumerate(lines, 1):
        header = HEADER.fullmatch(line)
        if header:
            blocks.append((lineno, header.group(1), []))
        elif not blocks:
            if line.strip():
                blocks.append((lineno, "", [(lineno, line)]))
        else:
            blocks[-1][2].append((lineno, line))
    return blocks


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """Every puzzle of a batch; a faulty one becomes a FormatError entry."""
    if is_solutions(text):
        raise FormatError(SOLUTIONS_FILE, source)
    entries: list[Puzzle | FormatError] = []
    for block in _blocks(split_lines(text)):
        try:
            entries.append(_puzzle(block, source))
        except FormatError as exc:
            entries.append(exc)
    return entries


def _puzzle(block: Block, source: str) -> Puzzle:
    """One puzzle from its ``$n`` block: column lines first, then row lines."""
    header_line, number, body = block
    if not number:
        raise FormatError('clues before the first "$n" header', source, header_line)
    blank = len(body)
    while blank and not body[blank - 1][1].strip():
        blank -= 1  # body[blank:] are blank lines: empty last rows, or separators
    clues = [parse_numbers(text.split(), source, lineno) for lineno, text in body[:blank]]
    readings = _square(clues, len(body) - blank)
    if not clues and body:
        raise FormatError(
            f"${number}: {len(body)} blank lines and no clues: empty lines of a board or "
            f"separators? write each empty line of the board as 0",
            source,
            header_line,
        )
    if not readings:
        raise FormatError(
            f"${number}: {len(clues)} clue lines; a square board needs twice its size",
            source,
            header_line,
        )
    if len(readings) > 1:
        sizes = " or ".join(f"{len(r) // 2}×{len(r) // 2}" for r in readings)
        raise FormatError(
            f"${number}: the blank lines at its end leave the size open ({sizes}: empty last "
            "rows or separators); write an empty line as 0",
            source,
            header_line,
        )
    lines = readings[0]
    size = len(lines) // 2
    name = f"${number}"
    at = [lineno for lineno, _ in body]  # where a clue error is
    return build_puzzle(
        lines[size:],
        lines[:size],
        title=name,
        meta={"name": name, "row_lines": at[size : 2 * size], "col_lines": at[:size]},
        source=source,
        line=header_line,
    )


def _square(clues: Clues, blanks: int) -> list[Clues]:
    """The ways to read the board's clue lines, taking some of the trailing blank lines as
    empty last rows: those that make valid clues, else the one that makes an even count;
    [] when none can. More than one way leaves the size open."""
    if not clues:  # blank lines alone make no board
        return []
    even = [clues + [()] * k for k in range(blanks + 1) if (len(clues) + k) % 2 == 0]
    if len(even) < 2:  # one way to read it: validation says the rest
        return even
    valid = []
    for lines in even:
        size = len(lines) // 2
        try:
            Puzzle.from_clues(lines[size:], lines[:size])
        except PuzzleError:
            continue
        valid.append(lines)
    return valid or even[:1]


def dumps(puzzle: Puzzle, number: int = 1) -> str:
    """A square puzzle as one TAAI block (columns first), tab-separated, LF ends."""
    if puzzle.width != puzzle.height:
        raise FormatError(f"TAAI boards are square; this one is {puzzle.width}×{puzzle.height}")
    lines = [f"${number}"]
    lines += ["\t".join(map(str, clues)) or "0" for clues in puzzle.cols + puzzle.rows]
    return "\n".join(lines) + "\n"


def dumps_all(puzzles: list[Puzzle]) -> str:
    """Square puzzles as a batch, numbered ``$1``, ``$2``, … in order."""
    return "".join(dumps(puzzle, number) for number, puzzle in enumerate(puzzles, 1))


def loads_solutions(text: str, source: str) -> list[np.ndarray]:
    """The boolean boards of a solutions text (True = black)."""
    groups: list[list[tuple[int, str]]] = [[]]
    for lineno, line in enumerate(split_lines(text), 1):
        if HEADER.fullmatch(line) or not line.strip():
            if groups[-1]:
                groups.append([])
        else:
            groups[-1].append((lineno, line))
    boards: list[np.ndarray] = []
    for group in filter(None, groups):
        size = len(group[0][1].split())
        if len(group) % size:
            raise FormatError(
                f"{len(group)} lines do not make {size}×{size} boards", source, group[0][0]
            )
        for start in range(0, len(group), size):
            boards.append(_board(group[start : start + size], size, source))
    return boards


def _board(lines: list[tuple[int, str]], size: int, source: str) -> np.ndarray:
    """One size×size board of 0/1 cells."""
    import numpy as np

    rows = []
    for lineno, text in lines:
        cells = text.split()
        if len(cells) != size or any(c not in SOLUTION_CELLS for c in cells):
            raise FormatError(f"expected {size} cells of 0 or 1, got {text!r}", source, lineno)
        rows.append([SOLUTION_CELLS[c] for c in cells])
    return np.array(rows, dtype=bool)


def read_taai_solutions(path: str | Path) -> list[np.ndarray]:
    """The solutions file of a TAAI batch: one boolean board per puzzle, in order."""
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as exc:
        raise FormatError(f"cannot read: {exc}", path) from exc
    return loads_solutions(text, str(path))

"""Simon Tatham's Portable Puzzle Collection, the game Pattern: game IDs and save files.

A game ID is ``PARAMS:DESC``: ``PARAMS`` is ``WxH`` (or ``W`` for a square), ``DESC``
the W column clues and then the H row clues, lines separated by ``/``, numbers within a
line by ``.`` (an empty line is empty between two slashes): ``4x4:2/1/2/1/1.1/2/1/1``.
A text of game IDs, one a line, is a batch. A random-seed ID (``10x10#123456``) names
no clues (Pattern's generator makes them): Game > Specific… shows the descriptive ID.
Given squares after a comma (``…/1,aBz``, from Tatham's picture generator) are left
out: the clues alone make the puzzle.

A save file is lines ``KEY     :LENGTH:VALUE`` (the key padded to 8 characters, the
value LENGTH bytes long), first ``SAVEFILE:41:Simon Tatham's Portable Puzzle
Collection``; ``GAME`` must be ``Pattern``, and ``CPARAMS`` (the current game's
parameters; ``PARAMS`` when absent) with ``DESC`` give the puzzle. The moves are not
read. Read only.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..nonogram.puzzle import Puzzle
from .base import FormatError, build_puzzle, one_line, size_error, split_lines

NAME = "pattern"
EXTENSIONS = (".sav",)

MAGIC = "Simon Tatham's Portable Puzzle Collection"
SAVE_START = f"SAVEFILE:{len(MAGIC)}:{MAGIC}"
GAME = "Pattern"
PARAMS = re.compile(r"(\d+)(?:x(\d+))?")
DESC_LINE = re.compile(r"\d{1,9}(?:\.\d{1,9})*|")
GAME_ID = re.compile(r"\s*(\d+(?:x\d+)?)([:#])(\S*)\s*")
GIVEN_SQUARES = re.compile(r"[a-zA-Z]*")
RECORD = re.compile(r"([A-Z]{1,8}) *:(\d{1,9}):")


def sniff(text: str) -> bool:
    """True for a Pattern save file, or for lines that are each a Pattern game ID."""
    if text.startswith(SAVE_START):
        return saved_game(text) == GAME
    lines = [line for line in split_lines(text) if line.strip() and not _comment(line)]
    return bool(lines) and _is_game_id(lines[0])  # a line that is no ID: named when read


def _comment(line: str) -> bool:
    """True for a ``#`` comment line in a text of game IDs."""
    return line.lstrip().startswith("#")


def _is_game_id(line: str) -> bool:
    """True for ``WxH:…/…`` (a descriptive ID, with at least one ``/``) or ``WxH#seed``."""
    match = GAME_ID.fullmatch(line)
    if not match:
        return False
    return match.group(2) == "#" or re.fullmatch(r"[\d./]*/[\d./]*(,[a-zA-Z]*)?", match.group(3))


def saved_game(text: str) -> str | None:
    """The ``GAME`` of a Tatham save file (None when it has none, or is none); only the
    records up to ``GAME`` are read, so the start of a long file tells."""
    try:
        for key, value, _ in _records(text, "<sniff>"):
            if key == "GAME":
                return value
    except FormatError:
        return None
    return None


def not_pattern(game: str) -> str:
    """Why a save file of another game is refused."""
    return f"a save file of {game}, not {GAME}"


def other_game(text: str) -> str | None:
    """The game of a Tatham save file that is not Pattern's, to refuse it by name."""
    if not text.startswith(SAVE_START):
        return None
    game = saved_game(text)
    return game if game not in (None, GAME) else None


def _records(text: str, source: str) -> Iterator[tuple[str, str, int]]:
    """The (key, value, line) records of a save file, in order; each value is LENGTH
    characters (the values are printable ASCII, so characters are bytes)."""
    pos, line = 0, 1
    while pos < len(text):
        if text[pos] in "\r\n":
            line += text[pos] == "\n"
            pos += 1
            continue
        match = RECORD.match(text, pos)
        if not match:
            shown = one_line(text[pos : text.find("\n", pos) if "\n" in text[pos:] else None])
            raise FormatError(f'"{shown[:40]}" is not a line "KEY     :LENGTH:VALUE"', source, line)
        start = match.end()
        value = text[start : start + int(match.group(2))]
        if len(value) < int(match.group(2)):
            reason = f"{match.group(1)}: the file ends before its {match.group(2)} characters"
            raise FormatError(reason, source, line)
        yield match.group(1), value, line
        line += value.count("\n")
        pos = start + len(value)


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """The puzzle of a save file, or the puzzles of a text of game IDs (one a line)."""
    if text.startswith("SAVEFILE:"):
        return [_from_save(text, source)]
    lines = split_lines(text)
    if not any(GAME_ID.fullmatch(line) for line in lines):  # a .sav of another program
        raise FormatError(
            f"neither Pattern game IDs (WxH:clues) nor a save file of {MAGIC} (its first "
            f"line is {SAVE_START})",
            source,
            1,
        )
    entries: list[Puzzle | FormatError] = []
    for lineno, line in enumerate(lines, 1):
        if not line.strip() or _comment(line):
            continue
        try:
            entries.append(_from_game_id(line.strip(), source, lineno))
        except FormatError as exc:
            entries.append(exc)
    return entries


def _from_save(text: str, source: str) -> Puzzle:
    """The puzzle of a Tatham save file of Pattern."""
    records = list(_records(text, source))
    if not records or records[0][:2] != ("SAVEFILE", MAGIC):
        raise FormatError(f"not a save file of {MAGIC}: it must start {SAVE_START}", source, 1)
    found = {}
    for key, value, line in records:
        found.setdefault(key, (value, line))
    game = found.get("GAME")
    if game is None:
        raise FormatError("the save file names no GAME", source, 1)
    if game[0] != GAME:
        raise FormatError(not_pattern(game[0]), source, game[1])
    params = found.get("CPARAMS") or found.get("PARAMS")
    if params is None:
        raise FormatError("the save file has no PARAMS (the size)", source, game[1])
    desc = found.get("DESC")
    if desc is None:
        reason = "the save file has no DESC (the clues)"
        if "SEED" in found or "HEXSEED" in found:
            reason += ", only the random seed Pattern made them from"
        raise FormatError(reason, source, params[1])
    width, height = _size(params[0], source, params[1])
    puzzle = _puzzle(width, height, desc[0], source, desc[1])
    puzzle.meta["game_id"] = f"{width}x{height}:{desc[0]}"
    return puzzle


def _size(text: str, source: str, lineno: int) -> tuple[int, int]:
    """Width and height of Pattern's parameters ``WxH`` (``W`` for a square)."""
    match = PARAMS.fullmatch(text)
    if not match:
        raise FormatError(f'"{text}" is not a size WxH', source, lineno)
    width = int(match.group(1))
    height = int(match.group(2)) if match.group(2) else width
    too_big = size_error(width, height, source, lineno)
    if too_big is not None:
        raise too_big
    return width, height


def _from_game_id(text: str, source: str, lineno: int) -> Puzzle:
    """The puzzle of one game ID ``WxH:DESC``."""
    match = GAME_ID.fullmatch(text)
    if not match:
        raise FormatError(
            f'"{text[:40]}" is not a Pattern game ID like 5x5:2/1.1/…', source, lineno
        )
    params, mark, rest = match.groups()
    if mark == "#":
        raise FormatError(
            f"{params}#{rest} is a random-seed game ID, which names no clues; in Pattern, "
            "Game > Specific… shows the descriptive ID (WxH:clues)",
            source,
            lineno,
        )
    width, height = _size(params, source, lineno)
    puzzle = _puzzle(width, height, rest, source, lineno)
    puzzle.meta["game_id"] = f"{width}x{height}:{rest}"
    return puzzle


def _puzzle(width: int, height: int, desc: str, source: str, lineno: int) -> Puzzle:
    """The puzzle of a description: W column lines, then H row lines."""
    clues, _, given = desc.partition(",")
    if not GIVEN_SQUARES.fullmatch(given):
        raise FormatError(f'given squares "{given[:20]}" are not letters', source, lineno)
    lines = clues.split("/")
    if len(lines) != width + height:
        raise FormatError(
            f"{len(lines)} lines of clues, but a {width}x{height} grid has {width + height} "
            f"({width} columns, then {height} rows)",
            source,
            lineno,
        )
    numbers = []
    for k, line in enumerate(lines):
        if not DESC_LINE.fullmatch(line):
            what = f"column {k + 1}" if k < width else f"row {k - width + 1}"
            raise FormatError(f'{what}: "{line[:20]}" is not numbers joined by "."', source, lineno)
        values = tuple(int(n) for n in line.split(".")) if line else ()
        if values == (0,):  # 0: an empty line, as Pattern itself and every format read it
            values = ()
        if any(n == 0 for n in values):
            what = f"column {k + 1}" if k < width else f"row {k - width + 1}"
            raise FormatError(f"{what}: a clue of 0 among others ({line})", source, lineno)
        numbers.append(values)
    return build_puzzle(numbers[width:], numbers[:width], source=source, line=lineno)

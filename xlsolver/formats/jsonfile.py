"""Puzzles as JSON: one object, or a list of them.

``{"title": "Dancer", "rows": [[2], [2, 1], …], "cols": [[2, 1], …],
"goal": [".##..", …]}``; ``goal`` (rows of ``#`` black and ``.`` white) and the
strings ``by``, ``copyright``, ``license``, ``catalogue`` are optional; ``columns`` is
accepted for ``cols``, and a line's clues may also be a string such as ``"3 1 2"`` or
``"3,1,2,"`` (commas and spaces separate; a trailing one separates nothing). Other
fields (an ``id``, a ``created`` timestamp) are ignored: a number too long for a clue is
kept as its text, and is an error only where a clue stands.

A colour puzzle names its inks in ``"colours": {"a": "#ff0000", "b": "#0000ff"}`` (a
letter each; ``colors`` is accepted too, ``"background"`` is ``#ffffff`` unless given)
and every clue carries its letter: ``["3a", "1b"]`` or ``"3a 1b"``; its goal rows hold
``.`` for the background and the letters.
"""

from __future__ import annotations

import json
import re

import numpy as np

from ..nonogram.cells import solution_rows
from ..nonogram.colour_puzzle import ColourPuzzle, is_letter
from ..nonogram.puzzle import Puzzle
from .base import FormatError, build_puzzle, check_goal, parse_numbers, whole_number
from .colours import ColourDraft, Line, colour_puzzle

NAME = "json"
EXTENSIONS = (".json",)
COLOUR = True  # writes colour puzzles

STRING_KEYS = ("title", "by", "copyright", "license", "catalogue")
GOAL_CELLS = {"#": True, "1": True, ".": False, "0": False}
COLOUR_CLUE = re.compile(r"(\d+)(\D)")
MAX_DIGITS = 9  # a clue or size needs no more (MAX_FILE_SIDE is 1000); longer numbers are refused
MAX_DEPTH = 32  # nesting of lists and objects; a puzzle needs 4


class LongNumber:
    """A JSON number too long for a clue, kept as its text and never converted (an
    ``id`` or a timestamp in a field the reader ignores)."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __str__(self) -> str:
        return self.text

    def reason(self) -> str:
        """Why it is no clue."""
        digits = len(self.text.lstrip("-"))
        return f"the number {self.text[:12]}… has {digits} digits (at most {MAX_DIGITS})"


def _whole(text: str) -> int | LongNumber:
    """A JSON integer; one of too many digits stays text (converting it costs time)."""
    if len(text.lstrip("-")) > MAX_DIGITS:
        return LongNumber(text)
    return int(text)


def _real(text: str) -> float | LongNumber:
    """A JSON fraction or exponent number, kept short as whole numbers are."""
    if len(text) > MAX_DIGITS + 8:
        return LongNumber(text)
    return float(text)


DECODER = json.JSONDecoder(parse_int=_whole, parse_float=_real)
NESTING = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')
SPACE = re.compile(r"\s*")


def sniff(text: str) -> bool:
    """True when the text is a JSON object or list that mentions ``rows``."""
    start = text.lstrip()[:1]
    return start in ("{", "[") and '"rows"' in text


def _line_at(text: str, pos: int) -> int:
    """The line number (from 1) of a character position."""
    return text.count("\n", 0, pos) + 1


def _check_depth(text: str, source: str) -> None:
    """FormatError when lists and objects nest deeper than MAX_DEPTH (before decoding)."""
    depth = 0
    for match in NESTING.finditer(text):
        mark = match.group()
        if mark in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                line = _line_at(text, match.start())
                raise FormatError(f"lists nested more than {MAX_DEPTH} deep", source, line)
        elif mark in "]}":
            depth -= 1


def _items(text: str, source: str) -> list[tuple[int, object]]:
    """The top-level values as (line, value): the items of a list, or the one object."""
    _check_depth(text, source)
    pos = SPACE.match(text, 0).end()
    try:
        if text[pos : pos + 1] != "[":
            value, end = DECODER.raw_decode(text, pos)
            if text[SPACE.match(text, end).end() :]:
                raise json.JSONDecodeError("Extra data", text, SPACE.match(text, end).end())
            return [(_line_at(text, pos), value)]
        items: list[tuple[int, object]] = []
        pos = SPACE.match(text, pos + 1).end()
        while text[pos : pos + 1] != "]":
            value, end = DECODER.raw_decode(text, pos)
            items.append((_line_at(text, pos), value))
            pos = SPACE.match(text, end).end()
            if text[pos : pos + 1] == ",":
                pos = SPACE.match(text, pos + 1).end()
            elif text[pos : pos + 1] != "]":
                raise json.JSONDecodeError("Expecting ',' delimiter", text, pos)
        return items
    except json.JSONDecodeError as exc:
        raise FormatError(f"not valid JSON: {exc.msg}", source, exc.lineno) from exc
    except (ValueError, RecursionError) as exc:
        raise FormatError(str(exc).split(";")[0], source, _line_at(text, pos)) from None


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """Every puzzle of a JSON text; a faulty object becomes a FormatError entry."""
    entries: list[Puzzle | FormatError] = []
    for line, item in _items(text, source):
        try:
            entries.append(_puzzle(item, source, line))
        except FormatError as exc:
            entries.append(exc)
    return entries


def _clue_lines(value: object, key: str, source: str, line: int) -> list[tuple[int, ...]]:
    """A list of clue lines, each a list of numbers or a string of numbers."""
    if not isinstance(value, list):
        raise FormatError(f'"{key}" is not a list of clue lists', source, line)
    out = []
    for i, clues in enumerate(value, 1):
        if isinstance(clues, str):
            tokens = _tokens(clues)
        elif isinstance(clues, list) and all(
            isinstance(c, int) and not isinstance(c, bool) for c in clues
        ):
            tokens = [str(c) for c in clues]
        else:
            long = _long_number(clues)
            reason = f": {long.reason()}" if long else " is not a list of numbers"
            raise FormatError(f'"{key}" item {i}{reason}', source, line)
        try:
            out.append(parse_numbers(tokens, source, line))
        except FormatError as exc:
            raise FormatError(f'"{key}" item {i}: {exc.reason}', source, line) from None
    return out


def _tokens(clues: str) -> list[str]:
    """The clues of a string: separated by commas and spaces (``"3 1"``, ``"3,1,"``)."""
    return [token for token in re.split(r"[\s,]+", clues) if token]


def _long_number(clues: object) -> LongNumber | None:
    """The first number too long for a clue in a line of clues, if there is one."""
    items = clues if isinstance(clues, list) else [clues]
    return next((c for c in items if isinstance(c, LongNumber)), None)


def _puzzle(item: object, source: str, line: int) -> Puzzle | ColourPuzzle:
    """One puzzle from a JSON object."""
    if not isinstance(item, dict):
        raise FormatError("a puzzle must be a JSON object", source, line)
    cols_key = "columns" if "columns" in item else "cols"
    for key in ("rows", cols_key):
        if key not in item:
            raise FormatError(f'missing "{key}"', source, line)
    colours_key = "colours" if "colours" in item else "colors"
    if item.get(colours_key) is not None:
        return _colour_puzzle(item, colours_key, cols_key, source, line)
    rows = _clue_lines(item["rows"], "rows", source, line)
    cols = _clue_lines(item[cols_key], cols_key, source, line)
    meta = {k: str(item[k]) for k in STRING_KEYS if item.get(k) is not None}
    goal = item.get("goal")
    if goal is not None:
        meta["goal"] = _goal(goal, len(rows), len(cols), source, line)
    puzzle = build_puzzle(
        rows, cols, title=meta.get("title", ""), meta=meta, source=source, line=line
    )
    if goal is not None:
        check_goal(puzzle, meta["goal"], source, line)
    return puzzle


def _goal(value: object, height: int, width: int, source: str, line: int) -> np.ndarray:
    """A goal given as row strings of ``#``/``.`` (or ``1``/``0``)."""
    if (
        not isinstance(value, list)
        or len(value) != height
        or not all(isinstance(r, str) and len(r) == width for r in value)
        or not all(ch in GOAL_CELLS for r in value for ch in r)
    ):
        raise FormatError(
            f'"goal" must be {height} strings of {width} "#" or "." cells', source, line
        )
    return np.array([[GOAL_CELLS[ch] for ch in r] for r in value], dtype=bool).reshape(
        height, width
    )


def _colour_clue_lines(
    value: object, key: str, source: str, line: int, draft: ColourDraft
) -> list[Line]:
    """Colour clue lines: each a list of ``"3a"`` tokens or a string ``"3a 1b"``."""
    if not isinstance(value, list):
        raise FormatError(f'"{key}" is not a list of clue lists', source, line)
    out: list[Line] = []
    for i, clues in enumerate(value, 1):
        if isinstance(clues, str):
            tokens = _tokens(clues)
        elif isinstance(clues, list) and all(isinstance(c, str) for c in clues):
            tokens = clues
        else:
            raise FormatError(f'"{key}" item {i} is not a list of clues like "3a"', source, line)
        blocks: Line = []
        for token in tokens:
            match = COLOUR_CLUE.fullmatch(token.strip())
            if token.strip() == "0":
                continue
            if not match:
                raise FormatError(
                    f'"{key}" item {i}: "{token}" is not a clue like "3a"', source, line
                )
            n, letter = whole_number(match.group(1), "clue", source, line), match.group(2)
            if n:
                draft.use(letter, line)
                blocks.append((n, letter))
        out.append(blocks)
    return out


def _colour_puzzle(
    item: dict, colours_key: str, cols_key: str, source: str, line: int
) -> Puzzle | ColourPuzzle:
    """A colour puzzle from a JSON object with ``colours``."""
    colours = item[colours_key]
    if not isinstance(colours, dict) or not all(
        isinstance(k, str) and is_letter(k) and isinstance(v, str) for k, v in colours.items()
    ):
        raise FormatError(f'"{colours_key}" must map letters to "#rrggbb"', source, line)
    draft = ColourDraft(source)
    rows = _colour_clue_lines(item["rows"], "rows", source, line, draft)
    cols = _colour_clue_lines(item[cols_key], cols_key, source, line, draft)
    for letter, rgb in colours.items():
        draft.declare(letter, rgb, letter, line)
    if isinstance(item.get("background"), str):
        draft.background = ("white", item["background"])
    meta = {k: str(item[k]) for k in STRING_KEYS if item.get(k) is not None}
    puzzle = colour_puzzle(draft, rows, cols, title=meta.get("title", ""), meta=meta, line=line)
    if item.get("goal") is not None:
        puzzle.meta["goal"] = _colour_goal(item["goal"], puzzle, source, line)
        check_goal(puzzle, puzzle.meta["goal"], source, line)
    return puzzle


def _colour_goal(value: object, puzzle, source: str, line: int) -> np.ndarray:
    """A colour goal: rows of ``.`` and the colour letters."""
    if not isinstance(puzzle, ColourPuzzle):
        return _goal(value, puzzle.height, puzzle.width, source, line)
    letters = puzzle.palette.letters
    h, w = puzzle.height, puzzle.width
    if (
        not isinstance(value, list)
        or len(value) != h
        or not all(isinstance(r, str) and len(r) == w and set(r) <= set(letters) for r in value)
    ):
        raise FormatError(f'"goal" must be {h} strings of {w} cells of "{letters}"', source, line)
    return puzzle.palette.from_rows(value)


def to_object(puzzle: Puzzle | ColourPuzzle) -> dict:
    """The JSON object of a puzzle (what :func:`dumps` writes)."""
    meta = dict(puzzle.meta)
    if puzzle.title:
        meta["title"] = puzzle.title
    obj: dict = {k: str(meta[k]) for k in STRING_KEYS if meta.get(k)}
    goal = meta.get("goal")
    has_goal = goal is not None and np.shape(goal) == (puzzle.height, puzzle.width)
    if isinstance(puzzle, ColourPuzzle):
        letters = puzzle.palette.letters
        obj["colours"] = puzzle.palette.colours_json()
        if puzzle.palette.background.rgb != "#ffffff":
            obj["background"] = puzzle.palette.background.rgb
        obj["rows"] = [[f"{n}{letters[ink]}" for n, ink in c] for c in puzzle.rows]
        obj["cols"] = [[f"{n}{letters[ink]}" for n, ink in c] for c in puzzle.cols]
        if has_goal:
            obj["goal"] = puzzle.palette.rows_text(goal)
        return obj
    obj["rows"] = [list(c) for c in puzzle.rows]
    obj["cols"] = [list(c) for c in puzzle.cols]
    if has_goal:
        obj["goal"] = solution_rows(goal)
    return obj


def dumps(puzzle: Puzzle | ColourPuzzle) -> str:
    """A puzzle as a JSON object, one clue line (or goal row) per text line."""
    fields = []
    for key, value in to_object(puzzle).items():
        if isinstance(value, list):
            inner = ",\n".join("    " + json.dumps(v) for v in value)
            fields.append(f"  {json.dumps(key)}: [\n{inner}\n  ]" if value else f'  "{key}": []')
        else:
            fields.append(f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}")
    return "{\n" + ",\n".join(fields) + "\n}\n"


def dumps_all(puzzles: list[Puzzle | ColourPuzzle]) -> str:
    """Several puzzles as a JSON list of objects."""
    return "[\n" + ",\n".join(dumps(puzzle).rstrip("\n") for puzzle in puzzles) + "\n]\n"

"""The TOML puzzle files of pynogram and nonogrid (read only).

::

    [colors]
    defs = ['b = (blue) *', 'r = (FF0000) %']

    [clues]
    columns = '''
        1r 5b 3r
        15r, 15r
    '''
    rows = "3 1, 1 1"

A clue line holds blocks separated by spaces; lines are separated by a newline or a
comma and may be quoted; ``#`` or ``;`` starts a comment; empty lines only separate.
A block is a number with a colour name after it (``3r``); a bare number is black. A
colour is ``NAME = (DESCRIPTION) CHAR``, the description an SVG colour name, an
``R, G, B`` triplet or ``RRGGBB``; ``[colors]`` may also hold one ``NAME = "…"`` key per
colour.
"""

from __future__ import annotations

import re
import sys

from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle
from .base import FormatError, split_lines, whole_number
from .colours import ColourDraft, Line, colour_puzzle
from .css_colours import CSS_COLOURS

NAME = "toml"
EXTENSIONS = (".toml",)

DEFAULT_NAME = "black"
COLOUR_DEF = re.compile(r"\s*([^=\s]+)\s*=\s*\(?(.*?)\)?\s*(\S)\s*")
BLOCK = re.compile(r"(\d+)(\S*)")
TRIPLET = re.compile(r"\s*(\d{1,3})\s*,\s*(\d{1,3})\s*,\s*(\d{1,3})\s*")
NAMED_COLOURS = CSS_COLOURS  # every SVG/CSS name, as nonogrid takes them


def sniff(text: str) -> bool:
    """True when the text has a ``[clues]`` table."""
    return re.search(r"^\s*\[clues\]\s*$", text, re.MULTILINE) is not None


def _toml(text: str, source: str) -> dict:
    """The parsed TOML document (tomllib, or tomli on Python 3.10)."""
    if sys.version_info >= (3, 11):
        import tomllib
    else:  # pragma: no cover - Python 3.10
        try:
            import tomli as tomllib
        except ImportError:
            raise FormatError(
                "reading TOML on Python 3.10 needs tomli (pip install tomli)", source
            ) from None
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        match = re.search(r"\(at line (\d+)", str(exc))
        line = int(match.group(1)) if match else max(len(split_lines(text)), 1)
        reason = re.sub(r"\s*\(at (line|end of document).*\)$", "", str(exc))
        raise FormatError(f"not valid TOML: {reason}", source, line) from None
    except (ValueError, RecursionError) as exc:  # a 5000-digit number, nesting too deep
        raise FormatError(f"not a puzzle TOML file: {str(exc).split(';')[0]}", source) from None


def _key_line(text: str, key: str) -> tuple[int, int]:
    """The line of ``key = …`` and how many lines its string value starts below it."""
    match = re.search(rf"^\s*{key}\s*=\s*(\"\"\"|''')?(\r?\n)?", text, re.MULTILINE)
    if not match:
        return 1, 0
    return text.count("\n", 0, match.start()) + 1, 1 if match.group(2) else 0


def _colour_value(desc: str) -> str | None:
    """An SVG name, ``R, G, B`` or ``RRGGBB`` as RRGGBB; None when it is none of them."""
    desc = desc.strip()
    if desc.lower() in NAMED_COLOURS:
        return NAMED_COLOURS[desc.lower()]
    triplet = TRIPLET.fullmatch(desc)
    if triplet and all(int(v) <= 255 for v in triplet.groups()):
        return "".join(f"{int(v):02x}" for v in triplet.groups())
    if re.fullmatch(r"#?[0-9A-Fa-f]{6}", desc):
        return desc.lstrip("#")
    return None


def _colours(doc: dict, text: str, source: str, draft: ColourDraft) -> None:
    """Declare the colours of ``[colors]``."""
    table = doc.get("colors", {})
    if not isinstance(table, dict):
        raise FormatError("[colors] is not a table", source, _key_line(text, "colors")[0])
    defs = table.get("defs", [])
    defs = [defs] if isinstance(defs, str) else defs
    line, _ = _key_line(text, "defs")
    if not isinstance(defs, list) or not all(isinstance(d, str) for d in defs):
        raise FormatError('"defs" is not a list of "NAME = (COLOUR) CHAR" strings', source, line)
    items = [(d, line) for d in defs] + [
        (f"{k} = {v}", _key_line(text, re.escape(k))[0]) for k, v in table.items() if k != "defs"
    ]
    for item, lineno in items:
        match = COLOUR_DEF.fullmatch(str(item))
        value = _colour_value(match.group(2)) if match else None
        if match and value is None:  # the form is right, the colour is not one
            raise FormatError(
                f'colour "{item}": "{match.group(2).strip()}" is not an SVG colour name, '
                f'"R, G, B" or RRGGBB',
                source,
                lineno,
            )
        if value is None:
            raise FormatError(f'colour "{item}" is not "NAME = (COLOUR) CHAR"', source, lineno)
        name, char = match.group(1), match.group(3)
        if value.lower() == "ffffff" and name.lower() in ("w", "white"):
            draft.background = (name, value)
        else:
            draft.declare(name, value, char, lineno)


def _clue_lines(doc: dict, key: str, text: str, source: str, draft: ColourDraft) -> list[Line]:
    """The clue lines of ``[clues] key``, each block with its colour name."""
    clues = doc.get("clues", {})
    value = clues.get(key) if isinstance(clues, dict) else None
    first, skip = _key_line(text, key)
    if value is None:
        raise FormatError(f'no "{key}" in [clues]', source, first)
    if not isinstance(value, str):
        raise FormatError(f'"{key}" is not a string of clue lines', source, first)
    out: list[Line] = []
    for offset, raw in enumerate(value.split("\n")):
        lineno = first + skip + offset
        body = re.split(r"[#;]", raw, maxsplit=1)[0]
        for part in body.split(","):
            part = part.strip().strip("'\"").strip()
            if part:
                out.append(_blocks(part, source, lineno, draft))
    return out


def _blocks(part: str, source: str, lineno: int, draft: ColourDraft) -> Line:
    """One clue line: ``3r 1 2b``."""
    blocks: Line = []
    for token in part.split():
        match = BLOCK.fullmatch(token)
        if not match:
            raise FormatError(f'block "{token}" is not a number with a colour', source, lineno)
        n = whole_number(match.group(1), "block", source, lineno)
        name = match.group(2) or DEFAULT_NAME
        if n:
            draft.use(name, lineno)
            blocks.append((n, name))
    return blocks


def loads(text: str, source: str) -> list[Puzzle | ColourPuzzle | FormatError]:
    """The one puzzle of a TOML text."""
    doc = _toml(text, source)
    draft = ColourDraft(source)
    rows = _clue_lines(doc, "rows", text, source, draft)
    cols = _clue_lines(doc, "columns", text, source, draft)
    _colours(doc, text, source, draft)
    if DEFAULT_NAME in draft.used and DEFAULT_NAME not in draft.declared:
        draft.declare(DEFAULT_NAME, "000000", None, None)
    return [colour_puzzle(draft, rows, cols, line=1)]

"""Reading clue cells: numbers, numbers stored as text, and clue lists written in one cell."""

from __future__ import annotations

import re
import unicodedata

# Separators people put between clues written in one cell: spaces, line breaks, commas,
# Japanese 、・ and full stops (NFKC turns full-width forms into these).
CLUE_LIST = re.compile(r"\d+(?:\s*[\s,、，;；/・･.\-]\s*\d+)*")
NUMBER = re.compile(r"\d+")
# Words that label a board dimension (lower case, without a trailing colon).
WIDTH_LABELS = frozenset(
    {"width", "w", "cols", "columns", "幅", "横", "よこ", "横幅", "列", "列数"}
)
HEIGHT_LABELS = frozenset({"height", "h", "rows", "高さ", "縦", "たて", "縦幅", "行", "行数"})
SIZE_TEXT = re.compile(r"(\d+)\s*[x×*]\s*(\d+)")


class BadClue(ValueError):
    """A clue cell holds something that is not a clue; the message quotes it."""


def normalise(text: str) -> str:
    """Full-width digits and punctuation to ASCII, surrounding blanks removed."""
    return unicodedata.normalize("NFKC", text).strip()


def parse_clues(value: object) -> tuple[int, ...]:
    """The clues one cell holds (``()`` when empty); BadClue when it is not a clue."""
    if value is None:
        return ()
    if isinstance(value, bool):
        raise BadClue(f'clue "{value}" is not a number')
    if isinstance(value, int):
        if value < 0:
            raise BadClue(f"clue {value} is negative")
        return (value,)
    if isinstance(value, float):
        if not value.is_integer():
            raise BadClue(f"clue {value:g} is not a whole number")
        if value < 0:
            raise BadClue(f"clue {value:g} is negative")
        return (int(value),)
    if isinstance(value, str):
        text = normalise(value)
        if not text:
            return ()
        if CLUE_LIST.fullmatch(text):
            return tuple(int(n) for n in NUMBER.findall(text))
        shown = value.strip().replace("\n", " ")
        if len(shown) > 20:
            shown = shown[:20] + "…"
        raise BadClue(f'clue "{shown}" is not a number')
    raise BadClue(f'clue "{value}" is not a number')


def is_clue(value: object) -> bool:
    """True when a cell holds at least one clue."""
    try:
        return bool(parse_clues(value))
    except BadClue:
        return False


def dimension_label(value: object) -> str | None:
    """``"width"``/``"height"`` when a cell labels a board dimension, else None."""
    if not isinstance(value, str):
        return None
    text = normalise(value).lower().rstrip(":=").strip()
    if text in WIDTH_LABELS:
        return "width"
    if text in HEIGHT_LABELS:
        return "height"
    return None


def parse_size(text: str) -> tuple[int, int] | None:
    """``"15x20"`` (width × height) → ``(15, 20)``; None when it is not a size."""
    m = SIZE_TEXT.fullmatch(normalise(str(text)).lower())
    return (int(m.group(1)), int(m.group(2))) if m else None

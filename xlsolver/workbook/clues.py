"""Reading clue cells as people type them, and as the spreadsheet kept what they typed.

A cell may hold one number, a list (``3 1 2``, ``3,1,2``, ``3・1``, ``3.1.2``, ``3 – 1``,
``3·1``, ``3,1,``, full-width digits), or what the spreadsheet made of a typed list on
entry: ``3.1`` became the decimal 3.1 (read back as 3 1), ``3/1`` a date (read back as
3 1 in the order its number format shows month and day; a date showing a year cannot be
read back and is refused).
"""

from __future__ import annotations

import datetime as dt
import re
import unicodedata

from ..sheets.protocol import is_error_value

# Separators people put between clues written in one cell: spaces, line breaks, commas,
# Japanese 、・, full stops, hyphens and dashes (AutoCorrect makes " - " an en dash), the
# minus sign, middle dots and bullets (NFKC turns full-width forms into these). A comma
# may end (or start) the list; a dash before a lone number stays refused (-2 is no clue).
SEPARATOR = r"[\s,、，;；/・･.\-‐‑‒–—−·•]"
CLUE_LIST = re.compile(rf"(?:[,、;]\s*)?\d+(?:\s*{SEPARATOR}\s*\d+)*(?:\s*[,、;])?")
NUMBER = re.compile(r"\d+")
DECIMAL = re.compile(r"(\d+)\.(\d{1,4})")  # 3.1 → 3 1; longer tails are real decimals
FLOAT_NOISE = 1e-9  # a saved number this close to a whole one is that number
WHOLE_TEXT = re.compile(r"(\d+)\.0+")  # "3.0", a whole number as text ("3 0" is no clue list)
# Words that label a board dimension (lower case, without a trailing colon).
WIDTH_LABELS = frozenset(
    {"width", "w", "cols", "columns", "幅", "横", "よこ", "横幅", "列", "列数"}
)
HEIGHT_LABELS = frozenset({"height", "h", "rows", "高さ", "縦", "たて", "縦幅", "行", "行数"})
SIZE_TEXT = re.compile(r"(\d+)\s*[x×*]\s*(\d+)")
EXCEL_EPOCH = dt.datetime(1899, 12, 30)  # serial day 0 of Excel and Calc dates
QUOTED = re.compile(r'"[^"]*"|\[[^\]]*\]|\\.')  # literal text and [colour] parts of a format
# What a format section may hold and still show nothing: [colour], an empty literal "",
# the space _x keeps for a character, a fill with spaces.
SHOWS_NOTHING = re.compile(r'\[[^\]]*\]|""|_.|\* |\s')
TYPE_AS_TEXT = "type the clues with spaces (3 1) or start the cell with an apostrophe ('3/1)"


class BadClue(ValueError):
    """A clue cell holds something that is not a clue; the message quotes it."""


# Characters that show nothing (zero-width space, joiners, word joiner, byte-order mark),
# left in cells by text pasted from web pages and chat apps.
INVISIBLE = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff"))


def normalise(text: str) -> str:
    """Full-width digits and punctuation to ASCII, invisible characters and surrounding
    blanks removed."""
    return unicodedata.normalize("NFKC", text).translate(INVISIBLE).strip()


def is_date_format(number_format: str | None) -> bool:
    """True when a number format shows a date (it has day or month fields)."""
    if not number_format:
        return False
    code = QUOTED.sub("", number_format.split(";")[0]).lower()
    return "d" in code or ("m" in code and "h" not in code and "s" not in code) or "y" in code


def format_sections(number_format: str) -> list[str]:
    """The ``;``-separated sections of a number format (a quoted or escaped ``;`` kept)."""
    sections, part, quoted, escaped = [], "", False, False
    for ch in number_format:
        if escaped:
            escaped = False
        elif ch == "\\" and not quoted:
            escaped = True
        elif ch == '"':
            quoted = not quoted
        elif ch == ";" and not quoted:
            sections.append(part)
            part = ""
            continue
        part += ch
    return [*sections, part]


def hides_zero(number_format: str | None) -> bool:
    """True when a number format shows 0 as a blank cell: its zero section, the third
    (``0;-0;;@``), shows nothing."""
    sections = format_sections(number_format) if number_format else []
    return len(sections) >= 3 and not SHOWS_NOTHING.sub("", sections[2])


def shown_blank(value: object, number_format: str | None, zeros_shown: bool = True) -> bool:
    """True for a 0 the sheet shows as a blank cell: its number format hides zeros, or
    the sheet does not show zero values (``zeros_shown`` False)."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value != 0:
        return False
    return not zeros_shown or hides_zero(number_format)


def date_clues(value: dt.date | float, number_format: str | None) -> tuple[int, ...]:
    """A typed ``3/1`` that became a date, read back in the order its format shows."""
    when = value if isinstance(value, dt.date) else EXCEL_EPOCH + dt.timedelta(days=value)
    code = QUOTED.sub("", (number_format or "m/d").split(";")[0]).lower()
    shown = f"{when.month}/{when.day}"
    if "y" in code or not code.strip() or code == "general":
        year = f"/{when.year}" if "y" in code else ""
        raise BadClue(f"clue {shown}{year} became a date with a year; {TYPE_AS_TEXT}")
    if isinstance(when, dt.datetime) and (when.hour or when.minute or when.second):
        raise BadClue(f"clue {shown} became a date and time; {TYPE_AS_TEXT}")
    d, m = code.find("d"), code.find("m")
    if "mmm" in code or d < 0 or m < d:  # a month name: typed month first, as Excel reads it
        return (when.month, when.day)
    return (when.day, when.month)


def _number_clues(value: int | float) -> tuple[int, ...]:
    """One whole number, or a decimal the spreadsheet made of ``3.1`` (→ 3 1)."""
    if value < 0:
        raise BadClue(f"clue {value:g} is negative")
    if isinstance(value, int) or value.is_integer():
        return (int(value),)
    if abs(value - round(value)) < FLOAT_NOISE:  # 4.0000000000000009, shown as 4
        return (round(value),)
    m = DECIMAL.fullmatch(repr(value))
    if m is None:
        raise BadClue(f"clue {value!r} is not a whole number")
    return (int(m.group(1)), int(m.group(2)))


def parse_clues(value: object, number_format: str | None = None) -> tuple[int, ...]:
    """The clues one cell holds (``()`` when empty); BadClue when it is not a clue.

    ``number_format`` tells a date from a number where the back end gives dates as
    serial numbers (LibreOffice, Excel); openpyxl gives them as dates already.
    """
    if value is None:
        return ()
    if isinstance(value, bool):  # as a spreadsheet shows it
        raise BadClue(f'clue "{str(value).upper()}" is not a number')
    if isinstance(value, (dt.date, dt.datetime)):
        return date_clues(value, number_format)
    if isinstance(value, (int, float)):
        if shown_blank(value, number_format):  # 0 in "0;-0;;@": an empty place
            return ()
        if value > 0 and is_date_format(number_format):  # a serial date (Calc, Excel)
            return date_clues(value, number_format)
        return _number_clues(value)
    if isinstance(value, str):
        text = normalise(value)
        if not text:
            return ()
        whole = WHOLE_TEXT.fullmatch(text)
        if whole:  # what a program that wrote floats as text made of 3
            return (int(whole.group(1)),)
        if CLUE_LIST.fullmatch(text):
            return tuple(int(n) for n in NUMBER.findall(text))
        shown = value.strip().replace("\n", " ")
        if len(shown) > 20:
            shown = shown[:20] + "…"
        if shown.startswith("="):
            raise BadClue(f"the formula {shown} has no saved value; type the clues as numbers")
        if is_error_value(text):
            raise BadClue(f"clue {text} is an error value (a formula that failed)")
        numbers = NUMBER.findall(text)
        if len(numbers) > 1 and not any(ch.isalpha() for ch in text):
            raise BadClue(
                f'clue "{shown}" is not a number (separate clues with spaces or commas: '
                f'"{" ".join(numbers)}")'
            )
        raise BadClue(f'clue "{shown}" is not a number')
    raise BadClue(f'clue "{value}" is not a number')


def is_clue(value: object, number_format: str | None = None) -> bool:
    """True when a cell holds at least one clue."""
    try:
        return bool(parse_clues(value, number_format))
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

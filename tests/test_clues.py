"""Reading one clue cell: what people type and what the spreadsheet kept of it."""

from __future__ import annotations

import datetime as dt

import pytest

from xlsolver.workbook.clues import BadClue, is_date_format, parse_clues

SERIAL_MARCH_1 = (dt.datetime(2026, 3, 1) - dt.datetime(1899, 12, 30)).days


@pytest.mark.parametrize(
    "value, number_format, clues",
    [
        (3, None, (3,)),
        ("3 1 2", None, (3, 1, 2)),
        ("3,1,2", None, (3, 1, 2)),
        ("3・1・2", None, (3, 1, 2)),
        ("3、1、2", None, (3, 1, 2)),
        ("3 1\u200b", None, (3, 1)),  # a zero-width space pasted from a web page
        ("\ufeff2 \u20602", None, (2, 2)),  # a byte-order mark, a word joiner
        ("3.1.2", None, (3, 1, 2)),
        ("３　１　２", None, (3, 1, 2)),
        ("3\n1", None, (3, 1)),
        ("3 – 1", None, (3, 1)),  # en dash: what AutoCorrect makes of "3 - 1"
        ("3—1", None, (3, 1)),  # em dash
        ("3 − 1", None, (3, 1)),  # U+2212 minus sign
        ("3·1", None, (3, 1)),  # U+00B7 middle dot
        ("3•1•2", None, (3, 1, 2)),  # bullet
        ("3,1,", None, (3, 1)),  # a trailing comma
        (",3,1", None, (3, 1)),  # a leading one
        ("3、1、", None, (3, 1)),
        (3.1, "General", (3, 1)),
        (2.5, None, (2, 5)),
        (12.0, None, (12,)),
        ("12.0", None, (12,)),  # a float written as text by another program
        ("3.00", None, (3,)),
        ("0.0", None, (0,)),
        (dt.datetime(2026, 3, 1), "m/d", (3, 1)),
        (dt.datetime(2026, 3, 1), "d-mmm", (3, 1)),  # a month name: typed month first
        (dt.datetime(2026, 1, 3), "d/m", (3, 1)),  # typed 3/1 where days come first
        (dt.datetime(2026, 3, 1), None, (3, 1)),  # format unknown: month first
        (SERIAL_MARCH_1, "M/D", (3, 1)),  # Calc gives a date as its serial number
        (float(SERIAL_MARCH_1), "[$-409]M/D;@", (3, 1)),
        (SERIAL_MARCH_1, "General", (SERIAL_MARCH_1,)),
        (0, "0;-0;;@", ()),  # a 0 its format shows as blank is an empty place
        (0.0, "#,##0;[Red]-#,##0;", ()),
        (0, '0;-0;"";@', ()),
        (0, "0;-0;0;@", (0,)),  # a 0 shown is a 0
        (0, "0;-0", (0,)),
        (2, "0;-0;;@", (2,)),
    ],
)
def test_clues_as_typed(value, number_format, clues):
    assert parse_clues(value, number_format) == clues


@pytest.mark.parametrize(
    "value, number_format, message",
    [
        ("x", None, r'^clue "x" is not a number$'),
        (-2, None, r"^clue -2 is negative$"),
        ("-2", None, r'^clue "-2" is not a number$'),  # no separator before a lone number
        ("−2", None, r'^clue "−2" is not a number$'),
        ("–2", None, r'^clue "–2" is not a number$'),
        ("3,,1", None, r'^clue "3,,1" is not a number'),
        (2.123456, None, r"^clue 2.123456 is not a whole number$"),
        (6.000000001, None, r"^clue 6.000000001 is not a whole number$"),
        (dt.datetime(2026, 3, 1), "m/d/yyyy", r"^clue 3/1/2026 became a date with a year; type"),
        (SERIAL_MARCH_1, "MM/DD/YY", r"^clue 3/1/2026 became a date with a year"),
        (dt.datetime(2026, 3, 1, 12, 30), "m/d h:mm", r"became a date and time"),
        ("=3+1", None, r"^the formula =3\+1 has no saved value"),
    ],
)
def test_what_cannot_be_read_back_is_named(value, number_format, message):
    with pytest.raises(BadClue, match=message):
        parse_clues(value, number_format)


def test_date_formats_are_told_from_number_formats():
    assert is_date_format("m/d") and is_date_format("D-MMM") and is_date_format("yyyy-mm-dd")
    assert not is_date_format("General") and not is_date_format("0.0")
    assert not is_date_format("[h]:mm:ss") and not is_date_format('"days" 0')

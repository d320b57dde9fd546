"""Colour arithmetic of an .xlsx as LibreOffice Calc does it on import, so a file read
through openpyxl shows the colours Calc shows (its ``CellBackColor`` and ``CharColor``).

Calc works in whole numbers: a tint becomes a fraction in 100000ths (rounded by adding
0.5 and cutting toward zero, so -0.5 is -49999), the colour goes to hue, saturation and
luminance in whole units, the luminance moves toward black or white, and back to RGB.
Two colours are mixed by a weight in 128ths with C's integer division (toward zero).
"""

from __future__ import annotations

import math

MAX_PERCENT = 100_000  # Calc's 100 %
PER_DEGREE = 60_000
MAX_DEGREE = 360 * PER_DEGREE
RGB = tuple[int, int, int]


def rgb_of(colour: str) -> RGB:
    """``#RRGGBB`` → (r, g, b)."""
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def hex_of(rgb: RGB) -> str:
    """(r, g, b) → ``#RRGGBB``."""
    return "#" + "".join(f"{v:02X}" for v in rgb)


def _clamped(value: float, low: int, high: int) -> int:
    """A double limited to [low, high] and cut to a whole number, as C++ casts it."""
    return int(min(max(value, low), high))


def _hue(r: float, g: float, b: float, top: float, spread: float) -> int:
    """The hue in 60000ths of a degree (0 red, 120 green, 240 blue)."""
    if spread == 0.0:
        return 0
    if top == r:
        return int(((g - b) / spread * 60.0 + 360.0) * PER_DEGREE + 0.5) % MAX_DEGREE
    if top == g:
        return int(((b - r) / spread * 60.0 + 120.0) * PER_DEGREE + 0.5)
    return int(((r - g) / spread * 60.0 + 240.0) * PER_DEGREE + 0.5)


def to_hsl(rgb: RGB) -> tuple[int, int, int]:
    """(r, g, b) → Calc's (hue, saturation, luminance) in whole units."""
    r, g, b = (v / 255.0 for v in rgb)
    low, top = min(r, g, b), max(r, g, b)
    spread = top - low
    lum = int((low + top) / 2.0 * MAX_PERCENT + 0.5)
    if lum in (0, MAX_PERCENT):
        sat = 0
    elif lum <= 50 * 1000:
        sat = int(spread / (low + top) * MAX_PERCENT + 0.5)
    else:
        sat = int(spread / (2.0 - top - low) * MAX_PERCENT + 0.5)
    return _hue(r, g, b, top, spread), sat, lum


def _base(hue: int) -> tuple[float, float, float]:
    """The full colour of a hue, each part in [0, 1]."""
    h = hue / MAX_DEGREE * 6.0
    if h <= 1.0:
        return 1.0, h, 0.0
    if h <= 2.0:
        return 2.0 - h, 1.0, 0.0
    if h <= 3.0:
        return 0.0, 1.0, h - 2.0
    if h <= 4.0:
        return 0.0, 4.0 - h, 1.0
    if h <= 5.0:
        return h - 4.0, 0.0, 1.0
    return 1.0, 0.0, 6.0 - h


def from_hsl(hue: int, sat: int, lum: int) -> RGB:
    """Calc's (hue, saturation, luminance) → (r, g, b)."""
    parts = (0.0, 0.0, 0.0)
    if sat == 0 or lum == MAX_PERCENT:
        parts = (lum / MAX_PERCENT,) * 3
    elif lum > 0:
        s = sat / MAX_PERCENT
        parts = tuple((p - 0.5) * s + 0.5 for p in _base(hue))
        shift = 2.0 * lum / MAX_PERCENT - 1.0
        if shift < 0.0:
            parts = tuple(p * (shift + 1.0) for p in parts)
        elif shift > 0.0:
            parts = tuple(1.0 - (1.0 - p) * (1.0 - shift) for p in parts)
    r, g, b = (int(p * 255.0 + 0.5) for p in parts)
    return r, g, b


def tint_units(tint: float) -> int:
    """A tint (-1 … 1) in Calc's 100000ths: plus 0.5, cut toward zero, limited."""
    return _clamped(tint * MAX_PERCENT + 0.5, -MAX_PERCENT, MAX_PERCENT)


def tinted(colour: str, tint: float) -> str:
    """``#RRGGBB`` lightened (tint > 0) or darkened (tint < 0) as Calc reads an Excel
    tint: the luminance moves toward white by ``tint`` or toward black by ``-tint``."""
    hue, sat, lum = to_hsl(rgb_of(colour))
    units = tint_units(tint)
    if units < 0:
        lum = _clamped(lum * (units + MAX_PERCENT) / MAX_PERCENT, 0, MAX_PERCENT)
    elif units > 0:
        rest = _clamped((MAX_PERCENT - lum) * (MAX_PERCENT - units) / MAX_PERCENT, 0, MAX_PERCENT)
        lum = MAX_PERCENT - rest
    return hex_of(from_hsl(hue, sat, lum))


def mixed(front: str, back: str, weight: int) -> str:
    """``front`` laid over ``back`` by ``weight`` 128ths, part by part as Calc mixes a
    pattern's colours: (front - back) * weight / 128 cut toward zero, plus back."""
    pairs = zip(rgb_of(front), rgb_of(back), strict=True)
    r, g, b = (math.trunc((f - k) * weight / 128) + k for f, k in pairs)
    return hex_of((r, g, b))

"""The twelve pentominoes, their orientations and the symmetries of the square grid.

Glossary
    shape        a frozenset of ``(row, col)`` cells, normalised so its top row and left
                 column are 0
    orientation  one of the shapes a piece takes when turned (and, for free pieces,
                 flipped): up to 8 for a free pentomino, 4 when one-sided
    canonical    the shape drawn in :data:`CANONICAL` below; one-sided pieces keep its
                 handedness and may only be turned
    transform    one of the 8 symmetries of the square, a function of ``(row, col)``
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Coord = tuple[int, int]
Shape = frozenset[Coord]
Transform = Callable[[int, int], Coord]

PIECE_SIZE = 5
LETTERS = "FILNPTUVWXYZ"

# The conventional drawings (Golomb's letters); the handedness of these drawings is the
# one used by ``--one-sided``.
_DRAWINGS = {
    "F": (".##", "##.", ".#."),
    "I": ("#####",),
    "L": ("#.", "#.", "#.", "##"),
    "N": (".#", ".#", "##", "#."),
    "P": ("##", "##", "#."),
    "T": ("###", ".#.", ".#."),
    "U": ("#.#", "###"),
    "V": ("#..", "#..", "###"),
    "W": ("#..", "##.", ".##"),
    "X": (".#.", "###", ".#."),
    "Y": (".#", "##", ".#", ".#"),
    "Z": ("##.", ".#.", ".##"),
}

# The 8 symmetries of the square as maps of (row, col); the first 4 are the rotations.
TRANSFORMS: tuple[Transform, ...] = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (-r, c),
    lambda r, c: (c, r),
    lambda r, c: (-c, -r),
)
ROTATIONS = TRANSFORMS[:4]


def normalise(cells: Iterable[Coord]) -> Shape:
    """Shift cells so the smallest row and column are 0."""
    cells = list(cells)
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def parse_drawing(rows: Iterable[str]) -> Shape:
    """A shape from rows of ``#`` (cell) and ``.`` (no cell)."""
    return normalise((r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "#")


CANONICAL: dict[str, Shape] = {letter: parse_drawing(d) for letter, d in _DRAWINGS.items()}


def orientations(shape: Shape, one_sided: bool = False) -> list[Shape]:
    """The distinct shapes a piece takes when turned (and flipped unless one-sided)."""
    seen: list[Shape] = []
    for t in ROTATIONS if one_sided else TRANSFORMS:
        s = normalise(t(r, c) for r, c in shape)
        if s not in seen:
            seen.append(s)
    return seen


def identify(cells: Iterable[Coord], one_sided: bool = False) -> str | None:
    """The letter of the pentomino these cells form, ``None`` when they form none."""
    cells = list(cells)
    if len(cells) != PIECE_SIZE or len(set(cells)) != PIECE_SIZE:
        return None
    shape = normalise(cells)
    for letter, canonical in CANONICAL.items():
        if shape in orientations(canonical, one_sided):
            return letter
    return None

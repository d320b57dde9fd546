"""The complete colour line solver: the placement idea of :mod:`.line` with the touching rule.

A line of n cells is k+1 bit masks ``can[c]``: the cells that may still be colour c
(``can[0]`` the background). The forward pass finds, for every clue, the starts that the
clues before it allow; the backward pass (the same pass on the reversed line) those the
clues after it allow; a start allowed by both is a real placement. A cell may be ink c
when a real placement of a clue of colour c covers it, and the background when it lies
in a gap that both passes allow. The one difference from black and white: after a
block the next block may start at once when its colour differs, and needs one
background cell between them when it is the same.
"""

from __future__ import annotations

from dataclasses import dataclass

from .colour_puzzle import ColourClue
from .line import fill, reverse_fields, runs_of, spread


def _forward(clues: tuple[ColourClue, ...], n: int, can: list[int]):
    """Feasible starts of every clue and background-capable gap cells, left to right.

    Returns (starts, gaps) or None when the clues cannot be placed at all. ``gaps[g]``
    holds the cells that can be background in gap g (before clue g) as far as the clues
    to the left are concerned; ``gaps[len(clues)]`` is the tail.
    """
    can_bg = can[0]
    starts: list[int] = []
    gaps: list[int] = []
    reach = fill(1, can_bg)
    gaps.append(reach & can_bg)
    after = reach
    last = len(clues) - 1
    for j, (length, ink) in enumerate(clues):
        s = reach & runs_of(can[ink], length)
        if not s:
            return None
        starts.append(s)
        after = fill(s << length, can_bg)
        g = after & can_bg
        gaps.append(g)
        reach = after if j < last and clues[j + 1][1] != ink else g << 1
    if not (after >> n) & 1:
        return None  # no placement leaves the tail background
    return starts, gaps


@dataclass
class ColourLineSolution:
    """What the line solver proved: per colour, the cells that may still be that colour."""

    can: tuple[int, ...]  # can[c]: cells colour c in some placement (0 = background)
    starts: list[int]  # per clue, the bit mask of valid starts

    def ranges(self, clues: tuple[ColourClue, ...]) -> list[tuple[int, int]]:
        """Per clue, the first and last cell its block may occupy (PssSt, PssEn)."""
        out = []
        for s, (length, _) in zip(self.starts, clues, strict=True):
            lo = (s & -s).bit_length() - 1
            out.append((lo, s.bit_length() - 1 + length - 1))
        return out


def solve_colour_line(
    clues: tuple[ColourClue, ...], n: int, can: tuple[int, ...] | list[int]
) -> ColourLineSolution | None:
    """The colours each cell can still take given the clues; None when no placement fits."""
    full = (1 << n) - 1
    masks = [m & full for m in can]
    if not clues:
        if masks[0] != full:
            return None
        return ColourLineSolution((full,) + (0,) * (len(masks) - 1), [])
    fwd = _forward(clues, n, masks)
    if fwd is None:
        return None
    f_starts, f_gaps = fwd
    bwd = _forward(clues[::-1], n, reverse_fields(masks, n))
    if bwd is None:
        return None
    b_starts, b_gaps = bwd
    back_ends = reverse_fields(b_starts, n)[::-1]  # clue j's last cells, in line order
    back_gaps = reverse_fields(b_gaps, n)[::-1]
    out = [0] * len(masks)
    starts = []
    for j, (length, ink) in enumerate(clues):
        s = f_starts[j] & (back_ends[j] >> (length - 1))
        if not s:
            return None
        starts.append(s)
        out[ink] |= spread(s, length)
    gap = 0
    for g in range(len(clues) + 1):
        gap |= f_gaps[g] & back_gaps[g]
    out[0] = gap
    return ColourLineSolution(tuple(out), starts)

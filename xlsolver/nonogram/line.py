"""The complete line solver, bit-parallel on Python integers.

A line of n cells is two bit masks: ``black`` (cells known black) and ``white``
(cells known white); bit i is cell i. Positions between cells run 0..n, so a block
of length c starting at s covers cells s..s+c-1 and ends at position s+c.

The solver is the O(k·n) dynamic programme done on whole lines at once: a forward
pass finds, for every clue, the starts that the clues before it allow; a backward
pass (the same pass on the reversed line) the starts that the clues after it allow.
A start allowed by both is a real placement. A cell is black in every placement
when no placement leaves it white, white when no placement covers it.
Each clue costs a few dozen integer operations whatever n is.

The valid starts of each clue give its candidate range, the macro's PssSt/PssEn.
"""

from __future__ import annotations

from dataclasses import dataclass


def fill(seeds: int, allowed: int) -> int:
    """Positions p reachable from a seed e ≤ p through cells e..p-1 that are all allowed."""
    return ((allowed + (seeds & allowed)) ^ allowed) | seeds


def runs_of(mask: int, length: int) -> int:
    """Starts s where cells s..s+length-1 all lie in mask."""
    x = mask
    have = 1
    while have < length:
        step = have if have + have <= length else length - have
        x &= x >> step
        have += step
    return x


def spread(starts: int, length: int) -> int:
    """Cells covered by a block of that length at any of the starts."""
    x = starts
    have = 1
    while have < length:
        step = have if have + have <= length else length - have
        x |= x << step
        have += step
    return x


_BYTE_REVERSED = bytes(int(f"{i:08b}"[::-1], 2) for i in range(256))


def reverse_bits(x: int, n: int) -> int:
    """Bit i becomes bit n-1-i (x < 2**n)."""
    size = (n + 7) >> 3
    flipped = int.from_bytes(x.to_bytes(size, "little").translate(_BYTE_REVERSED), "big")
    return flipped >> ((size << 3) - n)


def reverse_fields(fields: list[int], n: int) -> list[int]:
    """Each n-bit field reversed (order kept): one reversal for the whole list."""
    packed = 0
    for f in fields:
        packed = (packed << n) | f
    flipped = reverse_bits(packed, n * len(fields))
    mask = (1 << n) - 1
    return [(flipped >> (i * n)) & mask for i in range(len(fields))]


def _forward(clues: tuple[int, ...], n: int, can_white: int, can_black: int):
    """Feasible starts of every clue and white-capable gap cells, left to right.

    Returns (starts, gaps) or None when the clues cannot be placed at all. ``gaps[g]``
    holds the cells that can be white in gap g (before clue g) as far as the clues to
    the left are concerned; ``gaps[k]`` is the tail.
    """
    starts: list[int] = []
    gaps: list[int] = []
    reach = fill(1, can_white)
    gaps.append(reach & can_white)
    after = reach
    for c in clues:
        s = reach & runs_of(can_black, c)
        if not s:
            return None
        starts.append(s)
        after = fill(s << c, can_white)
        g = after & can_white
        gaps.append(g)
        reach = g << 1
    if not (after >> n) & 1:
        return None  # no placement leaves the tail white
    return starts, gaps


@dataclass
class LineSolution:
    """What the line solver proved: every cell black in all placements, or white in all."""

    black: int  # cells black in every placement
    white: int  # cells white in every placement
    starts: list[int]  # per clue, the bit mask of valid starts

    def ranges(self, clues: tuple[int, ...]) -> list[tuple[int, int]]:
        """Per clue, the first and last cell its block may occupy (PssSt, PssEn)."""
        out = []
        for s, c in zip(self.starts, clues, strict=True):
            lo = (s & -s).bit_length() - 1
            hi = s.bit_length() - 1 + c - 1
            out.append((lo, hi))
        return out


def solve_line(clues: tuple[int, ...], n: int, black: int, white: int) -> LineSolution | None:
    """Every cell forced by the clues given the known cells; None when no placement fits."""
    full = (1 << n) - 1
    can_white = full & ~black
    can_black = full & ~white
    if not clues:
        return None if black else LineSolution(0, full, [])
    fwd = _forward(clues, n, can_white, can_black)
    if fwd is None:
        return None
    f_starts, f_gaps = fwd
    r_white = reverse_bits(can_white, n)
    r_black = reverse_bits(can_black, n)
    bwd = _forward(clues[::-1], n, r_white, r_black)
    if bwd is None:
        return None
    b_starts, b_gaps = bwd
    back_starts = reverse_fields(b_starts, n)[::-1]  # clue j's, in line order
    back_gaps = reverse_fields(b_gaps, n)[::-1]
    cover = 0
    starts = []
    for j, c in enumerate(clues):
        s = f_starts[j] & (back_starts[j] >> (c - 1))
        if not s:
            return None
        starts.append(s)
        cover |= spread(s, c)
    gap = 0
    for g in range(len(clues) + 1):
        gap |= f_gaps[g] & back_gaps[g]
    return LineSolution(full & ~gap, full & ~cover, starts)

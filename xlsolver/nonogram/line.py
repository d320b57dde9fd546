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


def reversed_packed(fields: list[int], n: int) -> int:
    """The n-bit fields packed into one number and reversed with one reversal: field i
    of the result (counted from the low end) is ``fields[i]`` reversed."""
    packed = 0
    for f in fields:
        packed = (packed << n) | f
    return reverse_bits(packed, n * len(fields))


def reverse_fields(fields: list[int], n: int) -> list[int]:
    """Each n-bit field reversed (order kept): one reversal for the whole list."""
    flipped = reversed_packed(fields, n)
    mask = (1 << n) - 1
    return [(flipped >> (i * n)) & mask for i in range(len(fields))]


def _forward(clues, n: int, can_white: int, can_black: int) -> list[int] | None:
    """Gap cells that can be white and feasible starts, left to right, interleaved.

    Returns ``[gap 0, starts of clue 0, gap 1, …, starts of clue k-1, gap k]`` or None
    when the clues cannot be placed at all. Gap g holds the cells that can be white
    before clue g as far as the clues to the left are concerned; gap k is the tail.
    (``fill`` is written out: this loop is the analyzer's hottest code.)
    """
    reach = ((can_white + (1 & can_white)) ^ can_white) | 1
    out = [reach & can_white]
    after = reach
    runs: dict[int, int] = {}  # clue length → where such a block fits (lengths repeat)
    for c in clues:
        fits = runs.get(c)
        if fits is None:
            fits = runs[c] = can_black if c == 1 else runs_of(can_black, c)
        s = reach & fits
        if not s:
            return None
        out.append(s)
        seeds = s << c
        after = ((can_white + (seeds & can_white)) ^ can_white) | seeds
        g = after & can_white
        out.append(g)
        reach = g << 1
    if not (after >> n) & 1:
        return None  # no placement leaves the tail white
    return out


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
    starts: list[int] = []
    sol = _solve(clues, n, black, white, starts)
    return None if sol is None else LineSolution(sol[0], sol[1], starts)


def _solve(
    clues: tuple[int, ...], n: int, black: int, white: int, starts: list[int] | None
) -> tuple[int, int] | None:
    """The (black, white) cells of :func:`solve_line`, each clue's valid starts appended to
    ``starts`` when given (propagation needs only the cells)."""
    full = (1 << n) - 1
    if not clues:
        return None if black else (0, full)
    can_white = full & ~black
    can_black = full & ~white
    fwd = _forward(clues, n, can_white, can_black)
    if fwd is None:
        return None
    both = reverse_bits(can_white << n | can_black, 2 * n)  # one reversal for the two masks
    bwd = _forward(clues[::-1], n, both & full, both >> n)
    if bwd is None:
        return None
    # One reversal for every field of the backward pass: field i of ``back`` is bwd[i]
    # reversed, which is field 2k - i of the line-order layout of ``fwd``.
    back = reversed_packed(bwd, n)
    shift = (len(bwd) - 1) * n
    cover = gap = 0
    i = 0
    for c in clues:
        gap |= fwd[i] & (back >> shift)  # cells that can be white before this clue
        shift -= n
        s = fwd[i + 1] & ((back >> shift & full) >> (c - 1))  # starts both passes allow
        if not s:
            return None
        if starts is not None:
            starts.append(s)
        if c == 1:
            cover |= s
        elif c == 2:
            cover |= s | s << 1
        else:
            cover |= spread(s, c)
        shift -= n
        i += 2
    gap |= fwd[i] & back  # the tail
    return full & ~gap, full & ~cover


def _run_lengths(black: int) -> tuple[int, ...]:
    """The lengths of the runs of set bits, lowest first."""
    out = []
    while black:
        low = black & -black
        end = (black + low) & ~black
        out.append(end.bit_length() - low.bit_length())
        black &= -end
    return tuple(out)


def line_news(clues: tuple[int, ...], n: int, black: int, white: int) -> tuple[int, int] | None:
    """The (black, white) cells every placement agrees on, as ``solve_line`` finds them;
    None when no placement fits.

    The known ends of the line are set aside first: a fully known stretch from an end up
    to a white cell holds exactly the outer clues (checked), so only the open middle is
    solved, with the clues left. Lines solved from their edges inward cost less (Swing:
    14 % less line logic); a fully known line is only compared with its clues.
    """
    full = (1 << n) - 1
    open_cells = full & ~(black | white)
    if not open_cells:
        return (black, white) if _run_lengths(black) == tuple(clues) else None
    q = (white & ((open_cells & -open_cells) - 1)).bit_length()  # 0..q-1 known, q-1 white
    above = white >> open_cells.bit_length() << open_cells.bit_length()
    s = (above & -above).bit_length() - 1 if above else n  # s..n-1 known, s white
    k = len(clues)
    m = m2 = 0
    if q:
        head = _run_lengths(black & ((1 << q) - 1))
        m = len(head)
        if head != tuple(clues[:m]):
            return None
    if s < n:
        tail = _run_lengths(black >> s)
        m2 = len(tail)
        if m + m2 > k or (m2 and tail != tuple(clues[k - m2 :])):
            return None
    if not q and s == n:
        return _solve(clues, n, black, white, None)
    mask = (1 << (s - q)) - 1
    sol = _solve(tuple(clues[m : k - m2]), s - q, black >> q & mask, white >> q & mask, None)
    if sol is None:
        return None
    outside = full & ~(mask << q)
    return (black & outside) | (sol[0] << q), (white & outside) | (sol[1] << q)

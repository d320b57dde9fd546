"""The colour board: every line as k+1 bit masks of possible colours, and propagation.

Lines are numbered as on the black-and-white board: rows 0..H-1, columns H..H+W-1.
``can[line][c]`` holds the cells of a line that may still be colour c (0 = background);
row r's bit c and column c's bit r are the same cell, and narrowing a cell through
either line narrows both, so every rule is written once for rows and columns.
Propagation solves changed lines again until nothing changes.
"""

from __future__ import annotations

import numpy as np

from .board import Contradiction, LineBoard
from .cells import CERTAIN
from .colour_line import solve_colour_line
from .colour_puzzle import ColourPuzzle
from .result import Step

CACHE_SIZE = 400_000  # line results kept before the cache is cleared (a count, not bytes)


class ColourBoard(LineBoard):
    """The colours still possible in every cell, kept in step for rows and columns."""

    __slots__ = ("inks", "can")

    def __init__(self, puzzle: ColourPuzzle, cache: dict | None = None):
        self.init_lines(puzzle, cache)
        self.inks = puzzle.palette.k
        self.can = [[(1 << n) - 1] * (self.inks + 1) for n in self.length]

    def copy(self) -> ColourBoard:
        """A board with the same knowledge, sharing the static parts and the line cache."""
        other = ColourBoard.__new__(ColourBoard)
        self.share_lines(other)
        other.inks = self.inks
        other.can = [masks[:] for masks in self.can]
        return other

    # -- reading ----------------------------------------------------------------
    def open_mask(self, line: int) -> int:
        """Cells of a line where two or more colours are still possible."""
        seen = multi = 0
        for m in self.can[line]:
            multi |= seen & m
            seen |= m
        return multi

    @property
    def solved(self) -> bool:
        """True when every cell has one colour."""
        return not any(self.open_mask(r) for r in range(self.h))

    def open_cells(self) -> int:
        """How many cells still have two or more colours."""
        return sum(self.open_mask(r).bit_count() for r in range(self.h))

    def cell_state(self, r: int, c: int) -> int:
        """The set of colours still possible in one cell (no CERTAIN flag)."""
        state = 0
        for colour, mask in enumerate(self.can[r]):
            if mask >> c & 1:
                state |= 1 << colour
        return state

    def line_states(self, line: int, conc: bool = True) -> tuple[int, ...]:
        """The colour-set states of a line's cells, in order."""
        extra = CERTAIN if conc else 0
        masks = self.can[line]
        return tuple(
            sum(1 << colour for colour, m in enumerate(masks) if m >> i & 1) | extra
            for i in range(self.length[line])
        )

    def _bits(self, colour: int) -> np.ndarray:
        """Where colour ``colour`` is possible, as a boolean H×W array."""
        return self.row_bits(self.can[r][colour] for r in range(self.h))

    def grid(self, conc: bool = True) -> np.ndarray:
        """The board as a uint32 grid of colour-set states (confirmed by default)."""
        g = np.zeros((self.h, self.w), dtype=np.uint32)
        for colour in range(self.inks + 1):
            g[self._bits(colour)] |= np.uint32(1 << colour)
        if conc:
            g |= np.uint32(CERTAIN)
        return g

    def solution(self) -> np.ndarray:
        """The colour numbers of a solved board (int8, 0 = background)."""
        out = np.zeros((self.h, self.w), dtype=np.int8)
        for colour in range(1, self.inks + 1):
            out[self._bits(colour)] = colour
        return out

    # -- narrowing --------------------------------------------------------------
    def narrow(self, line: int, masks, dirty=None) -> None:
        """Keep only ``masks[c]`` of colour c in one line and the crossing lines.

        Raises Contradiction when a cell of the line is left with no colour.
        """
        own = self.can[line]
        h = self.h
        base = h if line < h else 0
        bit = 1 << (line if line < h else line - h)
        gone_any = 0
        for colour, keep in enumerate(masks):
            gone = own[colour] & ~keep
            if not gone:
                continue
            own[colour] &= keep
            gone_any |= gone
            while gone:
                low = gone & -gone
                other = base + low.bit_length() - 1
                self.can[other][colour] &= ~bit
                gone ^= low
        seen = 0
        for m in own:
            seen |= m
        if seen != (1 << self.length[line]) - 1:
            raise Contradiction(line)
        if dirty is not None:
            while gone_any:
                low = gone_any & -gone_any
                dirty(base + low.bit_length() - 1)
                gone_any ^= low

    def restrict_cell(self, r: int, c: int, colours: int) -> bool:
        """Keep only the colours of a set in one cell (through its row); True if it changed."""
        bit = 1 << c
        masks = [m if colours >> colour & 1 else m & ~bit for colour, m in enumerate(self.can[r])]
        if masks == self.can[r]:
            return False
        self.narrow(r, masks)
        return True

    # -- line logic -------------------------------------------------------------
    def solve_one(self, line: int) -> tuple[int, ...] | None:
        """The narrowed masks of one line (None when nothing changes); Contradiction if none."""
        masks = tuple(self.can[line])
        key = (self.shape[line], masks)
        hit = self.cache.get(key, False)
        if hit is False:
            sol = solve_colour_line(self.clues[line], self.length[line], masks)
            if sol is None:
                hit = ()
            else:
                hit = None if sol.can == masks else sol.can
            if len(self.cache) > CACHE_SIZE:
                self.cache.clear()
            self.cache[key] = hit
        if hit == ():
            raise Contradiction(line)
        return hit

    changes = solve_one  # the propagation loop's name for it

    def apply(self, line: int, new, steps: list[Step] | None, depth: int, dirty) -> None:
        """Narrow the line (tracing the step first, from the line as it was)."""
        step = None if steps is None else self.line_step(line, new, depth)
        self.narrow(line, new, dirty)
        if step is not None:
            steps.append(step)

    def line_step(self, line: int, new, depth: int) -> Step:
        """A trace step for the cells one line solve narrows (before it is applied)."""
        old = self.can[line]
        changed = 0
        for colour, m in enumerate(new):
            changed |= old[colour] & ~m
        cells = []
        for i in range(self.length[line]):
            if changed >> i & 1:
                r, c = self.cell(line, i)
                state = sum(1 << colour for colour, m in enumerate(new) if m >> i & 1)
                cells.append((r, c, state | CERTAIN))
        step = self.trace_step(line, cells, depth)
        step.rule = line_rule(self.clues[line], self.length[line]) or step.rule
        return step


def line_rule(clues: tuple, n: int) -> str | None:
    """The named rule a colour line's clues alone decide, whatever is known: ``empty``
    (no clues: all background) or ``full`` (the blocks and the single gaps between
    blocks of one colour fill the line exactly); None when neither."""
    if not clues:
        return "empty"
    gaps = sum(1 for (_, a), (_, b) in zip(clues, clues[1:], strict=False) if a == b)
    return "full" if sum(k for k, _ in clues) + gaps == n else None

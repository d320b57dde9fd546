"""The board the analyzer works on: every line as two bit masks, and propagation.

Lines are numbered once: rows are 0..H-1, columns H..H+W-1. A line is a view of the
grid: row r's bit c and column c's bit r are the same cell, and setting a cell
through either line updates both, so every rule is written once for both kinds.

Propagation is the macro's row scan / column scan loop, but only lines whose cells
changed are solved again, until nothing changes.
"""

from __future__ import annotations

import time
from collections import deque
from typing import TYPE_CHECKING

from . import kernel_policy
from .cells import BLACK, BLACK_CONC, BLANK, CONC, WHITE, WHITE_CONC
from .deferred import Deferred, bits_array, picture, state_grid, states_array
from .line import line_news
from .puzzle import LineId, Puzzle
from .result import LINE, RULE_LINE, Step

if TYPE_CHECKING:
    import numpy as np


class Contradiction(Exception):
    """A line has no placement left; ``line`` is its number on the board."""

    def __init__(self, line: int):
        super().__init__(line)
        self.line = line


class Timeout(Exception):
    """The time limit ran out."""


def deadline_after(time_limit: float | None) -> float | None:
    """The clock reading at which the user's time limit runs out (None: no limit)."""
    return None if time_limit is None else time.perf_counter() + time_limit


def stop_if_past(deadline: float | None) -> None:
    """Raise Timeout once the user's deadline has passed (a clock that stops, never chooses)."""
    if deadline is not None and time.perf_counter() > deadline:
        raise Timeout


class LineBoard:
    """What both boards share: the lines of a puzzle, their naming and the propagation loop.

    A subclass keeps its own knowledge of the cells and gives ``changes(line)`` (what a
    line solve proves that is new, None when nothing is; Contradiction when nothing fits)
    and ``apply(line, new, steps, depth, dirty)`` (record it, queue the crossing lines).
    """

    __slots__ = ("h", "w", "clues", "length", "shape", "cache")

    def init_lines(self, puzzle, cache: dict | None) -> None:
        """The static parts: size, each line's clues and length, and the line cache."""
        self.h = puzzle.height
        self.w = puzzle.width
        self.clues: list[tuple] = list(puzzle.rows) + list(puzzle.cols)
        self.length = [self.w] * self.h + [self.h] * self.w
        shapes: dict[tuple, int] = {}  # lines with the same clues and length share cache entries
        self.shape = [
            shapes.setdefault((c, n), len(shapes))
            for c, n in zip(self.clues, self.length, strict=True)
        ]
        self.cache: dict = {} if cache is None else cache

    def share_lines(self, other: LineBoard) -> None:
        """Give a copy ``other`` the static parts and the line cache of this board."""
        other.h, other.w = self.h, self.w
        other.clues, other.length, other.shape = self.clues, self.length, self.shape
        other.cache = self.cache

    # -- naming -----------------------------------------------------------------
    def line_id(self, line: int) -> LineId:
        """Board line number → ``("row", r)`` or ``("col", c)``."""
        return ("row", line) if line < self.h else ("col", line - self.h)

    def cell(self, line: int, bit: int) -> tuple[int, int]:
        """The (row, col) of a line's bit."""
        return (line, bit) if line < self.h else (bit, line - self.h)

    def row_bits(self, masks) -> np.ndarray:
        """Row masks (one int per row) as a boolean H×W array."""
        return bits_array(tuple(masks), self.w)

    def later(self) -> tuple:
        """The state grid and the solution of a solved board, made when first read."""
        return self.grid(), self.solution()

    # -- line logic -------------------------------------------------------------
    def trace_step(self, line: int, cells: list, depth: int) -> Step:
        """The trace step of one line solve that set ``cells`` (before they are set)."""
        return Step(
            kind=LINE,
            rule=RULE_LINE,
            cells=cells,
            line=self.line_id(line),
            before=self.line_states(line),
            depth=depth,
        )

    def changes(self, line: int):
        """What solving one line proves that is new (None when nothing is)."""
        raise NotImplementedError

    def apply(self, line: int, new, steps: list[Step] | None, depth: int, dirty) -> None:
        """Record what ``changes`` found (and its trace step); queue crossings via ``dirty``."""
        raise NotImplementedError

    def propagate(
        self,
        lines=None,
        steps: list[Step] | None = None,
        depth: int = 0,
        deadline: float | None = None,
    ) -> None:
        """Solve changed lines until nothing changes; raise Contradiction or Timeout."""
        todo = deque(range(len(self.clues)) if lines is None else lines)
        queued = set(todo)

        def dirty(other: int) -> None:
            if other not in queued:
                queued.add(other)
                todo.append(other)

        changes, apply = self.changes, self.apply
        handover = -1 if steps is not None else self.handover_after(lines is None, deadline)
        count = 0
        try:
            while todo:
                if count == handover:
                    if self.run_kernel(todo, deadline):
                        return
                    handover = -1  # no kernel after all: go on here
                line = todo.popleft()
                queued.discard(line)
                count += 1
                if deadline is not None and count & 63 == 0 and time.perf_counter() > deadline:
                    raise Timeout
                new = changes(line)
                if new is not None:
                    apply(line, new, steps, depth, dirty)
        finally:
            kernel_policy.count_python_solves(count)

    def handover_after(self, whole: bool, deadline: float | None) -> int:
        """After how many line solves an untraced propagation (of every line when
        ``whole``; ``deadline`` the user's) goes on in the compiled kernel (-1: never;
        only :class:`Board` has one)."""
        return -1

    def run_kernel(self, todo: deque, deadline: float | None) -> bool:
        """Go on with the queued lines in the compiled kernel; False when there is none."""
        return False


class Board(LineBoard):
    """Known black and white cells of every line, kept in step for rows and columns."""

    __slots__ = ("black", "white", "unknown")

    def __init__(self, puzzle: Puzzle, cache: dict | None = None):
        self.init_lines(puzzle, cache)
        self.black = [0] * (self.h + self.w)
        self.white = [0] * (self.h + self.w)
        self.unknown = self.h * self.w

    def copy(self) -> Board:
        """A board with the same knowledge, sharing the static parts and the line cache."""
        other = Board.__new__(Board)
        self.share_lines(other)
        other.black = self.black[:]
        other.white = self.white[:]
        other.unknown = self.unknown
        return other

    @property
    def solved(self) -> bool:
        """True when every cell is known."""
        return self.unknown == 0

    # -- setting cells ----------------------------------------------------------
    def set_bits(self, line: int, black: int, white: int, dirty=None) -> None:
        """Mark new black/white bits of one line and the crossing lines; queue the crossings."""
        if black & self.white[line] or white & self.black[line]:
            raise Contradiction(line)
        self.black[line] |= black
        self.white[line] |= white
        h = self.h
        base = h if line < h else 0
        pos = line if line < h else line - h
        bit = 1 << pos
        for masks, new in ((self.black, black), (self.white, white)):
            while new:
                low = new & -new
                other = base + low.bit_length() - 1
                masks[other] |= bit
                if dirty is not None:
                    dirty(other)
                new ^= low
        self.unknown -= (black | white).bit_count()

    def set_cell(self, r: int, c: int, black: bool) -> None:
        """Set one cell (through its row); raises Contradiction when it is already the other."""
        bit = 1 << c
        if (self.black[r] | self.white[r]) & bit:
            if bool(self.black[r] & bit) != black:
                raise Contradiction(r)
            return
        self.set_bits(r, bit if black else 0, 0 if black else bit)

    def cell_state(self, r: int, c: int) -> int:
        """BLACK, WHITE or BLANK (0) for one cell."""
        bit = 1 << c
        return BLACK if self.black[r] & bit else WHITE if self.white[r] & bit else BLANK

    def line_states(self, line: int, conc: bool = True) -> tuple[int, ...]:
        """The states of a line's cells, in order."""
        black, white, extra = self.black[line], self.white[line], (CONC if conc else 0)
        return tuple(
            (BLACK | extra) if black >> i & 1 else (WHITE | extra) if white >> i & 1 else BLANK
            for i in range(self.length[line])
        )

    def grid(self, conc: bool = True) -> np.ndarray:
        """The board as a uint8 state grid (confirmed states by default)."""
        return self.later_grid(conc).make()

    def later_grid(self, conc: bool = True) -> Deferred:
        """:meth:`grid`, made when first read (no numpy until then)."""
        states = (BLACK_CONC, WHITE_CONC) if conc else (BLACK, WHITE)
        return state_grid(self.black[: self.h], self.white[: self.h], self.w, states)

    def solution(self) -> np.ndarray:
        """The boolean picture of a solved board."""
        return self.row_bits(self.black[: self.h])

    def later(self) -> tuple[Deferred, Deferred]:
        """The state grid and the solution of a solved board, made when first read."""
        return self.later_grid(), picture(self.black[: self.h], self.w)

    # -- line logic -------------------------------------------------------------
    def changes(self, line: int) -> tuple[int, int] | None:
        """New (black, white) bits the complete line solver proves, None when there are none.

        Raises Contradiction when no placement fits.
        """
        black, white = self.black[line], self.white[line]
        key = (self.shape[line], black, white)
        hit = self.cache.get(key, False)
        if hit is False:
            sol = line_news(self.clues[line], self.length[line], black, white)
            if sol is None:
                hit = ()
            else:
                new_black, new_white = sol[0] & ~black, sol[1] & ~white
                hit = (new_black, new_white) if new_black or new_white else None
            if len(self.cache) > 400_000:
                self.cache.clear()
            self.cache[key] = hit
        if hit == ():
            raise Contradiction(line)
        return hit

    def handover_after(self, whole: bool, deadline: float | None) -> int:
        """See :meth:`LineBoard.handover_after` (the policy is :mod:`.kernel_policy`)."""
        return kernel_policy.handover_after(whole, timed=deadline is not None)

    def run_kernel(self, todo: deque, deadline: float | None) -> bool:
        """Solve the queued lines in the compiled kernel, as :meth:`propagate` would
        (False, nothing done, when the kernel cannot be loaded).

        The same queue order, so the same cells and the same line in a Contradiction; the
        known cells go over as a state grid and come back as the lines' bit masks.
        """
        import numpy as np

        kernel = kernel_policy.kernel()
        if kernel is None:
            return False
        h, w = self.h, self.w
        grid = states_array(self.black[:h], self.white[:h], w, (1, 2))
        clues, first = self.kernel_clues()
        lines = h + w
        queue = np.zeros(lines, dtype=np.int32)
        queued = np.zeros(lines, dtype=np.uint8)
        size = len(todo)
        queue[:size] = list(todo)
        queued[queue[:size]] = 1
        head = 0
        try:
            while True:
                status, line, head, size, _ = kernel.propagate(
                    grid, clues, first, queue, queued, head, size, kernel_policy.KERNEL_CHUNK
                )
                if status == kernel.CONTRADICTION:
                    raise Contradiction(int(line))
                if status == kernel.DONE:
                    return True
                stop_if_past(deadline)
        finally:
            self.take_grid(grid)

    def kernel_clues(self) -> tuple[np.ndarray, np.ndarray]:
        """Every line's clues in one int32 array and where each line's start (h+w+1)."""
        import numpy as np

        got = self.cache.get("kernel clues")
        if got is None:
            flat = [c for clues in self.clues for c in clues]
            first = [0]
            for clues in self.clues:
                first.append(first[-1] + len(clues))
            got = (np.array(flat, dtype=np.int32), np.array(first, dtype=np.int32))
            self.cache["kernel clues"] = got
        return got

    def take_grid(self, grid: np.ndarray) -> None:
        """Set the lines' bit masks from a state grid (0 open, 1 black, 2 white)."""
        black, white = grid == 1, grid == 2
        self.black = row_masks(black) + row_masks(black.T)
        self.white = row_masks(white) + row_masks(white.T)
        self.unknown = self.h * self.w - int(black.sum()) - int(white.sum())

    def solve_one(self, line: int) -> tuple[int, int]:
        """New (black, white) bits the complete line solver proves; Contradiction if none fit."""
        new = self.changes(line)
        return (0, 0) if new is None else new

    def apply(self, line: int, new, steps: list[Step] | None, depth: int, dirty) -> None:
        """Set the new bits (tracing the step first, from the line as it was)."""
        new_black, new_white = new
        if steps is not None:
            steps.append(self.line_step(line, new_black, new_white, depth))
        self.set_bits(line, new_black, new_white, dirty)

    def line_step(self, line: int, new_black: int, new_white: int, depth: int) -> Step:
        """A trace step for the cells one line solve set."""
        cells = []
        for i in range(self.length[line]):
            if (new_black | new_white) >> i & 1:
                r, c = self.cell(line, i)
                cells.append((r, c, BLACK_CONC if new_black >> i & 1 else WHITE_CONC))
        return self.trace_step(line, cells, depth)


def row_masks(cells: np.ndarray) -> list[int]:
    """Each row of a boolean array as a bit mask (bit i is column i)."""
    import numpy as np

    packed = np.packbits(cells, axis=1, bitorder="little")
    return [int.from_bytes(row.tobytes(), "little") for row in packed]

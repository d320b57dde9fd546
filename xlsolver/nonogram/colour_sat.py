"""The SAT back end for colour puzzles: the order-ladder encoding of :mod:`.sat`, per colour.

Every open cell has one variable per colour still possible in it (the background
included) and exactly one of them is true. Every clue of an unfinished line gets an
order ladder over the starts line logic still allows (``u[j,p]`` = clue j starts at or
before p). Clauses say: ladders are monotone, forbidden starts are skipped, clue j+1
starts after clue j ends (and one cell later when both have the same colour), a cell
a block covers has the block's colour, and a cell after the last block that started
and ended before it is background. Cells already known are constants.

MiniSat (python-sat) decides it, as for black and white; the user's time limit
interrupts it. Uniqueness costs one more call with the first solution blocked.
"""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from .board import stop_if_past
from .colour_board import ColourBoard
from .colour_line import solve_colour_line
from .sat import SOLVER, limited_solve, new_solver


class ColourEncoding:
    """The CNF of one colour board: cell-colour variables, then ladder variables."""

    def __init__(
        self, board: ColourBoard, deadline: float | None = None, lines: list[int] | None = None
    ):
        """Encode every cell and every open line (or only ``lines``: a test sees one line)."""
        self.board = board
        self.h, self.w, self.colours = board.h, board.w, board.inks + 1
        self.clauses: list[list[int]] = []
        self.nvars = self.h * self.w * self.colours + 1
        self.true = self.nvars
        self.clauses.append([self.true])
        self.open = np.zeros((self.h, self.w), dtype=bool)
        for r in range(self.h):
            for c in range(self.w):
                self._encode_cell(r, c)
        for line in range(self.h + self.w) if lines is None else lines:
            stop_if_past(deadline)
            if lines is not None or board.open_mask(line):
                self._encode_line(line)

    def var(self, r: int, c: int, colour: int) -> int:
        """The variable "cell (r, c) has colour ``colour``"."""
        return (r * self.w + c) * self.colours + colour + 1

    def _encode_cell(self, r: int, c: int) -> None:
        """Exactly one of the cell's possible colours; the impossible ones are false."""
        state = self.board.cell_state(r, c)
        possible = [self.var(r, c, x) for x in range(self.colours) if state >> x & 1]
        add = self.clauses.append
        for x in range(self.colours):
            if not state >> x & 1:
                add([-self.var(r, c, x)])
        if not possible:
            add([])
            return
        add(possible)
        self.open[r, c] = len(possible) > 1
        for i, a in enumerate(possible):
            for b in possible[i + 1 :]:
                add([-a, -b])

    def _literal(self, line: int, i: int, colour: int) -> int:
        """Cell i of a line has the colour: a constant when the board knows it."""
        masks = self.board.can[line]
        if not masks[colour] >> i & 1:
            return -self.true
        if not any(m >> i & 1 for x, m in enumerate(masks) if x != colour):
            return self.true
        r, c = self.board.cell(line, i)
        return self.var(r, c, colour)

    def _encode_line(self, line: int) -> None:
        """The line as one order ladder per clue over the starts line logic allows."""
        board = self.board
        clues, n = board.clues[line], board.length[line]
        sol = solve_colour_line(clues, n, board.can[line])
        if sol is None:
            self.clauses.append([])
            return
        add = self.clauses.append
        if not clues:
            for i in range(n):
                add([self._literal(line, i, 0)])
            return
        true = self.true
        ladders = []  # per clue: u[p] = "starts at or before p", p = 0..n
        for starts in sol.starts:
            lo, hi = (starts & -starts).bit_length() - 1, starts.bit_length() - 1
            base = self.nvars + 1
            self.nvars += hi - lo
            ladders.append([-true] * lo + list(range(base, base + hi - lo)) + [true] * (n + 1 - hi))
        k = len(clues)
        for j, (length, ink) in enumerate(clues):
            u, starts = ladders[j], sol.starts[j]
            for p in range(n):
                add([-u[p], u[p + 1]])
                if p and not starts >> p & 1:
                    add([-u[p], u[p - 1]])
            if j + 1 < k:
                gap = 1 if clues[j + 1][1] == ink else 0
                nxt = ladders[j + 1]
                for p in range(n + 1):
                    q = p - length - gap
                    add([-nxt[p], u[q] if q >= 0 else -true])
            for i in range(n):  # a covered cell has the clue's colour
                add([-u[i], u[i - length] if i >= length else -true, self._literal(line, i, ink)])
            for i in range(n):  # after clue j ended and before clue j+1 starts: background
                add(
                    [
                        -u[i],
                        ladders[j + 1][i] if j + 1 < k else -true,
                        -u[i - length] if i >= length else true,
                        self._literal(line, i, 0),
                    ]
                )
        for i in range(n):  # before the first clue: background
            add([ladders[0][i], self._literal(line, i, 0)])

    def decode(self, model: list[int]) -> np.ndarray:
        """The colour numbers of a model."""
        size = self.h * self.w * self.colours
        vals = (np.array(model[:size]) > 0).reshape(self.h, self.w, self.colours)
        return vals.argmax(axis=2).astype(np.int8)

    def block(self, solution: np.ndarray, cells: np.ndarray | None = None) -> list[int]:
        """A clause that some open cell (of ``cells``, default all) differs from the solution."""
        mask = self.open if cells is None else self.open & cells
        return [-self.var(int(r), int(c), int(solution[r, c])) for r, c in np.argwhere(mask)]


def _drop_constants(clauses: list[list[int]], true: int) -> list[list[int]]:
    """Clauses without satisfied ones and without false literals (``true`` is fixed true)."""
    out = []
    for clause in clauses:
        if true in clause and len(clause) > 1:
            continue
        out.append([lit for lit in clause if lit != -true] if -true in clause else clause)
    return out


class ColourSatSearch:
    """An incremental SAT search over one colour encoding, stopped by the time limit."""

    def __init__(
        self, board: ColourBoard, deadline: float | None = None, solver: str | None = None
    ):
        self.enc = ColourEncoding(board, deadline)
        clauses = _drop_constants(self.enc.clauses, self.enc.true)
        self.unsat = any(not clause for clause in clauses)
        self.solver = new_solver(solver or SOLVER, [c for c in clauses if c])

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def _solve(self, assumptions: list[int], seconds: float | None) -> bool | None:
        """True/False, or None when the time ran out."""
        if self.unsat:
            return False
        return limited_solve(self.solver, assumptions, seconds)

    def solutions(self, limit: int, seconds_left) -> Iterator[np.ndarray | None]:
        """Yield up to ``limit`` distinct solutions; yield None when the time runs out."""
        for _ in range(limit):
            res = self._solve([], seconds_left())
            if res is None:
                yield None
                return
            if not res:
                return
            sol = self.enc.decode(self.solver.get_model())
            yield sol
            block = self.enc.block(sol)
            if not block:  # nothing was open: the only solution
                self.unsat = True
                continue
            self.solver.add_clause(block)
            self.solver.set_phases([-lit for lit in block])

    def backbone(self, solutions: list[np.ndarray], seconds_left) -> np.ndarray | None:
        """Cells equal in every solution (a mask), given some found already; None on timeout."""
        first = solutions[0]
        same = np.ones(first.shape, dtype=bool)
        for other in solutions[1:]:
            same &= first == other
        while (same & self.enc.open).any():
            self.enc.nvars += 1
            sel = self.enc.nvars
            self.solver.add_clause([-sel, *self.enc.block(first, same)])
            res = self._solve([sel], seconds_left())
            if res is None:
                return None
            self.solver.add_clause([-sel])
            if not res:
                break
            same &= first == self.enc.decode(self.solver.get_model())
        return same

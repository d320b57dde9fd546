"""The fast search back end: a compact CNF encoding handed to CaDiCaL (python-sat).

Only what line logic left open is encoded. Every cell is a variable; every clue of
a line that is not finished gets an *order ladder* over the starts that line logic
still allows (``u[j,p]`` = clue j starts at or before p), so a clue has exactly one
start by construction. Clauses say: ladders are monotone, forbidden starts are
skipped, clue j+1 starts after clue j and its gap, a covered cell is black, and a
black cell is covered by some clue. Cells already proved are unit facts.

Uniqueness costs one more call with the first solution blocked; the cells common to
all solutions (the backbone) are found by asking for a solution that differs on a
still-common cell until none exists.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator

import numpy as np

from .board import Board
from .line import solve_line

SOLVER = "cadical195"  # the fastest here; python-sat cannot interrupt it
TIMED_SOLVER = "glucose42"  # interruptible: used when a time limit is set


class Encoding:
    """The CNF of one board: cell variables first (row-major), then ladder variables."""

    def __init__(self, board: Board):
        self.board = board
        self.h, self.w = board.h, board.w
        self.nvars = self.h * self.w
        self.clauses: list[list[int]] = []
        self.unsat = False
        for r in range(self.h):
            b, wm = board.black[r], board.white[r]
            base = r * self.w + 1
            for c in range(self.w):
                if b >> c & 1:
                    self.clauses.append([base + c])
                elif wm >> c & 1:
                    self.clauses.append([-(base + c)])
        for line in range(self.h + self.w):
            if (board.black[line] | board.white[line]) != (1 << board.length[line]) - 1:
                self._encode_line(line)

    def cell_var(self, r: int, c: int) -> int:
        """The variable of cell (r, c)."""
        return r * self.w + c + 1

    def _new_var(self) -> int:
        self.nvars += 1
        return self.nvars

    def _add(self, lits: list) -> None:
        """Add a clause of literals and constants (True drops it, False is dropped)."""
        out = []
        for x in lits:
            if x is True:
                return
            if x is not False:
                out.append(x)
        if not out:
            self.unsat = True
        self.clauses.append(out)

    def _encode_line(self, line: int) -> None:
        board = self.board
        clues, n = board.clues[line], board.length[line]
        sol = solve_line(clues, n, board.black[line], board.white[line])
        if sol is None:
            self.unsat = True
            self.clauses.append([])
            return
        if line < self.h:
            cells = [self.cell_var(line, i) for i in range(n)]
        else:
            cells = [self.cell_var(i, line - self.h) for i in range(n)]
        known_b, known_w = board.black[line], board.white[line]

        def x(i: int):
            if known_b >> i & 1:
                return True
            if known_w >> i & 1:
                return False
            return cells[i]

        ladders = []
        for starts in sol.starts:
            lo = (starts & -starts).bit_length() - 1
            hi = starts.bit_length() - 1
            var = {p: self._new_var() for p in range(lo, hi)}
            ladders.append((lo, hi, var))

        def u(j: int, p: int):
            lo, hi, var = ladders[j]
            if p < lo:
                return False
            if p >= hi:
                return True
            return var[p]

        def neg(lit):
            return (not lit) if isinstance(lit, bool) else -lit

        cover_of: dict[int, list[int]] = {}
        for j, (c, starts) in enumerate(zip(clues, sol.starts, strict=True)):
            lo, hi, _ = ladders[j]
            for p in range(lo, hi - 1):
                self._add([neg(u(j, p)), u(j, p + 1)])
            for p in range(lo + 1, hi + 1):
                if not starts >> p & 1:
                    self._add([neg(u(j, p)), u(j, p - 1)])
            if j + 1 < len(clues):
                lo2, hi2, _ = ladders[j + 1]
                for p in range(lo2, hi2 + 1):
                    self._add([neg(u(j + 1, p)), u(j, p - c - 1)])
            for i in range(lo, hi + c):
                xi = x(i)
                self._add([neg(u(j, i)), u(j, i - c), xi])
                if xi is True or xi is False:
                    continue
                z = self._new_var()
                self._add([-z, u(j, i)])
                self._add([-z, neg(u(j, i - c))])
                cover_of.setdefault(i, []).append(z)
        for i in range(n):
            xi = x(i)
            if xi is True or xi is False:
                continue
            self._add([-xi, *cover_of.get(i, [])])

    def decode(self, model: list[int]) -> np.ndarray:
        """The boolean picture of a model."""
        vals = np.array(model[: self.h * self.w]) > 0
        return vals.reshape(self.h, self.w)

    def block(self, solution: np.ndarray, cells: np.ndarray | None = None) -> list[int]:
        """A clause that some cell (of ``cells``, default all) differs from the solution."""
        flat = solution.reshape(-1)
        idx = np.arange(flat.size) if cells is None else np.flatnonzero(cells.reshape(-1))
        return [int(-(i + 1)) if flat[i] else int(i + 1) for i in idx]


class SatSearch:
    """An incremental SAT search over one encoding, stoppable from another thread."""

    def __init__(self, board: Board, timed: bool = False, solver: str | None = None):
        from pysat.solvers import Solver

        self.enc = Encoding(board)
        name = solver or (TIMED_SOLVER if timed else SOLVER)
        self.solver = Solver(name=name, bootstrap_with=self.enc.clauses)
        self.stopped = False

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def _solve(self, assumptions: list[int], seconds: float | None) -> bool | None:
        """True/False, or None when the time ran out."""
        if self.enc.unsat:
            return False
        if seconds is None:
            return self.solver.solve(assumptions=assumptions)
        if seconds <= 0:
            return None
        timer = threading.Timer(seconds, self.solver.interrupt)
        timer.start()
        try:
            res = self.solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
        finally:
            timer.cancel()
        self.solver.clear_interrupt()
        return res

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
            self.solver.add_clause(self.enc.block(sol))

    def backbone(self, solutions: list[np.ndarray], seconds_left) -> np.ndarray | None:
        """Cells equal in every solution (a mask), given some found already; None on timeout."""
        first = solutions[0]
        same = np.ones_like(first)
        for other in solutions[1:]:
            same &= first == other
        while same.any():
            sel = self._new_selector()
            self.solver.add_clause([-sel, *self.enc.block(first, same)])
            res = self._solve([sel], seconds_left())
            if res is None:
                return None
            if not res:
                self.solver.add_clause([-sel])
                break
            sol = self.enc.decode(self.solver.get_model())
            same &= first == sol
            self.solver.add_clause([-sel])
        return same

    def _new_selector(self) -> int:
        self.enc.nvars += 1
        return self.enc.nvars

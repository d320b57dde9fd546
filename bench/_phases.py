"""Where a solve's time goes: ``bench_solve.py --phases`` times the analyzer's stages.

The stages are timed by wrapping the functions that do them (line logic, building the
CNF, handing it to the solver, each solver call, child solvers), for this bench run only.
Per run of a puzzle the first solver call is told apart from the later ones (for most
puzzles: the first solution, then the second or the proof that there is none); "rest" is
the run's own seconds less the stages (making the board, results, symmetry checks).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import wraps

STAGES = (
    ("line logic", "Board.propagate, probing's too"),
    ("CNF", "sat.Encoding"),
    ("hand-over", "clauses into the solver"),
    ("first solver call", "of each run"),
    ("later solver calls", "next solutions, backbone"),
    ("child solvers", "Kissat, CaDiCaL in a child"),
    ("rest", "the run's seconds less the above"),
)


class PhaseClock:
    """Seconds per stage and per run of a puzzle, from wrapped analyzer functions."""

    def __init__(self) -> None:
        self.runs: list[dict[str, float]] = []
        self._now: dict[str, float] = {}
        self._calls = 0

    def install(self) -> None:
        """Wrap the analyzer's stage functions (for the rest of this process). None of
        them calls another, so each second is counted once."""
        from xlsolver.nonogram import board, sat

        board.Board.propagate = self._timed(board.Board.propagate, "line logic")
        sat.Encoding.__init__ = self._timed(sat.Encoding.__init__, "CNF")
        sat.add_clauses = self._timed(sat.add_clauses, "hand-over")
        sat.limited_solve = self._timed(sat.limited_solve, None)
        sat.solve_in_child = self._timed(sat.solve_in_child, "child solvers")

    def _timed(self, func: Callable, stage: str | None) -> Callable:
        @wraps(func)
        def timed(*args, **kwargs):
            name = stage
            if name is None:
                name = "later solver calls" if self._calls else "first solver call"
                self._calls += 1
            start = time.perf_counter()
            try:
                return func(*args, **kwargs)
            finally:
                self._now[name] = self._now.get(name, 0.0) + time.perf_counter() - start

        return timed

    def start_run(self) -> None:
        """A run of a puzzle begins."""
        self._now, self._calls = {}, 0

    def end_run(self, seconds: float) -> None:
        """The run ended after ``seconds`` (the result's own)."""
        self._now["rest"] = max(0.0, seconds - sum(self._now.values()))
        self.runs.append(self._now)

    def table(self) -> str:
        """Totals, medians per run and shares of the stages."""
        whole = sum(sum(run.values()) for run in self.runs) or 1.0
        lines = [
            f"phases over {len(self.runs)} runs",
            f"{'stage':20} {'total s':>9} {'median ms':>10} {'share':>7}  what",
        ]
        for stage, what in STAGES:
            values = [run.get(stage, 0.0) for run in self.runs] or [0.0]
            total = sum(values)
            lines.append(
                f"{stage:20} {total:9.2f} {statistics.median(values) * 1000:10.2f} "
                f"{100 * total / whole:6.1f} %  {what}"
            )
        return "\n".join(lines)

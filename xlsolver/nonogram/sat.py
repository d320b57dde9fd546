"""The fast search back end: a compact CNF encoding handed to a CDCL solver (python-sat).

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

import os
import threading
import time
from collections.abc import Callable, Iterator

import numpy as np

from ..exits import EXIT_INTERRUPTED
from ..processes import interruptible
from .board import Board, Contradiction, Timeout, stop_if_past
from .line import solve_line
from .symmetry import (
    map_pairs,
    mirrored,
    representatives,
    substituted,
    symmetric_pairs,
    symmetry_maps,
)

__all__ = ["Encoding", "SatSearch", "limited_solve", "symmetric_pairs"]

# MiniSat 2.2 (python-sat). The whole pipeline on all of TAAI 2011 (uniqueness, one
# process) took 80.2 s with it against 95.1 s with Glucose 3, TCGA 2016 86.7 s against
# 108.7 s, the same verdicts; webpbn, Knotty and Faase alike. (Glucose 3 had been kept
# for winning on TAAI puzzles 401-500, 10.2 s against 11.2: the whole sets decide it.)
# It can be interrupted and takes conflict budgets, as the pipeline needs.
SOLVER = "minisat22"
# Work budgets in solver conflicts (never seconds, so every machine takes the same path):
SYMMETRY_QUICK_CONFLICTS = 1_000  # a symmetric solution is looked for first, this long (0: not)
SYMMETRY_CONFLICTS = 50_000  # then with shared variables (a fresh solver), this long
PARTIAL_CONFLICTS = 20_000  # then another, keeping one symmetry: each map per round, this long
PARTIAL_ROUNDS = 6  # rounds of those (the solver keeps what it learned in earlier turns)
# The solver alone this long before probing and Kissat take over. All of TAAI 2011 with
# two workers (Glucose 3): 62-65 s with 20,000 or 8,000, 71-74 s with 3,000 (more puzzles
# pay for probing and a child process).
ESCALATE_CONFLICTS = 20_000
# Small boards get more: there a conflict is cheap and Kissat's start (a child, probing,
# CaDiCaL for the next solution) is not. TAAI 2011 in one process (Glucose 3): 113.2 s
# cpu with 20,000, 101.2 s with 35,000, 99.0 s with 50,000, 96.7 s with 100,000; TCGA
# 2016 142.3 s and 115.5 s. Faase (7,600 cells) would pay 8.5 s more for 100,000.
# The cells common to all solutions of a puzzle with several (what a painted copy shows)
# are proved within this many conflicts in all; Knotty's proof was not done after 605,000
# (57 s), so the copy shows what logic proved there and says so.
BACKBONE_CONFLICTS = 100_000
SMALL_BOARD_CELLS = 1_000  # a tournament's 25×25 has 625
SMALL_BOARD_FACTOR = 5
CHILD_PROCESSES = True  # the spreadsheet macros turn this off: never fork a spreadsheet program


class Encoding:
    """The CNF of one board: cell variables first (row-major), then ladder variables."""

    def __init__(self, board: Board, deadline: float | None = None):
        self.board = board
        self.h, self.w = board.h, board.w
        self.nvars = self.h * self.w
        self.clauses: list[list[int]] = []
        self.unsat = False
        self.nvars += 1
        self.true = self.nvars  # a variable fixed true: constants become literals
        self.clauses.append([self.true])
        for r in range(self.h):
            b, wm = board.black[r], board.white[r]
            base = r * self.w + 1
            for c in range(self.w):
                if b >> c & 1:
                    self.clauses.append([base + c])
                elif wm >> c & 1:
                    self.clauses.append([-(base + c)])
        for line in range(self.h + self.w):
            stop_if_past(deadline)
            if (board.black[line] | board.white[line]) != (1 << board.length[line]) - 1:
                self._encode_line(line)

    def cell_var(self, r: int, c: int) -> int:
        """The variable of cell (r, c)."""
        return r * self.w + c + 1

    def _encode_line(self, line: int) -> None:
        """The line as one order ladder per clue over the starts line logic allows."""
        board = self.board
        clues, n = board.clues[line], board.length[line]
        known_b, known_w = board.black[line], board.white[line]
        sol = solve_line(clues, n, known_b, known_w)
        if sol is None:
            self.unsat = True
            self.clauses.append([])
            return
        true = self.true
        first, stride = (line * self.w + 1, 1) if line < self.h else (line - self.h + 1, self.w)
        cell = [
            true if known_b >> i & 1 else -true if known_w >> i & 1 else first + i * stride
            for i in range(n)
        ]
        ladders = []  # per clue: u[p] = "starts at or before p", p = 0..n
        bounds = []
        for starts in sol.starts:
            lo = (starts & -starts).bit_length() - 1
            hi = starts.bit_length() - 1
            base = self.nvars + 1
            self.nvars += hi - lo
            ladders.append([-true] * lo + list(range(base, base + hi - lo)) + [true] * (n + 1 - hi))
            bounds.append((lo, hi))
        add = self.clauses.append
        k = len(clues)
        for j, c in enumerate(clues):
            u = ladders[j]
            lo, hi = bounds[j]
            starts = sol.starts[j]
            for p in range(lo, hi - 1):
                add([-u[p], u[p + 1]])
            for p in range(lo + 1, hi + 1):
                if not starts >> p & 1:
                    add([-u[p], u[p - 1]])
            nxt = ladders[j + 1] if j + 1 < k else None
            if nxt is not None:
                lo2, hi2 = bounds[j + 1]
                for p in range(lo2, hi2 + 1):
                    add([-nxt[p], u[p - c - 1] if p > c else -true])
            for i in range(lo, hi + c):  # a covered cell is black
                add([-u[i], u[i - c] if i >= c else -true, cell[i]])
            last = bounds[j + 1][1] if nxt is not None else n
            for i in range(lo, last):  # a black cell after clue j's start, before the next: covered
                if cell[i] == -true:
                    continue
                add(
                    [
                        -cell[i],
                        -u[i],
                        nxt[i] if nxt is not None else -true,
                        -u[i - c] if i >= c else true,
                    ]
                )
        lo0, hi0 = bounds[0]
        u0 = ladders[0]
        for i in range(lo0, hi0):  # a black cell before the first start cannot be
            if cell[i] != -true:
                add([-cell[i], u0[i]])

    def decode(self, model: list[int]) -> np.ndarray:
        """The boolean picture of a model."""
        vals = np.array(model[: self.h * self.w]) > 0
        return vals.reshape(self.h, self.w)

    def block(self, solution: np.ndarray, cells: np.ndarray | None = None) -> list[int]:
        """A clause that some cell (of ``cells``, default all) differs from the solution."""
        flat = solution.reshape(-1)
        idx = np.arange(flat.size) if cells is None else np.flatnonzero(cells.reshape(-1))
        return [int(-(i + 1)) if flat[i] else int(i + 1) for i in idx]


def new_solver(name: str, clauses: list[list[int]]):
    """A python-sat solver holding ``clauses``."""
    from pysat.solvers import Solver

    solver = Solver(name=name)
    add_clauses(solver, clauses)
    return solver


# python-sat's C call adding one clause, and the attribute holding the solver's handle.
_DIRECT_ADD = {
    "Minisat22": ("minisat", "minisat22_add_cl"),
    "Glucose3": ("glucose", "glucose3_add_cl"),
    "Glucose42": ("glucose", "glucose421_add_cl"),
}


def add_clauses(solver, clauses: list[list[int]]) -> None:
    """Add clauses to a python-sat solver.

    For MiniSat and Glucose each clause goes straight to python-sat's C call: its two
    Python wrapper calls per clause cost as much as the call itself, and a 25×25 puzzle
    has some 8,000 clauses. Other solvers (or a python-sat without that call) take the
    wrappers' road.
    """
    inner = getattr(solver, "solver", None)
    attr, name = _DIRECT_ADD.get(type(inner).__name__, (None, None))
    handle = getattr(inner, attr, None) if attr else None
    add = None
    if handle is not None:
        import pysolvers

        add = getattr(pysolvers, name, None)
    if add is None:
        solver.append_formula(clauses)
        return
    for clause in clauses:
        if not add(handle, clause):
            inner.status = False  # what python-sat records: the clauses cannot all hold


def child_processes_allowed() -> bool:
    """True where a solver may run in a child process: everywhere but inside a
    spreadsheet program (the Calc macros), which must never be forked or started again."""
    return CHILD_PROCESSES


def child_start_method() -> str:
    """How a solver child starts: forked where the system can (Linux, macOS), else
    spawned, a fresh interpreter that imports xlsolver (Windows: a second or so more)."""
    import multiprocessing as mp

    return "fork" if "fork" in mp.get_all_start_methods() else "spawn"


def _child_solve(conn, clauses: list[list[int]], name: str, phases: list[int]) -> None:
    """In a child process: solve and send back the model ([] when unsatisfiable).

    The child ignores Ctrl-C, but python-sat puts its own SIGINT handler in place while a
    solver runs in a main thread, so a Ctrl-C to the process group interrupts Kissat
    here ("Caught keyboard interrupt"). That is the parent's to handle (it stops and
    kills this child): the child ends without a word instead of printing a traceback.
    """
    from pysat.solvers import Solver

    with Solver(name=name, bootstrap_with=clauses) as solver:
        if phases:
            solver.set_phases(phases)
        try:
            found = solver.solve()
        except Exception as exc:
            if "keyboard interrupt" not in str(exc):
                raise
            os._exit(EXIT_INTERRUPTED)
        conn.send(solver.get_model() if found else [])
    conn.close()


TICK_SECONDS = 0.5  # how often a wait for a child tells the progress display it is alive
SOLVER_NAMES = {"kissat404": "Kissat", "cadical195": "CaDiCaL"}


class SolverDied(Exception):
    """A solver's child process ended without an answer, neither stopped by the time
    limit nor by Ctrl-C: killed from outside (the system short of memory, ``kill -9``)."""

    def __init__(self, name: str, exitcode: int | None):
        import signal

        self.exitcode = exitcode
        how = f"exit status {exitcode}"
        if exitcode is not None and exitcode < 0:
            try:
                how = f"killed by {signal.Signals(-exitcode).name}"
            except ValueError:
                how = f"killed by signal {-exitcode}"
        super().__init__(
            f"{SOLVER_NAMES.get(name, name)}'s process ended without an answer ({how}; "
            "was the system short of memory?)"
        )


def _stopped_on_purpose(exitcode: int | None) -> bool:
    """True for a child ended as this run is being stopped: a stop signal this process
    received, or Ctrl-C, which a terminal sends to the whole group (a worker, which
    leaves Ctrl-C to the main process, sees only its child end). A SIGTERM or SIGKILL
    sent to the child alone is no stop of the run."""
    import signal

    from ..processes import stop_received

    return stop_received() is not None or exitcode in (EXIT_INTERRUPTED, -signal.SIGINT)


def solve_in_child(
    clauses: list[list[int]],
    name: str,
    seconds: float | None,
    phases: list[int] | None = None,
    tick: Callable[[], None] | None = None,
):
    """A model, [] when unsatisfiable, or None when the time ran out (the child is killed)
    or a stop signal ended it. Raises :class:`SolverDied` when something else killed it.

    For solvers python-sat cannot interrupt (Kissat): a process can always be stopped.
    ``tick`` is called while waiting (a progress display's heartbeat; it decides nothing).
    """
    import multiprocessing as mp

    ctx = mp.get_context(child_start_method())
    here, there = ctx.Pipe(duplex=False)
    from ..processes import child_main, children_allowed, stop_signals_held

    work = (_child_solve, there, clauses, name, phases or [])
    child = ctx.Process(target=child_main, args=work, daemon=True)  # dies with this process
    with stop_signals_held(), children_allowed():
        child.start()
    there.close()
    end = None if seconds is None else time.perf_counter() + seconds
    try:
        while True:
            left = None if end is None else end - time.perf_counter()
            wait = TICK_SECONDS if left is None else max(0.0, min(TICK_SECONDS, left))
            if here.poll(wait if tick is not None else left):
                return here.recv()
            if left is not None and left <= wait:
                return None
            if tick is not None:
                tick()
    except EOFError:
        child.join()
        if _stopped_on_purpose(child.exitcode):
            return None
        raise SolverDied(name, child.exitcode) from None
    finally:
        if child.is_alive():
            child.kill()
        child.join()


def limited_solve(
    solver, assumptions: list[int], seconds: float | None, conflicts: int | None = None
) -> bool | None:
    """True/False, or None when the conflict budget or the user's time ran out.

    ``seconds`` is the user's time limit (the only clock); ``conflicts`` a work budget.
    """
    if seconds is not None and seconds <= 0:
        return None
    solver.conf_budget(conflicts or -1)
    timer = None if seconds is None else threading.Timer(seconds, solver.interrupt)
    if timer is not None:
        timer.start()
    try:  # the GIL released, so Ctrl-C and SIGTERM break the search (processes.py)
        with interruptible(solver.interrupt):
            res = solver.solve_limited(assumptions=assumptions, expect_interrupt=True)
    finally:
        if timer is not None:
            timer.cancel()
    solver.clear_interrupt()
    solver.conf_budget(-1)
    return res


def _quiet(message: str) -> None:
    """No progress display."""


class SatSearch:
    """An incremental SAT search over one encoding, stoppable from another thread."""

    def __init__(self, board: Board, deadline: float | None = None, solver: str | None = None):
        self.enc = Encoding(board, deadline)
        self.hard: tuple[Encoding, list[list[int]]] | None = None
        name = solver or SOLVER
        self.solver = new_solver(name, self.enc.clauses)
        self.tell: Callable[[str], None] = _quiet  # progress messages (the Run sets it)
        self.phase = ""
        self.notes: list[str] = []  # what a person should know of how the search went

    def close(self) -> None:
        """Free the solver."""
        self.solver.delete()

    def _solve(
        self, assumptions: list[int], seconds: float | None, conflicts: int | None = None
    ) -> bool | None:
        """True/False, or None when the conflict budget or the user's time ran out."""
        if self.enc.unsat:
            return False
        return limited_solve(self.solver, assumptions, seconds, conflicts)

    def solutions(self, limit: int, seconds_left) -> Iterator[np.ndarray | None]:
        """Yield up to ``limit`` distinct solutions; yield None when the time runs out.

        When the clues are symmetric, a symmetric solution is looked for first, and the
        next ones among the images of those found and the solutions that keep one of the
        symmetries (each within a conflict budget); after each solution the search starts
        from it (its phases), so a second solution near the first is found fast.
        """
        first = self._symmetric_first(seconds_left)
        found: list[np.ndarray] = []
        for count in range(limit):
            sol = None
            if count == 0:
                sol = first if first is not None else self._escalate(seconds_left)
            elif first is not None:
                sol = self._symmetric_next(found, seconds_left)
            if sol is None:
                sol = self._next(seconds_left, another=count > 0)
            if sol is None:
                yield None
                return
            if sol is False:
                return
            yield sol
            found.append(sol)
            block = self.enc.block(sol)
            self.solver.add_clause(block)
            self.solver.set_phases([-lit for lit in block])
            if self.hard is not None:
                self.hard[1].append(block)

    def _next(self, seconds_left, another: bool = True) -> np.ndarray | bool | None:
        """The next solution, False when there is none, None when the time ran out.

        A board that needed Kissat goes on in a child (CaDiCaL, from the last solution).
        """
        if self.hard is not None:
            enc, blocks = self.hard
            phases = [-lit for lit in blocks[-1]]
            self._tell("looking for another solution (CaDiCaL)")
            try:
                model = solve_in_child(
                    enc.clauses + blocks, "cadical195", seconds_left(), phases, self._tick
                )
            except SolverDied as exc:  # MiniSat holds the blocked solutions too
                self.notes.append(f"{exc}: MiniSat looked for another solution instead")
                self.hard = None
                return self._next(seconds_left, another)
            return None if model is None else enc.decode(model) if model else False
        self._tell("looking for another solution" if another else "searching")
        res = self._solve([], seconds_left())
        return None if res is None else self.enc.decode(self.solver.get_model()) if res else False

    def _tell(self, message: str) -> None:
        """Show what the search is doing now (and, once a solver's process was killed,
        that it was: the search may then take much longer)."""
        if self.notes:
            message += "; " + self.notes[-1].split(" (", 1)[0]
        self.phase = message
        self.tell(message)

    def _tick(self) -> None:
        """The same message again: the display shows the time going on."""
        self.tell(self.phase)

    def _escalate(self, seconds_left: Callable[[], float | None]) -> np.ndarray | bool | None:
        """The first solution of a hard board: MiniSat for a budget, then probing and Kissat.

        Returns a solution, False when there is none, or None to go on as usual (no child
        processes here, or the time limit stopped it). Kissat runs in a child process, so
        the time limit can still stop it; which path is taken depends on work, not time.
        """
        budget = ESCALATE_CONFLICTS
        if self.enc.h * self.enc.w <= SMALL_BOARD_CELLS:
            budget *= SMALL_BOARD_FACTOR
        self._tell("searching")
        res = self._solve([], seconds_left(), budget) if budget else None
        if res is not None:
            return self.enc.decode(self.solver.get_model()) if res else False
        if not child_processes_allowed():
            return None
        left = seconds_left()
        if left is not None and left <= 0:
            return None
        board = self.enc.board.copy()
        self._tell("probing the open cells")
        try:
            from .probe import probe

            probe(board, None, None if left is None else time.perf_counter() + left)
        except Contradiction:
            return False
        except Timeout:
            return None
        enc = Encoding(board)
        self._tell(f"searching with Kissat ({board.unknown} cells open)")
        try:
            model = solve_in_child(enc.clauses, "kissat404", seconds_left(), tick=self._tick)
        except SolverDied as exc:
            self.notes.append(
                f"{exc}: MiniSat searched instead, without a budget, so this run may take "
                "longer and show other solutions than a run where Kissat finishes"
            )
            return None
        if model is None:
            return None
        self.hard = (enc, [])  # cell variables are numbered alike in both encodings
        return enc.decode(model) if model else False

    def _symmetric_first(self, seconds_left: Callable[[], float | None]) -> np.ndarray | None:
        """A solution that keeps every symmetry of the clues, or None (none within the budget).

        Cells a symmetry maps onto each other share one variable, so the search is over a
        fraction of the board; any such solution is a real one. (Shared variables, not
        equality clauses: Knotty's symmetric solution takes 7,581 conflicts so, 51,652
        with the clauses.)
        """
        pairs = symmetric_pairs(self.enc.board)
        if not pairs or self.enc.unsat:
            return None
        if SYMMETRY_QUICK_CONFLICTS:
            sel = self._guarded(pairs)
            try:
                found = limited_solve(self.solver, [sel], seconds_left(), SYMMETRY_QUICK_CONFLICTS)
                if found:
                    return self.enc.decode(self.solver.get_model())
            finally:
                self.solver.add_clause([-sel])
            if found is False:
                return None  # no solution keeps every symmetry
        rep = representatives(pairs)
        with new_solver(SOLVER, substituted(self.enc.clauses, rep)) as solver:
            if not limited_solve(solver, [], seconds_left(), SYMMETRY_CONFLICTS):
                return None
            return self._expand(solver.get_model(), rep)

    def _guarded(self, pairs: list[tuple[int, int]]) -> int:
        """A new selector that, when assumed, makes the cells of every pair equal."""
        sel = self._new_selector()
        add_clauses(self.solver, [c for a, b in pairs for c in ([-sel, -a, b], [-sel, a, -b])])
        return sel

    def _symmetric_next(
        self, found: list[np.ndarray], seconds_left: Callable[[], float | None]
    ) -> np.ndarray | None:
        """Another solution of symmetric clues: an image of one found, or one that keeps a
        single symmetry (the maps take turns, each within a conflict budget); None when
        the budget is spent.

        The one-symmetry searches run in the solver itself, each map's equalities under a
        selector assumed for its turn: no clauses to copy, and what the solver learned
        stays (Knotty's second solution: 27,500 conflicts so, 91,000 in fresh solvers).
        """
        seen = [f.tobytes() for f in found]
        for sol in found:
            for image in mirrored(self.enc.board, sol):
                if image.tobytes() not in seen:
                    return image
        sels = [self._guarded(map_pairs(c, i)) for c, i in symmetry_maps(self.enc.board)]
        live = list(sels)
        try:
            for _ in range(PARTIAL_ROUNDS):
                for sel in list(live):
                    res = limited_solve(self.solver, [sel], seconds_left(), PARTIAL_CONFLICTS)
                    if res:
                        return self.enc.decode(self.solver.get_model())
                    if res is False:
                        live.remove(sel)
                if not live:
                    break
        finally:
            for sel in sels:
                self.solver.add_clause([-sel])
        return None

    def _expand(self, model: list[int], rep: dict[int, int]) -> np.ndarray:
        """The picture of a model over representative variables."""
        value = {abs(lit): lit > 0 for lit in model}
        cells = self.enc.h * self.enc.w
        flat = [value.get(rep.get(v, v), False) for v in range(1, cells + 1)]
        return np.array(flat, dtype=bool).reshape(self.enc.h, self.enc.w)

    def backbone(self, solutions: list[np.ndarray], seconds_left) -> np.ndarray | str:
        """Cells equal in every solution (a mask), given some found already; ``"time"``
        when the user's time limit stopped the proof, ``"work"`` when BACKBONE_CONFLICTS
        did (counted, so every machine stops at the same point)."""
        first = solutions[0]
        same = np.ones_like(first)
        for other in solutions[1:]:
            same &= first == other
        start = self._conflicts()
        while same.any():
            sel = self._new_selector()
            self.solver.add_clause([-sel, *self.enc.block(first, same)])
            left = BACKBONE_CONFLICTS - (self._conflicts() - start)
            res = self._solve([sel], seconds_left(), left) if left > 0 else None
            if res is None:
                seconds = seconds_left()
                return "time" if seconds is not None and seconds <= 0 else "work"
            if not res:
                self.solver.add_clause([-sel])
                break
            sol = self.enc.decode(self.solver.get_model())
            same &= first == sol
            self.solver.add_clause([-sel])
        return same

    def _conflicts(self) -> int:
        """Conflicts the solver has met so far."""
        return int(self.solver.accum_stats().get("conflicts", 0))

    def _new_selector(self) -> int:
        self.enc.nvars += 1
        return self.enc.nvars

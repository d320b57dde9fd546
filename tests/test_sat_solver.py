"""``new_solver``: MiniSat 2.2 and Glucose 3 and 4.2 take the clauses through python-sat's
C call directly.

The direct road and python-sat's own (``bootstrap_with``) must hold the same formula:
the same verdicts and models that satisfy every clause, an unsatisfiable set stays so.
"""

from __future__ import annotations

import random

import pytest
from conftest import DATA
from pysat.solvers import Solver

from xlsolver.formats import read_puzzles
from xlsolver.nonogram.board import Board
from xlsolver.nonogram.sat import SOLVER, Encoding, new_solver


def satisfies(model: list[int], clauses: list[list[int]]) -> bool:
    """True when the model makes every clause true."""
    true = {lit for lit in model}
    return all(any(lit in true for lit in clause) for clause in clauses)


def random_cnf(seed: int, nvars: int = 30, nclauses: int = 120) -> list[list[int]]:
    """A random 3-CNF near the satisfiability threshold (some sat, some unsat)."""
    rng = random.Random(seed)
    return [
        [rng.choice((-1, 1)) * rng.randint(1, nvars) for _ in range(3)] for _ in range(nclauses)
    ]


@pytest.mark.parametrize("name", ["minisat22", "glucose3", "glucose42"])
@pytest.mark.parametrize("seed", range(40))
def test_direct_and_wrapped_roads_agree(seed: int, name: str) -> None:
    clauses = random_cnf(seed)
    with Solver(name=name, bootstrap_with=clauses) as wrapped:
        expected = wrapped.solve()
    with new_solver(name, clauses) as direct:
        assert direct.solve() == expected
        if expected:
            assert satisfies(direct.get_model(), clauses)


def test_a_puzzle_encoding_through_both_roads_and_another_solver() -> None:
    puzzle = read_puzzles(DATA / "taai2011-first3-questions.txt")[0]
    board = Board(puzzle)
    board.propagate()
    enc = Encoding(board)
    for name in (SOLVER, "glucose3", "cadical195"):  # the direct roads, then python-sat's
        with new_solver(name, enc.clauses) as solver:
            assert solver.solve()
            model = solver.get_model()
            assert satisfies(model, enc.clauses)
            assert puzzle.is_solution(enc.decode(model))


@pytest.mark.parametrize("name", ["minisat22", "glucose3", "glucose42"])
def test_an_empty_clause_makes_it_unsatisfiable(name: str) -> None:
    with new_solver(name, [[1, 2], [], [-1]]) as solver:
        assert solver.solve() is False


def test_the_direct_road_is_taken_for_the_solver_in_use(monkeypatch) -> None:
    """The clauses reach the solver the analyzer uses through the C call, not the wrappers."""
    import pysolvers

    from xlsolver.nonogram import sat

    called = []
    with new_solver(SOLVER, []) as solver:
        _, name = sat._DIRECT_ADD[type(solver.solver).__name__]
    real = getattr(pysolvers, name)
    monkeypatch.setattr(pysolvers, name, lambda handle, cl: called.append(cl) or real(handle, cl))
    with new_solver(SOLVER, [[1, 2], [-1]]) as solver:
        assert solver.solve()
    assert called == [[1, 2], [-1]]


@pytest.mark.parametrize("collector_on", [True, False])
def test_the_sat_stage_runs_with_the_cycle_collector_paused(monkeypatch, collector_on) -> None:
    """The clause lists would set off collections that walk the whole process; the
    collector is off while the SAT stage runs and as the caller had it afterwards."""
    import gc

    from xlsolver.nonogram import sat
    from xlsolver.nonogram.analyzer import solve

    seen = []
    real = sat.SatSearch.solutions

    def watched(self, *args):
        seen.append(gc.isenabled())
        yield from real(self, *args)

    monkeypatch.setattr(sat.SatSearch, "solutions", watched)
    puzzle = read_puzzles(DATA / "taai2011-first3-questions.txt")[0]
    was = gc.isenabled()
    try:
        gc.enable() if collector_on else gc.disable()
        result = solve(puzzle)
        assert gc.isenabled() is collector_on
    finally:
        gc.enable() if was else gc.disable()
    assert seen == [False]
    assert result.status == "multiple"
    assert all(puzzle.is_solution(s) for s in result.solutions)

"""The same answer on every machine: internal limits count work, never seconds.

Every run here is done twice, once with the real clock and once with a clock that runs
20× (or a million times) faster than the real one — as if the machine were that much
slower. Statuses, solutions, the painted grid, the path the engine took (symmetric
first, escalation to probing and Kissat), difficulty, suggested givens and hint steps
must not change. Small work budgets make small puzzles take every path (a symmetric solution found
within the budget and not, escalation to probing and Kissat).
"""

from __future__ import annotations

import threading
import time
from pathlib import Path

import numpy as np
import pytest

from xlsolver.formats import read_entries, read_puzzles
from xlsolver.hints import hint_steps
from xlsolver.nonogram import sat
from xlsolver.nonogram.analyzer import solve
from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.teaching.verdict import assess

DATA = Path(__file__).resolve().parent / "data"


def _puzzles() -> dict[str, Puzzle]:
    doms = {p.title: p for p in read_puzzles(DATA / "domino_logic.txt")}
    taai = read_entries(DATA / "taai2011-first3-questions.txt")
    return {
        "3-Dom": doms["3-Dom"],  # symmetric clues, a symmetric solution within the budget
        "6-Dom": doms["6-Dom"],
        "7-Dom": doms["7-Dom"],  # symmetric clues, the budget on shared variables runs out
        "perm5": Puzzle.from_solution(np.eye(5, dtype=bool)),  # symmetric clues, no such answer
        "taai#1": taai[0],  # escalated: probing, then Kissat in a child
        "taai#2": taai[1],
        "edge": read_entries(DATA / "webpbn-00023-edge.non")[0],  # probing decides it
    }


@pytest.fixture(params=["selector", "shared variables"])
def small_budgets(monkeypatch, request):
    """Budgets small enough that the puzzles above take the symmetric and escalated paths.

    The symmetric solution is looked for under a selector in the solver itself, or (that
    quick try turned off) on shared variables in a fresh solver.
    """
    quick = request.param == "selector"
    monkeypatch.setattr(sat, "SYMMETRY_QUICK_CONFLICTS", 5 if quick else 0)
    monkeypatch.setattr(sat, "SYMMETRY_CONFLICTS", 20)
    monkeypatch.setattr(sat, "ESCALATE_CONFLICTS", 0)  # probing and Kissat at once
    paths: list[tuple[str, ...]] = []
    symmetric, escalate = sat.SatSearch._symmetric_first, sat.SatSearch._escalate
    substituted = sat.substituted
    shared: list[bool] = []

    def spy_substituted(clauses, rep):
        shared.append(True)
        return substituted(clauses, rep)

    def spy_symmetric(self, seconds_left):
        shared.clear()
        sol = symmetric(self, seconds_left)
        if sat.symmetric_pairs(self.enc.board):
            stage = "shared variables" if shared else "selector"
            paths.append(("symmetric", stage, "found" if sol is not None else "none"))
        return sol

    def spy_escalate(self, seconds_left):
        sol = escalate(self, seconds_left)
        paths.append(("escalate", "kissat" if self.hard is not None else str(sol is not None)))
        return sol

    monkeypatch.setattr(sat, "substituted", spy_substituted)
    monkeypatch.setattr(sat.SatSearch, "_symmetric_first", spy_symmetric)
    monkeypatch.setattr(sat.SatSearch, "_escalate", spy_escalate)
    return paths


def slow_clock(monkeypatch, factor: float) -> None:
    """Make every clock the engine reads run ``factor`` times faster than the real one."""
    real = time.perf_counter
    start = real()
    monkeypatch.setattr(time, "perf_counter", lambda: start + (real() - start) * factor)
    timer = threading.Timer

    class FastTimer(timer):
        def __init__(self, interval, function, *args, **kwargs):
            super().__init__(interval / factor, function, *args, **kwargs)

    monkeypatch.setattr(threading, "Timer", FastTimer)


def _analyzer_runs(puzzles: dict[str, Puzzle]) -> list:
    out = []
    for name, puzzle in puzzles.items():
        for method in ("auto", "logic"):
            for limit in (1, 2):
                r = solve(puzzle, method=method, max_solutions=limit, common=True)
                for s in r.solutions:
                    assert puzzle.is_solution(s), name
                out.append(
                    (
                        name,
                        method,
                        r.status,
                        r.method,
                        r.difficulty,
                        r.grid.tobytes(),
                        [s.tobytes() for s in r.solutions],
                        len(r.steps),
                    )
                )
    return out


@pytest.mark.parametrize("factor", [20, 1e6])
def test_analyzer_paths_and_verdicts_do_not_depend_on_the_clock(monkeypatch, small_budgets, factor):
    puzzles = _puzzles()
    normal = _analyzer_runs(puzzles)
    normal_paths = list(small_budgets)
    stage = "selector" if sat.SYMMETRY_QUICK_CONFLICTS else "shared variables"
    assert {("symmetric", stage, "found"), ("symmetric", stage, "none")} <= set(normal_paths)
    assert ("escalate", "kissat") in normal_paths or not sat.child_processes_allowed()
    small_budgets.clear()
    slow_clock(monkeypatch, factor)
    assert _analyzer_runs(puzzles) == normal
    assert small_budgets == normal_paths


def _teaching_runs() -> list:
    out = []
    puzzles = _puzzles()
    for name in ("5-Dom", "edge", "3-Dom"):
        puzzle = puzzles.get(name) or next(
            p for p in read_puzzles(DATA / "domino_logic.txt") if p.title == name
        )
        steps = hint_steps(puzzle, time_limit=None)
        out.append((name, [(s.kind, s.rule, tuple(s.cells)) for s in steps]))
    rng = np.random.default_rng(5)
    for _ in range(3):  # drawings with several solutions: suggested givens and their rating
        picture = rng.random((9, 9)) < 0.5
        puzzle = Puzzle.from_solution(picture)
        v = assess(puzzle, picture, time_limit=None)
        out.append((v.status, v.difficulty, v.steps, v.rules, v.differing, v.suggestion))
    picture = np.asarray(puzzles["edge"].meta["goal"])
    v = assess(puzzles["edge"], picture, time_limit=None)
    out.append((v.status, v.difficulty, v.steps, v.rules))
    return out


@pytest.mark.parametrize("factor", [20, 1e6])
def test_hints_difficulty_and_givens_do_not_depend_on_the_clock(monkeypatch, factor):
    normal = _teaching_runs()
    assert any(row[0] == "multiple" and row[-1] for row in normal), "givens were suggested"
    slow_clock(monkeypatch, factor)
    assert _teaching_runs() == normal


def test_the_user_time_limit_only_stops_a_run(monkeypatch):
    """A run the time limit cuts short says it stopped; it never gives another verdict."""
    puzzles = _puzzles()
    rng = np.random.default_rng(5)
    picture = rng.random((9, 9)) < 0.5
    drawing = Puzzle.from_solution(picture)
    normal = assess(drawing, picture, time_limit=None)
    normal_solve = {n: solve(p).status for n, p in puzzles.items()}
    slow_clock(monkeypatch, 1e6)
    stopped = assess(drawing, picture, time_limit=5.0)
    assert stopped.status in (normal.status, "timeout")
    assert not stopped.suggestion or stopped.suggestion == normal.suggestion
    if stopped.status != "timeout" and normal.suggestion and not stopped.suggestion:
        assert stopped.error.startswith("stopped")
    for name, puzzle in puzzles.items():
        assert solve(puzzle, time_limit=5.0).status in (normal_solve[name], "timeout")


def test_hints_stopped_by_the_time_limit_exit_1_and_write_nothing(tmp_path, capsys):
    import shutil

    from xlsolver.cli import main

    book = tmp_path / "picture.xlsx"
    shutil.copy(Path(__file__).resolve().parents[1] / "workbooks" / "picture-25x25.xlsx", book)
    out = tmp_path / "hints.xlsx"
    assert main(["hints", str(book), "-o", str(out), "--time-limit", "0.000001"]) == 1
    assert "stopped" in capsys.readouterr().err
    assert not out.exists()
    assert main(["hints", str(book), "-o", str(out)]) == 0
    assert out.exists()


def ticking_clock(monkeypatch) -> None:
    """A clock that moves one second each time it is read: a stop comes after the same
    reads, so after the same steps, on every machine."""
    ticks = iter(range(10**9))
    monkeypatch.setattr(time, "perf_counter", lambda: float(next(ticks)))


def _cells(steps) -> list:
    return [(s.kind, s.rule, tuple(s.cells)) for s in steps]


MAP = Path(__file__).resolve().parents[1] / "examples" / "webpbn-color-00047-map.xml"


def _stopped_part_way(replay, whole: list) -> tuple[int, list]:
    """The first limit (1, 2, 4, … ticks) at which ``replay(limit)`` stops after some
    steps but not all, and the steps it kept; each kept list is the start of ``whole``."""
    from xlsolver.hints import HintsStopped

    for k in range(30):
        try:
            replay(2**k)
        except HintsStopped as stop:
            assert _cells(stop.steps) == whole[: len(stop.steps)]
            if stop.steps:
                return 2**k, stop.steps
        else:
            break
    raise AssertionError("no limit stopped the replay part way")


def test_a_stopped_hint_replay_keeps_the_steps_it_found(monkeypatch):
    """The steps found before the limit are the first steps of the whole replay."""
    puzzle = read_entries(DATA / "webpbn-00023-edge.non")[0]  # probing decides it
    whole = _cells(hint_steps(puzzle, time_limit=None))
    ticking_clock(monkeypatch)
    _, kept = _stopped_part_way(lambda limit: hint_steps(puzzle, time_limit=limit), whole)
    assert 0 < len(kept) < len(whole)


def test_a_stopped_colour_replay_stops_and_never_guesses(monkeypatch):
    """A colour replay the limit cut short used to finish with a guess for every open
    cell, so a slow machine got other steps and a "search" rating; now it stops, keeping
    the steps found, and the rating says it stopped."""
    from xlsolver.teaching.colour_verdict import assess_colour, colour_hint_steps
    from xlsolver.teaching.verdict import STOPPED

    puzzle = read_puzzles(MAP)[0]
    solution = solve(puzzle, max_solutions=1).solutions[0]
    whole = _cells(colour_hint_steps(puzzle, solution, time_limit=None))
    assert {s[1] for s in whole} == {"line"}
    rated = assess_colour(puzzle, solution, time_limit=None)
    assert (rated.status, rated.difficulty) == ("unique", "line")
    ticking_clock(monkeypatch)
    _, kept = _stopped_part_way(
        lambda limit: colour_hint_steps(puzzle, solution, time_limit=limit), whole
    )
    assert 0 < len(kept) < len(whole)
    ratings = [assess_colour(puzzle, solution, time_limit=2**k) for k in range(16)]
    assert {(v.status, v.difficulty) for v in ratings} <= {("timeout", ""), ("unique", "line")}
    assert any(v.error == STOPPED for v in ratings)  # some stopped in the replay itself


@pytest.mark.parametrize("colour", [False, True], ids=["black-and-white", "colour"])
def test_hints_stopped_part_way_write_the_steps_found_and_say_so(
    tmp_path, capsys, monkeypatch, colour
):
    from openpyxl import load_workbook

    from xlsolver.cli import main
    from xlsolver.teaching.colour_verdict import colour_hint_steps
    from xlsolver.teaching.hints_sheet import read_hint_steps

    source = MAP if colour else DATA / "webpbn-00023-edge.non"
    puzzle = read_puzzles(source)[0]
    book = tmp_path / "puzzle.xlsx"
    assert main(["convert", str(source), "-o", str(book)]) == 0
    whole = tmp_path / "whole.xlsx"
    assert main(["hints", str(book), "-o", str(whole)]) == 0
    capsys.readouterr()
    if colour:
        solution = solve(puzzle, max_solutions=1).solutions[0]
        replay = lambda limit: colour_hint_steps(puzzle, solution, time_limit=limit)  # noqa: E731
        steps = colour_hint_steps(puzzle, solution, time_limit=None)
    else:
        replay = lambda limit: hint_steps(puzzle, time_limit=limit)  # noqa: E731
        steps = hint_steps(puzzle, time_limit=None)
    ticking_clock(monkeypatch)
    limit, kept = _stopped_part_way(replay, _cells(steps))
    out = tmp_path / "hints.xlsx"
    assert main(["hints", str(book), "-o", str(out), "--time-limit", str(limit)]) == 1
    captured = capsys.readouterr()
    assert f"time limit ({limit} s) ran out before the last step" in captured.err
    found = read_hint_steps(out)
    assert len(found) == len(kept) and 0 < len(found) < len(read_hint_steps(whole))
    assert found == read_hint_steps(whole)[: len(found)]
    steps = "1 step" if len(found) == 1 else f"{len(found)} steps"
    assert f"{out}: {steps} before the stop" in captured.out
    steps_sheet = load_workbook(out).worksheets[0]
    assert steps_sheet.cell(steps_sheet.max_row, 1).value.startswith(
        f"Stopped after step {len(found)}: the time limit ({limit} s) ran out"
    )


def test_suggested_colour_givens_never_depend_on_the_clock(monkeypatch):
    """Each check of the colour givens had its own full limit, and a check the limit cut
    short kept its given: a slow machine got more givens. Now the user's limit is one
    clock for the whole search, and a stop says so with no givens."""
    from xlsolver.nonogram.colour_puzzle import ColourPuzzle, Palette
    from xlsolver.teaching.colour_verdict import assess_colour

    picture = np.random.default_rng(1).integers(0, 3, (8, 8))
    palette = Palette.build([("a", "#ff0000", None), ("b", "#00a000", None)])
    puzzle = ColourPuzzle.from_solution(picture, palette)
    normal = assess_colour(puzzle, picture, time_limit=None)
    assert normal.status == "multiple" and len(normal.suggestion) == 2
    ticking_clock(monkeypatch)
    seen = set()
    for k in range(14):
        v = assess_colour(puzzle, picture, time_limit=2**k)
        assert v.suggestion in ([], normal.suggestion), (2**k, v.suggestion)
        if v.status == "multiple" and not v.suggestion:
            assert v.error.startswith("stopped"), (2**k, v.error)
            seen.add("stopped")
        elif v.suggestion:
            seen.add("suggested")
    assert seen == {"stopped", "suggested"}

"""The rules of RULES.md: each sound on its own, named easiest first, hints that replay."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import DATA, HEART, picture
from hypothesis import given, settings
from hypothesis import strategies as st

from xlsolver.formats import read_entries
from xlsolver.hints import explain, hint_steps, name_step, reason
from xlsolver.hints.rules import RULE_ORDER, RULES, TIER, easiest, view
from xlsolver.nonogram.analyzer import rate, solve
from xlsolver.nonogram.cells import BLACK, BLACK_CONC, COLOUR, WHITE_CONC, empty_grid
from xlsolver.nonogram.line import solve_line
from xlsolver.nonogram.puzzle import Puzzle, runs
from xlsolver.nonogram.result import LINE


def masks(line: str) -> tuple[int, int]:
    """A line written as # black, . white, ? unknown → (black, white) masks."""
    b = sum(1 << i for i, ch in enumerate(line) if ch == "#")
    w = sum(1 << i for i, ch in enumerate(line) if ch == ".")
    return b, w


@st.composite
def partial_lines(draw):
    """A hidden line, its clues, and some of its cells revealed."""
    n = draw(st.integers(1, 14))
    cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    shown = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    b = sum(1 << i for i in range(n) if shown[i] and cells[i])
    w = sum(1 << i for i in range(n) if shown[i] and not cells[i])
    return runs(cells), n, b, w, cells


@settings(max_examples=400, deadline=None)
@given(partial_lines())
def test_every_rule_alone_is_sound(case):
    """No rule (before the safety cut) claims a cell the hidden line contradicts."""
    clues, n, b, w, cells = case
    v = view(clues, n, b, w)
    assert v is not None
    proved = solve_line(clues, n, b, w)
    for rule in RULES:
        found = rule(v)
        if found is None:
            continue
        for i in range(n):
            if found.black >> i & 1 and not (b >> i & 1):
                assert cells[i], (rule.__name__, clues, i)
                assert proved.black >> i & 1, (rule.__name__, clues, i)
            if found.white >> i & 1 and not (w >> i & 1):
                assert not cells[i], (rule.__name__, clues, i)
                assert proved.white >> i & 1, (rule.__name__, clues, i)


@pytest.mark.parametrize(
    "clues, line, rule, words",
    [
        (
            (7,),
            "??????????",
            "overlap",
            "row 4: clue 7 in 10 free cells — the middle 4 must be black",
        ),
        ((), "???", "empty", "row 4 has no blocks — all white"),
        ((4, 1, 3), "??????????", "full", "row 4: 4 1 3 fills all 10 cells"),
        ((2, 1), "##?#??", "done", "row 4: all blocks are in place — the rest is white"),
        ((3,), "??.???????", "too-small", "row 4: the gap at cells 1–2 is smaller than 3 — white"),
        ((3,), "#?????????", "edge", "row 4: the block at cell 1 touches the edge, so it runs 3"),
        ((1, 4), "?????####??", "cap", "row 4: the black run at cells 6–9 is complete"),
    ],
)
def test_named_examples(clues, line, rule, words):
    """The RULES.md examples come out under their names with plain words."""
    b, w = masks(line)
    found = easiest(clues, len(line), b, w)
    assert found.rule == rule
    from xlsolver.hints.words import reason_text

    assert reason_text(found, ("row", 3), clues, len(line), "en").startswith(words)
    assert reason_text(found, ("row", 3), clues, len(line), "ja").startswith("4行目")


def test_full_line_only_when_the_blocks_fill_the_free_cells():
    """A "fits the N free cells exactly" holds when the blocks and their single gaps cover
    every free cell; a 4 placed in the one run of 4 among runs of 2 leaves free cells
    over (it was called a full line of 8 free cells: another rule tells it)."""
    from xlsolver.hints.words import reason_text

    b, w = masks(".???????????.")
    found = easiest((1, 3, 3, 1), 13, b, w)
    assert found.rule == "full"
    words = reason_text(found, ("row", 3), (1, 3, 3, 1), 13, "en")
    assert words == "row 4: 1 3 3 1 fits the 11 free cells exactly", words
    b, w = masks("????.??.??")
    found = easiest((4,), 10, b, w)
    assert found.rule != "full" and found.black == 0b1111, found


def test_overlap_cells_of_the_example():
    """Clue 7 in 10 free cells: exactly cells 4–7 (1-based) are black."""
    found = easiest((7,), 10, 0, 0)
    assert [i for i in range(10) if found.black >> i & 1] == [3, 4, 5, 6]


def replay_checks(puzzle: Puzzle, steps, solution: np.ndarray) -> None:
    """Every step sets only unknown cells to their colour in the solution; all get set."""
    known = np.zeros(solution.shape, dtype=bool)
    for step in steps:
        assert step.cells, step
        for r, c, state in step.cells:
            assert not known[r, c], (step, r, c)
            assert (state & COLOUR == BLACK) == solution[r, c], step
            known[r, c] = True
        assert reason(step, puzzle, "en") and reason(step, puzzle, "ja")
    assert known.all()


def test_hint_steps_replay_the_heart_with_easy_rules_first():
    """A line puzzle: the replay ends at the solution and never needs a probe or guess."""
    sol = picture(HEART)
    puzzle = Puzzle.from_solution(sol)
    steps = hint_steps(puzzle)
    replay_checks(puzzle, steps, sol)
    assert {s.rule for s in steps} <= set(RULE_ORDER[: TIER["line"] + 1])
    assert steps[0].rule in ("empty", "full")  # the easiest rules come first


def test_hint_steps_on_random_pictures_are_valid():
    """Random pictures (some with several solutions): every step agrees with the solution."""
    rng = np.random.default_rng(5)
    for size in (6, 9, 12):
        sol = rng.random((size, size)) < 0.55
        puzzle = Puzzle.from_solution(sol)
        steps = hint_steps(puzzle, sol)  # guesses follow the picture when not unique
        replay_checks(puzzle, steps, sol)


def test_each_step_is_the_easiest_available():
    """At each step no line offered an easier rule than the one taken."""
    sol = picture(HEART)
    puzzle = Puzzle.from_solution(sol)
    grid = empty_grid(*sol.shape)
    for step in hint_steps(puzzle):
        best = explain(puzzle, grid)
        assert TIER[best.rule] == TIER[step.rule]
        for r, c, state in step.cells:
            grid[r, c] = state


def test_name_step_names_analyzer_steps():
    """The analyzer's ``line`` steps get RULES.md names that explain all their cells."""
    sol = picture(HEART)
    puzzle = Puzzle.from_solution(sol)
    result = rate(puzzle)
    named = [name_step(puzzle, s) for s in result.steps if s.kind == LINE]
    assert named and all(s.rule in RULE_ORDER for s in named)
    assert any(s.rule != "line" for s in named)
    assert all(s.detail for s in named)


def test_explain_names_a_broken_line():
    """A grid that breaks a line gives a discrepancy step naming it."""
    puzzle = Puzzle.from_solution(picture(HEART))
    grid = empty_grid(10, 10)
    grid[8, 0] = BLACK_CONC  # row 9 is empty
    step = explain(puzzle, grid)
    assert step.rule == "discrepancy" and step.line == ("row", 8)


def test_a_hint_near_the_end_looks_only_at_lines_with_open_cells(monkeypatch):
    """The rules run on no finished line (a 300×300 sheet with a few cells left took
    7.6 s for one hint when every finished line went through the catalogue), and the
    step is still the easiest one, checked against the solution."""
    rng = np.random.default_rng(5)
    solution = rng.random((30, 30)) < 0.6
    puzzle = Puzzle.from_solution(solution)
    grid = np.where(solution, BLACK_CONC, WHITE_CONC).astype(np.uint8)
    grid[4, 3:7] = 0
    seen: list[int] = []

    def looked_at(v):
        seen.append(v.n - (v.black | v.white).bit_count())
        return None

    monkeypatch.setattr("xlsolver.hints.rules.RULES", (looked_at, *RULES))
    step = explain(puzzle, grid)
    assert seen and all(open_cells > 0 for open_cells in seen)
    assert len(seen) == 1 + 4  # row 4 and the four columns it shares with the open cells
    assert step.cells and all(
        bool(solution[r, c]) == bool(state & BLACK) for r, c, state in step.cells
    )


def test_probing_for_a_hint_stops_at_the_deadline_even_when_each_trial_is_quick():
    """A trial that settles in two line solves never reached propagation's own clock
    check, so ``xlsolver hints --time-limit 5`` on a 300×300 board that lines cannot
    start probed on for 97 s. Each trial now checks it; ``explain`` (the Hint button)
    turns it into HintsStopped."""
    import time

    from xlsolver.hints import HintsStopped
    from xlsolver.hints.replay import Replay
    from xlsolver.nonogram.board import Board, Timeout
    from xlsolver.nonogram.probe import trial

    solution = picture(["#...", ".#.#", "#.#.", ".##."])  # lines decide no cell of it
    puzzle = Puzzle.from_solution(solution)
    past = time.perf_counter() - 1.0
    assert Replay(puzzle).line_step() is None
    step = Replay(puzzle).probe_step()
    assert step is not None and step.rule == "contradiction"
    with pytest.raises(Timeout):
        Replay(puzzle).probe_step(past)
    with pytest.raises(Timeout):
        trial(Board(puzzle), 0, 0, True, past)
    with pytest.raises(HintsStopped, match="no step found in 0 s"):
        explain(puzzle, empty_grid(4, 4), time_limit=0.0)
    assert explain(puzzle, empty_grid(4, 4), time_limit=60.0) == step


def test_probe_step_when_lines_stall():
    """3-Dom needs a contradiction: the probe step proves a cell of the solution."""
    rows = [[3], [1], [3, 1], [1], [3, 1], [1], [1]]
    cols = [[1], [1], [1, 3], [1], [1, 3], [1], [3]]
    puzzle = Puzzle.from_clues(rows, cols)
    assert rate(puzzle).difficulty == "probing"
    sol = solve(puzzle).solutions[0]
    steps = hint_steps(puzzle)
    replay_checks(puzzle, steps, sol)
    probes = [s for s in steps if s.rule == "contradiction"]
    assert probes and "could not be filled" in reason(probes[0], puzzle)
    assert "置けない" in reason(probes[0], puzzle, "ja")
    for p in probes:
        ((_, _, state),) = p.cells
        assert state & COLOUR != p.assumed  # the colour tried failed; the other holds


def test_search_puzzle_replay_with_guesses_and_a_short_time_limit(data_dir):
    """5-Dom needs search: guesses follow the answer; a tiny time limit stops, never guesses."""
    from xlsolver.formats import read_puzzles
    from xlsolver.hints import HintsStopped

    dom5 = next(p for p in read_puzzles(data_dir / "domino_logic.txt") if p.title == "5-Dom")
    assert rate(dom5).difficulty == "search"
    sol = solve(dom5).solutions[0]
    steps = hint_steps(dom5, time_limit=30.0)
    replay_checks(dom5, steps, sol)
    assert any(s.rule == "guess" for s in steps)
    assert [(s.rule, s.cells) for s in hint_steps(dom5, time_limit=None)] == [
        (s.rule, s.cells) for s in steps
    ]
    with pytest.raises(HintsStopped, match="stopped"):
        hint_steps(dom5, time_limit=0.0)


def test_explain_from_empty_to_full_makes_only_valid_deductions():
    puzzle = read_entries(DATA / "webpbn-00001-dancer.non")[0]
    goal = puzzle.meta["goal"]
    grid = np.zeros(goal.shape, np.uint8)
    for _ in range(goal.size):
        step = explain(puzzle, grid)
        if step is None:
            break
        assert step.cells
        for r, c, state in step.cells:
            assert (state == BLACK_CONC) == goal[r, c] and grid[r, c] == 0
            grid[r, c] = state
    assert np.array_equal(grid == BLACK_CONC, goal)
    assert not ((grid != BLACK_CONC) & (grid != WHITE_CONC)).any()

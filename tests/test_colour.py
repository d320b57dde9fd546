"""Colour puzzles in the engine: line solver, verdicts, counts, trace, givens, time limit.

Every verdict is compared with brute force written apart from the engine
(``oracles.colour_solutions``), and every solution with an independent checker
(``oracles.breaks``).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import breaks, colour_blocks, colour_solutions

from xlsolver.nonogram import Puzzle, PuzzleError, Result, rate, solve
from xlsolver.nonogram.cells import (
    CERTAIN,
    POSSIBLE,
    colour_bit,
    colour_states,
    every_colour,
    is_certain,
    is_conflict,
    is_open,
    known_colour,
)
from xlsolver.nonogram.colour_analyzer import next_colour_step
from xlsolver.nonogram.colour_board import ColourBoard
from xlsolver.nonogram.colour_line import solve_colour_line
from xlsolver.nonogram.colour_puzzle import ColourPuzzle, Palette, colour_runs
from xlsolver.nonogram.colour_result import ColourResult
from xlsolver.nonogram.colour_sat import ColourEncoding, ColourSatSearch
from xlsolver.nonogram.result import LINE, RULE_DISCREPANCY

SEEDED = settings(deadline=None, derandomize=True, database=None)
RGB = ["#ff0000", "#00a000", "#0000ff"]


def palette(k: int) -> Palette:
    """A palette of k inks: red a, green b, blue c."""
    return Palette.build([(name, rgb, None) for name, rgb in zip("abc"[:k], RGB[:k], strict=True)])


# --- the line solver ----------------------------------------------------------------------


@st.composite
def colour_lines(draw):
    """(clues, n, can): a line's clues and what is still possible in each cell."""
    n = draw(st.integers(1, 7))
    k = draw(st.integers(1, 3))
    picture = draw(st.lists(st.integers(0, k), min_size=n, max_size=n))
    clues = colour_runs(picture)
    if draw(st.booleans()):  # clues of no picture too
        clues = tuple(draw(st.lists(st.tuples(st.integers(1, 3), st.integers(1, k)), max_size=3)))
    can = [0] * (k + 1)
    for i in range(n):
        allowed = draw(st.sets(st.integers(0, k), min_size=1))
        for colour in allowed:
            can[colour] |= 1 << i
    return clues, n, tuple(can)


@given(colour_lines())
@settings(SEEDED, max_examples=500)
def test_colour_line_solver_matches_enumeration(case):
    clues, n, can = case
    want = [0] * len(can)
    fits = False
    for cells in itertools.product(range(len(can)), repeat=n):
        if all(can[c] >> i & 1 for i, c in enumerate(cells)) and colour_blocks(cells) == list(
            clues
        ):
            fits = True
            for i, c in enumerate(cells):
                want[c] |= 1 << i
    got = solve_colour_line(clues, n, can)
    assert (got is None) == (not fits)
    if fits:
        assert list(got.can) == want


@given(colour_lines())
@settings(SEEDED, max_examples=300)
def test_colour_line_encoding_matches_enumeration(case):
    """The CNF of one line, alone, has exactly the line's placements as models."""
    from pysat.solvers import Solver

    clues, n, can = case
    k = len(can) - 1
    palette_k = palette(max(k, 1)) if k <= 3 else None
    puzzle = ColourPuzzle.from_clues([clues], [[]] * n, palette_k, validate=False)
    board = ColourBoard(puzzle)
    board.can[0] = list(can)
    want = {
        cells
        for cells in itertools.product(range(k + 1), repeat=n)
        if all(can[c] >> i & 1 for i, c in enumerate(cells)) and colour_blocks(cells) == list(clues)
    }
    enc = ColourEncoding(board, lines=[0])
    got = set()
    with Solver(name="glucose42", bootstrap_with=enc.clauses) as solver:
        while solver.solve() and len(got) <= len(want):
            cells = tuple(int(v) for v in enc.decode(solver.get_model())[0])
            got.add(cells)
            solver.add_clause([-enc.var(0, i, c) for i, c in enumerate(cells)])
    assert got == want


def test_same_colours_need_a_gap_different_colours_may_touch():
    full = (1 << 3) - 1
    touching = solve_colour_line(((1, 1), (2, 2)), 3, (full, full, full))
    assert touching.can == (0, 1, 6)  # a b b: no room for a gap, none needed
    assert solve_colour_line(((1, 1), (2, 1)), 3, (full, full, full)) is None
    ranges = solve_colour_line(((2, 1), (1, 2)), 5, (31, 31, 31)).ranges(((2, 1), (1, 2)))
    assert ranges == [(0, 3), (2, 4)]


# --- verdicts and counts against brute force -----------------------------------------------


@st.composite
def colour_puzzles(draw):
    """A colour puzzle of up to 5×5 with 2–3 inks, from a picture, sometimes with a row's
    clues reversed (same totals: often no solution, or other solutions)."""
    h, w, k = draw(st.integers(1, 5)), draw(st.integers(1, 5)), draw(st.integers(2, 3))
    cells = draw(st.lists(st.integers(0, k), min_size=h * w, max_size=h * w))
    picture = np.array(cells).reshape(h, w)
    puzzle = ColourPuzzle.from_solution(picture, palette(k))
    if draw(st.booleans()):
        r = draw(st.integers(0, h - 1))
        rows = list(puzzle.rows)
        rows[r] = rows[r][::-1]
        puzzle = ColourPuzzle(tuple(rows), puzzle.cols, puzzle.palette)
    return puzzle


def expected_status(count: int) -> str:
    """The verdict a number of solutions calls for."""
    return {0: "contradiction", 1: "unique"}.get(count, "multiple")


@given(colour_puzzles(), st.sampled_from(["auto", "logic"]))
@settings(SEEDED, max_examples=200)
def test_colour_verdicts_and_counts_match_brute_force(puzzle, method):
    try:
        puzzle.validate()
    except PuzzleError:
        assert solve(puzzle, method=method).status == "invalid"
        return
    every = colour_solutions(puzzle, limit=31)
    result = solve(puzzle, max_solutions=30, method=method)
    assert isinstance(result, ColourResult)
    assert len(result.solutions) == min(len(every), 30)
    assert result.status == expected_status(len(every))
    found = {tuple(map(tuple, s.tolist())) for s in result.solutions}
    assert len(found) == len(result.solutions)  # distinct
    assert found <= {tuple(map(tuple, s)) for s in every}
    for s in result.solutions:
        assert not breaks(puzzle, s.tolist())
        assert puzzle.is_solution(s)
    first = solve(puzzle, max_solutions=1, method=method)
    assert first.status == ("solved" if every else "contradiction")
    assert all(not breaks(puzzle, s.tolist()) for s in first.solutions)


@given(colour_puzzles())
@settings(SEEDED, max_examples=150)
def test_colour_sat_encoding_alone_matches_brute_force(puzzle):
    """The SAT encoding of a board that logic has not touched finds every solution."""
    try:
        puzzle.validate()
    except PuzzleError:
        return
    every = colour_solutions(puzzle, limit=41)
    search = ColourSatSearch(ColourBoard(puzzle))
    try:
        found = list(search.solutions(40, lambda: None))
    finally:
        search.close()
    assert len(found) == min(len(every), 40)
    assert all(not breaks(puzzle, s.tolist()) for s in found)


@given(colour_puzzles())
@settings(SEEDED, max_examples=80)
def test_colour_common_cells_are_the_backbone(puzzle):
    try:
        puzzle.validate()
    except PuzzleError:
        return
    every = colour_solutions(puzzle)
    if len(every) < 2:
        return
    result = solve(puzzle, max_solutions=2, common=True)
    same = np.all([np.array(s) == np.array(every[0]) for s in every], axis=0)
    known = np.vectorize(lambda v: known_colour(int(v)) is not None)(result.grid)
    assert np.array_equal(known, same)
    colours = np.vectorize(lambda v: known_colour(int(v)) or 0)(result.grid)
    assert np.array_equal(colours[same], np.array(every[0])[same])


# --- the trace -----------------------------------------------------------------------------


def test_colour_trace_replays_to_the_solution():
    picture = np.array(
        [[1, 1, 0, 2, 2], [0, 1, 2, 2, 0], [1, 0, 2, 0, 1], [2, 2, 1, 1, 0], [0, 2, 0, 1, 1]]
    )
    puzzle = ColourPuzzle.from_solution(picture, palette(2))
    result = solve(puzzle, method="logic", trace=True)
    assert result.status == "unique" and result.difficulty in ("line", "probing", "search")
    grid = np.full(picture.shape, every_colour(2), dtype=np.int64)
    for step in result.steps:
        if step.depth:
            continue
        if step.kind == LINE:
            kind, i = step.line
            line = grid[i] if kind == "row" else grid[:, i]
            assert tuple(int(v) | CERTAIN for v in line) == step.before
        for r, c, state in step.cells:
            assert is_certain(state) and state & POSSIBLE & ~grid[r, c] == 0  # only narrows
            grid[r, c] = state & POSSIBLE
    if result.difficulty == "line":
        assert np.array_equal(grid, np.left_shift(1, picture))
    assert np.array_equal(result.solutions[0], picture)


def test_rows_and_columns_take_one_code_path():
    picture = np.array([[1, 2, 0], [0, 2, 1], [2, 0, 1]])
    puzzle = ColourPuzzle.from_solution(picture, palette(2))
    flipped = ColourPuzzle.from_solution(picture.T, palette(2))
    one = solve(puzzle, method="logic", trace=True)
    two = solve(flipped, method="logic", trace=True)
    assert np.array_equal(one.solutions[0], two.solutions[0].T)
    kinds = {s.line[0] for s in one.steps if s.line}
    assert kinds == {"row", "col"}


# --- givens, next step, time limit, results --------------------------------------------------


def test_colour_givens_pick_a_solution_or_contradict():
    puzzle = ColourPuzzle.from_clues(
        [[(1, "a")], [(1, "a")], [(1, "b")]], [[(1, "a"), (1, "b")], [(1, "a")]], palette(2)
    )
    assert solve(puzzle, max_solutions=10).status == "multiple"
    givens = np.zeros((3, 2), dtype=np.uint32)
    givens[0, 0] = colour_bit(1) | CERTAIN
    result = solve(puzzle, givens=givens)
    assert result.status == "unique" and result.solutions[0][0, 0] == 1
    givens[2, 0] = colour_bit(0) | CERTAIN
    assert solve(puzzle, givens=givens).status == "contradiction"


def test_colour_next_step_and_discrepancy():
    picture = np.array([[1, 1, 2], [0, 2, 2], [1, 0, 0]])
    puzzle = ColourPuzzle.from_solution(picture, palette(2))
    blank = np.full(picture.shape, every_colour(2), dtype=np.uint32)
    step = next_colour_step(puzzle, blank)
    assert step is not None and step.kind == LINE and step.cells
    for r, c, state in step.cells:
        assert picture[r, c] in [x for x in range(3) if state >> x & 1]
    wrong = blank.copy()
    wrong[0, :] = colour_bit(2)  # row 1 painted all b: its clues say a a b
    bad = next_colour_step(puzzle, wrong)
    assert bad.rule == RULE_DISCREPANCY and bad.cells
    assert all(is_conflict(state) for _, _, state in bad.cells)


def test_colour_time_limit_gives_timeout():
    rng = np.random.default_rng(3)
    picture = rng.integers(0, 4, size=(40, 40))
    puzzle = ColourPuzzle.from_solution(picture, palette(3))
    for method in ("auto", "logic"):
        result = solve(puzzle, time_limit=0.0, method=method)
        assert result.status == "timeout" and result.error
        assert result.grid.shape == (40, 40)


def test_colour_result_json_and_text():
    picture = np.array([[1, 0], [2, 2]])
    puzzle = ColourPuzzle.from_solution(picture, palette(2), title="Tiny")
    result = solve(puzzle)
    out = result.to_json()
    assert out["solutions"] == [["a.", "bb"]]
    assert out["colours"] == {"a": "#ff0000", "b": "#00a000"}
    assert result.text() == "a.\nbb"
    assert not result.undecided.any()
    assert is_open(every_colour(2)) and known_colour(colour_bit(2)) == 2
    reports: list[float] = []
    solve(puzzle, progress=lambda fraction, _message: reports.append(fraction))
    assert reports and reports[-1] == 1.0
    assert rate(puzzle).difficulty == "line"


def test_black_and_white_stays_as_it_was():
    puzzle = Puzzle.from_solution(np.array([[1, 0], [1, 1]], dtype=bool))
    result = solve(puzzle)
    assert type(result) is Result and result.to_json()["solutions"] == [["#.", "##"]]
    assert not hasattr(puzzle, "palette")


# --- the model -----------------------------------------------------------------------------


def test_palette_letters_come_from_the_file():
    built = Palette.build([("b", "#0000ff", "*"), ("red", "FF0000", "*"), ("green", "0f0", "0")])
    assert built.letters == ".b*a"  # a name, then a character, then a free letter
    assert [c.rgb for c in built.inks] == ["#0000ff", "#ff0000", "#00ff00"]
    assert built.ink("red") == 2 and built.ink("a") == 3
    picture = np.array([[0, 1], [3, 2]])
    assert np.array_equal(built.from_rows(built.rows_text(picture)), picture)
    with pytest.raises(PuzzleError, match="letter"):
        Palette(inks=(built.inks[0], built.inks[0]))


@pytest.mark.parametrize(
    ("rows", "cols", "message"),
    [
        ([[(2, "a"), (1, "a")]], [[(1, "a")], [(1, "a")], [(1, "a")]], "row 1: clues 2a 1a need 4"),
        ([[(1, "a"), (1, "b")]], [[(1, "a")], []], 'colour "b" (b), columns 0'),
        ([[(1, "z")]], [[(1, "a")]], "row 1: clue colour 'z' is not in the palette"),
        ([[(1, "a"), (0, "a")]], [[(1, "a")]], "clue 0 stands among"),
        ([], [[(1, "a")]], "no rows"),
    ],
)
def test_colour_validation_names_the_line(rows, cols, message):
    with pytest.raises(PuzzleError, match=message.replace("(", r"\(").replace(")", r"\)")):
        ColourPuzzle.from_clues(rows, cols, palette(2))


def test_from_solution_makes_the_clues():
    picture = np.array([[1, 1, 2, 0, 1], [0, 2, 2, 2, 0]])
    puzzle = ColourPuzzle.from_solution(picture, palette(2))
    assert puzzle.rows == (((2, 1), (1, 2), (1, 1)), ((3, 2),))
    assert puzzle.cols[1] == ((1, 1), (1, 2))
    assert puzzle.clue_text(("row", 0)) == "2a 1b 1a"
    assert puzzle.is_solution(picture) and not puzzle.is_solution(picture[::-1])
    states = colour_states(picture)
    assert all(is_certain(int(v)) for v in states.ravel())


def test_a_colour_probe_stops_at_a_past_deadline_even_when_the_trial_is_quick():
    """Each trial checks the user's deadline itself: one that settles in a line solve or
    two never reached propagation's own check, so probing a large board ran on past it."""
    import time

    from xlsolver.nonogram.board import Timeout
    from xlsolver.nonogram.colour_probe import trial

    puzzle = ColourPuzzle.from_solution(np.array([[1, 0, 2], [0, 2, 1], [2, 1, 0]]), palette(2))
    board = ColourBoard(puzzle)
    assert trial(board, 0, 0, 1, None) is not None  # with time, the trial settles
    with pytest.raises(Timeout):
        trial(board, 0, 0, 1, time.perf_counter() - 1.0)

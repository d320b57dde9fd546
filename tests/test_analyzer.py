"""The analyzer core: line solver, propagation, probing, search, SAT, trace, time limit.

Solutions are checked against the clues (Puzzle.is_solution) and solution counts
against brute-force enumeration of small boards: an independent route.
"""

from __future__ import annotations

import csv
import itertools
import time

import numpy as np
import pytest
from conftest import DATA, SHARED, shared_path
from hypothesis import given, settings
from hypothesis import strategies as st
from oracles import dom, line_solutions

from xlsolver.formats import read_entries
from xlsolver.nonogram.analyzer import discrepancy_cells, rate, solve
from xlsolver.nonogram.board import Board, Contradiction
from xlsolver.nonogram.cells import BLACK, BLACK_CONC, COLOUR, CONC, DISCREPANCY, WHITE
from xlsolver.nonogram.line import line_news, solve_line
from xlsolver.nonogram.puzzle import Puzzle, runs


def brute_line(clues, n, black, white):
    """Forced cells of a line by listing every placement."""
    full = (1 << n) - 1
    fits = [m for m in line_solutions(clues, n) if not m & white and m & black == black]
    if not fits:
        return None
    all_black, all_white = full, full
    for m in fits:
        all_black &= m
        all_white &= ~m & full
    return all_black, all_white


def brute_starts(clues, n, black, white):
    """Per clue, the bit mask of its starts in the placements that fit (listed one by one)."""
    out = [0] * len(clues)

    def place(j: int, at: int, starts: list[int]) -> None:
        if j == len(clues):
            mask = sum(((1 << c) - 1) << s for s, c in zip(starts, clues, strict=True))
            if not mask & white and mask & black == black:
                for i, s in enumerate(starts):
                    out[i] |= 1 << s
            return
        for s in range(at, n - clues[j] + 1):
            place(j + 1, s + clues[j] + 1, [*starts, s])

    place(0, 0, [])
    return out


def brute_count(puzzle: Puzzle, cap: int = 10_000) -> int:
    """Solutions by trying every combination of row placements (tiny boards only)."""
    options = [list(line_solutions(c, puzzle.width)) for c in puzzle.rows]
    count = 0
    for combo in itertools.product(*options):
        sol = np.array([[m >> c & 1 for c in range(puzzle.width)] for m in combo], bool)
        if puzzle.is_solution(sol):
            count += 1
            if count >= cap:
                break
    return count


@st.composite
def lines(draw):
    n = draw(st.integers(1, 14))
    cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    clues = (
        runs(cells) if draw(st.booleans()) else tuple(draw(st.lists(st.integers(1, 4), max_size=4)))
    )
    known = draw(st.lists(st.sampled_from([0, BLACK, WHITE]), min_size=n, max_size=n))
    black = sum(1 << i for i, k in enumerate(known) if k == BLACK)
    white = sum(1 << i for i, k in enumerate(known) if k == WHITE)
    return tuple(clues), n, black, white


@given(lines())
@settings(max_examples=600, deadline=None)
def test_line_solver_matches_enumeration(case):
    clues, n, black, white = case
    got = solve_line(clues, n, black, white)
    want = brute_line(clues, n, black, white) if sum(clues) + len(clues) - 1 <= n else None
    assert (None if got is None else (got.black, got.white)) == want
    if got is not None:  # each clue's valid starts (the macro's PssSt..PssEn and more)
        assert got.starts == brute_starts(clues, n, black, white)


@st.composite
def lines_with_known_ends(draw):
    """Lines solved from their ends inward, as propagation leaves them: a picture's cells
    known at both ends and here and there, now and then one cell or one clue wrong."""
    n = draw(st.integers(1, 16))
    cells = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    clues = list(runs(cells))
    if clues and draw(st.integers(0, 5)) == 0:
        j = draw(st.integers(0, len(clues) - 1))
        clues[j] = max(1, clues[j] + draw(st.sampled_from([-1, 1])))
    a = draw(st.integers(0, n))
    b = draw(st.integers(a, n))
    inside = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    known = [i < a or i >= b or inside[i] for i in range(n)]
    if draw(st.integers(0, 5)) == 0:
        i = draw(st.integers(0, n - 1))
        cells[i] = not cells[i]
    black = sum(1 << i for i in range(n) if known[i] and cells[i])
    white = sum(1 << i for i in range(n) if known[i] and not cells[i])
    return tuple(clues), n, black, white


@given(st.one_of(lines(), lines_with_known_ends()))
@settings(max_examples=800, deadline=None)
def test_setting_known_ends_aside_finds_what_the_line_solver_finds(case):
    """Propagation's line_news (known ends set aside) against the whole-line solver and
    against enumeration."""
    clues, n, black, white = case
    want = brute_line(clues, n, black, white) if sum(clues) + len(clues) - 1 <= n else None
    got = solve_line(clues, n, black, white)
    assert line_news(clues, n, black, white) == want
    assert (None if got is None else (got.black, got.white)) == want


def test_line_ranges_are_pssst_pssen():
    sol = solve_line((3, 2), 10, 0, 0)
    assert sol.ranges((3, 2)) == [(0, 6), (4, 9)]


@st.composite
def boards(draw):
    h = draw(st.integers(1, 6))
    w = draw(st.integers(1, 6))
    cells = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    return np.array(cells, bool).reshape(h, w)


@pytest.mark.slow
@given(boards(), st.sampled_from(["auto", "logic"]))
@settings(max_examples=250, deadline=None)
def test_verdict_and_count_match_brute_force(picture, method):
    puzzle = Puzzle.from_solution(picture)
    count = brute_count(puzzle)
    result = solve(puzzle, max_solutions=50, method=method)
    assert len(result.solutions) == min(count, 50)
    assert all(puzzle.is_solution(s) for s in result.solutions)
    assert result.status == ("unique" if count == 1 else "multiple")
    first = solve(puzzle, max_solutions=1, method=method)
    assert first.status == "solved" and puzzle.is_solution(first.solutions[0])


@given(boards())
@settings(max_examples=100, deadline=None)
def test_common_cells_are_the_backbone(picture):
    puzzle = Puzzle.from_solution(picture)
    result = solve(puzzle, max_solutions=2, common=True)
    every = solve(puzzle, max_solutions=10_000).solutions
    same = np.all([s == every[0] for s in every], axis=0)
    confirmed = (result.grid & CONC) != 0
    assert np.array_equal(confirmed, same)
    assert np.array_equal((result.grid[confirmed] & COLOUR) == BLACK, every[0][confirmed])


def expected_rows():
    path = SHARED / "patterns" / "expected.csv"
    if not path.exists():
        return []
    with open(path, newline="") as fh:
        return [row for row in csv.DictReader(fh) if row["Grid"]]


def _pattern(file: str, name: str) -> Puzzle:
    base = SHARED / "patterns" if (SHARED / "patterns").exists() else DATA
    for entry in read_entries(base / file):
        if isinstance(entry, Puzzle) and entry.meta.get("name") == name:
            return entry
    raise LookupError(name)


@pytest.mark.parametrize("row", expected_rows(), ids=lambda r: f"{r['File']}:{r['Grid']}")
@pytest.mark.parametrize("method", ["auto", "logic"])
def test_patterns_expected_class(row, method):
    shared_path("patterns")
    if row["Grid"] in ("7-Dom", "8-Dom", "9-Dom") and method == "logic":
        pytest.skip("the logic search on 7- to 9-Dom takes minutes; the SAT path decides them")
    puzzle = _pattern(row["File"], row["Grid"])
    w, h = map(int, row["Size"].split("x"))
    assert (puzzle.width, puzzle.height) == (w, h)
    result = solve(puzzle, max_solutions=200, method=method)
    if row["Valid"] == "ERR":
        assert result.status == "invalid" and result.error
        return
    if row["Valid"] == "ZERO":
        assert result.status == "contradiction"
        return
    assert len(result.solutions) == int(row["Solutions"])
    assert all(puzzle.is_solution(s) for s in result.solutions)
    assert result.status == ("multiple" if row["Valid"] == "MULT" else "unique")


def test_invalid_reasons_name_the_line():
    entries = [e for e in read_entries(DATA / "invalid_input.txt") if isinstance(e, Puzzle)]
    reasons = [solve(p).error for p in entries]
    assert reasons[0] == "rows hold 153 black cells, columns 154"
    assert reasons[1] == "the grid has no rows (height 0)"
    assert reasons[2] == "column 1: clues 4 need 4 cells but the grid is 3 high"
    assert reasons[3] == "row 1: clues 1 1 need 3 cells but the grid is 2 wide"
    assert [solve(p).status for p in entries[4:]] == ["contradiction", "contradiction"]


def goal_files():
    local = sorted(DATA.glob("*.non"))
    shared = sorted(SHARED.glob("**/*.non")) if SHARED.exists() else []
    return local + shared


@pytest.mark.parametrize("path", goal_files(), ids=lambda p: p.name)
def test_goal_puzzles_solved_to_their_goal(path):
    for puzzle in read_entries(path):
        if not isinstance(puzzle, Puzzle) or "goal" not in puzzle.meta:
            continue
        result = solve(puzzle)
        assert result.status == "unique", path
        assert np.array_equal(result.solutions[0], puzzle.meta["goal"])


def test_trace_replays_to_the_solution():
    puzzle = read_entries(DATA / "nonogram-db-webpbn-6.non")[0]
    result = solve(puzzle, trace=True, method="logic")
    grid = np.zeros((puzzle.height, puzzle.width), np.uint8)
    for step in result.steps:
        assert step.kind == "line" and step.line is not None
        kind, i = step.line
        line = grid[i, :] if kind == "row" else grid[:, i]
        assert tuple(int(v) for v in line) == step.before
        for r, c, state in step.cells:
            assert grid[r, c] == 0
            assert (state == BLACK_CONC) == result.solutions[0][r, c]
            grid[r, c] = state
    assert np.array_equal(grid, result.grid)
    assert result.difficulty == "line"


def test_difficulty_levels():
    dom = _pattern("domino_logic.txt", "3-Dom")
    rated = rate(dom)
    assert rated.status == "unique" and rated.difficulty in ("probing", "search")
    assert any(s.kind in ("probe", "search") for s in rated.steps)
    easy = read_entries(DATA / "webpbn-00001-dancer.non")[0]
    assert rate(easy).difficulty == "line"


def test_givens_and_contradiction_marks():
    puzzle = Puzzle.from_clues([[1], [1]], [[1], [1]])
    givens = np.zeros((2, 2), np.uint8)
    givens[0, 0] = BLACK
    result = solve(puzzle, givens=givens)
    assert result.status == "unique" and result.solutions[0].tolist() == [[1, 0], [0, 1]]
    givens[0, 1] = BLACK
    clash = solve(puzzle, givens=givens)
    assert clash.status == "contradiction"
    assert ((clash.grid & COLOUR) == DISCREPANCY).any()


def test_discrepancy_cells_point_at_the_clash():
    puzzle = Puzzle.from_clues([[3]], [[1], [1], [1]])
    board = Board(puzzle)
    board.set_cell(0, 1, False)
    with pytest.raises(Contradiction):
        board.propagate()
    assert discrepancy_cells(board, 0) == [(0, 1)]


@pytest.mark.parametrize("method", ["logic", "auto"])
def test_time_limit_stops_cleanly(method):
    puzzle = (
        dom(9)
        if method == "logic"
        else Puzzle.from_solution(np.random.default_rng(3).random((150, 150)) < 0.5)
    )
    start = time.perf_counter()
    result = solve(puzzle, time_limit=0.2, method=method)
    assert time.perf_counter() - start < 3
    assert result.status == "timeout"
    assert result.grid.shape == (puzzle.height, puzzle.width)
    assert not ((result.grid != 0) & (result.grid & CONC == 0)).any(), "only proved cells"
    known = result.to_json()["known"]  # --json kept only "solutions": [] of a stopped run
    assert known == result.grid_rows() and len(known) == puzzle.height
    assert all(len(row) == puzzle.width and set(row) <= set("#.?") for row in known)


def test_dom_family_matches_the_pattern_file():
    for entry in read_entries(DATA / "domino_logic.txt"):
        n = int(entry.meta["name"].split("-")[0])
        assert (dom(n).rows, dom(n).cols) == (entry.rows, entry.cols)
    for n in (10, 11):
        result = solve(dom(n))
        assert result.status == "unique" and dom(n).is_solution(result.solutions[0])


@st.composite
def boards_with_givens(draw):
    h = draw(st.integers(2, 12))
    w = draw(st.integers(2, 12))
    cells = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    picture = np.array(cells, bool).reshape(h, w)
    keep = draw(st.lists(st.booleans(), min_size=h * w, max_size=h * w))
    givens = np.where(picture, BLACK, WHITE).astype(np.uint8)
    givens[~np.array(keep, bool).reshape(h, w)] = 0
    return picture, givens


@given(boards_with_givens())
@settings(max_examples=150, deadline=None)
def test_sat_encoding_respects_clues_and_givens(case):
    picture, givens = case
    puzzle = Puzzle.from_solution(picture)
    fast = solve(puzzle, max_solutions=5, givens=givens, method="sat")
    assert fast.solutions, "the picture itself satisfies the clues and the givens"
    for s in fast.solutions:
        assert puzzle.is_solution(s)
        assert not (s & (givens == WHITE)).any() and (s | (givens != BLACK)).all()
    logic = solve(puzzle, max_solutions=5, givens=givens, method="logic")
    assert len(logic.solutions) == len(fast.solutions)


def test_taai_fixture_solutions_satisfy_the_clues():
    from xlsolver.formats import read_taai_solutions

    puzzles = read_entries(DATA / "taai2011-first3-questions.txt")
    refs = read_taai_solutions(DATA / "taai2011-first3-solutions.txt")
    for puzzle, ref in zip(puzzles, refs, strict=True):
        result = solve(puzzle, max_solutions=3)
        assert result.solutions and all(puzzle.is_solution(s) for s in result.solutions)
        if result.status == "unique":
            assert np.array_equal(result.solutions[0], ref)
        else:
            assert result.status == "multiple"


def test_sat_solutions_of_random_20x20_boards_satisfy_the_clues():
    rng = np.random.default_rng(7)
    for _ in range(15):
        puzzle = Puzzle.from_solution(rng.random((20, 20)) < 0.5)
        result = solve(puzzle, max_solutions=3, method="sat")
        assert result.solutions
        assert all(puzzle.is_solution(s) for s in result.solutions)


def test_symmetric_clues_are_searched_symmetric_first_without_losing_solutions():
    from xlsolver.nonogram.sat import symmetric_pairs

    framed = np.zeros((6, 6), bool)
    framed[:5, :5] = [
        [1, 1, 0, 0, 1],
        [0, 1, 0, 1, 1],
        [0, 0, 1, 0, 0],
        [1, 1, 0, 1, 0],
        [1, 0, 0, 1, 1],
    ]  # turns into itself by a quarter turn; an empty last row and column frame it
    puzzle = Puzzle.from_solution(framed)
    assert symmetric_pairs(Board(puzzle)), "a quarter-turn symmetry of the clues"
    result = solve(puzzle, max_solutions=100, method="sat")
    assert len(result.solutions) == brute_count(puzzle)
    assert all(puzzle.is_solution(s) for s in result.solutions)
    diagonal = Puzzle.from_solution(np.eye(2, dtype=bool))  # symmetric clues, no symmetric answer
    assert len(solve(diagonal, max_solutions=10, method="sat").solutions) == 2


def test_hard_board_escalation_probing_kissat_child_gives_the_same_verdicts(monkeypatch):
    import xlsolver.nonogram.sat as sat

    monkeypatch.setattr(sat, "ESCALATE_CONFLICTS", 0)  # escalate at once
    rng = np.random.default_rng(11)
    for _ in range(12):
        puzzle = Puzzle.from_solution(rng.random((5, 5)) < 0.5)
        result = solve(puzzle, max_solutions=20, method="sat")
        assert len(result.solutions) == brute_count(puzzle)
        assert all(puzzle.is_solution(s) for s in result.solutions)
        assert len({s.tobytes() for s in result.solutions}) == len(result.solutions)
    impossible = Puzzle.from_clues([[1, 1], [1, 1], [1, 1]], [[], [3], [3]])
    assert solve(impossible, method="sat").status == "contradiction"


def _killed_child(real, victim: str, how: str = "SIGKILL"):
    """A child solve that dies by ``how`` (SIGKILL: as the system's out-of-memory killer
    ends a process; SIGTERM: as ``kill PID`` does) when it runs ``victim``; other
    solvers run as usual."""
    import os
    import signal

    def child(conn, clauses, name, phases):
        if name == victim:
            os.kill(os.getpid(), getattr(signal, how))
        real(conn, clauses, name, phases)

    return child


@pytest.mark.parametrize(
    "victim, how",
    [("kissat404", "SIGKILL"), ("cadical195", "SIGKILL"), ("cadical195", "SIGTERM")],
)
def test_a_solver_child_killed_from_outside_is_told_and_minisat_goes_on(monkeypatch, victim, how):
    """A Kissat (or CaDiCaL) child killed by the system had MiniSat go on without a word:
    a run looked stuck, or a second solution's search was reported as a time limit
    reached where there was none. Now the search goes on in MiniSat and says why; a
    SIGTERM sent to the child alone (not to the run) is no stop either."""
    import xlsolver.nonogram.sat as sat

    monkeypatch.setattr(sat, "ESCALATE_CONFLICTS", 0)  # probing and Kissat at once
    monkeypatch.setattr(sat, "_child_solve", _killed_child(sat._child_solve, victim, how))
    rng = np.random.default_rng(11)
    told = 0
    for _ in range(6):
        puzzle = Puzzle.from_solution(rng.random((5, 5)) < 0.5)
        result = solve(puzzle, max_solutions=20, method="sat")
        assert len(result.solutions) == brute_count(puzzle), result.status
        assert all(puzzle.is_solution(s) for s in result.solutions)
        assert result.status in ("unique", "multiple"), result.status
        if result.notes:
            told += 1
            solver = "Kissat" if victim == "kissat404" else "CaDiCaL"
            assert result.notes == [
                f"{solver}'s process ended without an answer (killed by {how}; was the "
                "system short of memory?): MiniSat "
                + (
                    "searched instead, without a budget, so this run may take longer and "
                    "show other solutions than a run where Kissat finishes"
                    if victim == "kissat404"
                    else "looked for another solution instead"
                )
            ]
            assert result.to_json()["notes"] == result.notes
    assert told, "no puzzle reached the killed solver"


def test_check_tells_of_a_solver_child_killed_from_outside(monkeypatch, tmp_path, capsys):
    """check's verdict came from a search whose Kissat child was killed, without a word."""
    import xlsolver.nonogram.sat as sat
    from xlsolver.cli import main
    from xlsolver.formats import write_puzzle

    monkeypatch.setattr(sat, "ESCALATE_CONFLICTS", 0)
    monkeypatch.setattr(sat, "_child_solve", _killed_child(sat._child_solve, "kissat404"))
    rng = np.random.default_rng(11)
    for _ in range(6):  # the first that leaves cells to the search
        puzzle = Puzzle.from_solution(rng.random((5, 5)) < 0.5)
        if solve(puzzle, method="sat").notes:
            break
    else:
        pytest.fail("no puzzle reached the killed solver")
    write_puzzle(puzzle, tmp_path / "p.non")
    capsys.readouterr()
    main(["check", str(tmp_path / "p.non")])
    err = capsys.readouterr().err
    assert f"xlsolver: {tmp_path / 'p.non'}: Kissat's process ended without an answer" in err


def test_the_kissat_child_starts_spawned_where_fork_is_not_there(monkeypatch):
    """Windows has no fork: the child solver is spawned (a fresh interpreter) and gives
    the verdicts the forked one gives."""
    import multiprocessing as mp

    import xlsolver.nonogram.sat as sat

    monkeypatch.setattr(sat, "ESCALATE_CONFLICTS", 0)  # probing and Kissat at once
    rng = np.random.default_rng(5)
    puzzles = [Puzzle.from_solution(rng.random((6, 6)) < 0.5) for _ in range(3)]
    forked = [solve(p, max_solutions=20, method="sat") for p in puzzles]
    used: list[str] = []
    real = mp.get_context

    def context(method=None):
        used.append(method)
        return real(method)

    monkeypatch.setattr(sat, "child_start_method", lambda: "spawn")
    monkeypatch.setattr(mp, "get_context", context)
    for puzzle, want in zip(puzzles, forked, strict=True):
        got = solve(puzzle, max_solutions=20, method="sat")
        assert got.status == want.status
        assert sorted(s.tobytes() for s in got.solutions) == sorted(
            s.tobytes() for s in want.solutions
        )
        assert len(got.solutions) == brute_count(puzzle)
    assert used and set(used) == {"spawn"}


def test_the_progress_names_each_phase_and_ticks_while_kissat_runs(monkeypatch):
    """The phases a person sees (line logic, searching, probing, Kissat, the next
    solution), repeated while a child solver runs; the verdict is the same without them."""
    import xlsolver.nonogram.sat as sat

    if not sat.child_processes_allowed():
        pytest.skip("no child processes here")
    monkeypatch.setattr(sat, "ESCALATE_CONFLICTS", 0)  # probing and Kissat at once
    monkeypatch.setattr(sat, "TICK_SECONDS", 0.001)
    rng = np.random.default_rng(11)
    for _ in range(12):
        puzzle = Puzzle.from_solution(rng.random((8, 8)) < 0.5)
        quiet = solve(puzzle, method="sat")
        seen: list[tuple[float | None, str]] = []
        shown = solve(puzzle, method="sat", progress=lambda f, m, seen=seen: seen.append((f, m)))
        assert (shown.status, [s.tobytes() for s in shown.solutions]) == (
            quiet.status,
            [s.tobytes() for s in quiet.solutions],
        )
        messages = [m for _, m in seen]
        if "probing the open cells" in messages:
            break
    else:
        pytest.fail("no puzzle left cells open for the search")
    assert messages[:3] == ["line logic done", "searching", "probing the open cells"]
    kissat = [m for m in messages if m.startswith("searching with Kissat")]
    assert len(kissat) >= 2 and kissat[0].endswith("cells open)"), messages  # ticks
    assert all(0 <= f <= 1 for f, _ in seen if f is not None)

"""The compiled line-logic kernel finds exactly what the pure-Python reference finds.

The line solvers (one machine word for lines up to 63 cells, the cell-by-cell programme
for longer ones) are compared with :func:`xlsolver.nonogram.line.solve_line` on random
lines; whole-board propagation with the kernel on and off on real and random puzzles,
contradictions included (the same cells and the same line named); full solves (auto
and logic, difficulty included) the same; the policy loads numba only when the work
pays for it and never on the user's clock. (A traced propagation, the hints replay's,
never goes to the kernel.)
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("numba", reason="numba (the 'fast' extra) is not installed")

from xlsolver.formats import read_entries  # noqa: E402
from xlsolver.nonogram import kernel_policy  # noqa: E402
from xlsolver.nonogram.analyzer import solve  # noqa: E402
from xlsolver.nonogram.board import Board, Contradiction, Timeout  # noqa: E402
from xlsolver.nonogram.line import solve_line  # noqa: E402
from xlsolver.nonogram.puzzle import Puzzle, PuzzleError  # noqa: E402

DATA = Path(__file__).resolve().parent / "data"
FILES = [
    "webpbn-00001-dancer.non",
    "webpbn-00023-edge.non",
    "jwilk-data000.nin",
    "jwilk-data001.nin",
    "nonogram-db-webpbn-6.non",
    "taai2011-first3-questions.txt",
    "webpbn-faase.nin",
]


def kernel():
    """The compiled module (compiled or loaded from numba's cache)."""
    return kernel_policy.kernel()


def random_line(rng: random.Random, n: int) -> tuple[tuple[int, ...], int, int]:
    """Clues of a random row of n cells and some of its cells known (sometimes wrongly)."""
    cells = [rng.random() < rng.choice((0.3, 0.5, 0.7)) for _ in range(n)]
    clues, run = [], 0
    for black in [*cells, False]:
        if black:
            run += 1
        elif run:
            clues.append(run)
            run = 0
    black = white = 0
    for i, b in enumerate(cells):
        if rng.random() < 0.3:
            wrong = rng.random() < 0.05
            if b != wrong:
                black |= 1 << i
            else:
                white |= 1 << i
    if clues and rng.random() < 0.1:  # clues that may not fit at all
        j = rng.randrange(len(clues))
        clues[j] += rng.randrange(1, 4)
    return tuple(clues), black, white


def as_cells(n: int, black: int, white: int) -> np.ndarray:
    """A line's cells as the kernel holds them: 0 open, 1 black, 2 white."""
    return np.array(
        [1 if black >> i & 1 else 2 if white >> i & 1 else 0 for i in range(n)], dtype=np.uint8
    )


def kernel_solutions(n: int, clues: tuple[int, ...], black: int, white: int):
    """What the word solver (n <= 63) and the cell solver say: (black, white) or None each."""
    k = kernel()
    arr = np.array(clues, dtype=np.int32)
    size = len(clues)
    out = []
    if n <= k.WORD:
        scratch = (np.zeros(2 * size + 1, np.uint64), np.zeros(2 * size + 1, np.uint64))
        fits, b, w = k.solve_word(arr, size, n, np.uint64(black), np.uint64(white), *scratch)
        out.append((int(b), int(w)) if fits else None)
    cells = as_cells(n, black, white)
    fw = np.zeros((size + 1, n + 1), dtype=np.bool_)
    bw = np.zeros((size + 1, n + 1), dtype=np.bool_)
    wpre, cover = np.zeros(n + 1, np.int32), np.zeros(n + 1, np.int32)
    nb, nw = np.zeros(n, np.uint8), np.zeros(n, np.uint8)
    if k.solve_cells(cells, n, arr, size, fw, bw, wpre, cover, nb, nw):
        new_b = sum(1 << i for i in range(n) if nb[i])
        new_w = sum(1 << i for i in range(n) if nw[i])
        out.append((black | new_b, white | new_w))
    else:
        out.append(None)
    return out


def test_the_kernels_line_solvers_agree_with_the_reference_on_random_lines():
    rng = random.Random(11)
    contradictions = 0
    for _ in range(3000):
        n = rng.choice((1, 2, 3, 5, 8, rng.randrange(1, 64), 62, 63, 64, rng.randrange(64, 130)))
        clues, black, white = random_line(rng, n)
        ref = solve_line(clues, n, black, white)
        want = None if ref is None else (ref.black, ref.white)
        contradictions += want is None
        for got in kernel_solutions(n, clues, black, white):
            assert got == want, (n, clues, bin(black), bin(white))
    assert 300 < contradictions < 2700  # both outcomes were exercised


def propagated(puzzle: Puzzle, mode: str, monkeypatch, moves=()) -> tuple:
    """A board after propagation (then each move: a cell set and its lines propagated),
    with the kernel on or off: its masks, open cells and the line of a contradiction."""
    monkeypatch.setenv("XLSOLVER_KERNEL", mode)
    board = Board(puzzle)
    try:
        board.propagate()
        for r, c, black in moves:
            if board.cell_state(r, c) == 0:
                board.set_cell(r, c, black)
                board.propagate([r, board.h + c])
    except Contradiction as exc:
        return board.black, board.white, board.unknown, exc.line
    return board.black, board.white, board.unknown, None


def sample_puzzles(rng: random.Random) -> list[Puzzle]:
    """The shipped puzzles, random pictures up to 90 wide, and copies with a clue changed."""
    puzzles = [p for name in FILES for p in read_entries(DATA / name)]
    for _ in range(40):
        h, w = rng.randrange(1, 40), rng.randrange(1, 91)
        pic = np.array([[rng.random() < 0.55 for _ in range(w)] for _ in range(h)])
        puzzles.append(Puzzle.from_solution(pic))
    changed = []
    for p in puzzles:  # one row clue and one column clue a cell longer: the totals agree
        lines = [list(p.rows), list(p.cols)]
        for clues in lines:
            i = rng.randrange(len(clues))
            if clues[i]:
                clue = list(clues[i])
                clue[rng.randrange(len(clue))] += 1
                clues[i] = tuple(clue)
        try:
            changed.append(Puzzle.from_clues(*lines))
        except PuzzleError:
            pass  # a clue no longer fits its line, or one of the lines had none
    return puzzles + changed


def test_propagation_in_the_kernel_ends_where_the_reference_ends(monkeypatch):
    rng = random.Random(3)
    contradictions = 0
    for puzzle in sample_puzzles(rng):
        moves = [
            (rng.randrange(puzzle.height), rng.randrange(puzzle.width), rng.random() < 0.5)
            for _ in range(4)
        ]
        ref = propagated(puzzle, "off", monkeypatch, moves)
        got = propagated(puzzle, "on", monkeypatch, moves)
        assert got == ref, (puzzle.height, puzzle.width)
        contradictions += ref[3] is not None
    assert contradictions > 10


def test_a_solve_gives_the_same_verdict_with_the_kernel(monkeypatch):
    puzzles = [p for name in FILES[:6] for p in read_entries(DATA / name)]
    for puzzle in puzzles:
        for method in ("auto", "logic"):
            results = []
            for mode in ("off", "on"):
                monkeypatch.setenv("XLSOLVER_KERNEL", mode)
                r = solve(puzzle, method=method)
                results.append(
                    (r.status, [s.tobytes() for s in r.solutions], r.grid.tobytes(), r.difficulty)
                )
            assert results[0] == results[1]


def test_auto_loads_the_kernel_only_after_enough_line_work(monkeypatch):
    monkeypatch.delenv("XLSOLVER_KERNEL", raising=False)
    monkeypatch.setattr(kernel_policy, "_python_solves", 0)
    monkeypatch.setattr(kernel_policy, "_kernel", None)
    assert kernel_policy.handover_after(True) == -1
    puzzle = read_entries(DATA / "webpbn-00023-edge.non")[0]
    Board(puzzle).propagate()
    assert 0 < kernel_policy._python_solves < kernel_policy.KERNEL_AFTER_SOLVES
    monkeypatch.setattr(kernel_policy, "KERNEL_AFTER_SOLVES", kernel_policy._python_solves)
    assert kernel_policy.handover_after(True) == 0
    assert kernel_policy.handover_after(False) == kernel_policy.HANDOVER_SOLVES
    assert kernel_policy.handover_after(True, timed=True) == -1  # not loaded on the clock
    monkeypatch.setattr(kernel_policy, "_kernel", sys.modules[__name__])  # once loaded
    assert kernel_policy.handover_after(True, timed=True) == 0
    monkeypatch.setenv("XLSOLVER_KERNEL", "off")
    assert kernel_policy.handover_after(True) == -1


def test_a_small_puzzle_never_imports_numba_and_on_always_does(tmp_path):
    code = (
        "import sys; from xlsolver.cli import main; "
        "main(['solve', '--json', sys.argv[1]]); print('numba' in sys.modules)"
    )
    env = {k: v for k, v in os.environ.items() if k != "XLSOLVER_KERNEL"}
    for mode, want in ((None, "False"), ("on", "True")):
        if mode:
            env["XLSOLVER_KERNEL"] = mode
        run = subprocess.run(
            [sys.executable, "-c", code, str(DATA / "webpbn-00023-edge.non")],
            capture_output=True,
            text=True,
            env=env,
            timeout=300,
            check=False,
        )
        assert run.stdout.strip().splitlines()[-1] == want, run.stderr


def test_loading_the_kernel_freezes_what_numba_left_for_the_collector():
    """numba's import leaves some 100,000 objects for the life of the process; frozen,
    a full collection no longer walks them. Garbage already there (a cycle) is collected
    first, not frozen for good."""
    code = (
        "import gc, weakref; from xlsolver.nonogram import kernel_policy as k\n"
        "gc.disable()\n"  # only the load's own collection may free the cycle
        "class Node: pass\n"
        "a, b = Node(), Node(); a.other, b.other = b, a; gone = weakref.ref(a); del a, b\n"
        "before = gc.get_freeze_count(); assert k.kernel() is not None\n"
        "print(before, gc.get_freeze_count(), gone() is None)"
    )
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=300, check=False
    )
    before, after, collected = run.stdout.split()
    assert int(before) == 0 and int(after) > 50_000, run.stderr
    assert collected == "True"


def test_a_kernel_that_cannot_load_leaves_line_logic_in_python(monkeypatch):
    puzzle = read_entries(DATA / "webpbn-00023-edge.non")[0]
    want = propagated(puzzle, "off", monkeypatch)
    monkeypatch.setattr(kernel_policy, "_kernel", None)
    monkeypatch.setattr(kernel_policy, "_available", None)
    monkeypatch.setattr(kernel_policy, "failure", "")
    monkeypatch.setitem(sys.modules, "xlsolver.nonogram.kernel", None)  # import fails
    assert propagated(puzzle, "on", monkeypatch) == want
    assert "xlsolver.nonogram.kernel" in kernel_policy.failure
    assert kernel_policy.handover_after(True) == -1  # not tried again


def test_a_run_on_the_clock_never_loads_the_kernel(monkeypatch):
    """Loading cannot be stopped part way (about 4 s when numba compiles it first), so a
    run under the user's time limit uses a loaded kernel but never loads one."""
    monkeypatch.delenv("XLSOLVER_KERNEL", raising=False)
    monkeypatch.setattr(kernel_policy, "_kernel", None)
    monkeypatch.setattr(kernel_policy, "_python_solves", kernel_policy.KERNEL_AFTER_SOLVES)
    loads = []

    def load():
        loads.append(1)
        return None  # as if numba could not load: line logic goes on in Python

    monkeypatch.setattr(kernel_policy, "kernel", load)
    puzzle = read_entries(DATA / "webpbn-00023-edge.non")[0]
    timed = solve(puzzle, time_limit=60)
    assert loads == []
    untimed = solve(puzzle)
    assert loads, "without a time limit, enough line work loads it"
    assert (timed.status, timed.grid.tobytes()) == (untimed.status, untimed.grid.tobytes())


def test_the_time_limit_stops_the_kernel_between_chunks(monkeypatch):
    """The kernel hands back control every KERNEL_CHUNK line solves, and the user's
    deadline stops the run there, keeping only cells proved so far."""
    monkeypatch.setenv("XLSOLVER_KERNEL", "on")
    assert kernel_policy.kernel() is not None  # loaded (and compiled) before the clock runs
    monkeypatch.setattr(kernel_policy, "KERNEL_CHUNK", 1)
    puzzle = Puzzle.from_solution(np.random.default_rng(5).random((60, 60)) < 0.6)
    board = Board(puzzle)
    with pytest.raises(Timeout):
        board.propagate(None, None, 0, time.perf_counter() - 1)  # already past
    full = Board(puzzle)
    full.propagate()
    for line in range(board.h + board.w):  # what was proved is a part of the whole
        assert board.black[line] & ~full.black[line] == 0
        assert board.white[line] & ~full.white[line] == 0
    assert full.unknown < board.unknown

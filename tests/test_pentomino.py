"""Pentomino solver: known counts, valid tilings, symmetry, fixed pieces, limits."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys

import pytest

from xlsolver.pentomino.board import BoardError, check_board, named_board, parse_board, rectangle
from xlsolver.pentomino.pieces import LETTERS, identify
from xlsolver.pentomino.solver import LIMIT, TIMEOUT, Tiler

# Shapes drawn again here, independently of xlsolver.pentomino.pieces, to check tilings.
SHAPES = {
    "F": [".XX", "XX.", ".X."],
    "I": ["XXXXX"],
    "L": ["X...", "XXXX"],
    "N": ["XX..", ".XXX"],
    "P": ["XXX", "XX."],
    "T": ["XXX", ".X.", ".X."],
    "U": ["X.X", "XXX"],
    "V": ["X..", "X..", "XXX"],
    "W": ["X..", "XX.", ".XX"],
    "X": [".X.", "XXX", ".X."],
    "Y": ["..X.", "XXXX"],
    "Z": ["XX.", ".X.", ".XX"],
}
KNOWN = {  # board: (distinct, raw)
    "6x10": (2339, 9356),
    "5x12": (1010, 4040),
    "4x15": (368, 1472),
    "3x20": (2, 8),
    "8x8-hole": (65, 520),
}


def _norm(cells):
    top = min(r for r, _ in cells)
    left = min(c for _, c in cells)
    return frozenset((r - top, c - left) for r, c in cells)


def _all_orientations(rows, flips=True):
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch == "X"]
    out = set()
    for flip in (False, True) if flips else (False,):
        pts = [(r, -c) for r, c in cells] if flip else cells
        for _ in range(4):
            pts = [(c, -r) for r, c in pts]
            out.add(_norm(pts))
    return out


FREE_SHAPES = {k: _all_orientations(v) for k, v in SHAPES.items()}


def assert_tiling(board, solution, pieces=LETTERS):
    """Every board cell covered once; each letter's 5 cells form that pentomino."""
    assert set(solution) == set(board.cells)
    by_letter = {}
    for cell, letter in solution.items():
        by_letter.setdefault(letter, []).append(cell)
    assert sorted(by_letter) == sorted(pieces)
    for letter, cells in by_letter.items():
        assert len(cells) == 5, letter
        assert _norm(cells) in FREE_SHAPES[letter], letter
    for cell, letter in board.fixed.items():
        assert solution[cell] == letter


def _images(board, solution):
    """The solution under the symmetries of the square that map the board onto itself."""
    out = []
    for k in range(8):
        h, w = board.height, board.width
        img = dict(solution)
        if k & 4:
            img = {(r, w - 1 - c): v for (r, c), v in img.items()}
        for _ in range(k & 3):
            img = {(c, h - 1 - r): v for (r, c), v in img.items()}
            h, w = w, h
        if set(img) == set(board.cells):
            out.append(tuple(sorted(img.items())))
    return out


@pytest.mark.parametrize("name", list(KNOWN))
def test_known_counts(name):
    result = Tiler(named_board(name)).count()
    assert (result.distinct, result.raw) == KNOWN[name]
    assert result.complete


@pytest.mark.slow
@pytest.mark.parametrize("name", list(KNOWN))
def test_raw_counts_without_symmetry_breaking(name):
    tiler = Tiler(named_board(name))
    result = tiler.count(symmetry_breaking=False)
    assert result.raw == KNOWN[name][1]
    assert result.distinct == KNOWN[name][0]


def _exact_cover_rows(board):
    """The tiling problem as exact cover rows, built from this file's own shapes."""
    item = {cell: len(SHAPES) + k for k, cell in enumerate(sorted(board.cells))}
    rows = []
    for k, letter in enumerate(SHAPES):
        for shape in FREE_SHAPES[letter]:
            for r0, c0 in itertools.product(range(board.height), range(board.width)):
                cells = [(r0 + r, c0 + c) for r, c in shape]
                if all(cell in item for cell in cells):
                    rows.append([k] + [item[cell] for cell in cells])
    return rows


# Counted in a child process: numba (xcover) would otherwise stay in this one's memory.
OTHER_SOLVERS = {
    "miniexact": """
import json, sys, miniexact
rows = json.load(sys.stdin)
solver = miniexact.miniexacts_x()
ids = {i: None for row in rows for i in row}
for i in ids:
    ids[i] = solver.primary(f"i{i}")
for row in rows:
    solver.add([ids[i] for i in row])
found = 0
while solver.solve() == 10:  # 10: a solution; 20: no more
    found += 1
print(found)
""",
    "xcover": """
import json, sys
from xcover import covers
print(sum(1 for _ in covers(json.load(sys.stdin))))
""",
}


def _other_count(name, rows):
    pytest.importorskip(name, reason=f"{name} (the bench extra) absent")
    run = subprocess.run(
        [sys.executable, "-c", OTHER_SOLVERS[name]],
        input=json.dumps(rows),
        capture_output=True,
        text=True,
        check=True,
    )
    return int(run.stdout.split()[-1])


@pytest.mark.parametrize(
    "name,other",
    [
        ("8x8-hole", "miniexact"),
        pytest.param("8x8-hole", "xcover", marks=pytest.mark.slow),
        pytest.param("6x10", "miniexact", marks=pytest.mark.slow),
    ],
)
def test_raw_counts_agree_with_another_exact_cover_solver(name, other):
    """Raw counts (symmetry used inside) equal an unrestricted count by another solver."""
    board = named_board(name)
    expected = _other_count(other, _exact_cover_rows(board))
    assert expected == KNOWN[name][1]  # the published constant, as a check on the check
    assert Tiler(board).count(all_copies=True).raw == expected


def test_count_on_a_board_wider_than_a_machine_word():
    """A sparse board whose bounding box has over 64 cells is counted in packed bits."""
    board = parse_board(
        "\n".join(["#####....", *["........."] * 7, "....####.", "....#...."])
    )  # an I on top, an L at the bottom right: a 10x9 box
    assert board.height * board.width > 64
    tiler = Tiler(board, "IL")
    listed = tiler.solve(limit=None, all_copies=True).solutions
    counted = tiler.count()
    assert counted.raw == len(listed) == 1
    wide = parse_board("\n".join(["#####.....", *[".........."] * 6, *[".....#####"] * 3]))
    tiler = Tiler(wide, "ILPV")
    listed = tiler.solve(limit=None, all_copies=True).solutions
    assert len(listed) > 0
    assert tiler.count().raw == len(listed)
    for solution in listed:
        assert_tiling(wide, solution, "ILPV")


def test_all_distinct_tilings_of_4x15_are_valid_and_distinct():
    board = named_board("4x15")
    result = Tiler(board).solve(limit=None)
    assert result.complete and len(result.solutions) == 368
    classes = set()
    for solution in result.solutions:
        assert_tiling(board, solution)
        classes.add(min(_images(board, solution)))
    assert len(classes) == 368


def test_all_copies_of_3x20_and_4x15():
    for name in ("3x20", "4x15"):
        board = named_board(name)
        result = Tiler(board).solve(limit=None, all_copies=True)
        assert len({tuple(sorted(s.items())) for s in result.solutions}) == KNOWN[name][1]
        for solution in result.solutions[:50]:
            assert_tiling(board, solution)


def test_first_solution_is_a_tiling_of_every_board():
    for name in KNOWN:
        board = named_board(name)
        result = Tiler(board).solve()
        assert len(result.solutions) == 1 and result.status == LIMIT
        assert_tiling(board, result.solutions[0])


@pytest.mark.parametrize(
    "shape,pieces",
    [
        ("1x5", "I"),
        ("2x5", "LP"),
        ("2x5", "LY"),
        ("5x5", "ILPWY"),
        ("5x5", "FILUY"),
        ("3x5", "LUV"),
    ],
)
def test_distinct_counts_with_symmetric_tilings_and_subsets(shape, pieces):
    """Distinct counts (orbit breaking or Burnside) match brute canonicalisation."""
    board = named_board(shape)
    tiler = Tiler(board, pieces)
    every = tiler.solve(limit=None, all_copies=True).solutions
    classes = {min(_images(board, s)) for s in every}
    counted = tiler.count()
    assert counted.raw == len(every)
    assert counted.distinct == len(classes)
    listed = tiler.solve(limit=None).solutions
    assert len(listed) == len(classes)
    assert {min(_images(board, s)) for s in listed} == classes
    for solution in every:
        assert_tiling(board, solution, pieces)


def test_fixed_pieces_are_honoured():
    full = Tiler(named_board("4x15")).solve(limit=None, all_copies=True).solutions
    some = full[len(full) // 3]
    rows = [
        "".join(some[(r, c)] if some[(r, c)] in "XL" else "#" for c in range(15)) for r in range(4)
    ]
    board = parse_board("\n".join(rows))
    tiler = Tiler(board)
    assert tiler.letters == "FINPTUVWYZ"
    result = tiler.solve(limit=None)
    assert some in result.solutions
    for solution in result.solutions:
        assert_tiling(board, solution)
    # The same count by filtering every 4x15 tiling for these two pieces.
    expected = sum(all(s[cell] == letter for cell, letter in board.fixed.items()) for s in full)
    assert len(result.solutions) == expected
    assert tiler.count().raw == expected


def test_symmetric_fixed_piece_keeps_the_symmetry():
    # An X in the middle of a 5x12 is kept by the flip top/bottom only.
    rows = ["#" * 12 for _ in range(5)]
    rows[1] = "#" * 5 + "X" + "#" * 6
    rows[2] = "#" * 4 + "XXX" + "#" * 5
    rows[3] = "#" * 5 + "X" + "#" * 6
    board = parse_board("\n".join(rows))
    tiler = Tiler(board)
    assert len(tiler.syms) == 2
    counted = tiler.count()
    every = tiler.solve(limit=None, all_copies=True).solutions
    assert counted.raw == len(every)
    assert counted.distinct == len({min(_images(board, s)) for s in every})


def test_one_sided_uses_only_turns_of_the_drawn_pieces():
    board = named_board("4x15")
    tiler = Tiler(board, one_sided=True)
    counted = tiler.count()
    raw = tiler.count(all_copies=True).raw
    assert raw == counted.raw == counted.distinct * len(tiler.syms)
    assert len(tiler.syms) == 2  # turns only: identity and the half turn
    solutions = tiler.solve(limit=None, all_copies=True).solutions
    assert len(solutions) == raw
    for solution in solutions:
        assert_tiling(board, solution)
        for letter in LETTERS:
            cells = [cell for cell, v in solution.items() if v == letter]
            assert identify(cells, one_sided=True) == letter


def test_board_errors_name_the_reason():
    with pytest.raises(BoardError, match="63 cells.*exactly 60"):
        check_board(rectangle(7, 9))
    with pytest.raises(BoardError, match="not a multiple of 5"):
        check_board(rectangle(2, 7), pieces="LP")
    with pytest.raises(BoardError, match="cover 15"):
        check_board(rectangle(2, 5), pieces="LPT")
    with pytest.raises(BoardError, match="unknown piece"):
        check_board(rectangle(1, 5), pieces="Q")
    bad = parse_board("X#########\nXX########\nXX########\n" + "\n".join(["#" * 10] * 3))
    with pytest.raises(BoardError, match=r"r1c1 r2c1 r2c2 r3c1 r3c2 marked X form the P"):
        check_board(bad)
    with pytest.raises(BoardError, match="unknown board"):
        named_board("big")


def test_limit_and_time_limit_stop_cleanly():
    tiler = Tiler(named_board("6x10"))
    found = tiler.solve(limit=7)
    assert found.status == LIMIT and len(found.solutions) == 7
    timed = tiler.count(time_limit=0.05)
    assert timed.status == TIMEOUT and timed.raw < KNOWN["6x10"][1]
    listed = tiler.solve(limit=None, time_limit=0.05)
    assert listed.status == TIMEOUT and len(listed.solutions) < KNOWN["6x10"][0]
    for solution in listed.solutions:
        assert_tiling(tiler.board, solution)


def test_progress_is_monotonic_and_ends_at_one():
    seen = []
    Tiler(named_board("5x12")).count(progress=lambda f, m: seen.append(f))
    assert seen and seen[-1] == 1.0
    assert all(a <= b for a, b in itertools.pairwise(seen))
    assert all(0.0 <= f <= 1.0 for f in seen)


@pytest.mark.parametrize(("board", "pieces"), [("2x30", None), ("1x5", "L")])
def test_a_count_where_the_pinned_piece_has_no_place_is_zero(board, pieces, capsys):
    """``pentomino --board 2x30 --count`` ended in an IndexError traceback (the piece
    pinned to break the symmetry has no placement); it counts 0, as solving says none."""
    from xlsolver.cli import main

    extra = ["--pieces", pieces] if pieces else []
    assert main(["pentomino", "--board", board, "--count", *extra]) == 1
    out = capsys.readouterr().out
    assert f"{board}: 0 distinct tilings (0 counting symmetric copies)" in out

"""Pentomino solver speed: first tiling, counts, side by side with miniexact and xcover.

    python bench/bench_pentomino.py                      # every named board, in process
    python bench/bench_pentomino.py --repeat 5 --raw     # median (min–max) of 5, raw counts too
    python bench/bench_pentomino.py --boards 6x10 8x8-hole --other "miniexact -x -e {file}"

In process, for each named board: the first tiling, the count of distinct and raw tilings
(the X piece pinned to one placement per orbit), with ``--raw`` the raw count as
``--all-copies`` runs it and with no symmetry breaking at all, and the same exact cover
problem solved by ``miniexact`` (C, Algorithm X) and ``xcover`` (numba, Algorithm C) when
installed (``pip install -e '.[bench]'``): X pinned, and with ``--raw`` unrestricted.
Every count is checked against xlsolver's.

``--other CMD`` instead runs ``xlsolver pentomino --board B --count`` (``--all-copies``
with ``--raw``) and CMD alternately as whole processes; ``{file}`` is the board's exact
cover problem in Knuth's DLX format (X pinned; unrestricted with ``--raw``), ``{board}``
its name. The table gives both medians and their ratio.
"""

from __future__ import annotations

import argparse
import re
import tempfile
from pathlib import Path

import _runner

from xlsolver.pentomino.board import NAMED_BOARDS, named_board
from xlsolver.pentomino.pieces import LETTERS
from xlsolver.pentomino.solver import Tiler

SOLUTIONS = re.compile(r"Found (\d+) solutions")  # miniexact -e's closing line


def exact_cover_rows(tiler: Tiler, pinned: bool) -> list[list[int]]:
    """Options as item lists: 12 piece items then one item per free cell."""
    cells = sorted(tiler.board.free_cells)
    item = {cell: len(LETTERS) + i for i, cell in enumerate(cells)}
    rows = []
    for letter, masks in tiler.placements.items():
        if pinned and letter == tiler.breaker:
            masks = [m for m, _ in tiler.orbits(letter)]
        for m in masks:
            rows.append([LETTERS.index(letter)] + [item[c] for c in tiler.cells(m)])
    return rows


def dlx_text(rows: list[list[int]]) -> str:
    """The problem in Knuth's DLX format: the items, then one option a line."""
    items = sorted({i for row in rows for i in row})
    lines = [" ".join(f"i{i}" for i in items)]
    lines += [" ".join(f"i{i}" for i in row) for row in rows]
    return "\n".join(lines) + "\n"


def run_miniexact(rows: list[list[int]]) -> int:
    """Count solutions with miniexact's Algorithm X."""
    import miniexact

    solver = miniexact.miniexacts_x()
    ids = {}
    for row in rows:
        for i in row:
            if i not in ids:
                ids[i] = solver.primary(f"i{i}")
    for row in rows:
        solver.add([ids[i] for i in row])
    count = 0
    while solver.solve() == 10:  # 10 = a solution, 20 = no more (SAT convention)
        count += 1
    return count


def run_xcover(rows: list[list[int]]) -> int:
    """Count solutions with xcover's covers()."""
    from xcover import covers

    return sum(1 for _ in covers(rows))


def available_others() -> dict:
    """The in-process solvers that import (each warmed up once: import, JIT)."""
    others = {}
    for name, fn in (("miniexact", run_miniexact), ("xcover", run_xcover)):
        try:
            fn(exact_cover_rows(Tiler(named_board("3x20")), True))
            others[name] = fn
        except ImportError as exc:
            _runner.note(f"{name} not available: {exc}")
    return others


def in_process_row(name: str, args, others: dict) -> list[str]:
    """One board's cells of the in-process table."""
    tiler = Tiler(named_board(name))
    first, _ = _runner.repeat_call(lambda: tiler.solve(limit=1), max(args.repeat, 3))
    counted_t, counted = _runner.repeat_call(tiler.count, args.repeat)
    row = [name, first.cell(1000, 1), counted_t.cell(), counted.distinct, counted.raw]
    if args.raw:
        raw_t, raw = _runner.repeat_call(lambda: tiler.count(all_copies=True), args.repeat)
        assert raw.raw == counted.raw, (name, raw.raw)
        bare_t, bare = _runner.repeat_call(
            lambda: tiler.count(all_copies=True, symmetry_breaking=False), args.repeat
        )
        assert bare.raw == counted.raw, (name, bare.raw)
        row += [raw_t.cell(), bare_t.cell()]
    for fn in others.values():
        for pinned in (True, False) if args.raw else (True,):
            rows = exact_cover_rows(tiler, pinned)
            timing, found = _runner.repeat_call(lambda r=rows, f=fn: f(r), args.repeat)
            if not pinned:
                assert found == counted.raw, (name, found)
            row += [timing.cell()] + ([found] if pinned else [])
    return row


def in_process(args) -> None:
    """The table of in-process timings."""
    others = {} if args.no_others else available_others()
    headers = ["board", "first ms", "count s", "distinct", "raw"]
    if args.raw:
        headers += ["raw s", "raw s, no symmetry"]
    for name in others:
        headers += [f"{name} s (X pinned)", "(found)"] + ([f"{name} raw s"] if args.raw else [])
    rows = [in_process_row(name, args, others) for name in args.boards]
    _runner.print_table(headers, rows)
    _runner.note(
        "count s: distinct and raw together; others solve the same X-pinned problem, whose"
        " (found) equals distinct except where the pinned X sits on a symmetry axis"
    )


def _count_said(output: str) -> str:
    """The numbers of xlsolver's count line (``2339 distinct … (9356 …)``)."""
    for line in output.splitlines():
        if "tilings" in line:
            return " / ".join(re.findall(r"\b\d+\b(?= (?:distinct|tilings|counting))", line))
    return "?"


def side_by_side(args) -> None:
    """Whole processes, alternately: xlsolver against ``--other``."""
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.boards:
            tiler = Tiler(named_board(name))
            path = Path(tmp) / f"{name}.dlx"
            path.write_text(dlx_text(exact_cover_rows(tiler, pinned=not args.raw)))
            ours = [*_runner.xlsolver_command(), "pentomino", "--board", name, "--count", "-q"]
            if args.raw:
                ours.append("--all-copies")
            theirs = _runner.fill(args.other, file=path, board=name)
            mine, other, out_mine, out_other = _runner.side_by_side(ours, theirs, args.repeat)
            found = SOLUTIONS.search(out_other)
            rows.append(
                [
                    name,
                    mine.cell(),
                    other.cell(),
                    _runner.ratio(mine, other),
                    _count_said(out_mine),
                    found.group(1) if found else "?",
                ]
            )
    _runner.print_table(
        ["board", "xlsolver s", "other s", "ratio", "xlsolver says", "other found"], rows
    )
    _runner.note(f"other: {args.other}; whole-process wall time, start-up included")


def main() -> None:
    """Parse the options and print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", action="store_true", help="raw counts (all symmetric copies)")
    parser.add_argument("--no-others", action="store_true", help="skip miniexact and xcover")
    parser.add_argument("--boards", nargs="+", default=list(NAMED_BOARDS), choices=NAMED_BOARDS)
    _runner.add_arguments(parser)
    args = parser.parse_args()
    if args.other:
        side_by_side(args)
    else:
        in_process(args)


if __name__ == "__main__":
    main()

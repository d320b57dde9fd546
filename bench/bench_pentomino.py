"""Pentomino solver speed: first solution, counts, side by side with miniexact and xcover.

Run ``python bench/bench_pentomino.py [--raw] [--no-others]``. For each named board it
prints our first-solution time, the time to count distinct tilings (orbit breaking), the
distinct and raw counts, and the time of the same exact cover problem (the X piece
pinned to the same orbit representatives) in ``miniexact`` (C, Algorithm X) and
``xcover`` (numba, Algorithm C), when those packages are installed. ``--raw`` adds the
unrestricted raw count (no symmetry breaking) by each solver.
"""

from __future__ import annotations

import argparse
import time

from xlsolver.pentomino.board import NAMED_BOARDS, named_board
from xlsolver.pentomino.pieces import LETTERS
from xlsolver.pentomino.solver import Tiler

REPEATS = 3  # best of, for the short timings


def best(fn, repeats: int = REPEATS):
    """The smallest wall time of a few calls, and the last result."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        out = fn()
        times.append(time.perf_counter() - t0)
    return min(times), out


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


def main() -> None:
    """Print the table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--raw", action="store_true", help="also count without symmetry breaking")
    parser.add_argument("--no-others", action="store_true", help="skip miniexact and xcover")
    args = parser.parse_args()
    others = {}
    if not args.no_others:
        for name, fn in (("miniexact", run_miniexact), ("xcover", run_xcover)):
            try:
                fn(exact_cover_rows(Tiler(named_board("3x20")), True))  # import, JIT warm-up
                others[name] = fn
            except ImportError as exc:
                print(f"# {name} not available: {exc}")
    head = f"{'board':9} {'first ms':>9} {'count s':>8} {'distinct':>8} {'raw':>6}"
    if args.raw:
        head += f" {'raw s':>7}"
    for name in others:
        head += f" {name + ' s':>12} {'(found)':>8}"
        if args.raw:
            head += f" {name + ' raw s':>14}"
    print(head)
    for board_name in NAMED_BOARDS:
        tiler = Tiler(named_board(board_name))
        first, _ = best(lambda t=tiler: t.solve(limit=1))
        counted_s, counted = best(lambda t=tiler: t.count(), 1)
        line = (
            f"{board_name:9} {first * 1000:9.1f} {counted_s:8.2f}"
            f" {counted.distinct:8d} {counted.raw:6d}"
        )
        if args.raw:
            raw_s, raw = best(lambda t=tiler: t.count(all_copies=True), 1)
            assert raw.raw == counted.raw
            line += f" {raw_s:7.2f}"
        for fn in others.values():
            rows = exact_cover_rows(tiler, True)
            secs, found = best(lambda r=rows, f=fn: f(r), 1)
            line += f" {secs:12.2f} {found:8d}"
            if args.raw:
                rows = exact_cover_rows(tiler, False)
                secs, found = best(lambda r=rows, f=fn: f(r), 1)
                assert found == counted.raw
                line += f" {secs:14.2f}"
        print(line, flush=True)
    print(
        "# count s: distinct and raw counts together (X pinned to one placement per orbit);"
        " others solve the same pinned problem, (found) = their solutions, which equal"
        " distinct except where the pinned X sits on a symmetry axis (counted twice)"
    )


if __name__ == "__main__":
    main()

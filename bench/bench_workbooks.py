"""Workbook timings: one 30×30 workbook read+solve+paint+save, a batch of 100, and a
large sheet (a random 300×300 picture: its template written, then read back).

python bench/bench_workbooks.py [--count 100] [--jobs N] [--large 300]
"""

from __future__ import annotations

import argparse
import os
import tempfile
import time
from pathlib import Path

import numpy as np

from xlsolver.nonogram.puzzle import Puzzle
from xlsolver.sheets.openpyxl_sheet import new_book
from xlsolver.workbook.batch import SolveOptions, solve_workbook
from xlsolver.workbook.template import write_template

SIZE = 30


def picture(seed: int) -> np.ndarray:
    """A 30×30 picture of overlapping discs (mostly line-solvable, like real puzzles)."""
    rng = np.random.default_rng(seed)
    y, x = np.mgrid[0:SIZE, 0:SIZE]
    out = np.zeros((SIZE, SIZE), dtype=bool)
    for _ in range(6):
        cy, cx, r = rng.integers(0, SIZE, 2).tolist() + [int(rng.integers(3, 9))]
        out ^= (x - cx) ** 2 + (y - cy) ** 2 <= r * r
    return out


def write_books(folder: Path, count: int) -> list[Path]:
    """``count`` template workbooks of 30×30 puzzles."""
    paths = []
    for i in range(count):
        book = new_book()
        write_template(book.sheets()[0], Puzzle.from_solution(picture(i), f"Bench {i}"))
        paths.append(book.save(folder / f"bench{i:03}.xlsx"))
    return paths


def main() -> None:
    """Print a table of timings."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--count", type=int, default=100)
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--large", type=int, default=300, help="side of the large sheet (0: none)")
    args = parser.parse_args()
    from xlsolver.commands.solve_workbooks import _solve_all

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        (folder / "in").mkdir()
        paths = write_books(folder / "in", args.count)
        out = folder / "out"
        out.mkdir()
        singles = []
        for path in paths[:5]:
            start = time.perf_counter()
            report = solve_workbook(path, out / path.name, SolveOptions())
            singles.append(time.perf_counter() - start)
            assert report.exit_code == 0, report
        statuses = {}
        start = time.perf_counter()
        reports = _solve_all(paths, [out / p.name for p in paths], SolveOptions(), args.jobs, False)
        batch = time.perf_counter() - start
        for r in reports:
            for s in r.sheets:
                statuses[s.status] = statuses.get(s.status, 0) + 1
    print("| measure | value |\n| --- | --- |")
    print(
        f"| one 30×30 workbook read+solve+paint+save (median of 5) | {np.median(singles):.3f} s |"
    )
    print(f"| one 30×30 workbook, slowest of 5 | {max(singles):.3f} s |")
    print(f"| {args.count} workbooks, --jobs {args.jobs} | {batch:.2f} s |")
    print(f"| statuses | {statuses} |")
    if args.large:
        for label, seconds in large_sheet(args.large):
            print(f"| {label} | {seconds:.2f} s |")


def large_sheet(side: int) -> list[tuple[str, float]]:
    """Write the template of a random side×side picture, then open it and find its puzzle."""
    from xlsolver.workbook.files import open_book
    from xlsolver.workbook.layout import find_puzzles

    picture = np.random.default_rng(7).random((side, side)) < 0.55
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "large.xlsx"
        start = time.perf_counter()
        book = new_book()
        write_template(book.sheets()[0], Puzzle.from_solution(picture, "Large"))
        book.save(path)
        written = time.perf_counter() - start
        start = time.perf_counter()
        found = find_puzzles(open_book(path))
        read = time.perf_counter() - start
        assert found[0].puzzle.height == side and found[0].puzzle.width == side
    return [
        (f"{side}×{side} template written and saved", written),
        (f"{side}×{side} workbook opened and its puzzle found", read),
    ]


if __name__ == "__main__":
    main()

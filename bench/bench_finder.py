"""Benchmark the grid finder: time to find every puzzle of a workbook, per workbook.

    python bench/bench_finder.py                     # the layout corpus and spiral-50x50
    python bench/bench_finder.py FILE.xlsx ... --repeat 5

The workbook is opened once (openpyxl); the time is the finder alone — scan, rulers,
grids, bands, clues — the best of ``--repeat`` runs. The corpus is written into a
temporary folder by ``tests/corpus.py``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from xlsolver.sheets.errors import WorkbookError  # noqa: E402
from xlsolver.sheets.openpyxl_sheet import open_book  # noqa: E402
from xlsolver.workbook.layout import find_puzzles  # noqa: E402


def time_finder(path: Path, repeat: int) -> tuple[float, str]:
    """(best seconds, what was found) for one workbook."""
    book = open_book(path, read_only=True)
    best, found = float("inf"), ""
    for _ in range(repeat):
        start = time.perf_counter()
        try:
            puzzles = find_puzzles(book)
            found = ", ".join(f"{p.where} {p.width}×{p.height}" for p in puzzles)
        except WorkbookError as exc:
            found = f"error: {str(exc)[:60]}"
        best = min(best, time.perf_counter() - start)
    return best, found


def main(argv: list[str] | None = None) -> int:
    """Print one row per workbook and the total."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args(argv)
    files = list(args.files)
    if not files:
        from corpus import build_corpus

        folder = Path(tempfile.mkdtemp(prefix="bench-finder-"))
        files = [c.path for c in build_corpus(folder, libreoffice=False)]
        files.append(ROOT / "workbooks" / "spiral-50x50.xlsx")
    print(f"{'workbook':<32} {'ms':>8}  found")
    total = 0.0
    for path in files:
        seconds, found = time_finder(path, args.repeat)
        total += seconds
        print(f"{path.name:<32} {seconds * 1000:8.1f}  {found[:70]}")
    print(f"{'total (' + str(len(files)) + ' workbooks)':<32} {total * 1000:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

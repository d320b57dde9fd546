"""Colour benchmark: every shared colour puzzle solved in-process, as a workbook (convert,
solve, paint, save), and by pbnsolve side by side when it is installed.

    python bench/bench_colour.py                          # ../shared/puzzles/colour
    python bench/bench_colour.py FILE... --repeat 5
    python bench/bench_colour.py --pbnsolve /path/to/pbnsolve   # else $PBNSOLVE, else PATH

Columns: the in-process analyzer (median of ``--repeat`` runs), the workbook round trip
(convert to .xlsx, solve headless, paint, save; one run) and pbnsolve (a process per
run, median; the puzzle handed over as webpbn XML). Every solution is checked against
the clues; pbnsolve's picture (in the XML's display characters, our letters) must be ours.
pbnsolve is not shipped: build it from its public source in a scratch folder.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SHARED = (
    next(
        (p for p in (ROOT.parent / "shared", ROOT.parents[1] / "shared") if p.is_dir()),
        ROOT.parent / "shared",
    )
    / "puzzles"
    / "colour"
)  # beside the checkout (or beside a folder of worktrees)
PATTERNS = ("*.non", "*.xml", "*.toml")


def files(names: list[str]) -> list[Path]:
    """The files named, else every colour puzzle of the shared folder."""
    if names:
        return [Path(n) for n in names]
    return sorted(p for pattern in PATTERNS for p in SHARED.glob(pattern))


def find_pbnsolve(given: str | None) -> str | None:
    """The pbnsolve executable: the option, $PBNSOLVE, or PATH."""
    for candidate in (given, os.environ.get("PBNSOLVE"), shutil.which("pbnsolve")):
        if candidate and Path(candidate).is_file():
            return candidate
    return None


def picture_rows(stdout: str, height: int) -> list[str]:
    """The rows pbnsolve prints after its ``… SOLUTION:`` line."""
    lines = stdout.splitlines()
    for i, line in enumerate(lines):
        if "SOLUTION" in line:
            return lines[i + 1 : i + 1 + height]
    return []


def run_pbnsolve(exe: str, xml: Path, height: int, repeat: int) -> tuple[float, list[str]]:
    """Median seconds of pbnsolve on a file, and the picture it printed."""
    times, rows = [], []
    for _ in range(repeat):
        start = time.perf_counter()
        out = subprocess.run([exe, "-u", str(xml)], capture_output=True, text=True, check=False)
        times.append(time.perf_counter() - start)
        rows = picture_rows(out.stdout, height)
    return statistics.median(times), rows


def workbook_seconds(puzzle, folder: Path) -> tuple[float, str]:
    """One workbook round trip: write the colour sheet, solve it headless, paint, save."""
    from xlsolver.commands.convert import to_workbook
    from xlsolver.workbook.batch import SolveOptions, solve_workbook

    book, out = folder / "p.xlsx", folder / "solved.xlsx"
    for path in (book, out):
        path.unlink(missing_ok=True)
    start = time.perf_counter()
    to_workbook([puzzle], book)
    report = solve_workbook(book, out, SolveOptions())
    return time.perf_counter() - start, report.sheets[0].status if report.sheets else "error"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print one row per puzzle, then the totals."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("files", nargs="*", help="colour puzzle files (default: the shared set)")
    ap.add_argument("--repeat", type=int, default=5, help="runs per puzzle (median)")
    ap.add_argument("--pbnsolve", help="the pbnsolve executable")
    args = ap.parse_args(argv)
    sys.path.insert(0, str(ROOT))
    from xlsolver.formats import read_puzzles, write_puzzle
    from xlsolver.nonogram.analyzer import solve

    exe = find_pbnsolve(args.pbnsolve)
    print(f"pbnsolve: {exe or 'not found (give --pbnsolve or $PBNSOLVE)'}")
    head = f"{'puzzle':40} {'size':>6} {'k':>2} {'status':>8} {'ms':>7} {'sheet ms':>9}"
    print(head + (f" {'pbnsolve ms':>12} same" if exe else "") + "  check")
    bad, ours_total, theirs_total = 0, 0.0, 0.0
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        for path in files(args.files):
            (puzzle,) = read_puzzles(path)
            times, result = [], None
            for _ in range(args.repeat):
                start = time.perf_counter()
                result = solve(puzzle)
                times.append(time.perf_counter() - start)
            seconds = statistics.median(times)
            ours_total += seconds
            ok = bool(result.solutions) and all(puzzle.is_solution(s) for s in result.solutions)
            sheet, sheet_status = workbook_seconds(puzzle, folder)
            ok = ok and sheet_status == result.status
            size = f"{puzzle.width}x{puzzle.height}"
            row = (
                f"{path.name[:40]:40} {size:>6} {puzzle.palette.k:>2} {result.status:>8} "
                f"{seconds * 1000:7.1f} {sheet * 1000:9.0f}"
            )
            if exe:
                xml = folder / f"{path.stem}.xml"  # a new file each: no "replaced" notice
                write_puzzle(puzzle, xml)
                other, rows = run_pbnsolve(exe, xml, puzzle.height, args.repeat)
                theirs_total += other
                ours = puzzle.palette.rows_text(result.solutions[0]) if result.solutions else []
                same = rows == ours  # the XML's display characters are our letters
                ok = ok and same
                row += f" {other * 1000:12.1f} {'yes' if same else 'NO'}"
            bad += not ok
            print(row + f"  {'ok' if ok else 'FAILED'}", flush=True)
    print("-" * 90)
    line = f"total in-process {ours_total * 1000:.1f} ms"
    if exe:
        line += f"; pbnsolve {theirs_total * 1000:.1f} ms (a process each, start-up included)"
    print(line)
    print(f"checks failed: {bad}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())

"""``xlsolver solve``: decide puzzle files and workbooks (CONVENTIONS §5)."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED
from .options import Once, add_time_limit, solutions

HELP = (
    "solve puzzle files (.non, .nin, .mk, .g, .cwd, TAAI, GRID text, webpbn XML, TOML, JSON, "
    "Tatham Pattern game IDs and .sav files; colour puzzles too) and workbooks (.xlsx, .xlsm; "
    ".ods, .xls through LibreOffice)"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The solve command's options."""
    p.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="puzzle files or workbooks; a folder stands for those in it; wildcards are expanded",
    )
    p.add_argument("--json", action="store_true", help="one JSON object per puzzle per line")
    p.add_argument("--first", action="store_true", help="stop at the first solution")
    p.add_argument(
        "--count", type=solutions, metavar="N", help="count solutions up to N (default 2)"
    )
    add_time_limit(p, each="puzzle")
    p.add_argument(
        "--method",
        choices=("auto", "logic", "sat"),
        default="auto",
        help="auto: line logic + SAT (default); logic: line logic, probing, search",
    )
    p.add_argument("--blocks", action="store_true", help="print the grid with block characters")
    w = p.add_argument_group("workbooks")
    w.add_argument(
        "-o",
        "--output",
        metavar="FILE",
        help="a workbook name (.xlsx, .xlsm, .ods, .xls): write the painted workbook here "
        "(puzzle files: each puzzle laid out and painted); another name: the report",
    )
    w.add_argument(
        "--out-dir",
        metavar="DIR",
        help="write painted workbooks into this folder (a puzzle file: NAME.xlsx, laid out)",
    )
    w.add_argument("--in-place", action="store_true", help="paint the input workbook itself")
    w.add_argument("--sheet", metavar="NAME", action=Once, help="only this sheet")
    w.add_argument(
        "--range",
        metavar="SHEET!A1:Z30",
        action=Once,
        help="only the puzzle in this range of a sheet",
    )
    p.add_argument(
        "--jobs",
        type=int,
        metavar="N",
        help="puzzles and workbooks solved in parallel (default: all cores)",
    )
    w.add_argument(
        "--dask", metavar="ADDRESS", help="solve the workbooks on a Dask cluster (tcp://HOST:8786)"
    )
    w.add_argument("--givens", action="store_true", help="keep cells already painted as givens")
    w.add_argument("--answer-key", action="store_true", help="paint black, as an answer key")


def is_workbook(path: str) -> bool:
    """True for workbooks (.xlsx, .xlsm; .ods, .xls, .xlsb through LibreOffice)."""
    from ..workbook.files import is_workbook as workbook_suffix

    return workbook_suffix(path)


def run(args: argparse.Namespace) -> int:
    """Solve every input; the exit status is the worst of them."""
    from ..inputs import expand

    outputs = [x for x in (getattr(args, "output", None), getattr(args, "out_dir", None)) if x]
    if len(outputs) + bool(getattr(args, "in_place", False)) > 1:
        print("xlsolver: give only one of -o/--output, --out-dir and --in-place", file=sys.stderr)
        return EXIT_BAD_INPUT
    found = expand(args.inputs, leave_out=outputs)
    found.report()
    code = EXIT_BAD_INPUT if found.errors else EXIT_OK
    books = [p for p in found.paths if is_workbook(p)]
    files = [p for p in found.paths if not is_workbook(p)]
    if files and getattr(args, "in_place", False):
        for path in files:
            print(
                f"xlsolver: {path}: a puzzle file is not painted in place; write a painted "
                f"sheet with -o NAME.xlsx or --out-dir DIR",
                file=sys.stderr,
            )
        code, files = EXIT_BAD_INPUT, []
    if files and getattr(args, "out_dir", None):  # each laid out and painted: DIR/NAME.xlsx
        books, files = [p for p in found.paths if p in books or p in files], []
    args.folders = {p: found.relative_folder(p) for p in books if p in found.roots}
    output = getattr(args, "output", None)
    if output and not is_workbook(output):  # not a workbook's name: the report goes there
        return max(code, report_to_file(args, files, books))
    if files and books and output:
        print(
            "xlsolver: -o NAME.xlsx takes one workbook, or puzzle files; for both, use "
            "--out-dir DIR",
            file=sys.stderr,
        )
        return EXIT_BAD_INPUT
    if files and getattr(args, "dask", None):  # the cluster takes files to write in --out-dir
        print(
            f"xlsolver: --dask sends workbooks, and puzzle files with --out-dir, to the "
            f"cluster; solved here: {', '.join(files)}",
            file=sys.stderr,
        )
    if files and output:  # a workbook asked for: the puzzles laid out, painted
        from .solve_workbooks import paint_puzzle_files

        return max(code, paint_puzzle_files(args, files))
    if files:
        code = max(code, solve_files(args, files))
    if books:
        from .solve_workbooks import run_workbooks

        code = max(code, run_workbooks(args, [Path(p) for p in books]))
    return code


def report_to_file(args: argparse.Namespace, files: list[str], books: list[str] = ()) -> int:
    """``solve INPUTS -o REPORT``: what would be printed, written to REPORT
    (xlsolver.writes); workbooks are solved and reported, not painted."""
    import contextlib
    import io

    from ..writes import WriteError, check_output, write_text

    paths = [*files, *books]
    try:
        check_output(args.output, paths, in_place=bool(getattr(args, "in_place", False)))
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            code = solve_files(args, files) if files else EXIT_OK
            if books:
                from .solve_workbooks import run_workbooks

                report_only = argparse.Namespace(
                    **{**vars(args), "output": None, "report_to": args.output}
                )
                code = max(code, run_workbooks(report_only, [Path(p) for p in books]))
        write_text(args.output, out.getvalue(), paths)
    except WriteError as exc:
        print(f"xlsolver: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    return code


def solve_files(args: argparse.Namespace, paths: list[str]) -> int:
    """Solve puzzle files, printing text or JSON lines; a batch goes on after a bad puzzle.

    The puzzles are solved by ``--jobs`` worker processes (all cores by default) when
    there are several; each is solved alone, as in one process, and printed in order.
    """
    from ..formats import FormatError, error_line, read_entries, shown_name
    from ..nonogram.result import CONTRADICTION, INVALID, TIMEOUT
    from ..processes import LOST_WORKER

    limit = 1 if args.first else args.count or 2
    options = (limit, args.time_limit, args.method)
    read: list[tuple[str, list]] = []
    code = EXIT_OK
    for path in paths:
        try:
            read.append((path, read_entries(path)))
        except (FormatError, OSError) as exc:  # reported in its place: a --json record too
            error = exc if isinstance(exc, FormatError) else FormatError(str(exc), path)
            read.append((path, [error]))
    puzzles = [e for _, entries in read for e in entries if not isinstance(e, FormatError)]
    bar = _bar(sum(len(entries) for _, entries in read))
    title = Path(read[0][0]).name if len(read) == 1 else "puzzle"
    with _solver(puzzles, options, _jobs(args, len(puzzles)), title) as results:
        for path, entries in read:
            for index, entry in enumerate(entries, 1):
                bar.update()
                record = {"source": path, "index": index}
                if isinstance(entry, FormatError):  # the keys of every record, unknown ones null
                    record.update(width=None, height=None, status=INVALID)
                    record.update(error=str(entry), solutions=[], seconds=None)
                    _emit(args, record, None, bar)
                    code = max(code, EXIT_BAD_INPUT)
                    continue
                try:
                    result = next(results)
                except LostWorker:
                    bar.write(
                        f"xlsolver: {path}{f' #{index}' if index > 1 else ''}: not solved: "
                        f"{LOST_WORKER}; nor were the puzzles after it",
                        file=sys.stderr,
                    )
                    bar.close()
                    return EXIT_BAD_INPUT
                record.update(result.to_json())
                if result.status == INVALID:
                    at, shown = error_line(entry), shown_name(path)  # "-": stdin
                    where = f"{shown}:{at}" if at else shown + (f" #{index}" if index > 1 else "")
                    record["error"] = f"{where}: {result.error}"
                    code = max(code, EXIT_BAD_INPUT)
                elif result.status in (CONTRADICTION, TIMEOUT):
                    code = max(code, EXIT_UNSOLVED)
                _emit(args, record, result, bar)
    bar.close()
    return code


def _jobs(args: argparse.Namespace, puzzles: int) -> int:
    """Worker processes for the puzzles: ``--jobs``, else every core; 1 for a single puzzle."""
    import os

    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    return max(1, min(jobs, puzzles))


def solve_one(puzzle, options: tuple, progress=None):
    """Solve one puzzle with (max_solutions, time_limit, method): a worker's task."""
    from ..nonogram.analyzer import solve

    limit, time_limit, method = options
    return solve(
        puzzle, max_solutions=limit, time_limit=time_limit, method=method, progress=progress
    )


@contextmanager
def _solver(puzzles: list, options: tuple, jobs: int, title: str = "") -> Iterator:
    """The results of the puzzles, in order: here, or from a pool of ``jobs`` workers.

    The pool takes a few puzzles at a time, so a run of hard puzzles does not hold up
    the others; results come back in order, so the output is that of one process.
    A single puzzle on a terminal gets a bar of its own, drawn once line logic is done
    and the search begins (what phase, how many cells known, the time it has taken).
    """
    if len(puzzles) == 1 and sys.stderr.isatty():
        from ..progress import LazyBar

        bar = LazyBar(title)
        try:
            result = solve_one(puzzles[0], options, progress=bar)
        finally:
            bar.close()  # gone before the answer is printed
        yield iter([result])
        return
    if jobs <= 1:
        yield (solve_one(p, options) for p in puzzles)
        return
    from ..processes import worker_pool

    with worker_pool(jobs) as pool:
        chunk = max(1, min(4, len(puzzles) // (4 * jobs)))  # every worker busy, even for few
        yield _guarded(pool.map(solve_one, puzzles, [options] * len(puzzles), chunksize=chunk))


class LostWorker(Exception):
    """A worker process ended unexpectedly (killed, out of memory): the pool is broken."""


def _guarded(results: Iterator) -> Iterator:
    """The pool's results, a broken pool said as LostWorker (not a traceback)."""
    from concurrent.futures.process import BrokenProcessPool

    try:
        yield from results
    except BrokenProcessPool:
        raise LostWorker from None


class _NoBar:
    """What solve_files needs of a tqdm bar, without importing tqdm (fast start)."""

    def update(self) -> None:
        """Nothing to show."""

    def write(self, text: str, file=None) -> None:
        """Print a line."""
        print(text, file=file)

    def close(self) -> None:
        """Nothing to close."""


def _bar(total: int):
    """A progress bar on a terminal for files of several puzzles (tqdm is imported then only)."""
    if total < 2 or not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="puzzle", file=sys.stderr, leave=False)


def _emit(args, record: dict, result, bar) -> None:
    """Print one puzzle's outcome as a JSON line or as text."""
    from ..nonogram.result import INVALID

    if record.get("status") == INVALID and record.get("error"):  # an input error: one line
        bar.write(f"xlsolver: {record['error']}", file=sys.stderr)
    name = f"{record['source']}" + (f" #{record['index']}" if record["index"] > 1 else "")
    for note in record.get("notes", ()):  # how the search went (a solver child killed)
        bar.write(f"xlsolver: {name}: {note}", file=sys.stderr)
    if args.json:
        bar.write(json.dumps(record, ensure_ascii=False), file=sys.stdout)
        return
    if result is None or result.status == INVALID:
        return
    lines = [f"{name}: {record['status']}"]
    if "width" in record:
        lines[0] += f" ({record['width']}×{record['height']}, {record['seconds']:.3f} s)"
    if record.get("error"):
        lines.append(f"  {record['error']}")
    if result is not None:
        text = result.text()
        palette = getattr(result, "palette", None)  # a colour result names its colours
        if args.blocks:
            text = text.replace(".", "·").replace("?", " ")
            text = text if palette is not None else text.replace("#", "█")
        if result.status != INVALID:
            lines.append(text)
        if palette is not None and result.status != INVALID:
            lines.append("  " + "  ".join(f"{c.letter} {c.name} {c.rgb}" for c in palette.inks))
        if result.solution_count > 1:
            lines.append(f"  ({result.solution_count} solutions found; the first is shown)")
    bar.write("\n".join(lines), file=sys.stdout)

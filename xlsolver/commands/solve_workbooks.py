"""``xlsolver solve`` for workbooks: solve every puzzle sheet, paint it, save a copy.

Called by :mod:`xlsolver.commands.solve` with the parsed arguments and the workbook paths.
Files are solved in parallel processes with one progress bar; a file with an unreadable
or invalid sheet is not written at all; the input file is never changed unless
``--in-place`` is given.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import sys
from collections.abc import Callable
from concurrent.futures import as_completed
from concurrent.futures.process import BrokenProcessPool
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK
from ..formats import STDIN
from ..processes import LOST_WORKER, Stopped, stop_received, worker_pool
from ..sheets.errors import WorkbookError
from ..sheets.xlsx_parts import left_out_note
from ..workbook.batch import FileReport, SolveOptions, solve_puzzle_files, solve_workbook
from ..workbook.files import (
    copy_name,
    is_lock_file,
    is_workbook,
    needs_office,
    open_in,
    out_folder,
    target_folder,
    unique_targets,
)
from ..writes import WRITTEN, WriteError, check_folder, clean_stale


def _options(args) -> SolveOptions:
    """SolveOptions from the command-line arguments (absent ones take defaults)."""
    return SolveOptions(
        sheet=getattr(args, "sheet", None),
        givens=bool(getattr(args, "givens", False)),
        answer_key=bool(getattr(args, "answer_key", False)),
        first=bool(getattr(args, "first", False)),
        time_limit=getattr(args, "time_limit", None),
        area=getattr(args, "range", None),
    )


def plan_targets(args, paths: list[Path]) -> list[Path | None]:
    """Where each painted workbook goes; ValueError for a contradictory request."""
    output = getattr(args, "output", None)
    out_dir = getattr(args, "out_dir", None)
    in_place = bool(getattr(args, "in_place", False))
    if sum(bool(x) for x in (output, out_dir, in_place)) > 1:
        raise ValueError("give only one of -o/--output, --out-dir and --in-place")
    if output:
        if len(paths) != 1:
            raise ValueError("-o/--output takes one workbook; use --out-dir for several")
        try:  # made for --out-dir's sub-folders, never for -o
            check_folder(output)
        except WriteError as exc:
            raise ValueError(f"{paths[0]} → {exc}") from None
        return [Path(output)]
    if out_dir:
        folder = out_folder(out_dir)  # the folder asked for by name
        within = getattr(args, "folders", None) or {}  # a folder's files keep its sub-folders
        targets = [folder / within.get(str(p), Path()) / _target_name(p) for p in paths]
        targets, notes = unique_targets(paths, targets)  # dancer.non beside dancer.xlsx
        for note in notes:
            print(f"xlsolver: {note}", file=sys.stderr)
        return targets
    if in_place:
        return list(paths)
    return [None] * len(paths)


def _target_name(path: Path) -> str:
    """The name of a painted copy in ``--out-dir``: a workbook's own name (or the format
    it is written in); a puzzle file's name with ``.xlsx`` (``stdin.xlsx`` for ``-``, a
    game ID's characters made safe)."""
    if is_workbook(path):
        return copy_name(path)
    text = str(path)
    if text == STDIN:
        return "stdin.xlsx"
    if not path.exists():  # a Pattern game ID typed as the argument
        return re.sub(r"[^\w.-]+", "_", text)[:60] + ".xlsx"
    return path.with_suffix(".xlsx").name


def _run_one(source: str, target: str | None, options: SolveOptions, in_place: bool) -> FileReport:
    """Worker: solve one workbook, or lay out and paint the puzzles of a puzzle file when
    there is a target (top level so a process pool can call it)."""
    try:
        if target is not None:
            try:
                target_folder(target)
            except WorkbookError as exc:
                return FileReport(source, error=f"{source} → {exc}")
        if target is not None and not is_workbook(source):
            return solve_puzzle_files([source], target, options)
        return solve_workbook(source, target, options, overwrite_input=in_place)
    except Exception as exc:  # a worker must report, not die with a traceback
        signum = stop_received()
        if signum is not None:  # a stop signal that pyuno turned into another error
            raise Stopped(signum) from None
        return FileReport(source, error=f"{source}: {type(exc).__name__}: {exc}")


LOST = f"not solved: {LOST_WORKER}; solve it again on its own"


def _solve_all(
    paths: list[Path],
    targets: list[Path | None],
    options: SolveOptions,
    jobs: int,
    in_place: bool,
    on_report: Callable[[FileReport], None] = lambda report: None,
) -> list[FileReport]:
    """Solve the files, in parallel when there are several, with one progress bar.

    Files LibreOffice reads (.ods, .xls, …) are solved in this process, one after the
    other, so that one LibreOffice serves the whole run; the others go to the pool.
    Each report goes to ``on_report`` in the order of the files, as soon as it and
    those before it are done, so a run stopped part way has said what it finished.
    A worker that dies (killed, out of memory) costs the files it had: each is reported.
    """
    from tqdm import tqdm

    calls = [
        (str(p), str(t) if t else None, options, in_place)
        for p, t in zip(paths, targets, strict=True)
    ]
    here = [i for i, p in enumerate(paths) if needs_office(p)]
    pooled = [i for i in range(len(calls)) if i not in set(here)]
    if len(pooled) < 2 or jobs <= 1:
        here, pooled = list(range(len(calls))), []
    reports: list[FileReport | None] = [None] * len(calls)
    disable = len(calls) < 2 or None
    told = 0  # the reports passed on so far, in the order of the files

    def done(i: int, report: FileReport) -> None:
        nonlocal told
        reports[i] = report
        bar.update()
        while told < len(reports) and reports[told] is not None:
            with tqdm.external_write_mode(file=sys.stderr):
                on_report(reports[told])
            told += 1

    try:
        with tqdm(total=len(calls), unit="file", disable=disable, file=sys.stderr) as bar:
            if pooled:
                with worker_pool(min(jobs, len(pooled))) as pool:
                    futures = {pool.submit(_run_one, *calls[i]): i for i in pooled}
                    for future in futures:  # named at once, if the run is stopped
                        future.add_done_callback(_note_written)
                    for i in here:  # LibreOffice files while the pool works
                        done(i, _run_one(*calls[i]))
                    for future in as_completed(futures):
                        i = futures[future]
                        try:
                            report = future.result()
                        except BrokenProcessPool:
                            report = FileReport(calls[i][0], error=f"{calls[i][0]}: {LOST}")
                        done(i, report)
            else:
                for i in here:
                    done(i, _run_one(*calls[i]))
    except Stopped:  # a worker killed while writing leaves its temporary file: removed
        for folder in {Path(t).parent for t in targets if t is not None}:
            clean_stale(folder)
        raise
    return [r for r in reports if r is not None]


def _missing_folders(out_dir: str | None) -> list[Path]:
    """The folders of ``--out-dir`` that do not exist yet, deepest first (``a/b/c`` of
    which only ``a`` exists: ``a/b/c``, ``a/b``)."""
    if not out_dir:
        return []
    missing = []
    folder = Path(out_dir)
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    return missing


def _note_written(future) -> None:
    """A worker's finished output, named when the run is stopped (its own process
    recorded it in a list the parent does not see)."""
    if future.cancelled() or future.exception() is not None:
        return
    target = future.result().target
    if target and target not in WRITTEN:
        WRITTEN.append(target)


def _print(report: FileReport, as_json: bool) -> None:
    """One line (or one JSON object) per sheet; file errors to stderr as well (after the
    sheets' lines when the puzzles were solved but the copy could not be written)."""
    _print_sheets(report, as_json)
    if report.error:
        if as_json:
            record = {  # the keys of every record, null where unknown
                "source": report.source,
                "index": 1,
                "width": None,
                "height": None,
                "status": "invalid",
                "solutions": [],
                "seconds": None,
                "error": report.error,
            }
            print(json.dumps(record, ensure_ascii=False))
        print(f"xlsolver: {report.error}", file=sys.stderr)


def _print_sheets(report: FileReport, as_json: bool) -> None:
    """The lines (or JSON objects) of a file's sheets."""
    for sheet in report.sheets:
        if sheet.status == "invalid":  # an input error: one line on stderr, file first
            print(f"xlsolver: {report.source}: {sheet.sheet}: {sheet.message}", file=sys.stderr)
            if not as_json:
                continue
        if as_json:
            record = {"source": report.source, "sheet": sheet.sheet, "index": sheet.index}
            record.update(sheet.record)
            if report.left_out:
                record["left_out"] = report.left_out
            print(json.dumps(record, ensure_ascii=False))
        else:
            size = f"{sheet.record['width']}×{sheet.record['height']}"
            where = f" → {report.target}" if report.target else ""
            place = sheet.record.get("range", sheet.sheet)
            print(
                f"{report.source} [{place}] {size}: {sheet.message} "
                f"({sheet.record['seconds']:.2f} s){where}"
            )
            for item in sheet.record.get("ignored", ()):  # rulers, totals, hidden sheets
                print(f"  not read as clues: {item}")


def _tell(report: FileReport, as_json: bool) -> None:
    """A file's lines, and what its copy left out, flushed: a pipe sees them at once."""
    _print(report, as_json)
    _say_left_out(report)
    sys.stdout.flush()


def _say_left_out(report: FileReport) -> None:
    """One line on stderr naming the parts of the input a written copy leaves out, and
    one for each sheet that would refuse paint in a run that writes nothing."""
    if report.left_out and report.target:
        print(left_out_note(report.source, report.left_out), file=sys.stderr)
    for note in report.notes:
        print(f"xlsolver: {note}", file=sys.stderr)


def run_workbooks(args, paths: list[Path]) -> int:
    """Solve workbook inputs as the solve command asked; the exit status of CONVENTIONS §5."""
    paths = [Path(p) for p in paths]
    for lock in [p for p in paths if is_lock_file(p)]:  # `*.xlsx` while Excel has one open
        print(
            f"xlsolver: {lock}: skipped: Excel's lock file, there while "
            f"{lock.name[2:]} is open in Excel",
            file=sys.stderr,
        )
        paths.remove(lock)
    if not paths:
        return EXIT_OK
    out_dir = getattr(args, "out_dir", None)
    made = _missing_folders(out_dir)  # removed again if nothing goes in
    try:
        targets = plan_targets(args, paths)
    except ValueError as exc:
        print(f"xlsolver: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    jobs = getattr(args, "jobs", None) or os.cpu_count() or 1
    in_place = bool(getattr(args, "in_place", False))
    if in_place:
        for path in paths:
            held = open_in(path)
            if held is not None:
                print(
                    f"xlsolver: {path}: open in {held[0]} ({held[1].name} beside it): painted "
                    f"in place now, it would be lost when {held[0]} saves the workbook; close "
                    f"it first, or write a painted copy with -o or --out-dir; nothing written",
                    file=sys.stderr,
                )
                return EXIT_BAD_INPUT
    as_json = bool(getattr(args, "json", False))
    address = getattr(args, "dask", None)
    if address:  # the same per-file work on a Dask cluster (xlsolver.workbook.distributed)
        from ..workbook.distributed import ClusterError, solve_on_cluster

        try:
            reports = solve_on_cluster(address, paths, targets, _options(args), in_place, _run_one)
        except ClusterError as exc:
            print(f"xlsolver: {exc}", file=sys.stderr)
            for folder in made:  # nothing written: not even the folders --out-dir named
                with contextlib.suppress(OSError):
                    folder.rmdir()
            return EXIT_BAD_INPUT
        for report in reports:
            _tell(report, as_json)
    else:
        reports = _solve_all(
            paths, targets, _options(args), jobs, in_place, lambda r: _tell(r, as_json)
        )
    reporting = getattr(args, "report_to", None)  # -o REPORT: the report is what is saved
    if not as_json and not reporting and not any(targets) and any(not r.error for r in reports):
        print(
            "(nothing written: use -o FILE, --out-dir DIR or --in-place to save the result)",
            file=sys.stderr,
        )
    return max((r.exit_code for r in reports), default=0)


def paint_puzzle_files(args, files: list[str]) -> int:
    """``solve PUZZLE-FILES -o BOOK.xlsx``: a template sheet per puzzle, solved and painted,
    saved as one workbook (.xlsx, .xlsm, .ods, .xls)."""
    report = solve_puzzle_files(files, args.output, _options(args), _puzzle_bar)
    _print(report, bool(getattr(args, "json", False)))
    return report.exit_code


def _puzzle_bar(total: int):
    """A progress bar over the puzzles laid out and solved, on a terminal, for several."""
    from tqdm import tqdm

    disable = total < 2 or not sys.stderr.isatty()
    return tqdm(total=total, unit="puzzle", disable=disable, file=sys.stderr, leave=False)

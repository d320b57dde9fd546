"""Solving workbook files: read every puzzle sheet, solve, paint, save to a new file."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED
from ..nonogram.result import CONTRADICTION, INVALID, TIMEOUT
from ..sheets.errors import WorkbookError
from .address import parse_range
from .answer import answer
from .files import close_book, open_book, save_copy
from .layout import check_unmerged, find_puzzles


@dataclass(frozen=True)
class SolveOptions:
    """How to solve the sheets of a workbook."""

    sheet: str | None = None  # only this sheet
    givens: bool = False  # cells already painted are kept as givens
    answer_key: bool = False  # paint black #000000, whites without crosses
    first: bool = False  # stop at the first solution (status "solved")
    time_limit: float | None = None  # seconds per sheet
    area: str | None = None  # only the puzzle in this range: "Sheet1!B3:P17" (--range)


@dataclass
class SheetReport:
    """The outcome for one puzzle sheet."""

    sheet: str
    index: int  # position of the sheet in the workbook, from 1
    status: str
    message: str
    record: dict  # Result.to_json() plus the painting summary
    verdict: str = ""  # the message without painting, for a file nothing is written of


@dataclass
class FileReport:
    """The outcome for one workbook file."""

    source: str
    target: str | None = None  # where the painted workbook was written, if anywhere
    sheets: list[SheetReport] = field(default_factory=list)
    error: str = ""  # a file-level error: nothing was written
    left_out: dict[str, int] = field(default_factory=dict)  # parts the copy lacks: {"image": 1}
    notes: list[str] = field(default_factory=list)  # said on stderr: why -o would be refused

    def nothing_written(self) -> None:
        """Word each puzzle's line for a file of which nothing was written (no -o, or the
        copy refused): its verdict, never "painted" (``unique solution``)."""
        for sheet in self.sheets:
            if sheet.verdict:
                sheet.message = sheet.verdict
                if "message" in sheet.record:
                    sheet.record["message"] = sheet.verdict

    @property
    def exit_code(self) -> int:
        """0 all decided, 1 a sheet had no solution or timed out, 2 unreadable or invalid."""
        if self.error or any(s.status == INVALID for s in self.sheets):
            return EXIT_BAD_INPUT
        if any(s.status in (CONTRADICTION, TIMEOUT) for s in self.sheets):
            return EXIT_UNSOLVED
        return EXIT_OK


class Unpainted:
    """A sheet read as it is and never painted: a run that writes nothing reports what
    painting would find (the same verdict and cells) without touching the document."""

    def __init__(self, sheet):
        self._sheet = sheet
        self.refusal = ""  # why painting it would be refused (a protected Calc sheet)

    def __getattr__(self, name: str):
        return getattr(self._sheet, name)

    def paint(self, cells, style) -> None:
        """Nothing: the run writes no file."""

    def check_unlocked(self, cells) -> None:
        """Nothing raised: a protected sheet is read and reported when nothing is painted;
        why a write would be refused is kept in :attr:`refusal`, to be said."""
        check = getattr(self._sheet, "check_unlocked", None)
        if check is None or self.refusal:
            return
        try:
            check(cells)
        except WorkbookError as exc:
            self.refusal = str(exc)


def with_file(source: str, message: str) -> str:
    """A message that starts with the file it is about (``FILE: Sheet1!B4: …``)."""
    first = message.split(": ", 1)[0]
    names_a_file = "!" not in first and " " not in first and bool(Path(first).suffix)
    if first.startswith(source) or names_a_file:
        return message
    return f"{source}: {message}"


def solve_workbook(
    source: str | Path,
    target: str | Path | None,
    options: SolveOptions = SolveOptions(),
    *,
    overwrite_input: bool = False,
) -> FileReport:
    """Solve every puzzle sheet of a workbook and save the painted copy to ``target``.

    Nothing is written when the file or a sheet is unreadable or invalid.
    """
    report = FileReport(str(source))
    try:
        book = open_book(source)
    except WorkbookError as exc:
        report.error = with_file(report.source, str(exc))
        return report
    try:
        _solve_book(book, report, target, options, overwrite_input, paint=target is not None)
    finally:
        close_book(book)  # a LibreOffice document is closed; the server stays for the run
    if report.target is None:
        report.nothing_written()
    return report


def solve_puzzle_files(
    sources: list[str],
    target: str | Path,
    options: SolveOptions = SolveOptions(),
    bar: Callable[[int], object] | None = None,
) -> FileReport:
    """Lay the puzzles of puzzle files out as template sheets (one per puzzle), solve and
    paint them, and save the workbook to ``target`` (``solve dancer.non -o dancer.xlsx``).
    ``bar(count)`` makes a progress display (``update()`` per puzzle, ``close()``).

    Nothing is written when a file cannot be read or a puzzle is invalid.
    """
    from ..formats import FormatError, read_puzzles, shown_name
    from .colour_paint import without_colour_note
    from .files import check_target, save_new
    from .puzzle_books import template_book

    names = [shown_name(s) for s in sources]
    shown = names if len(names) <= 3 else [names[0], f"{len(names) - 1} more files"]
    report = FileReport(", ".join(map(str, shown)))
    try:
        check_target(target)
        puzzles = [p for source in sources for p in read_puzzles(source)]
    except (FormatError, WorkbookError, OSError) as exc:
        report.error = str(exc)
        return report
    try:
        book = template_book(puzzles)
    except WorkbookError as exc:
        report.error = with_file(report.source, str(exc))
        return report
    progress = bar(len(puzzles)) if bar is not None else None
    try:
        _solve_book(book, report, None, options, False, progress.update if progress else None)
    finally:
        if progress is not None:
            progress.close()
    for sheet in report.sheets:  # the colours are the file's own, not a sheet's styling
        sheet.message = without_colour_note(sheet.message)
        if "message" in sheet.record:
            sheet.record["message"] = without_colour_note(sheet.record["message"])
    if report.exit_code != EXIT_BAD_INPUT:
        try:
            report.target = str(save_new(book, target, sources))
        except WorkbookError as exc:  # solved, but the copy cannot be written
            reason = str(exc)
            named = reason.startswith(str(target))
            report.error = f"{report.source} → {reason}" if named else reason
    if report.target is None:
        report.nothing_written()
    return report


def _solve_book(
    book,
    report: FileReport,
    target,
    options: SolveOptions,
    overwrite_input: bool,
    done: Callable[[], object] | None = None,
    *,
    paint: bool = True,
) -> None:
    """Solve, paint and save an open workbook, filling in the report (``done()`` after
    each puzzle). ``paint=False``: nothing will be written, so nothing is painted (a
    protected Calc sheet, which refuses paint, is still solved and reported)."""
    try:
        sheet, area = parse_range(options.area) if options.area else (options.sheet, None)
        found = find_puzzles(book, sheet=sheet or options.sheet, givens=options.givens, area=area)
        check_unmerged(book, found)
    except (WorkbookError, KeyError, ValueError) as exc:
        reason = str(exc).strip("'\"") if isinstance(exc, KeyError) else str(exc)
        report.error = with_file(report.source, reason)
        return
    positions = {s.name: i for i, s in enumerate(book.sheets(), start=1)}
    for sp in found:
        try:
            sheet = book.sheet(sp.sheet) if paint else Unpainted(book.sheet(sp.sheet))
            result, painted = answer(
                sheet,
                sp,
                first=options.first,
                time_limit=options.time_limit,
                answer_key=options.answer_key,
            )
        except WorkbookError as exc:  # a sheet that cannot be painted (Calc: protected)
            report.error = with_file(report.source, str(exc))
            return
        record = result.to_json()
        if painted.undecided and result.status not in (INVALID,):
            record["undecided"] = painted.undecided
        if painted.red:
            record["discrepancies"] = painted.red
        record["message"] = painted.message
        record["range"] = sp.where  # several puzzles on one sheet are told apart by it
        if sp.ignored:
            record["ignored"] = sp.ignored  # rulers skipped: "A6:A15 row numbers"
        report.sheets.append(
            SheetReport(
                sp.sheet,
                positions[sp.sheet],
                result.status,
                painted.message,
                record,
                painted.verdict,
            )
        )
        refusal = getattr(sheet, "refusal", "")
        if refusal:  # said now, not only once -o is tried: the sheet refuses paint
            report.notes.append(with_file(report.source, refusal))
        if done is not None:
            done()
    if target is not None and report.exit_code != EXIT_BAD_INPUT:
        try:
            report.target = str(save_copy(book, target, overwrite_input=overwrite_input))
            report.left_out = dict(getattr(book, "left_out", {}))
        except (WorkbookError, OSError) as exc:  # solved, but the copy cannot be written
            reason = f"{target}: {exc}" if isinstance(exc, OSError) else str(exc)
            named = reason.startswith(str(target))
            report.error = (
                f"{report.source} → {reason}" if named else with_file(report.source, reason)
            )

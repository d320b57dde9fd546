"""``xlsolver convert``: puzzle file → ready-to-solve workbook, and workbook → puzzle file."""

from __future__ import annotations

import sys
from dataclasses import replace
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK
from ..formats import FormatError, left_out, read_puzzles, write_puzzles
from ..nonogram.puzzle import Puzzle
from ..sheets.errors import WorkbookError
from ..workbook.batch import with_file
from ..workbook.files import (
    check_target,
    close_book,
    is_workbook,
    open_book,
    out_folder,
    save_new,
    target_folder,
    unique_targets,
)
from ..workbook.layout import check_unmerged, find_puzzles
from ..workbook.puzzle_books import template_book, titled
from ..writes import check_output
from .options import Once

HELP = (
    "convert between puzzle files (.non, .nin, .mk, .g, .cwd, TAAI, webpbn XML, JSON, …; "
    "Tatham Pattern game IDs and .sav files are read) and workbooks (.xlsx, .ods, …)"
)


def add_arguments(parser) -> None:
    """INPUT…, -o OUTPUT or --out-dir DIR --to EXT, --sheet, --format."""
    parser.add_argument(
        "inputs",
        nargs="+",
        metavar="INPUT",
        help="puzzle files or workbooks; a folder stands for those in it; wildcards are expanded",
    )
    where = parser.add_mutually_exclusive_group(required=True)
    where.add_argument("-o", "--output", help="the file to write (every puzzle of the inputs)")
    where.add_argument("--out-dir", metavar="DIR", help="one file per input, in this folder")
    parser.add_argument(
        "--to", metavar="EXT", help="with --out-dir: what to write (xlsx, ods, non, json, …)"
    )
    parser.add_argument("--sheet", action=Once, help="read only this sheet of a workbook")
    parser.add_argument("--format", help="puzzle format to write (default: from the extension)")
    parser.add_argument(
        "--in-place", action="store_true", help="allow -o to name the input file itself"
    )


def to_workbook(puzzles: list[Puzzle], output: Path, inputs=(), in_place: bool = False) -> None:
    """One template sheet per puzzle (colour clue cells in their colours), saved safely."""
    try:
        book = template_book(puzzles)
    except WorkbookError as exc:
        source = f"{inputs[0]}: " if len(inputs) == 1 else ""
        raise WorkbookError(f"{source}{exc}; {output} not written") from None
    save_new(book, output, inputs, in_place=in_place)


def read_source(source: Path, sheet: str | None) -> list[Puzzle]:
    """The puzzles of the input; WorkbookError/FormatError naming the file when not."""
    if not is_workbook(source):
        return read_puzzles(source)  # several: the writer says whether the target holds them
    book = open_book(source, read_only=True)
    try:
        from ..teaching.worksheet import sheet_title

        found = find_puzzles(book, sheet=sheet)
        check_unmerged(book, found)
        found, goal = _answer_key_as_goal(book, found)
        puzzles = [titled(book, f) for f in found]  # several: the writer says if they fit
        if goal is not None:  # a worksheet: titled as its title cell shows
            title = sheet_title(book, found[0]) or puzzles[0].title
            meta = {**puzzles[0].meta, "goal": goal}
            puzzles[0] = replace(puzzles[0], title=title, meta=meta)
        return puzzles
    except KeyError as exc:
        raise WorkbookError(with_file(str(source), str(exc.args[0]))) from None
    except WorkbookError as exc:
        raise WorkbookError(with_file(str(source), str(exc))) from None
    finally:
        close_book(book)


def _answer_key_as_goal(book, found: list) -> tuple[list, object]:
    """A worksheet ``make`` wrote holds its puzzle twice: on its own sheet, and painted on
    the Answer key sheet. That key is the puzzle's goal (a ``.non`` keeps it), not a second
    puzzle; a key sheet that does not solve the other sheet's clues stays a puzzle."""
    from ..teaching.grading import answer_key_picture, same_clues
    from ..teaching.worksheet import KEY_SHEET, VERDICT_SHEET

    keys = [f for f in found if f.sheet == KEY_SHEET]
    others = [f for f in found if f.sheet != KEY_SHEET]
    has_key = KEY_SHEET in [s.name for s in book.sheets()]  # also when --sheet picked Puzzle
    verdicts = [f for f in others if f.sheet == VERDICT_SHEET]
    if has_key and verdicts and len(others) == 2:  # a puzzle with several solutions: its
        puzzle = next(f for f in others if f.sheet != VERDICT_SHEET)  # verdict shows them
        if all(same_clues(v.puzzle, puzzle.puzzle) for v in verdicts):
            others = [puzzle]
    if len(keys) > 1 or len(others) != 1 or not has_key:
        return found, None
    picture = answer_key_picture(book, others[0])
    return (found, None) if picture is None else (others, picture)


def run(args) -> int:
    """Convert the inputs: into one file (-o), or each into a file of its own (--out-dir).

    Exit status 2 when any input cannot be read or written; one line for each.
    """
    from ..inputs import expand

    outputs = [x for x in (args.output, args.out_dir) if x]
    found = expand(args.inputs, leave_out=outputs)
    found.report()
    code = EXIT_BAD_INPUT if found.errors else EXIT_OK
    if not found.paths:
        return code
    in_place = bool(getattr(args, "in_place", False))
    if args.out_dir is None:
        if args.to:
            print("xlsolver: --to goes with --out-dir; -o names the file itself", file=sys.stderr)
            return EXIT_BAD_INPUT
        sources = [Path(p) for p in found.paths]
        return max(
            code, convert_into(sources, Path(args.output), args.sheet, args.format, in_place)
        )
    try:
        targets = plan_copies(found, args.out_dir, args.to)
    except (WorkbookError, ValueError) as exc:
        print(f"xlsolver: {exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    bar = _bar(len(targets))
    for source, target in targets:
        code = max(
            code, convert_into([source], target, args.sheet, args.format, in_place, bar, True)
        )
        bar.update()
    bar.close()
    return code


def plan_copies(found, out_dir: str, to: str | None) -> list[tuple[Path, Path]]:
    """(input, output) for each input: OUT_DIR/name.TO, a folder's sub-folders kept, two
    inputs of one name told apart (:func:`unique_targets`); ValueError without --to."""
    if not to:
        raise ValueError("--out-dir needs --to EXT: what to write (xlsx, ods, non, json, …)")
    suffix = "." + to.lower().lstrip(".")
    folder = out_folder(out_dir)
    sources = [Path(p) for p in found.paths]
    targets = [folder / found.relative_folder(p) / (_stem(p) + suffix) for p in found.paths]
    targets, notes = unique_targets(sources, targets)
    for note in notes:
        print(f"xlsolver: {note}", file=sys.stderr)
    return list(zip(sources, targets, strict=True))


def _stem(path: str) -> str:
    """The name a copy takes: the input's, ``stdin`` for ``-`` (a name starting with -
    would read as an option to the next command)."""
    from ..formats import shown_name

    return Path(shown_name(path)).stem


def convert_into(
    sources: list[Path],
    output: Path,
    sheet: str | None,
    fmt: str | None,
    in_place: bool,
    bar=None,
    copy: bool = False,
) -> int:
    """Every puzzle of the sources into one file; one line on success, exit status 2 with
    one line naming the file when one cannot be read or the output cannot be written (a
    ``copy`` of a folder's file also names its source)."""
    say = print if bar is None else bar.write
    try:
        if copy:
            target_folder(output)
        check_output(output, sources, in_place=in_place)
        if is_workbook(output):
            check_target(output)
        puzzles = []
        for source in sources:
            puzzles += read_source(source, sheet)
        if is_workbook(output):
            to_workbook(puzzles, output, sources, in_place)
        else:
            try:
                write_puzzles(puzzles, output, fmt, sources, in_place=in_place)
                for line in left_out(puzzles, output, fmt):
                    say(f"xlsolver: {output} leaves out {line}", file=sys.stderr)
            except FormatError as exc:
                if len(puzzles) > 1 and any(is_workbook(s) for s in sources):
                    reason = f"{exc.reason}; or pick one sheet with --sheet"
                    raise FormatError(reason, exc.path, exc.line) from None
                raise
        count = len(puzzles)
    except (WorkbookError, FormatError, ValueError, OSError) as exc:
        origin = f"{sources[0]} → " if copy and str(sources[0]) not in str(exc) else ""
        say(f"xlsolver: {origin}{exc}", file=sys.stderr)
        return EXIT_BAD_INPUT
    names = str(sources[0]) if len(sources) == 1 else f"{len(sources)} files"
    say(f"{names} → {output}: {count} puzzle{'s' if count != 1 else ''}")
    return EXIT_OK


class _NoBar:
    """The bar's calls, for one file or no terminal (tqdm is not imported then)."""

    write = staticmethod(print)

    def update(self) -> None:
        """Nothing to show."""

    def close(self) -> None:
        """Nothing to close."""


def _bar(total: int):
    """A progress bar on a terminal when several files are converted."""
    if total < 2 or not sys.stderr.isatty():
        return _NoBar()
    from tqdm import tqdm

    return tqdm(total=total, unit="file", file=sys.stderr, leave=False)

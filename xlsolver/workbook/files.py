"""Workbook files by format: .xlsx/.xlsm through openpyxl, .ods/.xls/.xlsb through
LibreOffice (headless, one server per command run), behind the same sheet protocol.

    book = open_book("week3.ods")        # an XlsxBook or a DocumentBook
    save_copy(book, "week3-solved.xlsx") # the target's suffix picks the format
    save_new(new_book(), "blank.ods")    # a book built with openpyxl, stored as .ods
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from ..sheets.errors import WorkbookError

if TYPE_CHECKING:
    from collections.abc import Sequence

    from ..sheets.protocol import Book

XLSX_SUFFIXES = (".xlsx", ".xlsm")
OFFICE_SUFFIXES = (".ods", ".xls", ".xlsb", ".fods")  # = libreoffice.documents.READ_SUFFIXES
WORKBOOK_SUFFIXES = XLSX_SUFFIXES + OFFICE_SUFFIXES
ODF_SUFFIXES = (".ods", ".fods")  # lengths in the file, not characters
UNWRITABLE = {".xlsb": ".xlsx"}  # formats read but not written: what a copy becomes


def is_workbook(path: str | os.PathLike) -> bool:
    """True for a file name xlsolver opens as a workbook."""
    return Path(path).suffix.lower() in WORKBOOK_SUFFIXES


def is_lock_file(path: str | os.PathLike) -> bool:
    """True for the small ``~$book.xlsx`` file Excel keeps beside a workbook it has open."""
    path = Path(path)
    if not path.name.startswith("~$") or not path.is_file():
        return False
    with path.open("rb") as fh:
        return fh.read(4) != b"PK\x03\x04"  # a real workbook is a zip, whatever its name


def open_in(path: str | os.PathLike) -> tuple[str, Path] | None:
    """(program, lock file) when a spreadsheet program has the workbook open: Excel's
    ``~$book.xlsx`` or LibreOffice's ``.~lock.book.xlsx#`` beside it; None otherwise."""
    path = Path(path)
    for program, name in (("Excel", f"~${path.name}"), ("LibreOffice", f".~lock.{path.name}#")):
        lock = path.with_name(name)
        if lock.is_file():
            return program, lock
    return None


def needs_office(path: str | os.PathLike) -> bool:
    """True for a workbook read and written through LibreOffice."""
    return Path(path).suffix.lower() in OFFICE_SUFFIXES


def check_out_folder(path: str | os.PathLike) -> Path:
    """The folder ``--out-dir`` names; WorkbookError when a file has that name (nothing
    is made)."""
    folder = Path(path)
    if folder.exists() and not folder.is_dir():
        raise WorkbookError(f"{folder}: --out-dir must be a folder; this is a file")
    return folder


def out_folder(path: str | os.PathLike) -> Path:
    """The folder ``--out-dir`` names, made when missing; WorkbookError when a file has
    that name or the folder cannot be made."""
    folder = check_out_folder(path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise WorkbookError(f"{folder}: cannot make this folder ({exc.strerror})") from None
    return folder


def unique_targets(
    sources: Sequence[Path], targets: Sequence[Path]
) -> tuple[list[Path], list[str]]:
    """The targets, no two alike, and a note for each one renamed.

    Workbooks claim their names first, then the others in order; a name taken already
    becomes the source's whole name with the target's suffix (``a.non`` beside ``a.xlsx``:
    ``a.non.xlsx``), else a number (``same (2).xlsx``: a third ``same.non`` from a third
    folder). The sub-folders the targets lie in are made by each file's own work
    (:func:`target_folder`), so one that cannot be made stops that file alone."""
    out = list(targets)
    seen: dict[Path, Path] = {}
    notes = []
    order = sorted(range(len(out)), key=lambda i: not is_workbook(sources[i]))
    for i in order:
        source, target = Path(sources[i]), out[i]
        if target in seen:
            whole = target.with_name(f"{source.name}{target.suffix}")
            k = 2  # a workbook keeps its suffix: dancer.xlsx twice is "dancer (2).xlsx"
            fresh = whole not in seen and source.suffix.lower() != target.suffix.lower()
            new = whole if fresh else None
            while new is None or new in seen:
                new = target.with_name(f"{target.stem} ({k}){target.suffix}")
                k += 1
            notes.append(f"{source} is written as {new} ({target} is {seen[target]}'s)")
            out[i] = new
        seen[out[i]] = source
    return out, notes


def target_folder(target: str | os.PathLike) -> None:
    """Make the folder an output goes into; WorkbookError naming it when it cannot be."""
    parent = Path(target).parent
    if str(parent) and not parent.is_dir():
        out_folder(parent)


def copy_name(path: str | os.PathLike) -> str:
    """The file name of a painted copy: the same name, unless the format cannot be written."""
    path = Path(path)
    suffix = UNWRITABLE.get(path.suffix.lower())
    return path.with_suffix(suffix).name if suffix else path.name


def open_book(path: str | os.PathLike, *, read_only: bool = False) -> Book:
    """Open a workbook file of any supported format; WorkbookError naming it when not."""
    if not is_workbook(path):
        _refuse_puzzle_file(path)
    if needs_office(path):
        from ..libreoffice.documents import open_document

        return open_document(path, read_only=read_only)
    from ..sheets.openpyxl_sheet import open_book as open_xlsx

    return open_xlsx(path, read_only=read_only)


def _refuse_puzzle_file(path: str | os.PathLike) -> None:
    """WorkbookError for a file named as a puzzle file (``dancer.non``), which the
    workbook reader would call text or CSV."""
    from ..formats import FormatError, detect_format

    try:
        fmt = detect_format(path)  # by its extension only
    except FormatError:
        return
    raise WorkbookError(
        f"{path}: a nonogram puzzle file ({fmt} format), not a workbook; this command "
        "reads a sheet (solve, convert, check, hints and make read puzzle files)"
    )


def close_book(book: Book) -> None:
    """Let go of a workbook (a LibreOffice document is closed; openpyxl needs nothing)."""
    close = getattr(book, "close", None)
    if close is not None:
        close()


def check_target(target: str | os.PathLike) -> None:
    """WorkbookError when a workbook cannot be written under this name (before any work)."""
    target = Path(target)
    suffix = target.suffix.lower()
    if suffix in XLSX_SUFFIXES:
        return
    if suffix in OFFICE_SUFFIXES:
        from ..libreoffice.documents import filter_for

        filter_for(target)
        return
    kinds = ", ".join(s for s in WORKBOOK_SUFFIXES if s not in UNWRITABLE)
    raise WorkbookError(f"{target}: a workbook is written as {kinds}")


def save_copy(book: Book, target: str | os.PathLike, *, overwrite_input: bool = False) -> Path:
    """Save an opened workbook under ``target`` in the format its suffix names: a
    LibreOffice document stores itself in any format; an openpyxl book writes .xlsx/.xlsm
    itself and goes through LibreOffice for .ods/.xls (it used to write its .xlsx bytes
    under any name). WorkbookError for a format that cannot be written."""
    check_target(target)
    if Path(target).suffix.lower() in XLSX_SUFFIXES or not hasattr(book, "wb"):
        return book.save(target, overwrite_input=overwrite_input)
    inputs = [book.path] if getattr(book, "path", None) is not None else []
    saved = save_new(book, target, inputs, in_place=overwrite_input)
    book.left_out = {}  # LibreOffice writes the copy: openpyxl's losses are not counted
    return saved


def save_new(book, target: str | os.PathLike, inputs=(), *, in_place: bool = False) -> Path:
    """Save a workbook built with openpyxl under ``target``, in the format its suffix names.

    .xlsx/.xlsm directly; .ods/.xls through LibreOffice (written as .xlsx to a private
    folder first, then stored in the target format). Every write goes through
    :mod:`xlsolver.writes`: never over one of ``inputs`` unless ``in_place``.
    """
    from ..sheets.openpyxl_sheet import workbook_bytes
    from ..writes import WriteError, check_output, write_bytes

    target = Path(target)
    check_target(target)
    try:
        check_output(target, inputs, in_place=in_place)
        kind = target.suffix if target.suffix.lower() in XLSX_SUFFIXES else ".xlsx"
        data = workbook_bytes(book.wb, target, kind)  # .ods/.xls: an .xlsx draft first
        if target.suffix.lower() in XLSX_SUFFIXES:
            return write_bytes(target, data, inputs, in_place=in_place)
    except WriteError as exc:
        raise WorkbookError(str(exc)) from None
    from ..libreoffice.documents import convert_copy, scratch_folder

    # An OpenDocument file stores lengths, not characters: the columns are set as wide as
    # Excel shows them, not as wide as Calc reads characters of its stand-in for Calibri.
    widths = book.column_widths() if target.suffix.lower() in ODF_SUFFIXES else {}
    with scratch_folder() as folder:
        draft = folder / "draft.xlsx"
        draft.write_bytes(data)
        return convert_copy(draft, target, inputs, in_place=in_place, widths=widths)

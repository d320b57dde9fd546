"""Workbook files that LibreOffice opens for the command line: .ods, .xls, .xlsb.

One headless LibreOffice serves a whole command run: it starts when the first such file
is opened (or written) and stops when the process ends (or at :func:`shutdown`). Files
are opened read-only and never stored over: a painted copy is stored to a temporary
file beside the target and renamed into place, in the format its name asks for
(``.ods`` stays ``.ods``, ``.xls`` stays ``.xls``).

Glossary
    DocumentBook  a Calc document opened from a file, behind the sheet protocol
    filter        LibreOffice's name for a file format it writes (``calc8`` = .ods)
"""

from __future__ import annotations

import atexit
import contextlib
import os
import shutil
import tempfile
from pathlib import Path

from ..inputs import workbook_file_problem
from ..sheets.errors import WorkbookError
from ..sheets.uno_sheet import UnoBook
from .server import (
    LibreOffice,
    LibreOfficeError,
    available,
    clean_stale_private,
    file_url,
    private_dir,
    props,
)

# What LibreOffice reads for us (the openpyxl back end takes .xlsx/.xlsm itself).
READ_SUFFIXES = (".ods", ".xls", ".xlsb", ".fods")
# The export filter for each format we write through LibreOffice.
FILTERS = {
    ".ods": "calc8",
    ".fods": "OpenDocument Spreadsheet Flat XML",
    ".xls": "MS Excel 97",
    ".xlsx": "Calc Office Open XML",
    ".xlsm": "Calc MS Excel 2007 VBA XML",
}
APT_LINE = "apt-get install libreoffice-calc-nogui python3-uno"
CALC = "com.sun.star.sheet.SpreadsheetDocument"
LOW_SPACE = 1 << 20  # bytes free in a folder below which a failed store is a full disk

_server: LibreOffice | None = None


def missing_message(path: str | os.PathLike, reason: str = "") -> str:
    """One line: this file needs LibreOffice, how to install it, or save it as .xlsx."""
    suffix = Path(path).suffix.lower() or "this"
    why = f" ({reason.split(';')[0]})" if reason else ""
    return (
        f"{path}: {suffix} files are read through LibreOffice, which is not available here"
        f"{why}; install it ({APT_LINE}) or save the file as .xlsx"
    )


def server(path: str | os.PathLike) -> LibreOffice:
    """The command run's LibreOffice, started on first use; WorkbookError when absent."""
    global _server
    if _server is None:
        reason = available()
        if reason:
            raise WorkbookError(missing_message(path, reason))
        clean_stale_private()  # what a process killed with -9 left in the temp folder
        office = LibreOffice(guarded=True)  # killed with this process, even by kill -9
        try:
            office.start()
        except LibreOfficeError as exc:
            raise WorkbookError(f"{path}: LibreOffice did not start ({exc})") from None
        except BaseException:  # stopped by a signal while starting: no server left behind
            office.stop()
            raise
        _server = office
        atexit.register(shutdown)
    return _server


_scratch: set[Path] = set()  # private copies of the documents opened and not yet closed


def shutdown() -> None:
    """Stop the command run's LibreOffice (closing its documents) if it was started, and
    remove the private copies of documents a command left open (none stay in the temp
    folder: they are copies of the user's files)."""
    global _server
    office, _server = _server, None
    if office is not None:
        office.stop()
    while _scratch:
        shutil.rmtree(_scratch.pop(), ignore_errors=True)


def running() -> bool:
    """True while a LibreOffice server of this process is up."""
    return _server is not None


class DocumentBook(UnoBook):
    """A Calc document opened from a private copy of a file; ``save`` writes a new file.

    The input itself is never opened by LibreOffice (no lock file beside it, nothing
    stored to it): a copy in a private folder is, and a save stores to a temporary file
    beside the target that is then renamed into place.
    """

    def __init__(
        self, doc, path: Path, office: LibreOffice, scratch: Path, *, read_only: bool = False
    ):
        super().__init__(doc)
        self.path = path
        self.office = office
        self.scratch = scratch
        self.read_only = read_only

    def save(self, target: str | os.PathLike, *, overwrite_input: bool = False) -> Path:
        """Store a copy in the format of ``target``'s suffix: temp file, then rename.

        Refuses to write over the file it was opened from unless ``overwrite_input``.
        """
        if self.read_only:
            raise WorkbookError(f"{self.path}: opened read-only, not saved")
        return store(self.doc, Path(target), inputs=[self.path], in_place=overwrite_input)

    def close(self) -> None:
        """Close the document (its changes are dropped unless saved) and drop the copy."""
        self.office.close(self.doc)
        shutil.rmtree(self.scratch, ignore_errors=True)
        _scratch.discard(self.scratch)


def filter_for(target: Path) -> str:
    """The export filter for a target file name; WorkbookError for a format we cannot write."""
    suffix = target.suffix.lower()
    if suffix == ".xlsb":
        raise WorkbookError(
            f"{target}: LibreOffice cannot write .xlsb; write .xlsx (-o NAME.xlsx) instead"
        )
    if suffix not in FILTERS:
        raise WorkbookError(
            f"{target}: cannot write a {suffix or 'nameless'} workbook "
            f"(use {', '.join(sorted(FILTERS))})"
        )
    return FILTERS[suffix]


def store_failure(exc: Exception, folder: Path) -> str:
    """Why LibreOffice could not store a file in ``folder``, in words: a full disk (its
    I/O error class Space, or next to no room left in the folder: LibreOffice may call
    that a general I/O error), a refusal to write, else its error code without the code
    location and temporary file it names."""
    import re
    import shutil

    message = getattr(exc, "Message", "") or type(exc).__name__
    try:
        full = shutil.disk_usage(folder).free < LOW_SPACE
    except OSError:
        full = False
    if "Class:Space" in message or full:
        return "no space left on the device; nothing was written"
    if "Class:Write" in message or "Class:Access" in message:
        return "cannot write (the folder or the disk refuses it); nothing was written"
    code = re.search(r"0x[0-9a-f]+\([^)]*\)", message)
    return f"LibreOffice could not write it ({code.group(0) if code else message})"


def store(doc, target: Path, inputs=(), *, in_place: bool = False) -> Path:
    """Store a document to ``target`` in its suffix's format, atomically (xlsolver.writes).

    Refuses (WorkbookError) to write over any of ``inputs`` unless ``in_place``.
    """
    from ..writes import WriteError, atomic_path

    name = filter_for(target)
    try:
        with atomic_path(target, inputs, in_place=in_place) as tmp:
            try:
                doc.storeToURL(file_url(tmp), props(FilterName=name, Overwrite=True))
            except Exception as exc:  # com.sun.star.task.ErrorCodeIOException and kin
                raise WorkbookError(f"{target}: {store_failure(exc, tmp.parent)}") from None
    except WriteError as exc:
        raise WorkbookError(str(exc)) from None
    return target


def open_document(path: str | os.PathLike, *, read_only: bool = False) -> DocumentBook:
    """Open a spreadsheet file in the command run's LibreOffice; WorkbookError when not."""
    path = Path(path)
    problem = workbook_file_problem(path)
    if problem:
        raise WorkbookError(f"{path}: {problem}")
    office = server(path)
    scratch = private_dir("doc")
    _scratch.add(scratch)
    try:
        copy = Path(shutil.copy(path, scratch / f"input{path.suffix.lower()}"))
        doc = office.load(copy, untrusted=True)
        if not _is_calc(doc):
            office.close(doc)
            raise WorkbookError(f"{path}: not a spreadsheet (LibreOffice opened another kind)")
    except LibreOfficeError:
        shutil.rmtree(scratch, ignore_errors=True)
        raise WorkbookError(
            f"{path}: LibreOffice could not open it (password-protected, corrupt, "
            f"or not a spreadsheet)"
        ) from None
    except BaseException:
        shutil.rmtree(scratch, ignore_errors=True)
        raise
    return DocumentBook(doc, path, office, scratch, read_only=read_only)


def _is_calc(doc) -> bool:
    """True for a Calc document."""
    try:
        return bool(doc.supportsService(CALC))
    except Exception:
        return False


def convert_copy(
    source: Path,
    target: Path,
    inputs=(),
    *,
    in_place: bool = False,
    widths: dict[str, dict[int, float]] | None = None,
) -> Path:
    """Store a workbook file (e.g. an .xlsx we wrote) as ``target`` in another format.

    ``widths`` (sheet → column → characters as Excel shows them) are set first, as
    lengths (:meth:`UnoSheet.set_column_widths`); a document opened read-only ignores
    such changes, so then ``source`` (a draft of ours) is opened for editing.
    """
    office = server(target)
    try:
        doc = office.load(source, read_only=not widths, untrusted=True)
    except LibreOfficeError as exc:
        raise WorkbookError(str(exc)) from None
    try:
        book = UnoBook(doc)
        for name, columns in (widths or {}).items():
            book.sheet(name).set_column_widths(columns)
        store(doc, target, inputs, in_place=in_place)
    finally:
        office.close(doc)
    return target


@contextlib.contextmanager
def scratch_folder():
    """A private temporary folder, removed afterwards."""
    with tempfile.TemporaryDirectory(prefix="xlsolver-") as tmp:
        yield Path(tmp)

"""The files a command line names: files as given, folders walked, wildcards expanded.

A folder stands for every puzzle file and workbook in it and in its sub-folders (hidden
files, lock files and the command's own output folder left out). A name with ``*``,
``?`` or ``[`` that is not a file is expanded here, as Windows shells do not (``**``
crosses folders), so ``xlsolver solve *.xlsx`` works in cmd.exe and PowerShell too.
Files come in a fixed order: as named, a folder's in sorted order; each file once.
"""

from __future__ import annotations

import functools
import glob
import os
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path

WILDCARD = re.compile(r"[*?[]")
# Extensions that many kinds of file share: in a folder such a file is taken only when
# its text reads as a puzzle format (a README.txt or a settings.json is passed over).
SHARED_EXTENSIONS = frozenset({"", ".txt", ".json", ".xml", ".toml", ".dat", ".sav"})
SNIFF_BYTES = 1 << 16  # enough of a file's start to tell its format


@dataclass
class Inputs:
    """What the arguments name: the files in order, where each came from, what went wrong."""

    paths: list[str] = field(default_factory=list)
    # a file found by walking a folder: the folder, so copies can mirror sub-folders
    roots: dict[str, Path] = field(default_factory=dict)
    errors: list[str] = field(default_factory=list)  # one line each, naming the argument
    skipped: dict[str, list[str]] = field(default_factory=dict)  # folder → files passed over

    def relative_folder(self, path: str) -> Path:
        """The sub-folder of its folder argument a walked file lies in (``.`` otherwise)."""
        root = self.roots.get(path)
        return Path(path).parent.relative_to(root) if root is not None else Path()

    def report(self) -> None:
        """The notes and errors on stderr, a line each, as every command prints them."""
        for line in [*self.notes(), *self.errors]:
            print(f"xlsolver: {line}", file=sys.stderr)

    def notes(self) -> list[str]:
        """One line per folder that held files which are not puzzles."""
        out = []
        for folder, names in self.skipped.items():
            shown = ", ".join(names[:3]) + (", …" if len(names) > 3 else "")
            kind = "file that is" if len(names) == 1 else "files that are"
            out.append(f"{folder}: passed over {len(names)} {kind} not a puzzle ({shown})")
        return out


def missing(path: str | os.PathLike) -> str:
    """Why a path names no file: a link whose target is gone says so (a plain
    "no such file" would puzzle someone who sees the name in their folder)."""
    path = Path(path)
    if path.is_symlink() and not path.exists():
        return f"a link to {os.readlink(path)}, which does not exist"
    return "no such file"


def workbook_file_problem(path: Path) -> str | None:
    """Why a path names no workbook file to open (gone, a broken link, a folder), or
    None: the one check every back end makes before opening a workbook."""
    if not path.exists():
        return missing(path)
    if path.is_dir():
        return "is a folder, not a workbook"
    return None


def is_hidden(name: str) -> bool:
    """Hidden files and folders, and the lock files Excel and LibreOffice keep beside a
    workbook they have open (``~$book.xlsx``, ``.~lock.book.xlsx#``)."""
    return name.startswith((".", "~$"))


def puzzle_file(path: Path) -> bool:
    """True for a workbook, a file whose extension a puzzle format claims, or (for
    extensions other files share) a file whose start reads as a puzzle format."""
    from .workbook.files import is_workbook

    if is_workbook(path):
        return True
    suffix = path.suffix.lower()
    if suffix in SHARED_EXTENSIONS:
        return _sniffs(path)
    return suffix in _claimed_extensions()


@functools.cache
def _claimed_extensions() -> frozenset[str]:
    """Every extension some puzzle format reads."""
    from .formats import FORMATS, format_module

    return frozenset(ext for name in FORMATS for ext in format_module(name).EXTENSIONS)


def _sniffs(path: Path) -> bool:
    """True when the start of the file reads as a puzzle format."""
    from .formats import FORMATS, format_module

    try:
        with path.open("rb") as fh:
            data = fh.read(SNIFF_BYTES)
    except OSError:
        return True  # let the reader name the problem
    if b"\0" in data and not data.startswith((b"\xff\xfe", b"\xfe\xff")):
        return False  # a binary file
    try:
        text = data.decode("utf-16") if data[:2] in (b"\xff\xfe", b"\xfe\xff") else None
        text = text if text is not None else data.decode("utf-8-sig", errors="replace")
    except UnicodeDecodeError:
        return False
    if len(data) == SNIFF_BYTES:  # a cut line must not spoil the sniffing
        text = text[: text.rfind("\n") + 1] or text
    for name in FORMATS:
        try:
            if format_module(name).sniff(text):
                return True
        except Exception:  # a sniffer that chokes on a cut text: not this format
            continue
    return False


def expand(
    arguments: Iterable[str],
    take: Callable[[Path], bool] = puzzle_file,
    leave_out: Iterable[str | os.PathLike] = (),
) -> Inputs:
    """The files the arguments name. ``take`` picks the files of a folder; ``leave_out``
    names files and folders never taken from a folder or a wildcard (the output)."""
    found = Inputs()
    seen: set[str] = set()
    left = [Path(p).resolve() for p in leave_out]

    def excluded(path: Path) -> bool:
        real = path.resolve()
        return any(real == x or x in real.parents for x in left)

    def add(path: str, root: Path | None = None) -> None:
        key = os.path.normcase(os.path.realpath(path))
        if key in seen:
            return
        seen.add(key)
        found.paths.append(path)
        if root is not None:
            found.roots[path] = root

    for arg in arguments:
        for path, root in _named(arg, take, excluded, found, left):
            add(path, root)
    return found


def _held_output(
    folder: Path, take: Callable[[Path], bool], outputs: list[Path], sources: list[str]
) -> str:
    """The error for a folder that holds the output folder when that one holds workbooks
    or puzzle files of the person's own ("" otherwise): left out of the walk, they would
    go unread, and one of an input's name would be replaced (week2/puzzle.xlsx by the copy
    of puzzle.xlsx). A file there named as a copy of an input (``small.xlsx``,
    ``dancer.xlsx`` for ``dancer.non``, ``ann-work-graded.xlsx`` for ``ann/work.xlsx``) is
    taken for an earlier copy, so a second run into the same folder goes on. ``sources``:
    the folder's files as walked, the output folders left out."""
    real = folder.resolve()
    for out in outputs:
        if real not in out.parents or not out.is_dir():
            continue
        held = _walk(out, take, lambda p: False)[0]
        if not held:
            continue
        own = [
            str(Path(h).relative_to(out))
            for h in held
            if Path(h).resolve() not in outputs  # grade's summary.xlsx: the run's own
            and not any(_copy_of(Path(h), out, Path(src), folder) for src in sources)
        ]
        if own:
            shown = ", ".join(own[:3]) + (", …" if len(own) > 3 else "")
            there = os.path.relpath(out)
            there = str(out) if there.startswith("..") else there
            one = len(own) == 1
            files = "a workbook or puzzle file" if one else f"{len(own)} workbooks or puzzle files"
            return (
                f"{folder}: the output folder {there} lies in this folder and holds {files} "
                f"of its own ({shown}): {'it' if one else 'they'} would not be read, and a "
                f"copy named as one would replace it; write the copies outside {folder}; "
                f"nothing read from {folder}"
            )
    return ""


def _copy_of(held: Path, out: Path, source: Path, folder: Path) -> bool:
    """True when ``held`` (in the output folder) may be an earlier copy of ``source`` (in
    the folder read): in the same sub-folder, named as the source (``small``, ``dancer.non``
    for a puzzle file, ``small (2)``) and, for a workbook's copy of a workbook, with the
    same sheets; or grade's copy of it, in any sub-folder (``cho-graded``,
    ``ann-work-graded``, grade naming a student's folder first)."""
    name, stem = held.stem, source.stem
    if name.endswith(f"-{stem}-graded") or name == f"{stem}-graded":
        return True
    same_place = held.parent.resolve().relative_to(out) == source.parent.resolve().relative_to(
        folder.resolve()
    )
    named = name == stem or name.startswith((f"{stem}.", f"{stem} ("))
    if not (same_place and named):
        return False
    return _same_sheets(held, source)


def _same_sheets(held: Path, source: Path) -> bool:
    """True when a copy of ``source`` could hold the sheets ``held`` holds: the same names
    as the source workbook's, or as the sheets ``solve`` lays a puzzle file's puzzles on.
    A pair whose sheets cannot be read cheaply (an .xls, a puzzle file written by
    ``convert``) is taken as alike."""
    held_names, source_names = _sheet_names(held), _copy_sheet_names(source)
    if held_names is None or source_names is None:
        return True
    return held_names == source_names


def _sheet_names(path: Path) -> list[str] | None:
    """The sheet names of an .xlsx/.xlsm or .ods file (None: another kind, or unreadable
    as such, which is then no copy of ours: [])."""
    suffix = path.suffix.lower()
    try:
        if suffix in (".xlsx", ".xlsm"):
            from openpyxl import load_workbook

            return load_workbook(path, read_only=True).sheetnames
        if suffix == ".ods":
            import re
            import zipfile

            with zipfile.ZipFile(path) as z:
                content = z.read("content.xml").decode("utf-8", "replace")
            return re.findall(r'<table:table [^>]*?table:name="([^"]*)"', content)
    except Exception:  # not the workbook its name says: no copy of ours
        return []
    return None


def _copy_sheet_names(source: Path) -> list[str] | None:
    """The sheet names a copy of ``source`` holds: a workbook's own, or the sheets its
    puzzles are laid out on (a puzzle file); None when they cannot be read cheaply."""
    names = _sheet_names(source)
    if names is not None or source.suffix.lower() in (".xls", ".xlsb", ".fods"):
        return names or None
    try:
        from .formats import read_puzzles
        from .workbook.puzzle_books import sheet_names

        return sheet_names(read_puzzles(source))
    except Exception:  # a file that does not read: no sheets to compare
        return None


def _named(
    arg: str,
    take: Callable[[Path], bool],
    excluded: Callable[[Path], bool],
    found: Inputs,
    outputs: list[Path],
) -> list[tuple[str, Path | None]]:
    """The files one argument names, each with the folder it was walked from (or None);
    a folder's passed-over files and the argument's error are noted in ``found``."""
    path = Path(arg)
    if path.is_dir() and excluded(path):
        found.errors.append(f"{arg}: this folder is where the output goes; write it elsewhere")
        return []
    if path.is_dir():
        files, passed = _walk(path, take, excluded)
        held = _held_output(path, take, outputs, files)
        if held:
            found.errors.append(held)
            return []
        if passed:
            found.skipped[arg] = passed
        if not files:
            found.errors.append(f"{arg}: no puzzle files or workbooks in this folder")
        return [(f, path) for f in files]
    if path.exists() or not WILDCARD.search(arg):
        return [(arg, None)]  # as named (a missing file is reported by whoever reads it)
    out: list[tuple[str, Path | None]] = []
    for m in sorted(glob.glob(arg, recursive=True)):
        if excluded(Path(m)):
            continue
        if Path(m).is_dir():
            out += [(f, Path(m)) for f in _walk(Path(m), take, excluded)[0]]
        elif not is_hidden(Path(m).name):
            out.append((m, None))
    if not out:
        found.errors.append(f"{arg}: no file matches")
    return out


def _walk(
    folder: Path, take: Callable[[Path], bool], excluded: Callable[[Path], bool]
) -> tuple[list[str], list[str]]:
    """The files of a folder and its sub-folders that ``take`` accepts, in sorted order,
    and the names of those it passed over."""
    files: list[str] = []
    passed: list[str] = []
    for top, dirs, names in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if not is_hidden(d) and not excluded(Path(top, d)))
        for name in sorted(names):
            path = Path(top, name)
            if is_hidden(name) or excluded(path):
                continue
            if not path.is_file() and not (path.is_symlink() and not path.exists()):
                continue  # a folder link or a special file; a broken link is read and named
            if take(path):
                files.append(str(path))
            else:
                passed.append(str(path.relative_to(folder)))
    return files, passed

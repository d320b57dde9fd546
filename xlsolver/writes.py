"""Writing an output file safely, the one way every command writes.

    write_bytes("out.xlsx", data, inputs=["in.xlsx"])      # bytes, atomically
    with atomic_path("out.ods", inputs=[src]) as tmp: ...   # a writer that needs a path

A write goes to ``.NAME.xlsolver-PID.tmp`` in the target's folder, is flushed to disk
(``fsync``) and renamed over the target, which keeps its permissions (a new file gets
the usual ``0666 & ~umask``). Refused, with one line naming the file (WriteError):

- writing over any input of the command (the same file by inode: through ``..``, a
  symbolic link or a hard link too) unless ``in_place`` is given;
- replacing a read-only file (no write bit), even with ``in_place``;
- a target whose folder does not exist (nothing is created silently).

An existing output that is not an input is replaced and the command says so on stderr
(``xlsolver: replaced FILE``). Temporary files of ours left by a process that died
(``kill -9``, power loss) are removed by the next write into that folder.
"""

from __future__ import annotations

import contextlib
import errno
import gc
import io
import os
import re
import stat
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path

TEMP_PATTERN = re.compile(r"^\..+\.xlsolver-(\d+)\.tmp$")
WRITTEN: list[str] = []  # the outputs completed in this run (named when it is stopped)


class WriteError(ValueError):
    """An output that cannot or must not be written; the message starts with the file."""

    def __init__(self, path: str | os.PathLike, reason: str):
        self.path, self.reason = str(path), reason
        super().__init__(f"{path}: {reason}")


def temp_name(target: Path) -> Path:
    """The temporary file a write of ``target`` goes through (in its folder)."""
    return target.with_name(f".{target.name}.xlsolver-{os.getpid()}.tmp")


def process_alive(pid: int) -> bool:
    """True while a process with this id exists."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError):
        return True
    return True


def orphans(folder: Path, pattern: re.Pattern) -> list[Path]:
    """Entries of a folder whose names ``pattern`` matches with a process id (its first
    group) of a process that has died: what it left behind."""
    try:
        names = os.listdir(folder)
    except OSError:
        return []
    out = []
    for name in names:
        match = pattern.match(name)
        if match and int(match.group(1)) != os.getpid() and not process_alive(int(match.group(1))):
            out.append(folder / name)
    return out


def clean_stale(folder: Path) -> list[Path]:
    """Remove temporary files of ours whose writing process has died; the ones removed."""
    removed: list[Path] = []
    for path in orphans(folder, TEMP_PATTERN):
        with contextlib.suppress(OSError):
            path.unlink()
            removed.append(path)
    return removed


def _same_file(a: Path, b: Path) -> bool:
    """True when both names are one file on disk (same device and inode)."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def check_output(
    target: str | os.PathLike, inputs: Iterable = (), *, in_place: bool = False
) -> Path:
    """The target as a Path, or WriteError when it must not be written (see module doc)."""
    target = Path(target)
    if target.is_dir():
        raise WriteError(target, "is a folder; name a file to write")
    check_folder(target)
    exists = target.exists()
    for source in inputs:
        if source is not None and exists and _same_file(target, Path(source)):
            if not in_place:
                raise WriteError(target, f"refusing to write over the input file {source}")
    if exists and not (target.stat().st_mode & (stat.S_IWUSR | stat.S_IWGRP | stat.S_IWOTH)):
        raise WriteError(target, "the file is read-only; not replaced")
    return target


def check_folder(target: str | os.PathLike) -> None:
    """WriteError when the target's folder does not exist (nothing is created silently)."""
    target = Path(target)
    folder = target.parent if str(target.parent) else Path(".")
    if not folder.is_dir():
        raise WriteError(target, f"cannot write: the folder {folder} does not exist")


def _umask() -> int:
    """The process umask."""
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _fsync_folder(folder: Path) -> None:
    """Flush a folder's entries (the rename) to disk where the system allows it."""
    with contextlib.suppress(OSError, AttributeError):
        fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _reason(exc: OSError) -> str:
    """A short reason for an operating-system error (disk full said plainly)."""
    if exc.errno == errno.ENOSPC:
        return "no space left on the device; nothing was written"
    if exc.errno == errno.EDQUOT:
        return "disk quota exceeded; nothing was written"
    return f"cannot write ({exc.strerror or exc})"


def _remove(tmp: Path) -> None:
    """Remove a temporary file if it is there (a read-only file system refuses even to
    remove what does not exist: that is no second error)."""
    with contextlib.suppress(OSError):
        tmp.unlink()


def _say_replaced(target: Path) -> None:
    """One line on stderr: an existing output file was replaced."""
    print(f"xlsolver: replaced {target}", file=sys.stderr)


@contextlib.contextmanager
def atomic_path(
    target: str | os.PathLike, inputs: Iterable = (), *, in_place: bool = False
) -> Iterator[Path]:
    """A temporary path to write; on success it is fsynced and renamed over ``target``.

    Nothing changes at ``target`` when the block raises; the temporary file is removed.
    """
    inputs = list(inputs)
    target = check_output(target, inputs, in_place=in_place)
    folder = target.parent if str(target.parent) else Path(".")
    clean_stale(folder)
    existed = target.exists()
    own_input = existed and any(_same_file(target, Path(s)) for s in inputs if s is not None)
    mode = target.stat().st_mode & 0o7777 if existed else 0o666 & ~_umask()
    tmp = temp_name(target)
    try:
        yield tmp
        fd = os.open(tmp, os.O_RDWR)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except OSError as exc:
        _remove(tmp)
        raise WriteError(target, _reason(exc)) from None
    except BaseException:
        _remove(tmp)
        raise
    _fsync_folder(folder)
    WRITTEN.append(str(target))
    if existed and not own_input:
        _say_replaced(target)


def render(target: str | os.PathLike, write: Callable[[io.BytesIO], object]) -> bytes:
    """The bytes ``write(buffer)`` produces (e.g. ``workbook.save``); WriteError on OSError.

    A library that spills to temporary files (openpyxl) may fail half-way on a full disk
    and leave a half-closed zip whose finaliser complains; that noise is silenced, the
    reason becomes one line.
    """
    buffer = io.BytesIO()
    failure = ""
    hook = sys.unraisablehook
    sys.unraisablehook = lambda unraisable: None
    try:
        try:
            write(buffer)
        except OSError as exc:
            failure = _reason(exc)
        if failure:  # the half-closed zip's finaliser runs now, silenced (only then: a full
            gc.collect()  # collection after every save was a fifth of a small workbook's solve)
    finally:
        sys.unraisablehook = hook
    if failure:
        raise WriteError(target, failure)
    return buffer.getvalue()


def write_bytes(
    target: str | os.PathLike, data: bytes, inputs: Iterable = (), *, in_place: bool = False
) -> Path:
    """Write ``data`` to ``target`` atomically (see :func:`atomic_path`); the target."""
    with atomic_path(target, inputs, in_place=in_place) as tmp:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
    return Path(target)


def write_text(
    target: str | os.PathLike, text: str, inputs: Iterable = (), *, in_place: bool = False
) -> Path:
    """Write UTF-8 text with LF line ends atomically; the target."""
    return write_bytes(target, text.encode("utf-8"), inputs, in_place=in_place)

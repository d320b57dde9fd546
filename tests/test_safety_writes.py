"""Writes never destroy an input: the same file by inode, atomic temp + fsync + rename,
permissions kept, stale temporary files cleaned, one line when the disk refuses."""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from xlsolver.cli import main
from xlsolver.exits import EXIT_BAD_INPUT, EXIT_OK
from xlsolver.formats import read_puzzles
from xlsolver.writes import WriteError, atomic_path, check_output, temp_name, write_bytes

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch) -> Path:
    """A scratch folder holding dancer.non, dancer.json and dancer.xlsx (a second sheet too)."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / "dancer.non").write_bytes((EXAMPLES / "dancer.non").read_bytes())
    assert main(["convert", "dancer.non", "-o", "dancer.json"]) == EXIT_OK
    assert main(["convert", "dancer.non", "-o", "dancer.xlsx"]) == EXIT_OK
    from openpyxl import load_workbook

    wb = load_workbook(tmp_path / "dancer.xlsx")
    wb.create_sheet("Notes")["A1"] = "my notes"
    wb.save(tmp_path / "dancer.xlsx")
    return tmp_path


@pytest.mark.parametrize("name", ["dancer.xlsx", "dancer.non", "dancer.json"])
@pytest.mark.parametrize("route", ["same", "symlink", "hardlink", "dotdot"])
def test_convert_never_writes_over_its_input(folder: Path, name: str, route: str, capsys) -> None:
    """Case 1: ``convert X -o X`` (by any route to the same file) leaves X's bytes alone."""
    before = (folder / name).read_bytes()
    source, target = name, name
    if route == "symlink":
        os.symlink(name, folder / f"link-{name}")
        source = f"link-{name}"
    elif route == "hardlink":
        os.link(folder / name, folder / f"hard-{name}")
        source = f"hard-{name}"
    elif route == "dotdot":
        (folder / "sub").mkdir()
        target = f"sub/../{name}"
    for fmt in ([], ["--format", "json"]) if not name.endswith("xlsx") else ([],):
        code = main(["convert", source, "-o", target, *fmt])
        err = capsys.readouterr().err
        assert code == EXIT_BAD_INPUT
        assert err.startswith(f"xlsolver: {target}: refusing to write over the input file")
        assert err.count("\n") == 1
    assert (folder / name).read_bytes() == before
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


def test_in_place_converts_the_input_itself(folder: Path) -> None:
    """--in-place is the one way to change an input (here .non → JSON text in the same file)."""
    assert main(["convert", "dancer.non", "-o", "dancer.non", "--in-place"]) == EXIT_OK
    assert read_puzzles(folder / "dancer.non")[0].rows


def test_in_place_refuses_a_read_only_file(folder: Path, capsys) -> None:
    (folder / "dancer.non").chmod(0o444)
    before = (folder / "dancer.non").read_bytes()
    assert main(["convert", "dancer.non", "-o", "dancer.non", "--in-place"]) == EXIT_BAD_INPUT
    assert "read-only" in capsys.readouterr().err
    assert (folder / "dancer.non").read_bytes() == before


def test_output_into_a_missing_folder_is_an_error(folder: Path, capsys) -> None:
    assert main(["convert", "dancer.non", "-o", "nowhere/x.xlsx"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert err == "xlsolver: nowhere/x.xlsx: cannot write: the folder nowhere does not exist\n"
    assert not (folder / "nowhere").exists()
    # solve of a workbook made the missing folder and wrote there; now refused first
    assert main(["solve", "dancer.xlsx", "-o", "nowhere/x.xlsx"]) == EXIT_BAD_INPUT
    captured = capsys.readouterr()
    assert captured.err == (
        "xlsolver: dancer.xlsx → nowhere/x.xlsx: cannot write: the folder nowhere does not exist\n"
    )
    assert captured.out == "" and not (folder / "nowhere").exists()


def test_an_existing_output_is_replaced_and_said(folder: Path, capsys) -> None:
    """The chosen rule: an output that is no input is replaced, with a line saying so."""
    (folder / "out.non").write_text("old")
    (folder / "out.non").chmod(0o640)
    assert main(["convert", "dancer.json", "-o", "out.non"]) == EXIT_OK
    assert capsys.readouterr().err == "xlsolver: replaced out.non\n"
    assert (folder / "out.non").stat().st_mode & 0o777 == 0o640  # permissions kept
    assert read_puzzles(folder / "out.non")[0].rows == read_puzzles(folder / "dancer.non")[0].rows


def test_new_files_get_the_umask_not_0600(folder: Path) -> None:
    old = os.umask(0o022)
    try:
        assert main(["convert", "dancer.non", "-o", "new.xlsx"]) == EXIT_OK
    finally:
        os.umask(old)
    assert (folder / "new.xlsx").stat().st_mode & 0o777 == 0o644


def test_solve_output_is_honoured_for_puzzle_files(folder: Path) -> None:
    assert main(["solve", "dancer.non", "--json", "-o", "report.jsonl"]) == EXIT_OK
    assert '"status": "unique"' in (folder / "report.jsonl").read_text()
    before = (folder / "dancer.non").read_bytes()
    assert main(["solve", "dancer.non", "-o", "dancer.non"]) == EXIT_BAD_INPUT
    assert (folder / "dancer.non").read_bytes() == before


def test_stale_temp_files_of_dead_processes_are_cleaned(folder: Path) -> None:
    """A temporary file left by a killed writer goes at the next write into the folder."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    stale = folder / f".out.xlsx.xlsolver-{child.pid}.tmp"
    stale.write_bytes(b"half a zip")
    alive = folder / f".out.xlsx.xlsolver-{os.getppid()}.tmp"  # a live process's: kept
    alive.write_bytes(b"in progress")
    other = folder / ".someone-else.tmp"
    other.write_bytes(b"not ours")
    write_bytes(folder / "x.bin", b"data")
    assert not stale.exists() and alive.exists() and other.exists()


def test_a_failed_write_leaves_the_target_and_no_temp(folder: Path) -> None:
    (folder / "t.txt").write_text("before")
    with pytest.raises(RuntimeError), atomic_path(folder / "t.txt") as tmp:
        assert tmp == temp_name(folder / "t.txt")
        tmp.write_text("half")
        raise RuntimeError("writer died")
    assert (folder / "t.txt").read_text() == "before"
    assert not tmp.exists()


def test_check_output_refuses_a_folder(folder: Path) -> None:
    with pytest.raises(WriteError, match="is a folder"):
        check_output(folder)


def _limit_file_size() -> None:
    """In the child: files may not grow past 2 kB (EFBIG, as a full disk refuses)."""
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (2000, 2000))


@pytest.mark.parametrize("output", ["full.xlsx", "full.json"])
def test_a_full_disk_is_one_line_and_nothing_written(folder: Path, output: str) -> None:
    """Case 3 (disk full): one line naming the output, no ``Exception ignored`` noise."""
    big = folder / "big.non"
    side = 40
    rows = "\n".join("1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1" for _ in range(side))
    cols = "\n".join("20" for _ in range(side))
    big.write_text(f"width {side}\nheight {side}\n\nrows\n{rows}\n\ncolumns\n{cols}\n")
    run = subprocess.run(
        [sys.executable, "-m", "xlsolver", "convert", "big.non", "-o", output],
        cwd=folder,
        capture_output=True,
        text=True,
        preexec_fn=_limit_file_size,
        timeout=120,
    )
    assert run.returncode == EXIT_BAD_INPUT, run.stderr
    assert run.stderr.startswith(f"xlsolver: {output}: "), run.stderr
    assert run.stderr.count("\n") == 1, run.stderr
    assert "Exception ignored" not in run.stderr and "Traceback" not in run.stderr
    assert not (folder / output).exists()
    assert not [p for p in folder.iterdir() if p.name.endswith(".tmp")]


WORKBOOKS = Path(__file__).resolve().parent.parent / "workbooks"


@pytest.fixture
def books(tmp_path: Path, monkeypatch) -> Path:
    """Copies of the sample drawing, pentomino board and class answers, as the cwd."""
    import shutil

    monkeypatch.chdir(tmp_path)
    for name in ("house-drawing.xlsx", "pentomino-8x8.xlsx"):
        shutil.copy(WORKBOOKS / name, tmp_path / name)
    shutil.copytree(WORKBOOKS / "class", tmp_path / "class")
    assert main(["make", "house-drawing.xlsx", "-o", "house.xlsx", "--mono"]) == EXIT_OK
    return tmp_path


@pytest.mark.parametrize(
    ("argv", "victim"),
    [
        (["make", "house-drawing.xlsx", "-o", "house-drawing.xlsx"], "house-drawing.xlsx"),
        (["hints", "house.xlsx", "-o", "./house.xlsx"], "house.xlsx"),
        (["solve", "house.xlsx", "-o", "house.xlsx"], "house.xlsx"),
        (["pentomino", "pentomino-8x8.xlsx", "-o", "pentomino-8x8.xlsx"], "pentomino-8x8.xlsx"),
        (
            ["grade", "class/ann.xlsx", "class/bob.xlsx", "--key", "house.xlsx"]
            + ["--summary", "class/ann.xlsx", "--out-dir", "graded"],
            "class/ann.xlsx",
        ),
    ],
    ids=["make", "hints", "solve", "pentomino", "grade-summary"],
)
def test_no_command_writes_over_its_input(books: Path, capsys, argv, victim: str) -> None:
    """Every writing command refuses an output that is one of its inputs; nothing written."""
    before = (books / victim).read_bytes()
    capsys.readouterr()
    assert main(argv) == EXIT_BAD_INPUT
    err = capsys.readouterr().err
    assert "refusing to write over the input file" in err and err.count("\n") == 1, err
    assert (books / victim).read_bytes() == before
    assert not list(books.glob("graded/*"))  # grade: refused before any marked copy
    assert not [p for p in books.rglob("*.tmp")]


@pytest.mark.parametrize("value", ["nan", "0", "-1", "inf", "soon"])
def test_time_limit_must_be_a_positive_number(value: str, capsys) -> None:
    """Case 3: --time-limit nan/0/-1 is a usage error (2), not a traceback or no limit."""
    with pytest.raises(SystemExit) as stop:
        main(["solve", str(EXAMPLES / "dancer.non"), "--time-limit", value])
    assert stop.value.code == EXIT_BAD_INPUT
    assert "Traceback" not in capsys.readouterr().err


@pytest.mark.parametrize("lock", ["~$book.xlsx", ".~lock.book.xlsx#"])
def test_in_place_refuses_a_workbook_a_spreadsheet_program_has_open(tmp_path, capsys, lock):
    """Painted in place while Excel (or LibreOffice) has the file open, the paint would be
    lost when the program saves its own copy: refused, nothing written."""
    import shutil

    from xlsolver.cli import main

    book = tmp_path / "book.xlsx"
    shutil.copy(Path(__file__).parents[1] / "workbooks" / "small.xlsx", book)
    (tmp_path / lock).write_bytes(b"\x0bsomeone  ")
    before = book.read_bytes()
    assert main(["solve", str(book), "--in-place"]) == 2
    err = capsys.readouterr().err
    assert f"book.xlsx: open in {'Excel' if lock.startswith('~') else 'LibreOffice'}" in err
    assert "nothing written" in err and book.read_bytes() == before


def test_private_folders_of_dead_processes_are_removed(tmp_path):
    """LibreOffice profiles and private document copies of a process killed with -9 are
    removed; those of live processes (this one, pid 1) and other folders are kept."""
    from xlsolver.libreoffice.server import clean_stale_private, private_dir

    dead = subprocess.run(
        [sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True
    ).stdout.strip()
    names = [
        f"xlsolver-lo-{dead}-a1",
        f"xlsolver-doc-{dead}-b2",
        f"xlsolver-lo-{os.getpid()}-c3",
        "xlsolver-lo-1-d4",
        "xlsolver-lo-e5",
        "other-f6",
    ]
    for name in names:
        (tmp_path / name / "user").mkdir(parents=True)
    removed = clean_stale_private(tmp_path)
    assert sorted(p.name for p in removed) == sorted(names[:2])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(names[2:])
    mine = private_dir("doc")
    try:
        assert mine.name.startswith(f"xlsolver-doc-{os.getpid()}-")
    finally:
        mine.rmdir()


def test_a_read_only_file_system_is_one_line_naming_the_file(tmp_path, monkeypatch, capsys):
    """On a read-only file system even removing the temporary file that was never made
    fails: that second OSError escaped as "[Errno 30] … '.x.xlsolver-PID.tmp'" with the
    temporary name. Now one reason, for the target; the solved sheets are still said."""
    import errno

    from conftest import DATA, WORKBOOKS

    real_open = os.open

    def refused(path, *args, **kwargs):
        if ".xlsolver-" in str(path):
            raise OSError(errno.EROFS, "Read-only file system", str(path))
        return real_open(path, *args, **kwargs)

    def unlink(self, missing_ok=False):
        raise OSError(errno.EROFS, "Read-only file system", str(self))

    monkeypatch.setattr(os, "open", refused)
    monkeypatch.setattr(Path, "unlink", unlink)
    source = str(WORKBOOKS / "small.xlsx")
    out = tmp_path / "out"
    assert main(["solve", source, "--out-dir", str(out), "--jobs", "1"]) == EXIT_BAD_INPUT
    printed = capsys.readouterr()
    assert printed.out.startswith(f"{source} [Puzzle!"), printed.out  # what was solved
    err = printed.err.strip().splitlines()
    assert err == [
        f"xlsolver: {source} → {out / 'small.xlsx'}: cannot write (Read-only file system)"
    ]
    # a puzzle file laid out into the folder names its input as a workbook does (it
    # named only the copy: "out/dancer.xlsx: cannot write …")
    dancer = str(DATA / "webpbn-00001-dancer.non")
    assert main(["solve", dancer, "--out-dir", str(out), "--jobs", "1"]) == EXIT_BAD_INPUT
    err = capsys.readouterr().err.strip().splitlines()
    assert err == [
        f"xlsolver: {dancer} → {out / 'webpbn-00001-dancer.xlsx'}: cannot write (Read-only "
        "file system)"
    ], err


@pytest.mark.parametrize(
    ("message", "free", "said"),
    [
        (
            "SfxBaseModel::impl_store <file:///x/.a.ods.tmp> failed: 0x909(Error Area:Io "
            "Class:Space Code:9) at ./sfx2/source/doc/sfxbasemodel.cxx:3207",
            10**9,
            "no space left on the device; nothing was written",
        ),
        (
            "SfxBaseModel::impl_store <file:///x/.a.ods.tmp> failed: 0x20d(Error Area:Io "
            "Class:General Code:13) at ./sfx2/source/doc/sfxbasemodel.cxx:3207",
            1000,
            "no space left on the device; nothing was written",
        ),
        (
            "SfxBaseModel::impl_store <file:///x/.a.ods.tmp> failed: 0x20d(Error Area:Io "
            "Class:General Code:13) at ./sfx2/source/doc/sfxbasemodel.cxx:3207",
            10**9,
            "LibreOffice could not write it (0x20d(Error Area:Io Class:General Code:13))",
        ),
    ],
    ids=["space", "general-but-full", "general"],
)
def test_libreoffice_store_failures_in_words(tmp_path, monkeypatch, message, free, said):
    """A full disk while LibreOffice stored an .ods came out as its code location and
    temporary file (``SfxBaseModel::impl_store <file:///…tmp> failed: … at ./sfx2/…``)."""
    import shutil
    from types import SimpleNamespace

    from xlsolver.libreoffice.documents import store_failure

    monkeypatch.setattr(shutil, "disk_usage", lambda folder: SimpleNamespace(free=free))
    assert store_failure(SimpleNamespace(Message=message), tmp_path) == said

"""Limits are checked before allocating: declared sizes, short files, zip bombs, cell
counts, JSON nesting and number length, streams; memory measured in a subprocess."""

from __future__ import annotations

import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

from xlsolver.cli import main
from xlsolver.exits import EXIT_BAD_INPUT, EXIT_UNSOLVED
from xlsolver.limits import MAX_CELLS, MAX_FILE_SIDE, MAX_UNZIPPED

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
RSS_LIMIT_KB = 200 * 1024


def _one_error(capsys, prefix: str) -> str:
    """The command's stderr: exactly one line, starting with ``prefix``."""
    err = capsys.readouterr().err
    assert err.startswith(prefix), err
    assert err.count("\n") == 1, err
    return err


@pytest.mark.parametrize(
    ("name", "text", "reason"),
    [
        ("huge.nin", "300000000 300000000\n1\n", "size 300000000x300000000: each side must be"),
        ("short.nin", "5 5\n1\n2\n", "the header declares 5x5: 10 clue lines, the file has 2"),
        (
            "wide.nin",
            f"{MAX_FILE_SIDE + 1} 1\n" + "0\n" * (MAX_FILE_SIDE + 2),
            "each side must be 1…1000",
        ),
        (
            "big.non",
            "width 10000\nheight 10000\nrows\n" + "1\n" * 10000 + "columns\n" + "1\n" * 10000,
            "size 10000x10000: each side must be 1…1000",
        ),
        ("deep.json", "[" * 100000 + "]" * 100000, "lists nested more than 32 deep"),
        ("long.json", '{"rows": [[' + "9" * 5000 + ']], "cols": [[1]]}', "has 5000 digits"),
        ("long.toml", "[clues]\nrows = " + "9" * 5000 + "\n", "value has 5000 digits"),
    ],
)
def test_declared_sizes_and_nesting_are_refused_first(
    tmp_path: Path, capsys, name: str, text: str, reason: str
) -> None:
    """Case 3/5: one line on stderr naming file and line, exit 2, nothing huge allocated."""
    path = tmp_path / name
    path.write_text(text)
    assert main(["solve", str(path)]) == EXIT_BAD_INPUT
    err = _one_error(capsys, f"xlsolver: {path}:")
    assert reason in err
    assert capsys.readouterr().out == ""


def test_a_stream_is_read_up_to_the_limit(capsys) -> None:
    """/dev/zero would never end: it is read up to MAX_PUZZLE_FILE and refused."""
    assert main(["solve", "/dev/zero"]) == EXIT_BAD_INPUT
    assert "puzzle files are read up to" in _one_error(capsys, "xlsolver: /dev/zero: ")


def _workbook_with_sheet(tmp_path: Path, name: str, write_sheet) -> Path:
    """dancer.xlsx (a real workbook) with its first sheet's XML replaced."""
    source = tmp_path / "dancer.xlsx"
    if not source.exists():
        assert main(["convert", str(EXAMPLES / "dancer.non"), "-o", str(source)]) == 0
    target = tmp_path / name
    with zipfile.ZipFile(source) as zin, zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as zo:
        for info in zin.infolist():
            if info.filename == "xl/worksheets/sheet1.xml":
                with zo.open(info.filename, "w", force_zip64=True) as part:
                    write_sheet(part)
            else:
                zo.writestr(info, zin.read(info))
    return target


HEAD = (
    b'<?xml version="1.0" encoding="UTF-8"?>'
    b'<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>'
)
TAIL = b"</sheetData></worksheet>"


def _bomb(part) -> None:
    """Sheet XML that inflates to 1.1 GB of whitespace inside the sheet element."""
    part.write(HEAD)
    block = b" " * 2**24
    for _ in range(66):  # 66 × 16 MiB ≈ 1.1 GB
        part.write(block)
    part.write(TAIL)


def _ten_million_cells(part) -> None:
    """10 M cells in compact form (``<c/>``), 40 MB of XML: under the byte cap."""
    part.write(HEAD + b"<row>")
    block = b"<c/>" * 2**20
    for _ in range(10):
        part.write(block)
    part.write(b"</row>" + TAIL)


def _rss_of(argv: list[str], cwd: Path) -> tuple[int, str, int]:
    """Run xlsolver in a fresh interpreter: (exit status, stderr, its peak RSS in kB)."""
    code = textwrap.dedent(
        f"""
        import resource, sys
        from xlsolver.cli import main
        status = main({argv!r})
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        try:  # Linux carries the forking parent's peak over exec; VmHWM is this image's
            with open("/proc/self/status") as fh:
                peak = next(int(x.split()[1]) for x in fh if x.startswith("VmHWM:"))
        except (OSError, StopIteration):
            pass
        print(peak)
        sys.exit(status)
        """
    )
    run = subprocess.run(
        [sys.executable, "-c", code], cwd=cwd, capture_output=True, text=True, timeout=300
    )
    return run.returncode, run.stderr, int(run.stdout.split()[-1])


@pytest.mark.slow
@pytest.mark.parametrize(
    ("maker", "reason"),
    [
        (_bomb, f"unpacks to 1056 MB (at most {MAX_UNZIPPED // 2**20} MB are read)"),
        (_ten_million_cells, f"holds more than {MAX_CELLS:,} cells"),
    ],
    ids=["zip-bomb", "10M-cells"],
)
@pytest.mark.parametrize("command", ["solve", "convert"])
def test_big_workbooks_are_refused_in_bounded_memory(
    tmp_path: Path, maker, reason: str, command: str
) -> None:
    """Case 5: a zip bomb and a 10 M-cell sheet are refused under 200 MB RSS."""
    book = _workbook_with_sheet(tmp_path, "big.xlsx", maker)
    assert book.stat().st_size < 5 * 2**20  # small on disk: the danger is inflating it
    argv = [command, "big.xlsx"] + (["-o", "out.non"] if command == "convert" else [])
    status, err, rss_kb = _rss_of(argv, tmp_path)
    assert status == EXIT_BAD_INPUT, err
    assert err == f"xlsolver: big.xlsx: the workbook {reason}\n" or (
        err.startswith("xlsolver: big.xlsx: ") and reason in err and err.count("\n") == 1
    ), err
    assert rss_kb < RSS_LIMIT_KB, f"peak RSS {rss_kb} kB"
    assert not (tmp_path / "out.non").exists()


def test_a_stopped_solve_is_not_an_input_error(tmp_path: Path, capsys) -> None:
    """A time limit reached is reported with the puzzle on stdout, not as an error line."""
    path = tmp_path / "two.non"
    path.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    assert main(["solve", str(path), "--time-limit", "1e-9"]) == EXIT_UNSOLVED
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.startswith(f"{path}: timeout") and "time limit reached" in captured.out


def test_cells_are_counted_in_a_sheet_stored_outside_xl_worksheets(tmp_path: Path) -> None:
    """A sheet part may be stored anywhere its relationship points (``xl/sheet.xml``,
    as some writers do); its cells were not counted, so the cell limit did not hold."""
    from xlsolver.limits import TooLarge, check_workbook_zip

    book = tmp_path / "elsewhere.xlsx"
    with zipfile.ZipFile(book, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("xl/sheet.xml", HEAD + b"<row>" + b"<c/>" * (MAX_CELLS + 10) + b"</row>" + TAIL)
    with pytest.raises(TooLarge, match="xl/sheet.xml"):
        check_workbook_zip(book)

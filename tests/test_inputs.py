"""Folders and wildcards on the command line (``xlsolver.inputs``).

A folder stands for the puzzle files and workbooks in it and its sub-folders (hidden
files, lock files, other files and the command's own output left out); a pattern that
is not a file is expanded as Windows shells do not; painted copies and converted files
keep the folder's sub-folders. Every solution and every written file is read back and
checked against the clues of its input.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import numpy as np
import openpyxl
import pytest
from conftest import DATA, WORKBOOKS

from xlsolver.cli import main
from xlsolver.formats import read_puzzles
from xlsolver.inputs import expand
from xlsolver.sheets.openpyxl_sheet import open_book
from xlsolver.workbook.layout import find_puzzles


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one ``xlsolver`` call in this process."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A folder as a user keeps one: puzzles and workbooks in sub-folders, beside notes,
    a PDF, a hidden copy, Excel's and LibreOffice's lock files."""
    root = tmp_path / "puzzles"
    (root / "term 1").mkdir(parents=True)
    (root / ".trash").mkdir()
    shutil.copy(DATA / "webpbn-00001-dancer.non", root / "dancer.non")
    shutil.copy(DATA / "taai2011-first3-questions.txt", root / "term 1" / "taai.txt")
    shutil.copy(WORKBOOKS / "small.xlsx", root / "small.xlsx")
    shutil.copy(WORKBOOKS / "small.xlsx", root / "term 1" / "small.xlsx")
    shutil.copy(DATA / "webpbn-00001-dancer.non", root / ".trash" / "old.non")
    (root / "README.txt").write_text("Puzzles for the class.\nSolve them by Friday.\n")
    (root / "term 1" / "answers.pdf").write_bytes(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    (root / "term 1" / "scores.dat").write_bytes(b"\x00\x01\x02binary")
    (root / "~$small.xlsx").write_bytes(b"\x05Excel lock")
    (root / ".~lock.small.xlsx#").write_text("x,host,user;")
    return root


def json_records(out: str) -> list[dict]:
    """The JSON lines of a run."""
    return [json.loads(line) for line in out.splitlines() if line.startswith("{")]


def test_a_folder_is_its_puzzles_and_workbooks(folder: Path) -> None:
    found = expand([str(folder)])
    names = [str(Path(p).relative_to(folder)) for p in found.paths]
    assert names == ["dancer.non", "small.xlsx", "term 1/small.xlsx", "term 1/taai.txt"]
    assert found.errors == []
    assert found.skipped == {str(folder): ["README.txt", "term 1/answers.pdf", "term 1/scores.dat"]}
    assert found.relative_folder(str(folder / "term 1" / "small.xlsx")) == Path("term 1")
    assert found.relative_folder(str(folder / "dancer.non")) == Path()


def test_solve_a_folder_paints_copies_in_the_same_sub_folders(
    capsys, folder: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "solved"
    before = {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()}
    code, out, err = run(capsys, "solve", str(folder), "--out-dir", str(out_dir), "--json")
    assert code == 0, err
    shown = "README.txt, term 1/answers.pdf, term 1/scores.dat"
    assert f"{folder}: passed over 3 files that are not a puzzle ({shown})" in err
    records = json_records(out)
    sources = [r["source"] for r in records]
    assert sources.count(str(folder / "term 1" / "taai.txt")) == 3
    assert str(folder / "dancer.non") in sources
    assert not any(".trash" in s or "~$" in s or ".~lock" in s for s in sources)
    puzzles = {(str(folder / "dancer.non"), 1): read_puzzles(folder / "dancer.non")[0]}
    for i, p in enumerate(read_puzzles(folder / "term 1" / "taai.txt"), 1):
        puzzles[(str(folder / "term 1" / "taai.txt"), i)] = p
    for r in records:
        if (r["source"], r["index"]) in puzzles:
            solution = np.array([[c == "#" for c in row] for row in r["solutions"][0]])
            assert puzzles[(r["source"], r["index"])].is_solution(solution)
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file())
    # puzzle files too: laid out as sheets and painted, as NAME.xlsx beside the copies
    assert written == ["dancer.xlsx", "small.xlsx", "term 1/small.xlsx", "term 1/taai.xlsx"]
    for name in ("small.xlsx", "term 1/small.xlsx"):  # each copy is a painted puzzle sheet
        book = openpyxl.load_workbook(out_dir / name)
        assert any(c.fill.fgColor.rgb not in (None, "00000000") for c in book.active["E7:N16"][0])
    taai = open_book(out_dir / "term 1" / "taai.xlsx")
    assert len(find_puzzles(taai)) == 3 and len(taai.sheets()) == 3
    assert {p: p.read_bytes() for p in folder.rglob("*") if p.is_file()} == before


def test_an_output_folder_inside_the_input_folder_is_not_read_again(capsys, folder: Path) -> None:
    out_dir = folder / "solved"
    for _ in range(2):
        code, out, err = run(capsys, "solve", str(folder), "--out-dir", str(out_dir), "--json")
        assert code == 0, err
        assert not any("solved" in r["source"] for r in json_records(out))
    written = sorted(str(p.relative_to(out_dir)) for p in out_dir.rglob("*") if p.is_file())
    assert written == ["dancer.xlsx", "small.xlsx", "term 1/small.xlsx", "term 1/taai.xlsx"]


def test_wildcards_are_expanded_when_the_shell_did_not(capsys, folder: Path) -> None:
    pattern = str(folder / "**" / "*.xlsx")
    code, out, err = run(capsys, "solve", pattern, str(folder / "*.non"), "--json")
    assert code == 0, err
    sources = [r.get("source") or r.get("file") for r in json_records(out)]
    assert sources[0] == str(folder / "dancer.non")  # puzzle files first, then the workbooks
    assert sources[1:] == [str(folder / "small.xlsx"), str(folder / "term 1" / "small.xlsx")]
    found = expand([pattern])
    assert [Path(p).relative_to(folder).as_posix() for p in found.paths] == [
        "small.xlsx",
        "term 1/small.xlsx",
    ]  # hidden files and lock files never match


def test_a_pattern_matching_nothing_is_an_error_and_the_rest_goes_on(capsys, folder: Path) -> None:
    code, out, err = run(capsys, "solve", str(folder / "*.nin"), str(folder / "dancer.non"))
    assert code == 2
    assert f"{folder / '*.nin'}: no file matches" in err
    assert f"{folder / 'dancer.non'}: unique" in out


def test_an_empty_folder_is_named(capsys, tmp_path: Path) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (empty / "notes.txt").write_text("nothing here\n")
    code, out, err = run(capsys, "solve", str(empty))
    assert code == 2
    assert f"{empty}: no puzzle files or workbooks in this folder" in err
    assert out == ""


@pytest.mark.skipif(not hasattr(os, "symlink"), reason="no symbolic links here")
def test_a_broken_link_is_named_and_a_link_loop_is_not_followed(capsys, folder: Path) -> None:
    """A link whose target is gone is an error naming the link and its target (it was
    passed over in silence before); a link back up the tree is not walked."""
    try:
        (folder / "gone.non").symlink_to(folder / "moved away.non")
        (folder / "term 1" / "up").symlink_to(folder, target_is_directory=True)
        (folder / "gone.xlsx").symlink_to(folder / "nowhere.xlsx")
    except OSError as exc:  # Windows without the right to make links
        pytest.skip(f"cannot make a symbolic link: {exc}")
    code, out, err = run(capsys, "solve", str(folder), "--json")
    assert code == 2
    assert f"{folder / 'gone.non'}: cannot read: a link to {folder / 'moved away.non'}, " in err
    assert f"{folder / 'gone.xlsx'}: a link to {folder / 'nowhere.xlsx'}, which does not" in err
    assert str(folder / "dancer.non") in [r["source"] for r in json_records(out)]
    found = expand([str(folder)]).paths
    assert len(found) == len(set(found)) == 6  # 4 puzzles and workbooks, 2 broken links
    assert not any("up" in Path(p).parts for p in found)
    code, _, err = run(capsys, "solve", str(folder / "gone.non"))
    assert code == 2 and "which does not exist" in err


def test_a_file_named_twice_is_solved_once(capsys, folder: Path) -> None:
    dancer = str(folder / "dancer.non")
    code, out, _ = run(capsys, "solve", dancer, str(folder / "*.non"), "--json")
    assert code == 0
    assert [r["source"] for r in json_records(out)] == [dancer]


def test_convert_a_folder_into_workbooks(capsys, folder: Path, tmp_path: Path) -> None:
    out_dir = tmp_path / "sheets"
    code, out, err = run(capsys, "convert", str(folder), "--out-dir", str(out_dir), "--to", "xlsx")
    assert code == 0, err
    written = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.xlsx"))
    assert written == ["dancer.xlsx", "small.xlsx", "term 1/small.xlsx", "term 1/taai.xlsx"]
    from xlsolver.sheets.openpyxl_sheet import open_book

    book = open_book(out_dir / "term 1" / "taai.xlsx", read_only=True)
    read_back = [f.puzzle for f in find_puzzles(book)]
    originals = read_puzzles(folder / "term 1" / "taai.txt")
    assert [(p.rows, p.cols) for p in read_back] == [(p.rows, p.cols) for p in originals]
    assert "→" in out and "term 1" in out


def test_convert_a_folder_into_puzzle_files_goes_on_past_a_file_that_cannot_be_written(
    capsys, folder: Path, tmp_path: Path
) -> None:
    out_dir = tmp_path / "files"
    code, out, err = run(capsys, "convert", str(folder), "--out-dir", str(out_dir), "--to", "non")
    assert code == 2
    source, target = folder / "term 1" / "taai.txt", out_dir / "term 1" / "taai.non"
    assert f"{source} → {target}: 3 puzzles, but a .non file holds one" in err
    written = sorted(p.relative_to(out_dir).as_posix() for p in out_dir.rglob("*.non"))
    assert written == ["dancer.non", "small.non", "term 1/small.non"]
    small = read_puzzles(out_dir / "small.non")[0]
    sheet = read_puzzles(out_dir / "term 1" / "small.non")[0]
    assert (small.rows, small.cols) == (sheet.rows, sheet.cols)
    assert (
        read_puzzles(out_dir / "dancer.non")[0].rows == read_puzzles(folder / "dancer.non")[0].rows
    )


def test_convert_many_inputs_into_one_file(capsys, folder: Path, tmp_path: Path) -> None:
    target = tmp_path / "all.nonpack"
    code, out, err = run(capsys, "convert", str(folder), "-o", str(target))
    assert code == 0, err
    assert "4 files → " in out and ": 6 puzzles" in out
    puzzles = read_puzzles(target)
    assert len(puzzles) == 6
    assert puzzles[0].rows == read_puzzles(folder / "dancer.non")[0].rows


def test_convert_asks_for_what_to_write(capsys, folder: Path, tmp_path: Path) -> None:
    code, _, err = run(capsys, "convert", str(folder), "--out-dir", str(tmp_path / "x"))
    assert code == 2 and "--out-dir needs --to EXT" in err
    code, _, err = run(
        capsys, "convert", str(folder), "-o", str(tmp_path / "a.xlsx"), "--to", "non"
    )
    assert code == 2 and "--to goes with --out-dir" in err
    assert not (tmp_path / "a.xlsx").exists()


def test_grade_a_folder_of_one_folder_per_student(capsys, tmp_path: Path) -> None:
    root = tmp_path / "class"
    for student, source in (("ann", "ann.xlsx"), ("bob", "bob.xlsx")):
        (root / student).mkdir(parents=True)
        shutil.copy(WORKBOOKS / "class" / source, root / student / "work.xlsx")
    shutil.copy(WORKBOOKS / "class" / "cho.xlsx", root / "cho.xlsx")
    key = root / "house.xlsx"
    assert main(["make", str(WORKBOOKS / "house-drawing.xlsx"), "-o", str(key), "--mono"]) == 0
    capsys.readouterr()
    graded = root / "graded"
    for _ in range(2):  # the key and the marked copies inside the folder are never graded
        code, out, err = run(
            capsys, "grade", str(root), "--key", str(key), "--out-dir", str(graded)
        )
        assert code == 0, err
        lines = [line for line in out.splitlines() if "score" in line]
        assert [line.split(":")[0] for line in lines] == [
            str(root / "cho.xlsx"),
            str(root / "ann" / "work.xlsx"),
            str(root / "bob" / "work.xlsx"),
        ]
    assert "Ann Lee: 0 wrong" in out and "Bob Kim: 3 wrong" in out
    names = sorted(p.name for p in graded.iterdir())
    assert names == [
        "ann-work-graded.xlsx",
        "bob-work-graded.xlsx",
        "cho-graded.xlsx",
        "summary.xlsx",
    ]


def test_a_folder_text_file_is_taken_only_when_it_reads_as_a_puzzle(tmp_path: Path) -> None:
    root = tmp_path / "mixed"
    root.mkdir()
    shutil.copy(DATA / "taai2011-first3-questions.txt", root / "a-taai.txt")
    (root / "b-grid.txt").write_text("GRID one\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n")
    (root / "c-list.txt").write_text("1. buy milk\n2. mark homework\n")
    (root / "d.json").write_text('{"rows": [[1]], "cols": [[1]]}')
    (root / "e.json").write_text('{"theme": "dark"}')
    shutil.copy(DATA / "taai2011-first3-solutions.txt", root / "f-solutions.txt")
    found = expand([str(root)])
    assert [Path(p).name for p in found.paths] == ["a-taai.txt", "b-grid.txt", "d.json"]
    assert found.skipped[str(root)] == ["c-list.txt", "e.json", "f-solutions.txt"]


def test_a_solutions_file_named_on_its_own_is_called_one(capsys) -> None:
    code, out, err = run(capsys, "solve", str(DATA / "taai2011-first3-solutions.txt"))
    assert code == 2 and out == ""
    assert "taai2011-first3-solutions.txt: a solutions file of a batch" in err


def test_a_folder_of_workbooks_names_the_drawing_among_them(capsys, tmp_path: Path) -> None:
    root = tmp_path / "class"
    root.mkdir()
    shutil.copy(WORKBOOKS / "small.xlsx", root / "a-small.xlsx")
    shutil.copy(WORKBOOKS / "house-drawing.xlsx", root / "b-house.xlsx")
    code, out, err = run(capsys, "solve", str(root), "--out-dir", str(tmp_path / "out"))
    assert code == 2
    assert "b-house.xlsx: Drawing!B1: no clues found" in err and "xlsolver make" in err
    book = openpyxl.load_workbook(tmp_path / "out" / "a-small.xlsx")
    assert any(c.fill.fgColor.rgb not in (None, "00000000") for c in book.active["E7:N16"][0])
    assert not (tmp_path / "out" / "b-house.xlsx").exists()


def test_a_puzzle_piped_in_is_read_from_stdin(capsys, monkeypatch) -> None:
    import io

    text = (DATA / "webpbn-00001-dancer.non").read_bytes()
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
    code, out, err = run(capsys, "solve", "-", "--json")
    assert code == 0, err
    (record,) = json_records(out)
    solution = np.array([[c == "#" for c in row] for row in record["solutions"][0]])
    assert record["status"] == "unique"
    assert read_puzzles(DATA / "webpbn-00001-dancer.non")[0].is_solution(solution)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"buy milk\n")))
    code, out, err = run(capsys, "solve", "-")
    assert code == 2 and err.startswith("xlsolver: stdin: unknown puzzle format: not .non")
    piped = {  # a typo piped in was "unknown puzzle format"; a bad line was named "-:1:"
        b"2 2\n1 x\n1\n1\n1\n": 'xlsolver: stdin:2: clue "x" is not a number',
        b"10\n5\n2\n2 1\n": "xlsolver: stdin:4: the header gives 10 rows, the file has 2",
        b"5 2\n3 2\n1\n1\n1\n1\n1\n1\n": "xlsolver: stdin:2: row 1: clues 3 2 need 6 cells",
    }
    piped[b"2x2:a/1/1/1\n"] = 'xlsolver: stdin:1: column 1: "a" is not numbers joined by "."'
    piped[(DATA / "olsak-usmev.g").read_bytes().replace(b"\n1 ", b"\n1x ", 1)] = (
        "xlsolver: stdin:6: "
    )
    junk = (b"Dear Ann,\nthe puzzles: rows of cells\nbye\n", b"a,b\n1,2\n3,4\n")
    junk += (b"Hello,\nHeight 2 metres\nWidth 3 metres\n",)  # no .non: no numbers alone
    junk += (b"<!DOCTYPE html>\n<html><body>\n<p>hi</p>\n</body></html>\n",)
    for text in junk:  # no reader's line error fits these: not a made-up one either
        piped[text] = "xlsolver: stdin: unknown puzzle format: not .non"
    for text, said in piped.items():
        monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(text)))
        code, out, err = run(capsys, "solve", "-")
        assert code == 2 and err.startswith(said), err


def test_json_gives_every_input_a_record_with_the_same_keys(capsys, tmp_path: Path) -> None:
    """A file of no known format had no --json record (only a line on stderr), and an
    invalid record lacked width, height and seconds: a consumer counting records lost it."""
    (tmp_path / "junk.txt").write_text("hello\n")
    (tmp_path / "bad.nin").write_text("2 2\n1 x\n1\n1\n1\n")
    (tmp_path / "ok.nin").write_text("2 2\n1\n1\n1\n1\n")
    names = [str(tmp_path / n) for n in ("junk.txt", "bad.nin", "ok.nin")]
    code, out, err = run(capsys, "solve", "--json", *names)
    records = json_records(out)
    assert code == 2 and [r["source"] for r in records] == names
    assert [r["status"] for r in records] == ["invalid", "invalid", "multiple"]
    assert all(set(r) >= {"width", "height", "status", "solutions", "seconds"} for r in records)
    assert "unknown puzzle format" in records[0]["error"] and records[0]["width"] is None
    assert err.count("xlsolver: ") == 2
    (tmp_path / "bad.xlsx").write_bytes(b"not a zip")  # a workbook's record: the same keys
    code, out, err = run(capsys, "solve", "--json", str(tmp_path / "bad.xlsx"))
    (record,) = json_records(out)
    assert code == 2 and record["status"] == "invalid" and record["width"] is None
    assert set(record) >= {"width", "height", "status", "solutions", "seconds", "error"}


def test_a_puzzle_piped_into_convert_out_dir_is_named_stdin(capsys, monkeypatch, tmp_path):
    """``convert - --out-dir D --to json`` wrote D/-.json, a name later commands take for
    an option."""
    import io

    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(b"2 2\n1\n1\n1\n1\n")))
    code, out, err = run(capsys, "convert", "-", "--out-dir", str(tmp_path / "out"), "--to", "json")
    assert code == 0, err
    assert [p.name for p in (tmp_path / "out").iterdir()] == ["stdin.json"]
    (puzzle,) = read_puzzles(tmp_path / "out" / "stdin.json")
    assert puzzle.rows == ((1,), (1,))


def test_a_game_id_with_a_typo_is_named_and_0_is_an_empty_line(capsys) -> None:
    """``2x2:a/1/1/1`` said "cannot read: no such file"; ``0`` for an empty line, which
    Pattern itself accepts, was "a clue of 0"."""
    for game_id, said in (
        ("2x2:a/1/1/1", 'xlsolver: game ID:1: column 1: "a" is not numbers joined by "."'),
        ("2x2:1/1/1/1x", 'xlsolver: game ID:1: row 2: "1x" is not numbers joined by "."'),
        ("2x2:1.0/1/1/1", "xlsolver: game ID:1: column 1: a clue of 0 among others (1.0)"),
    ):
        code, _, err = run(capsys, "solve", game_id)
        assert code == 2 and err.strip() == said, err
    code, out, err = run(capsys, "solve", "2x2:0/2/0/2", "--json")  # a clash, but read
    assert code == 1 and json_records(out)[0]["status"] == "contradiction", err
    code, out, err = run(capsys, "solve", "2x2:0/2/1/1", "--json")
    (record,) = json_records(out)
    assert code == 0 and record["solutions"] == [[".#", ".#"]], err


def test_a_pattern_game_id_may_be_the_argument_itself(capsys, tmp_path: Path) -> None:
    """A game ID copied from Tatham's Pattern (Game > Specific…) is solved as typed."""
    game_id = (DATA / "tatham-pattern-ids.txt").read_text().splitlines()[0]  # the 4×4
    code, out, err = run(capsys, "solve", game_id, "--json")
    assert code == 0, err
    (record,) = json_records(out)
    grid = np.array([[c == "#" for c in row] for row in record["solutions"][0]])
    runs = [
        ".".join(str(len(r)) for r in "".join("#" if b else "." for b in line).split(".") if r)
        for line in list(grid.T) + list(grid)
    ]
    assert record["status"] == "unique" and "4x4:" + "/".join(runs) == game_id
    code, _, err = run(capsys, "solve", "10x10#123")
    assert code == 2 and "random-seed game ID" in err
    code, _, err = run(capsys, "solve", str(tmp_path / "missing.non"))
    assert code == 2 and "missing.non: cannot read" in err


@pytest.mark.parametrize(
    "argv",
    [
        ["solve", "x.xlsx", "--sheet", "Puzzle", "--sheet", "Second"],
        ["solve", "x.xlsx", "--range", "A1:B2", "--range", "C1:D2"],
        ["convert", "x.xlsx", "-o", "x.non", "--sheet", "A", "--sheet", "B"],
        ["check", "x.xlsx", "--sheet", "A", "--sheet", "B"],
        ["hints", "x.xlsx", "--sheet", "A", "--sheet", "B"],
        ["make", "x.xlsx", "--sheet", "A", "--sheet", "B"],
        ["pentomino", "x.xlsx", "--sheet", "A", "--sheet", "B"],
        ["new", "--size", "5x5", "-o", "x.xlsx", "--sheet", "A", "--sheet", "B"],
        ["grade", "x.xlsx", "--key", "k.xlsx", "--key-sheet", "A", "--key-sheet", "B"],
    ],
    ids=["solve", "solve-range", "convert", "check", "hints", "make", "pentomino", "new", "grade"],
)
def test_an_option_that_picks_one_thing_given_twice_is_an_error(argv, capsys):
    """``--sheet Puzzle --sheet Second`` solved Second alone, without a word (a batch
    user asked to paint both): an error naming both, exit 2, nothing read."""
    with pytest.raises(SystemExit) as stop:
        main(argv)
    assert stop.value.code == 2
    err = capsys.readouterr().err
    assert "given twice" in err and "it picks one" in err, err

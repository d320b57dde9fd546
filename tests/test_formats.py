"""Puzzle files: every format reads, writes back, and reports errors by file and line."""

from __future__ import annotations

import csv
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, shared_path

from xlsolver.formats import (
    FormatError,
    detect_format,
    dumps,
    loads,
    read_entries,
    read_puzzles,
    read_taai_solutions,
    write_puzzle,
)
from xlsolver.nonogram.puzzle import Puzzle, PuzzleError

PUZZLE_SUFFIXES = (".non", ".nonpack", ".nin", ".txt", ".json", ".xml", ".toml")
# The only faults in ../shared/puzzles: (file name, line) of each FormatError entry.
KNOWN_SHARED_ERRORS = {("invalid_input.txt", 105), ("data142.nin", 47)}


def puzzles_of(entries: list) -> list[Puzzle]:
    """The Puzzle entries, failing on any FormatError entry."""
    errors = [str(e) for e in entries if isinstance(e, FormatError)]
    assert not errors
    return entries


def is_valid(puzzle: Puzzle) -> bool:
    """True when the clues pass validation."""
    try:
        puzzle.validate()
    except PuzzleError:
        return False
    return True


def random_puzzle(seed: int, height: int = 7, width: int = 9) -> Puzzle:
    """A puzzle made from a random picture, with the picture as its goal."""
    picture = np.random.default_rng(seed).random((height, width)) < 0.5
    puzzle = Puzzle.from_solution(picture, title=f"Random & <{seed}>")
    puzzle.meta.update(goal=picture, by='A "quoted" author', license="CC0-1.0")
    return puzzle


# --- the shared collections ------------------------------------------------------------


def shared_puzzle_files() -> list[Path]:
    """Every puzzle file under ../shared/puzzles (skips when absent)."""
    root = shared_path()
    return sorted(
        p
        for p in root.rglob("*")
        if p.suffix in PUZZLE_SUFFIXES and "solutions" not in p.name and p.name != "README.md"
    )


@pytest.mark.shared
def test_every_shared_file_parses() -> None:
    files = shared_puzzle_files()
    assert len(files) > 200
    errors = set()
    for path in files:
        entries = read_entries(path)
        assert entries, path
        for index, entry in enumerate(entries, 1):
            if isinstance(entry, FormatError):
                assert str(entry).startswith(f"{path}:{entry.line}: ")
                errors.add((path.name, entry.line))
                assert entry.index == index
            else:
                assert entry.meta["source"] == str(path)
                assert entry.meta["index"] == index
                assert entry.height > 0 or entry.meta.get("name") == "False note"
    assert errors == KNOWN_SHARED_ERRORS


@pytest.mark.shared
def test_shared_non_goals_satisfy_their_clues() -> None:
    files = [p for p in shared_puzzle_files() if p.suffix == ".non"]
    with_goal = 0
    for path in files:
        (puzzle,) = puzzles_of(read_entries(path))
        puzzle.validate()
        goal = puzzle.meta.get("goal")
        if goal is not None:
            with_goal += 1
            assert goal.dtype == bool and goal.shape == (puzzle.height, puzzle.width)
            assert puzzle.is_solution(goal), path
    assert with_goal >= 39


@pytest.mark.shared
@pytest.mark.slow
@pytest.mark.parametrize("name", ["taai2011", "tcga2016"])
def test_taai_sets_and_their_solutions(name: str) -> None:
    puzzles = read_puzzles(shared_path("taai", f"{name}-questions.txt"))
    solutions = read_taai_solutions(shared_path("taai", f"{name}-solutions.txt"))
    assert len(puzzles) == len(solutions) == 1000
    assert all(p.width == p.height == 25 for p in puzzles)
    for puzzle, solution in zip(puzzles[:50], solutions[:50], strict=True):
        assert puzzle.is_solution(solution)
    assert [p.meta["index"] for p in puzzles[:3]] == [1, 2, 3]


@pytest.mark.shared
def test_patterns_match_expected_csv() -> None:
    expected_csv = shared_path("patterns", "expected.csv")
    with expected_csv.open(newline="") as f:
        rows = [r for r in csv.DictReader(f) if r["Grid"]]
    by_file: dict[str, list[dict]] = {}
    for row in rows:
        by_file.setdefault(row["File"], []).append(row)
    for file_name, expected in by_file.items():
        entries = read_entries(expected_csv.parent / file_name)
        puzzles = [e for e in entries if isinstance(e, Puzzle)]
        assert [p.meta["name"] for p in puzzles] == [r["Grid"] for r in expected]
        for puzzle, row in zip(puzzles, expected, strict=True):
            assert f"{puzzle.width}x{puzzle.height}" == row["Size"]
            assert is_valid(puzzle) == (row["Valid"] != "ERR"), row["Grid"]


# --- fixtures in tests/data (no ../shared needed) ---------------------------------------


def test_invalid_input_entries() -> None:
    entries = read_entries(DATA / "invalid_input.txt")
    names = [e.meta["name"] if isinstance(e, Puzzle) else None for e in entries]
    assert names == [
        "Fishy",
        "False note",
        "Ill-formed",
        "Wrong constraint",
        "Impossible",
        "Zero",
        None,
    ]
    validity = {e.meta["name"]: is_valid(e) for e in entries[:-1]}
    assert validity == {
        "Fishy": False,
        "False note": False,
        "Ill-formed": False,
        "Wrong constraint": False,
        "Impossible": True,
        "Zero": True,
    }
    assert entries[1].height == 0 and entries[1].width == 10
    with pytest.raises(PuzzleError, match="153 black cells, columns 154"):
        entries[0].validate()
    error = entries[-1]
    assert error.line == 105 and error.index == 7
    assert str(error) == f'{DATA / "invalid_input.txt"}:105: unknown keyword "GRILL"'


def test_read_puzzles_is_strict() -> None:
    """The first fault, and where the others are (a batch gave only the first)."""
    with pytest.raises(
        FormatError,
        match=r"invalid_input.txt:2: Fishy: rows hold 153 .*; 4 more puzzles of the file are "
        r"faulty: lines 49, 69, 76, 105$",
    ):
        read_puzzles(DATA / "invalid_input.txt")


def test_dancer_non_with_metadata_and_goal() -> None:
    (puzzle,) = read_puzzles(DATA / "webpbn-00001-dancer.non")
    assert (puzzle.width, puzzle.height) == (5, 10)
    assert puzzle.rows[1] == (2, 1) and puzzle.cols[2] == (7,)
    assert puzzle.title == puzzle.meta["title"] == "Dancer"
    assert puzzle.meta["by"] == "Jan Wolter"
    assert puzzle.meta["copyright"] == "© Copyright 2004 by Jan Wolter"
    assert puzzle.meta["catalogue"] == "webpbn.com #1"
    assert puzzle.is_solution(puzzle.meta["goal"])
    (cat,) = read_puzzles(DATA / "nonogram-db-webpbn-6.non")
    assert cat.meta["license"] == "CC-BY-3.0"
    assert cat.is_solution(cat.meta["goal"])
    text = (DATA / "webpbn-00001-dancer.non").read_text()  # pbnsolve's form: the image on
    lines = [line for line in text.splitlines() if not line.startswith("goal")]  # the lines
    image = ["".join("1" if b else "0" for b in row) for row in np.asarray(puzzle.meta["goal"])]
    (below,) = loads("\n".join([*lines, "goal", *image, "", 'title "Dancer"']), "non")
    assert not isinstance(below, FormatError), below  # below "goal": it was refused
    assert (np.asarray(below.meta["goal"]) == np.asarray(puzzle.meta["goal"])).all()


def test_nin_fixtures() -> None:
    for name in ("jwilk-data000.nin", "jwilk-data001.nin"):
        (puzzle,) = read_puzzles(DATA / name)
        assert puzzle.width == puzzle.height == 10
    text = "3 2\n1\n0\n1\n\n1\n"
    (puzzle,) = puzzles_of(loads(text, "nin"))
    assert puzzle.rows == ((1,), ()) and puzzle.cols == ((1,), (), (1,))


def test_taai_fixture_and_solutions() -> None:
    puzzles = read_puzzles(DATA / "taai2011-first3-questions.txt")
    solutions = read_taai_solutions(DATA / "taai2011-first3-solutions.txt")
    assert len(puzzles) == len(solutions) == 3
    assert [p.title for p in puzzles] == ["$1", "$2", "$3"]
    assert all(p.is_solution(s) for p, s in zip(puzzles, solutions, strict=True))
    assert not puzzles[0].is_solution(solutions[1])


def test_solutions_without_headers() -> None:
    boards = read_taai_solutions(DATA / "taai2011-first3-solutions.txt")
    text = "\n".join("\t".join("1" if v else "0" for v in row) for b in boards for row in b)
    from xlsolver.formats.taai import loads_solutions

    again = loads_solutions(text, "plain.txt")
    assert len(again) == 3 and all((a == b).all() for a, b in zip(again, boards, strict=True))


def test_grid_text_fixtures() -> None:
    (note,) = read_puzzles(DATA / "test_pattern_01.txt")
    assert note.title == note.meta["name"] == "Note"
    assert note.rows[-1] == () and note.cols[0] == ()
    doms = read_puzzles(DATA / "domino_logic.txt")
    assert [p.title for p in doms] == [f"{n}-Dom" for n in range(3, 10)]
    assert [p.width for p in doms] == list(range(7, 21, 2))


# --- round trips -------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["non", "json", "grid", "nin", "xml"])
@pytest.mark.parametrize("seed", range(5))
def test_round_trip_keeps_the_clues(fmt: str, seed: int) -> None:
    puzzle = random_puzzle(seed)
    (again,) = puzzles_of(loads(dumps(puzzle, fmt), fmt))
    assert type(again) is Puzzle
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
    if fmt in ("non", "json", "xml"):
        assert again.title == puzzle.title
        assert again.meta["by"] == puzzle.meta["by"]
        assert (again.meta["goal"] == puzzle.meta["goal"]).all()
    if fmt in ("non", "json"):
        assert again.meta["license"] == "CC0-1.0"


@pytest.mark.parametrize("suffix", [".non", ".json", ".nin"])
def test_write_then_read_files(tmp_path: Path, suffix: str) -> None:
    (dancer,) = read_puzzles(DATA / "webpbn-00001-dancer.non")
    target = tmp_path / f"dancer{suffix}"
    write_puzzle(dancer, target)
    (again,) = read_puzzles(target)
    assert (again.rows, again.cols) == (dancer.rows, dancer.cols)
    assert [p.name for p in tmp_path.iterdir()] == [target.name]  # no temporary file left


def test_write_grid_text_and_an_empty_line(tmp_path: Path) -> None:
    puzzle = Puzzle.from_clues([[1], []], [[1], []], title="Corner")
    target = tmp_path / "corner.txt"
    write_puzzle(puzzle, target, "grid")
    assert "[ ]" in target.read_text()
    (again,) = read_puzzles(target)
    assert again == puzzle and again.meta["name"] == "Corner"


def test_write_unknown_extension_writes_nothing(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="extension '.xyz'"):
        write_puzzle(random_puzzle(1), tmp_path / "p.xyz")
    assert not list(tmp_path.iterdir())


def test_write_into_a_missing_folder_says_so(tmp_path: Path) -> None:
    with pytest.raises(FormatError, match="cannot write"):
        write_puzzle(random_puzzle(1), tmp_path / "no" / "p.non")


def test_json_list_and_goal_strings() -> None:
    text = (
        '[{"title": "One", "rows": [[1], []], "cols": [[1], [0]], "goal": ["#.", ".."]},\n'
        ' {"title": "Two", "rows": ["1 1"], "columns": ["1", "", "1"]}]\n'
    )
    one, two = puzzles_of(loads(text, "json"))
    assert one.is_solution(one.meta["goal"]) and one.meta["index"] == 1
    assert two.rows == ((1, 1),) and two.cols == ((1,), (), (1,)) and two.meta["line"] == 2


# --- line ends and errors ----------------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["taai2011-first3-questions.txt", "webpbn-00001-dancer.non", "invalid_input.txt"]
)
def test_crlf_reads_the_same(tmp_path: Path, name: str) -> None:
    text = (DATA / name).read_text()
    crlf = tmp_path / name
    crlf.write_bytes(text.replace("\n", "\r\n").encode())
    assert b"\r\n" in crlf.read_bytes()
    plain = [
        (e.rows, e.cols) if isinstance(e, Puzzle) else e.line for e in read_entries(DATA / name)
    ]
    again = [(e.rows, e.cols) if isinstance(e, Puzzle) else e.line for e in read_entries(crlf)]
    assert again == plain


BAD_TEXTS = [
    ("non", "width 2\nheight x\n", 2, 'height "x" is not a number'),
    ("non", "width 2\nheight 1\nrows\n1\ncolumns\n1\nz\n", 7, '"z" is not a line of clues'),
    ("non", "width 2\nheight 1\nrows\n1\ncolumns\n1\n", 5, "columns: 1 lines"),
    (
        "non",
        "width 2\nheight 2\nrows\n\n1\n1\ncolumns\n1\n1\n",
        6,
        '"1": more lines of clues than the 2 the size gives; a blank line',
    ),
    ("non", "width 1\nheight 1\nrows\n1\n", 1, 'no "columns" section'),
    ("non", 'width 1\nheight 1\nrows\n1\ncolumns\n1\ngoal "10"\n', 7, "goal has 2 cells"),
    ("non", "width 2\nheight 1\nrows\n1,x\ncolumns\n1\n0\n", 4, 'clue "x" is not a number'),
    ("non", "width 2\nheight 1\nrows\n1a,1\ncolumns\n1a\n1\n", 4, "without a colour letter"),
    ("non", "width 1\nheight 1\ncolor a #ff00\nrows\n1a\ncolumns\n1a\n", 3, "is not"),
    ("non", "width 2\nheight 1\nrows\n1a,1.\ncolumns\n1a\n1b\n", 4, "cannot name a colour"),
    (
        "non",
        'width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\ngoal "ac"\n',
        8,
        'goal: "c" is no colour',
    ),
    (
        "non",
        "width 2\nheight 1\ncolor red FF0000 #\nrows\nred 1 blue 1\ncolumns\nred 1\nblue 1\n",
        5,
        'colour "blue" is not declared',
    ),
    ("xml", "<puzzleset>\n<puzzle>\n<clues>\n</puzzle>", 4, "not valid XML"),
    (
        "xml",
        '<puzzleset><puzzle>\n<clues type="rows"><line><count>x</count></line></clues>\n'
        "</puzzle></puzzleset>",
        2,
        'count "x" is not a number',
    ),
    (
        "xml",
        '<puzzleset><puzzle>\n<clues type="rows"><line><count>1</count></line></clues>\n'
        "</puzzle></puzzleset>",
        1,
        'no <clues type="columns">',
    ),
    (
        "xml",
        '<puzzleset><puzzle><clues type="rows"><line><count>1</count></line></clues>\n'
        '<clues type="columns">\n<line><count color="red">1</count></line></clues>\n'
        "</puzzle></puzzleset>",
        3,
        'colour "red" is not declared',
    ),
    (
        "xml",
        '<!DOCTYPE p [\n<!ENTITY a "aaaa">\n]>\n<puzzleset/>',
        2,
        "entities are not allowed",
    ),
    ("toml", "[clues]\nrows = 1\ncolumns = [\n", 3, "not valid TOML"),
    ("toml", "[clues]\nrows = 1\ncolumns = [1,\n= 2]\n", 4, "not valid TOML"),
    ("toml", '[clues]\nrows = """\n1\n2x y\n"""\ncolumns = "1"\n', 4, 'block "y"'),
    ("toml", '[clues]\ncolumns = "1"\nrows = """\n1g\n1\n"""\n', 4, 'colour "g" is not'),
    (
        "toml",
        "[colors]\ndefs = ['g = (nocolour) *']\n[clues]\nrows='1'\ncolumns='1'\n",
        2,
        "not an SVG colour name",
    ),
    ("toml", "[colors]\ndefs = 3\n[clues]\nrows='1'\ncolumns='1'\n", 2, '"defs" is not a list'),
    ("nin", "2 2\n1\n1 0\n1\n1\n", 3, "clue 0 stands among other clues"),
    ("nin", "two 2\n", 1, "WIDTH HEIGHT"),
    ("taai", "$1\n1\n1\n1\n", 1, "3 clue lines"),
    ("taai", "1\n$1\n1\n1\n", 1, "before the first"),
    ("grid", "GRID A\nROWS\n[ 1 x ]\nCOLUMNS\n[ 1 ]\n", 3, 'clue "x" is not a number'),
    ("grid", "[ 1 ]\n", 1, "outside"),
    ("json", '{"rows": [[1]],\n "cols": [[1]],,}', 2, "not valid JSON"),
    ("json", '[{"rows": [[1]], "cols": [[1]]},\n {"rows": [[1]]}]', 2, 'missing "cols"'),
    ("json", '{"rows": [[1]], "cols": [[1]], "goal": ["#", "#"]}', 1, '"goal" must be'),
    ("json", '\n{"rows": [["1a"]], "cols": [["1b"]], "colours": {"a": "#f00"}}', 2, '"b" is not'),
    ("json", '{"rows": [["1a"]], "cols": [["1a"]], "colours": {"1": "#f00"}}', 1, "map letters"),
    ("json", '{"rows": [["1a", "x"]], "cols": [], "colours": {"a": "#f00"}}', 1, '"x" is not'),
]


@pytest.mark.parametrize(("fmt", "text", "line", "reason"), BAD_TEXTS)
def test_errors_name_file_and_line(fmt: str, text: str, line: int, reason: str) -> None:
    errors = [e for e in loads(text, fmt, source="bad.txt") if isinstance(e, FormatError)]
    assert errors, text
    assert errors[0].line == line and errors[0].path == "bad.txt"
    assert str(errors[0]).startswith(f"bad.txt:{line}: ")
    assert reason in str(errors[0])


def test_batch_goes_on_after_a_bad_puzzle() -> None:
    grid = "GRID A\nROWS\n[ 1 ? ]\nCOLUMNS\n[ 1 ]\nGRID B\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n"
    bad, good = loads(grid, "grid")
    assert isinstance(bad, FormatError) and bad.line == 3 and bad.index == 1
    assert good.title == "B" and good.meta["index"] == 2
    taai = "$1\n1\n1 x\n$2\n1\n1\n"
    bad, good = loads(taai, "taai")
    assert isinstance(bad, FormatError) and bad.line == 3
    assert good.rows == ((1,),) and good.meta["line"] == 4
    pack = "width 1\nheight 1\nrows\nq\ncolumns\n1\n====\nwidth 1\nheight 1\nrows\n1\ncolumns\n1\n"
    bad, good = loads(pack, "non")
    assert isinstance(bad, FormatError) and bad.line == 4
    assert good.meta["line"] == 8


def test_nonpack_bundle(tmp_path: Path) -> None:
    parts = [dumps(random_puzzle(seed), "non") for seed in (1, 2)]
    pack = tmp_path / "two.nonpack"
    pack.write_text("====\n".join(parts))
    one, two = read_puzzles(pack)
    assert (one.rows, two.rows) == (random_puzzle(1).rows, random_puzzle(2).rows)


def test_unreadable_and_unknown_files_raise(tmp_path: Path) -> None:
    missing = tmp_path / "missing.non"
    with pytest.raises(FormatError, match="missing.non: cannot read"):
        read_entries(missing)
    odd = tmp_path / "notes.txt"
    odd.write_text("hello\n")
    with pytest.raises(FormatError, match="notes.txt: unknown puzzle format"):
        read_entries(odd)
    binary = tmp_path / "book.xlsx"
    binary.write_bytes(b"PK\x03\x04\xff\xfe")
    with pytest.raises(FormatError, match="unknown puzzle format .xlsx"):
        read_entries(binary)
    empty = tmp_path / "empty.non"
    empty.write_text("")
    (error,) = read_entries(empty)
    assert isinstance(error, FormatError) and "no puzzle" in str(error)


def test_files_written_by_other_programs(tmp_path: Path) -> None:
    """A tab after a keyword, UTF-16 with its BOM (Windows Notepad), Latin-1 named with
    its line, and titles with line breaks written so that they read back."""
    tabs = tmp_path / "tabs.non"
    tabs.write_text('title\t"Tabby"\nwidth\t2\nheight\t1\n\nrows\n2\n\ncolumns\n1\n1\n')
    (puzzle,) = read_puzzles(tabs)
    assert (puzzle.title, puzzle.width, puzzle.height) == ("Tabby", 2, 1)
    notepad = tmp_path / "notepad.non"
    notepad.write_bytes("width 1\r\nheight 1\r\nrows\r\n1\r\ncolumns\r\n1\r\n".encode("utf-16"))
    assert list(read_puzzles(notepad)[0].rows) == [(1,)]
    latin = tmp_path / "latin.non"
    latin.write_bytes('width 1\nheight 1\ntitle "Caf\xe9"\n'.encode("latin-1"))
    with pytest.raises(
        FormatError, match=r"latin.non: not UTF-8 text \(line 3, byte 11 of the line\)"
    ):
        read_entries(latin)
    latin_txt = tmp_path / "latin.txt"
    latin_txt.write_bytes(b"GRID Caf\xe9\nROWS\n[ 1 ]\nCOLUMNS\n[ 1 ]\n")
    with pytest.raises(FormatError, match=r"unknown puzzle format .txt.*not UTF-8 text \(line 1"):
        read_entries(latin_txt)
    titled = Puzzle.from_clues([[1]], [[1]], title="Line one\nrows\n9")
    for fmt, name in (("non", "t.non"), ("grid", "t.txt")):
        path = tmp_path / name
        path.write_text(dumps(titled, fmt))
        (again,) = read_puzzles(path)
        assert (again.rows, again.cols) == (titled.rows, titled.cols)
    assert read_puzzles(tmp_path / "t.non")[0].title == titled.title


def test_detect_format() -> None:
    assert detect_format("a.NON") == "non"
    assert detect_format("a.nonpack") == "non"
    assert detect_format("a.nin") == "nin"
    assert detect_format("a.json") == "json"
    assert detect_format("a.txt", "$1\n1\n1\n") == "taai"
    assert detect_format("a.txt", "# hi\nGRID x\nROWS\n") == "grid"
    assert detect_format("a.dat", "2 1\n1\n1\n0\n") == "nin"
    assert detect_format("a", "width 1\nheight 1\nrows\n1\ncolumns\n1\n") == "non"
    with pytest.raises(FormatError, match="unknown puzzle format"):
        detect_format("a.txt", "just words\n")
    with pytest.raises(FormatError, match='unknown format "xls"'):
        loads("", "xls")


# --- files written by hand or by other programs ------------------------------------------


def cli(capsys, *args: str) -> tuple[int, list[dict], list[str]]:
    """Exit status, JSON records and stderr lines of one ``xlsolver`` command."""
    import json

    from xlsolver.cli import main

    code = main(list(args))
    out = capsys.readouterr()
    records = [json.loads(line) for line in out.out.splitlines() if line.startswith("{")]
    return code, records, out.err.splitlines()


def test_grid_text_clue_lines_may_end_in_a_comment(tmp_path: Path, capsys) -> None:
    """picross-solver's ``#`` comments after a clue or section line, as people write them."""
    (note,) = read_puzzles(DATA / "test_pattern_01.txt")
    lines = ["# Note, with remarks", "GRID Note #1", "ROWS   # top to bottom"]
    lines += [f"[ {' '.join(map(str, c))} ]  # row {i}" for i, c in enumerate(note.rows, 1)]
    lines += ["COLUMNS"] + [f"[ {' '.join(map(str, c))} ]#" for c in note.cols]
    path = tmp_path / "note.txt"
    path.write_text("\n".join(lines) + "\n")
    code, (record,), err = cli(capsys, "solve", str(path), "--json")
    assert (code, err) == (0, [])
    (again,) = read_puzzles(path)
    assert (again.rows, again.cols) == (note.rows, note.cols) and again.title == "Note #1"
    assert note.is_solution(np.array([[c == "#" for c in r] for r in record["solutions"][0]]))


def test_grid_text_a_broken_line_is_one_error(tmp_path: Path, capsys) -> None:
    path = tmp_path / "broken.txt"
    path.write_text("GRID A\nROWS\n[ 1 ] x\nCOLUMNS\n[ 1 ]\nGRID B\nROWS\n[ 1 ]\nFOO\n")
    code, records, err = cli(capsys, "solve", str(path), "--json")
    assert code == 2
    assert err == [
        f'xlsolver: {path}:3: "[ 1 ] x" is not a clue line like "[ 3 1 ]"',
        f'xlsolver: {path}:9: unknown keyword "FOO"',
    ]
    assert [r["index"] for r in records] == [1, 2]


def test_taai_an_empty_last_row_written_as_a_blank_line(tmp_path: Path, capsys) -> None:
    """Note (6×6, its last row empty) as a TAAI block, the empty lines blank, then a
    tournament puzzle after a blank separator line: both read with every line."""
    (note,) = read_puzzles(DATA / "test_pattern_01.txt")
    assert note.rows[-1] == () and note.cols[0] == ()
    first = (DATA / "taai2011-first3-questions.txt").read_text().split("$2")[0]
    lines = ["$7"] + ["\t".join(map(str, c)) for c in note.cols + note.rows]
    path = tmp_path / "batch.txt"
    path.write_text("\n".join(lines) + "\n\n" + first + "\n\n")
    assert path.read_text().count("\n\n") == 3  # the empty last row and two separators
    code, records, err = cli(capsys, "solve", str(path), "--json")
    assert (code, err) == (0, [])
    again, tournament = read_puzzles(path)
    assert (again.rows, again.cols) == (note.rows, note.cols)
    assert (tournament.rows, tournament.cols) == (
        read_puzzles(DATA / "taai2011-first3-questions.txt")[0].rows,
        read_puzzles(DATA / "taai2011-first3-questions.txt")[0].cols,
    )
    grid = np.array([[c == "#" for c in row] for row in records[0]["solutions"][0]])
    assert grid.shape == (6, 6) and note.is_solution(grid)


def test_taai_blank_lines_that_leave_the_size_open_are_refused(tmp_path: Path, capsys) -> None:
    """A 5×5 whose last column and two last rows are empty, written with blank lines: read
    as a 4×4 its clues add up too, so the size is open and the block is refused."""
    picture = ["#.#..", ".#...", "###..", ".....", "....."]
    five = Puzzle.from_solution(np.array([[c == "#" for c in row] for row in picture]))
    lines8 = list(five.cols + five.rows[:3])  # the lines before the trailing blank ones
    Puzzle.from_clues(rows=lines8[4:], cols=lines8[:4])  # as a 4×4, valid clues too
    lines = ["$1"] + ["\t".join(map(str, c)) for c in five.cols + five.rows]
    path = tmp_path / "open.txt"
    path.write_text("\n".join(lines) + "\n\n")
    code, _, err = cli(capsys, "solve", str(path))
    assert code == 2 and err == [
        f"xlsolver: {path}:1: $1: the blank lines at its end leave the size open (4×4 or "
        "5×5: empty last rows or separators); write an empty line as 0"
    ]
    path.write_text("\n".join(line or "0" for line in lines) + "\n")
    (again,) = read_puzzles(path)
    assert (again.rows, again.cols) == (five.rows, five.cols)


def test_taai_a_block_of_blank_lines_alone_says_to_write_0(tmp_path: Path, capsys) -> None:
    """A 1×1 white board written with two blank lines said "0 clue lines; a square board
    needs twice its size"; the block is named with what to write, the next one solved."""
    path = tmp_path / "blank.txt"
    path.write_text("$1\n\n\n$2\n1\n1\n")
    code, out, err = cli(capsys, "solve", str(path))
    assert code == 2 and err == [
        f"xlsolver: {path}:1: $1: 2 blank lines and no clues: empty lines of a board or "
        "separators? write each empty line of the board as 0"
    ], err
    path.write_text("$1\n0\n0\n$2\n1\n1\n")
    first, second = read_puzzles(path)
    assert first.rows == first.cols == ((),) and second.rows == ((1,),)


def test_json_other_fields_are_ignored_and_a_trailing_comma_separates_nothing(
    tmp_path: Path, capsys
) -> None:
    """An export with an ``id`` and a millisecond timestamp (14 digits), clue strings
    ending in a comma: the clues are those of the puzzle, the rest is ignored."""
    (dancer,) = read_puzzles(DATA / "webpbn-00001-dancer.non")
    obj = {
        "id": 20240101123456,
        "created": 1704112496123,
        "score": 12345678901234.5,
        "title": "Dancer",
        "rows": [",".join(map(str, c)) + "," for c in dancer.rows],
        "cols": [list(c) for c in dancer.cols],
    }
    import json

    path = tmp_path / "export.json"
    path.write_text(json.dumps(obj, indent=1))
    assert '"2,1,"' in path.read_text() and "20240101123456" in path.read_text()
    code, (record,), err = cli(capsys, "solve", str(path), "--json")
    assert (code, err, record["status"]) == (0, [], "unique")
    (again,) = read_puzzles(path)
    assert (again.rows, again.cols) == (dancer.rows, dancer.cols)
    assert dancer.is_solution(np.array([[c == "#" for c in r] for r in record["solutions"][0]]))
    obj["rows"][1] = [2, 12345678901234]  # where a clue stands, a long number is an error
    obj["cols"][0] = "2 x"
    path.write_text(json.dumps(obj))
    code, _, err = cli(capsys, "solve", str(path))
    assert code == 2
    assert err == [
        f'xlsolver: {path}:1: "rows" item 2: the number 123456789012… has 14 digits (at most 9)'
    ]
    del obj["rows"][1]
    obj["rows"].append("")
    path.write_text(json.dumps(obj))
    assert cli(capsys, "solve", str(path))[2] == [
        f'xlsolver: {path}:1: "cols" item 1: clue "x" is not a number'
    ]


def flip_goal_cell(text: str, start: str, row: int, col: int, cells: dict[str, str]) -> str:
    """A file's text with one cell of its goal changed: the goal row ``row`` begins at
    the ``row``-th line after the line that starts with ``start``."""
    lines = text.split("\n")
    at = next(i for i, line in enumerate(lines) if line.startswith(start)) + 1 + row
    line = lines[at]
    lines[at] = line[:col] + cells[line[col]] + line[col + 1 :]
    return "\n".join(lines)


@pytest.mark.parametrize(
    ("name", "edit", "line", "where"),
    [
        (  # .non: the goal is one string, row by row (5 wide): cell 15 is row 4, column 1
            "webpbn-00001-dancer.non",
            lambda t: t.replace('goal "01100011010010101', 'goal "01100011010010111'),
            27,
            "row 4",
        ),
        (  # webpbn XML, colour: a red cell of row 2 made green
            "webpbn-color-00047-map.xml",
            lambda t: flip_goal_cell(t, "<image>", 1, 2, {"*": "%"}),
            77,
            "row 2",
        ),
    ],
)
def test_a_goal_that_breaks_the_clues_is_an_error(
    tmp_path: Path, capsys, name: str, edit, line: int, where: str
) -> None:
    """The goal a file holds is checked against its clues: the first line where they
    disagree is named, exit 2, nothing written; the unedited file reads as before."""
    (puzzle,) = read_puzzles(DATA / name)
    goal = np.asarray(puzzle.meta["goal"])
    assert puzzle.is_solution(goal)
    path = tmp_path / name
    path.write_text(edit((DATA / name).read_text()))
    (bad,) = loads(path.read_text(), detect_format(path), source="x")
    assert isinstance(bad, FormatError)
    first = puzzle.check(read_goal(path, puzzle))[0]  # rows first, then columns
    assert f"{first[0]} {first[1] + 1}" == where
    code, _, err = cli(capsys, "convert", str(path), "-o", str(tmp_path / "out.json"))
    assert code == 2 and not (tmp_path / "out.json").exists()
    assert len(err) == 1 and err[0].startswith(f"xlsolver: {path}:{line}: ")
    assert f"the goal does not match the clues: {where} of the goal is" in err[0]
    code, _, err = cli(capsys, "solve", str(DATA / name), "--json")
    assert (code, err) == (0, [])


def read_goal(path: Path, puzzle) -> np.ndarray:
    """The goal of an edited file, read by the test's own means (the ``goal`` string, or
    the image rows through the file's colour chars), not by the reader it checks."""
    import re

    text = path.read_text()
    if path.suffix == ".non":
        cells = text.split('goal "')[1].split('"')[0]
        return np.array([ch != "0" for ch in cells]).reshape(puzzle.height, puzzle.width)
    rows = text.split("<image>")[1].split("</image>")[0].split()
    ink = {c.name: i for i, c in enumerate(puzzle.palette.inks, 1)}
    chars = {ch: ink.get(n, 0) for n, ch in re.findall(r'<color name="(\w+)" char="(.)">', text)}
    return np.array([[chars[ch] for ch in row.strip("|")] for row in rows])


def test_a_json_goal_that_breaks_the_clues_is_an_error(tmp_path: Path, capsys) -> None:
    (dancer,) = read_puzzles(DATA / "webpbn-00001-dancer.non")
    text = dumps(dancer, "json")
    first_row = solution_text(dancer.meta["goal"])[0]
    flipped = ("#" if first_row[0] == "." else ".") + first_row[1:]
    path = tmp_path / "dancer.json"
    path.write_text(text.replace(f'"{first_row}"', f'"{flipped}"', 1))
    code, _, err = cli(capsys, "solve", str(path))
    assert code == 2
    assert err == [
        f"xlsolver: {path}:1: the goal does not match the clues: row 1 of the goal is "
        f"{' '.join(map(str, Puzzle.runs(c == '#' for c in flipped))) or 0}, its clues are "
        f"{' '.join(map(str, dancer.rows[0]))}"
    ]


def solution_text(goal) -> list[str]:
    """A boolean goal as ``#``/``.`` rows."""
    return ["".join("#" if v else "." for v in row) for row in np.asarray(goal)]


def test_webpbn_xml_in_latin_1_and_colours_without_char(tmp_path: Path, capsys) -> None:
    """webpbn #47 saved as ISO-8859-1 with an accented title; then with ``char`` left off
    black (X, as pbnsolve takes it) and off red (the image cannot show red: refused,
    naming the element)."""
    source = DATA / "webpbn-color-00047-map.xml"
    (map47,) = read_puzzles(source)
    text = source.read_text()
    latin = text.replace('<?xml version="1.0"?>', '<?xml version="1.0" encoding="ISO-8859-1"?>')
    latin = latin.replace("<title>Not To Scale</title>", "<title>Pas à l'échelle</title>")
    path = tmp_path / "carte.xml"
    path.write_bytes(latin.encode("latin-1"))
    assert b"\xc3\xa9" not in path.read_bytes()  # é in UTF-8
    code, (record,), err = cli(capsys, "solve", str(path), "--json")
    assert (code, err, record["status"]) == (0, [], "unique")
    (again,) = read_puzzles(path)
    assert again.title == "Pas à l'échelle"
    assert (again.rows, again.cols) == (map47.rows, map47.cols)
    # webpbn's exports write &copy;, declared in the DTD that is never fetched
    copy = text.replace("(c) Copyright 2004", "&copy; Copyright 2004")
    path.write_text(copy)
    (again,) = read_puzzles(path)
    assert again.meta["copyright"] == "© Copyright 2004 by Jan Wolter"
    no_black = text.replace('<color name="black" char="X">', '<color name="black">')
    path = tmp_path / "no-black-char.xml"
    path.write_text(no_black)
    (again,) = read_puzzles(path)
    assert again.is_solution(again.meta["goal"])
    assert np.array_equal(again.meta["goal"], map47.meta["goal"])
    no_red = text.replace('<color name="red" char="*">', '<color name="red">')
    path = tmp_path / "no-red-char.xml"
    path.write_text(no_red)
    line = no_red.split("\n").index('<color name="red">FF0000</color>') + 1
    code, _, err = cli(capsys, "solve", str(path))
    assert code == 2 and len(err) == 1
    assert err[0].startswith(f'xlsolver: {path}:{line}: <color name="red"> has no "char"')


@pytest.mark.parametrize(
    ("target", "fmt"),
    [
        ("all.nonpack", None),
        ("all.json", None),
        ("all.xml", None),
        ("all.nin", None),
        ("all.txt", "grid"),
        ("all.txt", "taai"),
    ],
)
def test_convert_a_batch_into_a_format_that_holds_many(
    tmp_path: Path, capsys, target: str, fmt: str | None
) -> None:
    """Three tournament puzzles and a GRID text file of seven: every puzzle is written,
    and reads back with its clues, in order."""
    for source in (DATA / "taai2011-first3-questions.txt", DATA / "domino_logic.txt"):
        puzzles = read_puzzles(source)
        if fmt == "taai" and puzzles[0].width != puzzles[0].height:
            continue
        out = tmp_path / target
        args = ["convert", str(source), "-o", str(out)] + (["--format", fmt] if fmt else [])
        code, _, err = cli(capsys, *args)
        said = ("replaced", "leaves out the title")  # the GRID names: .nin and TAAI have none
        assert code == 0 and all(any(w in line for w in said) for line in err), err
        again = read_puzzles(out)
        assert [(p.rows, p.cols) for p in again] == [(p.rows, p.cols) for p in puzzles]


def test_convert_a_batch_into_a_one_puzzle_format_names_one_that_holds_many(
    tmp_path: Path, capsys
) -> None:
    out = tmp_path / "all.non"
    source = DATA / "taai2011-first3-questions.txt"
    code, _, err = cli(capsys, "convert", str(source), "-o", str(out))
    assert code == 2 and not out.exists()
    assert err == [
        f"xlsolver: {out}: 3 puzzles, but a .non file holds one; write them to a .nonpack, "
        ".json, .xml or .nin file, GRID text (--format grid), or a workbook"
    ]


@pytest.mark.parametrize("black, white", [("#", "."), ("X", "-")])
def test_a_non_goal_in_another_notation(tmp_path: Path, capsys, black: str, white: str) -> None:
    """Other programs write a .non goal as #/. or X/-: it reads as the same goal; any
    other character is named."""
    text = (DATA / "webpbn-00001-dancer.non").read_text()
    ones = text.split('goal "')[1].split('"')[0]
    path = tmp_path / "dancer.non"
    path.write_text(text.replace(ones, ones.replace("1", black).replace("0", white)))
    (puzzle,) = read_puzzles(path)
    expected = np.array([ch == "1" for ch in ones]).reshape(puzzle.height, puzzle.width)
    assert puzzle.is_solution(expected)
    assert (np.asarray(puzzle.meta["goal"]) == expected).all()
    path.write_text(text.replace(ones, "?" + ones[1:]))
    code, _, err = cli(capsys, "solve", str(path))
    assert code == 2 and len(err) == 1 and 'goal: "?" is neither black' in err[0]


@pytest.mark.parametrize("key", ["width", "rows", "goal"])
def test_two_puzzles_in_one_non_file_are_named_not_merged(key: str) -> None:
    """Two .non files joined into one (``cat a.non b.non``) read as the second puzzle
    with the first's leftovers; a key given twice is an error naming both lines."""
    first = 'title "A"\nwidth 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\ngoal "1001"\n'
    second = {"width": "width 2\n", "rows": "rows\n1\n1\n"}
    second["goal"] = 'goal "1001"\n'
    (err,) = loads(first + "\n" + second[key], "non", source="ab.non")
    assert isinstance(err, FormatError) and err.line == 12
    (again,) = loads(first + 'title "B"\nby "C"\n', "non", source="ab.non")
    assert again.title == "B"  # a title or author given again is only metadata: the last
    assert f'a second "{key}" (the first is on line ' in str(err)
    assert "put several in a .nonpack, separated by ==== lines" in str(err)


def test_count_takes_one_or_more_and_one_is_the_first(tmp_path: Path, capsys) -> None:
    """``--count 0`` and ``--count -1`` were taken as the default, and ``--count 1``
    printed two solutions of a puzzle with two."""
    from xlsolver.cli import main

    path = tmp_path / "two.non"
    path.write_text("width 2\nheight 2\nrows\n1\n1\ncolumns\n1\n1\n")
    for bad in ("0", "-1", "two"):
        with pytest.raises(SystemExit) as stop:
            main(["solve", str(path), "--count", bad])
        assert stop.value.code == 2
        assert "argument --count" in capsys.readouterr().err
    code, records, _ = cli(capsys, "solve", str(path), "--json", "--count", "1")
    assert code == 0 and records[0]["status"] == "solved" and len(records[0]["solutions"]) == 1
    code, records, _ = cli(capsys, "solve", str(path), "--json", "--count", "5")
    assert records[0]["status"] == "multiple" and len(records[0]["solutions"]) == 2
    for grid in records[0]["solutions"]:
        cells = np.array([[ch == "#" for ch in row] for row in grid])
        assert Puzzle.from_clues([(1,), (1,)], [(1,), (1,)]).is_solution(cells)


def test_converting_into_a_format_without_credits_says_they_are_left_out(tmp_path, capsys):
    """Dancer (by Jan Wolter, © 2004) written as .g or .nin lost its credits without a word;
    a .non, JSON or XML copy keeps them and says nothing."""
    dancer = str(DATA / "webpbn-00001-dancer.non")
    for ext in ("g", "nin", "mk"):
        code, _, err = cli(capsys, "convert", dancer, "-o", str(tmp_path / f"d.{ext}"))
        lost = f"xlsolver: {tmp_path / f'd.{ext}'} leaves out the"
        assert code == 0 and err[0] == (
            f"{lost} credits (by, copyright, catalogue): a .{ext} file has no place for them "
            "(.non, .nonpack, JSON, webpbn XML and workbooks keep them)"
        ), err
        # the goal, and the title where the format has none, are said too (they went silently)
        assert err[1] == (
            f"{lost} goal (the intended picture): a .{ext} file has no place for it (.non, "
            "JSON, webpbn XML keep it; a workbook keeps it as its answer key)"
        )
        title = (
            []
            if ext == "g"
            else [
                f"{lost} title: a .{ext} file has no place for it "
                "(.non, .g, GRID text, JSON, webpbn XML and workbooks keep it)"
            ]
        )
        assert err[2:] == title, err
    code, _, err = cli(
        capsys, "convert", dancer, "-o", str(tmp_path / "d.txt"), "--format", "grid"
    )  # a .txt is GRID text here: named as such (it said "a .txt file")
    assert code == 0 and err == [
        f"xlsolver: {tmp_path / 'd.txt'} leaves out the credits (by, copyright, catalogue): "
        "GRID text has no place for them (.non, .nonpack, JSON, webpbn XML and workbooks "
        "keep them)",
        f"xlsolver: {tmp_path / 'd.txt'} leaves out the goal (the intended picture): GRID "
        "text has no place for it (.non, JSON, webpbn XML keep it; a workbook keeps it as "
        "its answer key)",
    ], err
    long = tmp_path / "long.non"
    long.write_text(
        'title "A rather long title for a small puzzle, fifty characters"\n'
        "width 1\nheight 1\nrows\n1\ncolumns\n1\n"
    )
    code, _, err = cli(capsys, "convert", str(long), "-o", str(tmp_path / "long.g"))
    assert err == [
        f"xlsolver: {tmp_path / 'long.g'} leaves out the title: a .g file keeps a "
        "title of at most 40 characters"
    ], err
    mk = tmp_path / "ok.mk"  # an untitled puzzle through a workbook and back: no title
    mk.write_text("3 3\n1\n1\n1\n#\n1\n1\n1\n")
    assert cli(capsys, "convert", str(mk), "-o", str(tmp_path / "ok.xlsx"))[0] == 0
    code, _, err = cli(capsys, "convert", str(tmp_path / "ok.xlsx"), "-o", str(tmp_path / "b.mk"))
    assert code == 0 and err == [], err
    for ext in ("non", "json", "xml"):
        code, _, err = cli(capsys, "convert", dancer, "-o", str(tmp_path / f"d.{ext}"))
        assert code == 0 and err == [], err
        (back,) = read_puzzles(tmp_path / f"d.{ext}")
        assert back.meta["by"] == "Jan Wolter"


def test_a_clue_too_long_is_named_at_its_own_line(tmp_path: Path, capsys) -> None:
    """A clue too long for its line was named at the puzzle's first line (``long.non:1:``)."""
    long_non = tmp_path / "long.non"
    long_non.write_text("width 3\nheight 2\nrows\n1\n1\ncolumns\n4\n0\n1\n")
    long_nin = tmp_path / "long.nin"
    long_nin.write_text("5 2\n1\n3 2\n1\n1\n1\n1\n1\n")
    for path, said in (
        (
            long_non,
            f"xlsolver: {long_non}:7: column 1: clues 4 need 4 cells but the grid is 2 high",
        ),
        (long_nin, f"xlsolver: {long_nin}:3: row 2: clues 3 2 need 6 cells but the grid is 5 wide"),
    ):
        code, _, err = cli(capsys, "solve", str(path))
        assert code == 2 and err == [said], err
        with pytest.raises(FormatError, match=rf"{path.name}:{said.split(':')[2]}:"):
            read_puzzles(path)


@pytest.mark.parametrize(
    ("name", "text", "line", "said"),
    [
        ("t.txt", "$1\n1\n1\n9\n1\n1\n1\n", 4, "column 3: clues 9 need 9 cells"),
        ("t.txt", "$1\n1\n1\n1\n1\n2 2\n1\n$2\n1\n1\n", 6, "row 2: clues 2 2 need 5"),
        ("g.txt", "GRID a\nROWS\n[ 1 ]\n[ 1 ]\nCOLUMNS\n[ 1 1 ]\n[ ]\n", 6, "column 1: clues 1 1"),
        ("m.mk", "3 3\n1\n5\n1\n#\n1\n1\n1\n", 3, "row 2: clues 5 need 5 cells"),
        ("c.cwd", "3\n3\n1\n1\n1\n\n1\n7\n1\n", 8, "column 2: clues 7 need 7 cells"),
        ("o.g", "T\n: rows\n1\n1\n1\n: columns\n1\n1 1 1\n1\n: end\n", 8, "column 2"),
        (
            "c.g",
            "#d\n   0:.  #ffffff\n   a:a  #ff0000\n: rows\n1a\n1a\n1a\n: columns\n1a\n4a\n1a\n",
            10,
            "column 2: clues 4 need 4 cells",
        ),
    ],
)
def test_a_clue_too_long_is_named_at_its_line_in_other_formats(
    tmp_path: Path, capsys, name: str, text: str, line: int, said: str
) -> None:
    """TAAI, GRID text, .mk, .cwd and Olšák's .g named a clue too long for its line at the puzzle's
    first line (its header), as .non and .nin did before."""
    path = tmp_path / name
    path.write_text(text)
    code, _, err = cli(capsys, "solve", str(path))
    assert code == 2 and len(err) == 1 and err[0].startswith(f"xlsolver: {path}:{line}: "), err
    assert said in err[0]

"""Puzzle files of other nonogram programs: Olšák's ``.mk`` and ``.g``, QNonograms'
``.cwd``, and Simon Tatham's Pattern (game IDs and ``.sav`` save files).

Every puzzle read is solved and its solutions checked against its clues; every format
that writes reads back what it wrote; every error names its file and line. The expected
solutions of the Olšák samples are pbnsolve's (built from Jan Wolter's source), which
agreed with ``xlsolver solve`` on all 50 readable ``.mk``/``.g`` files of the Olšák and
pbnsolve distributions.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA

from xlsolver.formats import FormatError, detect_format, dumps, loads, read_entries, write_puzzle
from xlsolver.inputs import expand
from xlsolver.nonogram import Puzzle, solve
from xlsolver.nonogram.colour_puzzle import ColourPuzzle

NEW_FORMATS = ("mk", "g", "cwd", "pattern")
SAVE_HEAD = "SAVEFILE:41:Simon Tatham's Portable Puzzle Collection\nVERSION :1:1\n"


def solutions_of(puzzle: Puzzle | ColourPuzzle, limit: int = 2) -> tuple[str, list]:
    """The status and the solutions of a puzzle, each checked against the clues."""
    result = solve(puzzle, max_solutions=limit)
    grids = [np.asarray(s) for s in result.solutions]
    assert grids and all(puzzle.is_solution(g) for g in grids)
    return result.status, result.to_json()["solutions"]


def only(entries: list) -> Puzzle | ColourPuzzle:
    """The one puzzle of a file's entries (failing on a FormatError entry)."""
    assert len(entries) == 1 and not isinstance(entries[0], FormatError), entries
    return entries[0]


def random_puzzle(seed: int, height: int = 6, width: int = 9, title: str = "") -> Puzzle:
    """A black-and-white puzzle made from a random picture (some lines empty)."""
    picture = np.random.default_rng(seed).random((height, width)) < 0.45
    picture[seed % height, :] = False
    return Puzzle.from_solution(picture, title=title or f"Random {seed}")


def save_file(game: str, params: str, desc: str) -> str:
    """A Tatham save file of a game, with one move after the start."""
    fields = [("GAME", game), ("PARAMS", params), ("CPARAMS", params), ("DESC", desc)]
    fields += [("NSTATES", "2"), ("STATEPOS", "2"), ("MOVE", "F0,0,1,1")]
    return SAVE_HEAD + "".join(f"{k:<8}:{len(v)}:{v}\n" for k, v in fields)


def error_of(text: str, fmt: str, source: str = "bad") -> FormatError:
    """The one FormatError a text gives (raised or as its entry)."""
    try:
        entries = loads(text, fmt, source=source)
    except FormatError as exc:
        return exc
    errors = [e for e in entries if isinstance(e, FormatError)]
    assert errors, entries
    return errors[0]


# --- Olšák's .mk ------------------------------------------------------------------------


def test_mk_sample_is_solved_as_pbnsolve_solves_it() -> None:
    puzzle = only(read_entries(DATA / "olsak-test.mk"))  # CRLF lines
    assert (puzzle.width, puzzle.height) == (20, 20)
    assert puzzle.rows[0] == (1, 3, 1, 1, 3, 1) and puzzle.cols[-1] == (2, 1, 1, 1, 2, 1)
    status, grids = solutions_of(puzzle)
    assert status == "unique"
    assert grids[0][:2] == ["#.###.#....#..###..#", "##.##.#.......##..##"]
    assert grids[0][-1] == "....#..######.....##"


def test_mk_header_is_rows_then_columns_and_reads_back() -> None:
    for seed in range(12):
        puzzle = random_puzzle(seed, height=4 + seed % 3, width=7)
        text = dumps(puzzle, "mk")
        assert text.splitlines()[0] == f"{puzzle.height} {puzzle.width}"
        assert text.splitlines()[puzzle.height + 1] == "#"
        again = only(loads(text, "mk"))
        assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
        solutions_of(again)


def test_mk_blank_lines_are_empty_lines_or_padding() -> None:
    text = "3 2\n1\n\n2\n\n#\n1\n2\n\n\n"  # a blank row; padding before "#" and at the end
    puzzle = only(loads(text, "mk"))
    assert puzzle.rows == ((1,), (), (2,)) and puzzle.cols == ((1,), (2,))
    assert puzzle.cols == only(loads("3 2\n1\n0\n2\n#\n1\n2\n", "mk")).cols


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("x 3\n", 1, '"x 3" is not a "ROWS COLUMNS" line'),
        ("2 2\n1\n1\n1\n1\n", 1, 'no "#" line'),
        ("3 2\n1\n1\n#\n1\n1\n", 4, "the header gives 3 rows, the file has 2 lines"),
        ("1 2\n1\n2\n#\n1\n1\n", 3, '"2": more lines of clues than the 1 rows'),
        ("1 2\n1\n#\n1\n1\n1\n", 6, '"1": more lines of clues than the 2 columns'),
        ("1 2\n1\n#\n1\nx\n", 5, 'clue "x" is not a number'),
        ("2 1\n1 0\n1\n#\n2\n", 2, "clue 0 stands among other clues"),
        ("0 3\n#\n", 1, "size 3x0: each side must be 1"),
    ],
)
def test_mk_errors_name_the_line(text: str, line: int, words: str) -> None:
    exc = error_of(text, "mk", source="bad.mk")
    assert (exc.path, exc.line) == ("bad.mk", line) and words in exc.reason
    assert str(exc).startswith(f"bad.mk:{line}: ")


# --- Olšák's .g -------------------------------------------------------------------------


def test_g_black_and_white_sample_needs_search() -> None:
    puzzle = only(read_entries(DATA / "olsak-usmev.g"))
    assert not isinstance(puzzle, ColourPuzzle)
    assert (puzzle.width, puzzle.height) == (25, 35)
    assert puzzle.rows[7] == (4, 1, 4)  # "4 1 4 " with a trailing space
    status, grids = solutions_of(puzzle)
    assert status == "unique"
    assert grids[0][:2] == ["###.....#########.#######", "##.......#######..#######"]
    assert grids[0][-1] == "..#...####..............."


def test_g_colour_sample_has_four_solutions() -> None:
    puzzle = only(read_entries(DATA / "olsak-viceres.g"))
    assert isinstance(puzzle, ColourPuzzle)
    # "m:%  blue" and "1:*  black" (the default colour, for numbers without a letter)
    assert [(c.letter, c.rgb) for c in puzzle.palette.inks] == [
        ("m", "#0000ff"),
        ("*", "#000000"),
    ]
    assert puzzle.rows == (((1, 1),), ((1, 2),), ((1, 1),), ((1, 2),))
    status, grids = solutions_of(puzzle, limit=10)
    assert status == "multiple" and len(grids) == 4


OWN_G = """\
Flag
a made-up puzzle: comments before the first "#" or ":" line are free text
#d
   0:-  #FFFFEE   pale background
   1:*  black     the default colour
   r:R  red
   g:G  #00CE00   hex
:rows -----
2r 1
1g 1g

2r 1
:columns -----
1r 1g 1r
1r 1r
1 1g 1
: end
"""


def test_g_declarations_default_colour_and_empty_lines() -> None:
    puzzle = only(loads(OWN_G, "g", source="flag.g"))
    assert isinstance(puzzle, ColourPuzzle) and puzzle.title == "Flag"
    palette = puzzle.palette
    assert palette.background.rgb == "#ffffee"
    assert [(c.letter, c.rgb) for c in palette.inks] == [
        ("*", "#000000"),
        ("r", "#ff0000"),
        ("g", "#00ce00"),
    ]
    assert puzzle.rows[2] == () and puzzle.rows[0] == ((2, 2), (1, 1))
    status, grids = solutions_of(puzzle)
    assert status == "unique" and grids[0] == ["rr*", "g.g", "...", "rr*"]


def test_g_colour_zero_line_without_a_default_colour() -> None:
    """An empty line written ``0`` in a colour file declaring no ``1:`` default colour
    was refused ("has no colour letter"); it is an empty line, as a blank one is."""
    text = "two colours\n#d\na:*  #ff0000\nb:%  #0000ff\n: rows\n1a 1b\n0\n: columns\n1a\n1b\n:\n"
    zero = only(loads(text, "g", source="zero.g"))
    blank = only(loads(text.replace("\n0\n", "\n\n"), "g", source="blank.g"))
    assert zero.rows == blank.rows and zero.rows[1] == ()
    status, grids = solutions_of(zero)
    assert status == "unique" and grids[0] == ["ab", ".."]


@pytest.mark.parametrize(
    "name", ["nonny-rainbow.non", "webpbn-color-00047-map.xml", "nonogrid-uk-flag.toml"]
)
def test_g_writes_colour_puzzles_that_read_back(name: str, tmp_path: Path) -> None:
    (puzzle,) = read_entries(DATA / name)
    target = tmp_path / "again.g"
    write_puzzle(puzzle, target)
    again = only(read_entries(target))
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
    assert again.palette.letters == puzzle.palette.letters
    assert [c.rgb for c in again.palette.inks] == [c.rgb for c in puzzle.palette.inks]
    solutions_of(again)


def test_g_writes_black_and_white_with_empty_lines_and_a_safe_title() -> None:
    for seed in range(8):
        puzzle = random_puzzle(seed, title=f"{seed}: starts with a digit")
        text = dumps(puzzle, "g")
        assert text.startswith(" ")  # a first digit would make it an .mk file
        again = only(loads(text, "g"))
        assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
        assert again.title == puzzle.title
        solutions_of(again)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("#t\n:\n1\n:\n1\n:\n", 1, "a triddler"),
        ("#d\n  t:/  black/orange\n:\n1t\n:\n1t\n", 2, "is a triangle (black/orange)"),
        ("#d\n  b:*  black  <\n:\n1b\n:\n1b\n", 2, "glues triangles"),
        ("#d\n  b:*  mauvish\n:\n1b\n:\n1b\n", 2, '"mauvish" is not a colour name'),
        ("#d\n  b:*  #12345\n:\n1b\n:\n1b\n", 2, '"#12345" is not #RRGGBB'),
        ("#d\n  bad line\n:\n1\n:\n1\n", 2, "is not a colour line"),
        ("#d\n  b:*  blue\n:\n1b\n1\n:\n2b\n", 5, "no default colour"),
        ("#d\n  b:*  blue\n:\n1c\n:\n1b\n", 4, 'no colour "c" is declared'),
        (":\n1\n:\n1 x\n", 4, 'clue "x" is not a number and a colour'),
        (":\n1 0\n:\n1\n", 2, "clue 0 stands among other clues"),
        ("title\n:\n1\n", 2, 'no ":" line opens the column clues'),
        ("just text\n", 1, 'no ":" line opens the row clues'),
        ("#d\n  b:*  blue\n", 2, 'no ":" line after the colour declarations'),
    ],
)
def test_g_errors_name_the_line(text: str, line: int, words: str) -> None:
    exc = error_of(text, "g", source="bad.g")
    assert (exc.path, exc.line) == ("bad.g", line) and words in exc.reason, exc


# --- QNonograms' .cwd -------------------------------------------------------------------


def test_cwd_reads_rows_then_a_blank_line_then_columns() -> None:
    text = "3\n2\n1\n\n2\n\n1 1\n1\n"  # 3 rows (the second empty), a blank line, 2 columns
    puzzle = only(loads(text, "cwd"))
    assert puzzle.rows == ((1,), (), (2,)) and puzzle.cols == ((1, 1), (1,))
    status, grids = solutions_of(puzzle)
    assert status == "unique" and grids[0] == ["#.", "..", "##"]


def test_cwd_writes_what_it_reads(tmp_path: Path) -> None:
    for seed in range(12):
        puzzle = random_puzzle(seed, height=3 + seed % 4, width=8)
        target = tmp_path / f"p{seed}.cwd"
        write_puzzle(puzzle, target)
        lines = target.read_text().splitlines()
        assert lines[:2] == [str(puzzle.height), str(puzzle.width)]
        assert lines[2 + puzzle.height] == ""
        again = only(read_entries(target))
        assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
        solutions_of(again)


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("3 2\n1\n", 1, "line 1 must hold the number of rows"),
        ("2\nx\n", 2, "line 2 must hold the number of columns"),
        ("2\n1\n1\n1\n1\n", 5, '"1": a blank line must follow the 2 rows'),
        ("1\n2\n2\n\n1\n", 5, "the header gives 2 columns, the file has 1"),  # 2 ≠ 1 black
        ("1\n1\n1\n\n1\n1\n", 6, '"1": more lines of clues than the 1 columns'),
    ],
)
def test_cwd_errors_name_the_line(text: str, line: int, words: str) -> None:
    exc = error_of(text, "cwd", source="bad.cwd")
    assert (exc.path, exc.line) == ("bad.cwd", line) and words in exc.reason, exc


@pytest.mark.parametrize(
    ("text", "fmt"),
    [
        ("2 2\n1\n\n1\n", "nin"),  # 2 2, then rows 1 / (empty), columns 1 / (empty)
        ("2 2\n1\n\n#\n1\n", "mk"),
        ("2\n2\n1\n\n\n1\n", "cwd"),
    ],
)
def test_an_empty_last_clue_line_an_editor_trimmed_off_is_put_back(text: str, fmt: str) -> None:
    """An editor that strips the file's trailing blank lines takes an empty last clue
    with them: read as empty when the clues then add up (the header gives the count)."""
    puzzle = only(loads(text, fmt, source=f"trimmed.{fmt}"))
    assert puzzle.rows == ((1,), ()) and puzzle.cols == ((1,), ())


# --- Simon Tatham's Pattern -------------------------------------------------------------


def test_a_text_of_game_ids_keeps_its_comments_and_names_a_line_that_is_none(tmp_path) -> None:
    """A ``#`` comment line is passed over, a line that is no game ID is named by its
    number while the others are read (one such line made the file "unknown")."""
    path = tmp_path / "ids.txt"
    path.write_text("# my puzzles\n4x4:2/1/2/1/1.1/2/1/1\nhello\n4x4:2/1/2/1/1.1/2/1/1\n")
    first, bad, last = read_entries(path)
    assert isinstance(first, Puzzle) and isinstance(last, Puzzle)
    assert isinstance(bad, FormatError) and bad.line == 3 and "hello" in bad.reason


def test_pattern_game_ids_from_tathams_source() -> None:
    small, letter, cube = read_entries(DATA / "tatham-pattern-ids.txt")
    # "4x4:2/1/2/1/1.1/2/1/1": the columns first, then the rows
    assert small.cols == ((2,), (1,), (2,), (1,)) and small.rows == ((1, 1), (2,), (1,), (1,))
    assert solutions_of(small)[0] == "unique"  # unique, though line logic cannot start
    status, grids = solutions_of(letter)
    assert status == "unique" and grids[0][-1] == ".###........##."
    # the cube is unique only with its given squares, which are not read
    assert (cube.width, cube.height) == (15, 15) and cube.meta["index"] == 3
    assert solutions_of(cube)[0] == "multiple"
    assert letter.meta["game_id"].startswith("15x15:2/4/2/2/")


def test_pattern_save_file_reads_and_its_game_is_checked(tmp_path: Path) -> None:
    puzzle = random_puzzle(3, height=5, width=7)
    desc = "/".join(".".join(map(str, line)) for line in puzzle.cols + puzzle.rows)
    path = tmp_path / "game.sav"
    path.write_text(save_file("Pattern", "7x5", desc), newline="\r\n")  # Windows line ends
    again = only(read_entries(path))
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
    assert again.meta["game_id"] == f"7x5:{desc}"
    solutions_of(again)
    net = tmp_path / "net.sav"
    net.write_text(save_file("Net", "5x5", "abc"))
    (refused,) = read_entries(net)
    assert str(refused) == f"{net}:3: a save file of Net, not Pattern"
    other = tmp_path / "other.sav"
    other.write_text("[slot 1]\nlevel=3\n")
    (refused,) = read_entries(other)
    assert str(refused).startswith(f"{other}:1: neither Pattern game IDs (WxH:clues) nor a save")


def test_pattern_save_file_without_extension_is_sniffed(tmp_path: Path) -> None:
    text = save_file("Pattern", "2", "1/1/1/1")  # "2": a square 2x2
    assert detect_format("saved-game", text) == "pattern"
    with pytest.raises(FormatError, match="a save file of Galaxies, not Pattern"):
        detect_format("saved-game", save_file("Galaxies", "7x7", "x"))
    assert only(loads(text, "pattern")).rows == ((1,), (1,))


def test_a_folder_takes_pattern_saves_and_passes_over_other_saves(tmp_path: Path) -> None:
    (tmp_path / "pattern.sav").write_text(save_file("Pattern", "1x1", "1/1"))
    (tmp_path / "net.sav").write_text(save_file("Net", "5x5", "abc"))
    (tmp_path / "rpg.sav").write_bytes(b"\x00\x01binary save")
    (tmp_path / "olsak.g").write_text(OWN_G)
    (tmp_path / "olsak.mk").write_text("1 1\n1\n#\n1\n")
    (tmp_path / "qnono.cwd").write_text("1\n1\n1\n\n1\n")
    found = expand([str(tmp_path)])
    names = sorted(Path(p).name for p in found.paths)
    assert names == ["olsak.g", "olsak.mk", "pattern.sav", "qnono.cwd"]
    assert sorted(found.skipped[str(tmp_path)]) == ["net.sav", "rpg.sav"]


@pytest.mark.parametrize(
    ("text", "line", "words"),
    [
        ("4x4:2/1/2/1/1.1/2/1/1\n10x10#712386\n", 2, "10x10#712386 is a random-seed game ID"),
        ("3x3:1/1/1/1/1\n", 1, "5 lines of clues, but a 3x3 grid has 6"),
        ("\n2x1:1/1.0/2\n", 2, "column 2: a clue of 0 among others (1.0)"),
        ("2x1:1/x/2\n", 1, 'column 2: "x" is not numbers joined by "."'),
        ("0x1:/\n", 1, "size 0x1"),
        ("2x1:1/1/2,1A\n", 1, 'given squares "1A" are not letters'),
    ],
)
def test_pattern_errors_name_the_line(text: str, line: int, words: str) -> None:
    exc = error_of(text, "pattern", source="ids.txt")
    assert (exc.path, exc.line) == ("ids.txt", line) and words in exc.reason, exc


def test_pattern_save_file_errors_name_the_line() -> None:
    no_desc = SAVE_HEAD + "GAME    :7:Pattern\nPARAMS  :3:5x5\nSEED    :3:123\n"
    exc = error_of(no_desc, "pattern", source="s.sav")
    assert exc.line == 4 and "no DESC (the clues), only the random seed" in exc.reason
    cut = SAVE_HEAD + "GAME    :7:Pattern\nDESC    :40:1/1\n"
    exc = error_of(cut, "pattern", source="s.sav")
    assert exc.line == 4 and "DESC: the file ends before its 40 characters" in exc.reason
    broken = SAVE_HEAD + "GAME    :7:Pattern\nthis is not a record\n"
    assert error_of(broken, "pattern").line == 4


def test_pattern_is_read_only() -> None:
    (puzzle,) = loads("1x1:1/1", "pattern")
    with pytest.raises(FormatError, match='format "pattern" cannot be written'):
        dumps(puzzle, "pattern")


# --- detection: by extension, by sniffing, and nothing stolen ---------------------------


def test_extensions_and_sniffing_find_the_new_formats() -> None:
    assert [detect_format(f"a{ext}") for ext in (".mk", ".g", ".cwd", ".sav")] == [
        "mk",
        "g",
        "cwd",
        "pattern",
    ]
    samples = {
        "olsak-test.mk": "mk",
        "olsak-usmev.g": "g",
        "olsak-viceres.g": "g",
        "tatham-pattern-ids.txt": "pattern",
    }
    for name, fmt in samples.items():
        assert detect_format("no-extension", (DATA / name).read_text()) == fmt
    assert detect_format("x", dumps(random_puzzle(1), "cwd")) == "cwd"
    assert detect_format("x", OWN_G) == "g"


def test_the_new_sniffers_take_no_file_of_another_format(tmp_path: Path) -> None:
    from xlsolver.formats import format_module

    texts = [p.read_text(errors="replace") for p in DATA.iterdir() if p.suffix != ".png"]
    for fmt in ("non", "nin", "json", "xml", "grid", "taai"):
        texts += [dumps(random_puzzle(seed, 6, 6), fmt) for seed in range(3)]
    for text in texts:
        if text.startswith(("Priklad", "20 20", "tato", "4x4:")):
            continue  # the samples of the new formats themselves
        for fmt in NEW_FORMATS:
            assert not format_module(fmt).sniff(text), (fmt, text[:60])


def test_cli_solves_and_converts_the_new_formats(tmp_path: Path) -> None:
    run = subprocess.run(
        [sys.executable, "-m", "xlsolver", "solve", "--json", str(DATA / "olsak-viceres.g")],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    result = json.loads(run.stdout.splitlines()[0])
    assert result["status"] == "multiple" and result["colours"] == {
        "m": "#0000ff",
        "*": "#000000",
    }
    target = tmp_path / "usmev.mk"
    run = subprocess.run(
        [sys.executable, "-m", "xlsolver", "convert", str(DATA / "olsak-usmev.g"), "-o", target],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0, run.stderr
    again = only(read_entries(target))
    assert again.rows == only(read_entries(DATA / "olsak-usmev.g")).rows

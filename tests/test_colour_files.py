"""Colour puzzle files: read, written back, solved; the real colour set decided and checked.

The goals come from the files (webpbn's ``<solution type="goal">``) or from the
``*.solution.png`` picture beside a puzzle, read here with pillow: each pixel is mapped
to the nearest colour of the puzzle's palette. Every solution is checked against
every clue by ``oracles.breaks``, written apart from the engine.
"""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from conftest import DATA, ROOT, shared_path
from oracles import breaks

from xlsolver.formats import FormatError, detect_format, dumps, loads, read_puzzles, write_puzzle
from xlsolver.nonogram import Puzzle, solve
from xlsolver.nonogram.colour_puzzle import ColourPuzzle, Palette

COLOUR_FIXTURES = [
    "nonny-rainbow.non",
    "nonny-tree.non",
    "nonny-test-2x2.non",
    "nonogrid-uk-flag.toml",
    "numberloom-take_two.xml",
    "webpbn-color-00047-map.xml",
]
PIXEL_TOLERANCE = 40  # the largest distance of a picture's pixel from its palette colour


def rgb_of(text: str) -> np.ndarray:
    """``#rrggbb`` as three integers."""
    return np.array([int(text[i : i + 2], 16) for i in (1, 3, 5)])


def picture_goal(png: Path, palette: Palette) -> np.ndarray:
    """A solution picture as colour numbers: each pixel's nearest palette colour."""
    from PIL import Image

    pixels = np.asarray(Image.open(png).convert("RGB"), dtype=np.int64)
    colours = np.array([rgb_of(palette.colour(i).rgb) for i in range(palette.k + 1)])
    distance = np.abs(pixels[:, :, None, :] - colours[None, None, :, :]).sum(axis=3)
    assert distance.min(axis=2).max() <= PIXEL_TOLERANCE, f"{png}: a pixel of no palette colour"
    return distance.argmin(axis=2)


def read_one(path: Path) -> Puzzle | ColourPuzzle:
    """The one puzzle of a file, validated."""
    (puzzle,) = read_puzzles(path)
    return puzzle


# --- fixtures ----------------------------------------------------------------------------


def test_nonny_dialect_names_before_numbers():
    rainbow = read_one(DATA / "nonny-rainbow.non")
    assert isinstance(rainbow, ColourPuzzle)
    assert [c.name for c in rainbow.palette.inks] == ["red", "yellow", "green", "purple"]
    assert rainbow.palette.letters == ".#@aX"  # green's "0" cannot be a letter
    assert rainbow.rows[2] == ((1, 1), (2, 2), (2, 3), (2, 2), (1, 1))
    tree = read_one(DATA / "nonny-tree.non")
    assert tree.cols[0] == ((1, 1),)  # a number before any name is black
    assert tree.palette.inks[0].name == "black" and tree.rows[0] == ()


NONNY_SAVED = """title "Nonny saved"
width 5
height 5

color black 000000 X
COLOURS
rows
ROWS
columns
COLS
"""
NONNY_ROWS = [
    "red 2 blue 2",
    "red 2 green 1 blue 2",
    "green 3",
    "blue 1 green 1 red 1",
    "blue 2 red 2",
]
NONNY_COLS = [
    "red 2 blue 2",
    "red 2 green 1 blue 1",
    "green 3",
    "blue 2 green 1 red 1",
    "blue 2 red 2",
]


def _nonny(colours: str, style) -> str:
    """The Nonny puzzle above with its colour lines and each clue line in a style."""
    return (
        NONNY_SAVED.replace("COLOURS", colours)
        .replace("ROWS", "\n".join(map(style, NONNY_ROWS)))
        .replace("COLS", "\n".join(map(style, NONNY_COLS)))
    )


def test_nonny_reads_the_files_nonny_saves():
    """Nonny's writer puts a colon after a name and commas between numbers (``red: 2,
    blue: 2``), may leave out a colour's symbol, and takes one-letter names: each reads as
    the plain form does; a name with no number after it is still a typo."""
    plain = _nonny("color red FF0000 r\ncolor green 00FF00 g\ncolor blue 0000FF b", str)

    def saved(line: str) -> str:  # "red 2 green 1" as Nonny writes it: "red: 2, green: 1"
        words = line.split()
        return ", ".join(f"{name}: {n}" for name, n in zip(words[::2], words[1::2], strict=True))

    def one_letter(line: str) -> str:
        return " ".join(w[0] if w.isalpha() else w for w in line.split())

    want = loads(plain, "non", "plain.non")[0]
    variants = [
        _nonny("color red FF0000 r\ncolor green 00FF00 g\ncolor blue 0000FF b", saved),
        _nonny("color red FF0000\ncolor green 00FF00 g\ncolor blue 0000FF", str),
        _nonny("color r FF0000 *\ncolor g 00FF00 %\ncolor b 0000FF @", one_letter),
    ]
    for text in variants:
        got = loads(text, "non", "saved.non")[0]
        assert isinstance(got, ColourPuzzle), got
        assert [c.rgb for c in got.palette.inks] == [c.rgb for c in want.palette.inks]
        assert (got.rows, got.cols) == (want.rows, want.cols)
        assert solve(got).status == "unique"
    (bad,) = loads("width 2\nheight 1\nrows\n1,x\ncolumns\n1\n0\n", "non", "t.non")
    assert isinstance(bad, FormatError) and 'clue "x" is not a number' in str(bad)


def test_extended_non_letters_and_goal():
    text = (
        "width 3\nheight 2\ncolor a #ff0000\ncolor b #0000ff\ncolor w #ffffff\n"
        'rows\n1a,1b\n3b\ncolumns\n1a,1b\n2b\n1b\ngoal "ab0bbb"\n'
    )
    (puzzle,) = loads(text, "non")
    puzzle.validate()
    assert puzzle.palette.colours_json() == {"a": "#ff0000", "b": "#0000ff"}
    assert puzzle.rows == (((1, 1), (1, 2)), ((3, 2),))
    assert puzzle.is_solution(puzzle.meta["goal"])
    (undeclared,) = loads("width 2\nheight 1\nrows\n1a,1b\ncolumns\n1a\n1b\n", "non")
    assert undeclared.palette.letters == ".ab"  # colours picked for undeclared letters


def test_one_colour_files_stay_black_and_white():
    (simpson,) = loads("color a #000000\nwidth 1\nheight 1\nrows\n1a\ncolumns\n1a\n", "non")
    xml = '<puzzleset><puzzle><clues type="rows"><line><count>1</count></line></clues>'
    xml += '<clues type="columns"><line><count>1</count></line></clues></puzzle></puzzleset>'
    (pbn,) = loads(xml, "xml")
    assert type(simpson) is Puzzle and type(pbn) is Puzzle
    assert simpson.rows == pbn.rows == ((1,),)
    text = 'width 3\nheight 2\ncolor r #ff0000\nrows\n3r\n1r\ncolumns\n2r\n1r\n1r\ngoal "rrrr00"\n'
    (red,) = loads(text, "non")  # its goal in the colour's letter was refused
    assert type(red) is Puzzle and not isinstance(red, FormatError), red
    assert red.meta["goal"].tolist() == [[True, True, True], [True, False, False]]
    assert red.is_solution(red.meta["goal"])


def test_webpbn_goal_and_number_loom_picture():
    us_map = read_one(DATA / "webpbn-color-00047-map.xml")
    assert (us_map.width, us_map.height, us_map.palette.k) == (31, 18, 4)
    assert us_map.title == "Not To Scale" and us_map.meta["by"] == "Jan Wolter"
    assert not breaks(us_map, us_map.meta["goal"].tolist())
    pills = read_one(DATA / "numberloom-take_two.xml")
    goal = picture_goal(DATA / "numberloom-take_two.solution.png", pills.palette)
    assert not breaks(pills, goal.tolist())


NAVY_X = """<?xml version="1.0"?>
<puzzleset>
<puzzle type="grid" defaultcolor="navy" backgroundcolor="BG">
<color name="sky" char="SKY">87CEEB</color>
<color name="navy" char="X">000080</color>
<color name="red" char="r">FF0000</color>
<clues type="columns"><line><count>1</count></line><line><count color="red">1</count></line></clues>
<clues type="rows"><line><count>1</count><count color="red">1</count></line><line></line></clues>
<solution type="goal"><image>
|Xr|
|SKYSKY|
</image></solution>
</puzzle>
</puzzleset>
"""


@pytest.mark.parametrize(("background", "char"), [("white", "."), ("sky", "."), ("sky", "-")])
def test_webpbn_goal_chars_the_file_gives_win_over_the_defaults(tmp_path, background, char):
    """A navy ``X`` and a sky background ``.``: webpbn's black ``X`` and white ``.`` must
    not take the file's own characters (the goal was refused); converted back to XML by
    xlsolver (which writes the background as ``.``), the file still reads."""
    text = NAVY_X.replace("BG", background).replace("SKY", char)
    source = tmp_path / "navy.xml"
    source.write_text(text)
    (puzzle,) = read_puzzles(source)
    goal = np.asarray(puzzle.meta["goal"])
    assert goal.tolist() == [[1, 2], [0, 0]]
    assert not breaks(puzzle, goal.tolist())
    assert [c.name for c in puzzle.palette.inks] == ["navy", "red"]
    again = tmp_path / "again.xml"
    write_puzzle(puzzle, again)
    (back,) = read_puzzles(again)
    assert np.asarray(back.meta["goal"]).tolist() == goal.tolist()


def test_toml_flag():
    flag = read_one(DATA / "nonogrid-uk-flag.toml")
    assert [(c.letter, c.rgb) for c in flag.palette.inks] == [("b", "#0000ff"), ("r", "#ff0000")]
    assert flag.cols[14] == ((15, 2),) and flag.rows[6] == ((31, 2),)
    result = solve(flag)
    assert result.status == "unique"
    assert result.to_json()["solutions"][0][0] == "rrrbbbbbbbbbbbrrrbbbbbbbbbbbrrr"


@pytest.mark.parametrize("name", COLOUR_FIXTURES)
@pytest.mark.parametrize("fmt", ["non", "xml", "json"])
def test_colour_round_trip(name: str, fmt: str, tmp_path: Path) -> None:
    puzzle = read_one(DATA / name)
    target = tmp_path / f"again.{fmt}"
    write_puzzle(puzzle, target)
    again = read_one(target)
    assert isinstance(again, ColourPuzzle)
    assert (again.rows, again.cols) == (puzzle.rows, puzzle.cols)
    if fmt == "non":  # the extended .non names colours by letters a-z (nonogram-db's rule)
        assert all("a" <= c.letter <= "z" for c in again.palette.inks)
        keep = [c.letter for c in puzzle.palette.inks if "a" <= c.letter <= "z"]
        assert [c.letter for c in again.palette.inks if c.letter in keep] == keep
    else:
        assert again.palette.letters == puzzle.palette.letters
    assert [c.rgb for c in again.palette.inks] == [c.rgb for c in puzzle.palette.inks]
    if "goal" in puzzle.meta:
        assert np.array_equal(again.meta["goal"], puzzle.meta["goal"])
    if fmt == "xml":
        assert [c.name for c in again.palette.inks] == [c.name for c in puzzle.palette.inks]


@pytest.mark.parametrize("fmt", ["nin", "grid"])
def test_black_and_white_formats_refuse_colour(fmt: str) -> None:
    puzzle = read_one(DATA / "nonny-rainbow.non")
    with pytest.raises(FormatError, match=f'format "{fmt}" cannot hold colour puzzles'):
        dumps(puzzle, fmt)


def test_detect_colour_formats():
    assert detect_format("a.xml") == "xml" and detect_format("a.toml") == "toml"
    flag = (DATA / "nonogrid-uk-flag.toml").read_text()
    assert detect_format("flag", flag) == "toml"
    assert detect_format("map", (DATA / "webpbn-color-00047-map.xml").read_text()) == "xml"


def test_xml_set_goes_on_after_a_bad_puzzle():
    good = '<puzzle><clues type="rows"><line><count>1</count></line></clues>'
    good += '<clues type="columns"><line><count>1</count></line></clues></puzzle>'
    bad = '<puzzle type="triddler">\n</puzzle>'
    entries = loads(f"<puzzleset>\n{bad}\n{good}\n</puzzleset>", "xml", source="set.xml")
    assert isinstance(entries[0], FormatError) and entries[0].line == 2
    assert "triddler" in str(entries[0]) and entries[1].rows == ((1,),)


# --- the shared colour set: every puzzle decided, every goal met --------------------------


def shared_colour_files() -> list[Path]:
    """The puzzle files of ../shared/puzzles/colour (skips when absent)."""
    folder = shared_path("colour")
    return sorted(p for p in folder.iterdir() if p.suffix in (".non", ".xml", ".toml"))


@pytest.mark.shared
def test_shared_colour_set_is_decided_and_meets_its_goals():
    folder = shared_path("colour")
    with (folder / "expected.csv").open(newline="") as f:
        expected = {row["file"]: row for row in csv.DictReader(f)}
    files = shared_colour_files()
    assert {p.name for p in files} == set(expected)
    goals = 0
    for path in files:
        puzzle = read_one(path)
        row = expected[path.name]
        assert (puzzle.width, puzzle.height) == (int(row["width"]), int(row["height"])), path
        assert puzzle.palette.k == int(row["colours"]), path
        goal = puzzle.meta.get("goal")
        png = path.with_name(path.stem + ".solution.png")
        if goal is None and png.exists():
            goal = picture_goal(png, puzzle.palette)
        assert (row["has_goal"] == "yes") == ("goal" in puzzle.meta), path
        for method in ("auto", "logic"):
            result = solve(puzzle, method=method, max_solutions=2)
            assert result.status == "unique", (path, method, result.status)
            assert not breaks(puzzle, result.solutions[0].tolist()), path
            if goal is not None:
                assert np.array_equal(result.solutions[0], goal), path
        goals += goal is not None
    assert goals == 7


# --- the command line ----------------------------------------------------------------------


def xlsolver(*args: str) -> subprocess.CompletedProcess:
    """Run ``python -m xlsolver`` from the project root."""
    return subprocess.run(
        [sys.executable, "-m", "xlsolver", *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )


def test_cli_colour_json():
    run = xlsolver("solve", str(DATA / "nonny-rainbow.non"), "--json")
    assert run.returncode == 0, run.stderr
    record = json.loads(run.stdout)
    assert record["status"] == "unique"
    assert record["colours"] == {"#": "#ff0000", "@": "#ffff00", "a": "#50c878", "X": "#800080"}
    assert record["solutions"][0][0] == "...####..."
    puzzle = read_one(DATA / "nonny-rainbow.non")
    assert puzzle.is_solution(puzzle.palette.from_rows(record["solutions"][0]))


def test_cli_colour_text_count_first_and_time_limit(tmp_path: Path):
    text = xlsolver("solve", str(DATA / "webpbn-color-00047-map.xml"))
    assert text.returncode == 0 and "unique (31×18" in text.stdout
    assert "|" not in text.stdout and "X black #000000" in text.stdout
    two = tmp_path / "two.json"
    two.write_text(
        '{"colours": {"a": "#ff0000", "b": "#0000ff"}, "rows": [["1a"], ["1a"], ["1b"]],'
        ' "cols": [["1a", "1b"], ["1a"]]}'
    )
    counted = json.loads(xlsolver("solve", str(two), "--json", "--count", "10").stdout)
    assert counted["status"] == "multiple" and len(counted["solutions"]) == 2
    first = json.loads(xlsolver("solve", str(two), "--json", "--first").stdout)
    assert first["status"] == "solved" and len(first["solutions"]) == 1
    rng = np.random.default_rng(0)
    big = ColourPuzzle.from_solution(
        rng.integers(0, 4, (40, 40)),
        Palette.build(
            [("red", "#ff0000", None), ("green", "#00ff00", None), ("blue", "#0000ff", None)]
        ),
    )
    write_puzzle(big, tmp_path / "big.non")
    slow = xlsolver("solve", str(tmp_path / "big.non"), "--json", "--time-limit", "0.001")
    assert slow.returncode == 1 and json.loads(slow.stdout)["status"] == "timeout"


def test_cli_convert_between_colour_formats(tmp_path: Path):
    xml = tmp_path / "flag.xml"
    run = xlsolver("convert", str(DATA / "nonogrid-uk-flag.toml"), "-o", str(xml))
    assert run.returncode == 0, run.stderr
    assert read_one(xml).rows == read_one(DATA / "nonogrid-uk-flag.toml").rows
    refused = xlsolver("convert", str(DATA / "nonny-tree.non"), "-o", str(tmp_path / "t.nin"))
    assert refused.returncode == 2 and "cannot hold colour puzzles" in refused.stderr
    assert not (tmp_path / "t.nin").exists()
    book = xlsolver("convert", str(DATA / "nonny-tree.non"), "-o", str(tmp_path / "t.xlsx"))
    assert book.returncode == 0 and (tmp_path / "t.xlsx").exists()  # tests/test_colour_sheets.py


def test_a_white_ink_is_not_written_to_a_sheet(tmp_path: Path):
    """A sheet shows a white clue cell as paper and reads it back as black: a puzzle with
    a white ink is refused for workbooks, by name, and kept by the puzzle files."""
    source = tmp_path / "white.non"
    source.write_text(
        "width 3\nheight 2\ncolor r #ff0000\ncolor w #ffffff\n"
        "rows\n1r,1w\n3w\ncolumns\n1r,1w\n1w\n2w\n"
    )
    for argv in (["convert", "-o"], ["solve", "-o"], ["make", "-o"]):
        out = tmp_path / f"{argv[0]}.xlsx"
        run = xlsolver(argv[0], str(source), argv[1], str(out))
        assert run.returncode == 2
        assert "colour w (#ffffff) is white: a sheet shows it as paper" in run.stderr
        assert not out.exists()
    run = xlsolver("convert", str(source), "-o", str(tmp_path / "white.xml"))
    assert run.returncode == 0, run.stderr
    back = read_one(tmp_path / "white.xml")
    assert [c.rgb for c in back.palette.inks] == ["#ff0000", "#ffffff"]


def test_a_background_a_non_cannot_hold_is_said(tmp_path: Path):
    """A webpbn puzzle on black: the .non written has no place for the background (its
    cells read white) and convert says so; JSON keeps it, without a word."""
    source = tmp_path / "night.xml"
    source.write_text(
        '<puzzleset><puzzle type="grid" defaultcolor="white" backgroundcolor="black">'
        '<color name="black" char=".">000000</color><color name="white" char="w">FFFFFF'
        '</color><color name="red" char="r">FF0000</color>'
        '<clues type="columns"><line><count color="red">1</count><count>1</count></line>'
        "<line><count>1</count></line><line><count>2</count></line></clues>"
        '<clues type="rows"><line><count color="red">1</count><count>1</count></line>'
        "<line><count>3</count></line></clues></puzzle></puzzleset>"
    )
    run = xlsolver("convert", str(source), "-o", str(tmp_path / "night.non"))
    assert run.returncode == 0, run.stderr
    assert "night.non leaves out the background colour black (#000000)" in run.stderr
    run = xlsolver("convert", str(source), "-o", str(tmp_path / "night.json"))
    assert run.returncode == 0 and "leaves out" not in run.stderr
    assert read_one(tmp_path / "night.json").palette.background.rgb == "#000000"


def test_colour_names_a_non_cannot_hold_are_said(tmp_path: Path):
    """The map's colours are black, red, green and blue; its .non names them a, b, c, d
    (the legend of a solve of the copy read `a a #000000`) and convert said nothing. It
    says so now; the .non copy converted again says nothing (letters are its names)."""
    source = ROOT / "examples" / "webpbn-color-00047-map.xml"
    run = xlsolver("convert", str(source), "-o", str(tmp_path / "map.non"))
    assert run.returncode == 0, run.stderr
    assert run.stderr == (
        f"xlsolver: {tmp_path / 'map.non'} leaves out the colours' names (black as a, red as "
        "b, green as c, blue as d): a .non names a colour by a letter\n"
    )
    copy = read_one(tmp_path / "map.non")
    assert [c.rgb for c in copy.palette.inks] == ["#000000", "#ff0000", "#00b000", "#4040ff"]
    run = xlsolver("convert", str(tmp_path / "map.non"), "-o", str(tmp_path / "again.non"))
    assert run.returncode == 0 and run.stderr == "", run.stderr
    run = xlsolver("convert", str(source), "-o", str(tmp_path / "map.xlsx"))
    run = xlsolver("convert", str(tmp_path / "map.xlsx"), "-o", str(tmp_path / "book.non"))
    assert run.returncode == 0 and "names" not in run.stderr, run.stderr  # named by #rrggbb


def test_toml_takes_every_svg_colour_name(tmp_path: Path):
    """nonogrid takes any SVG colour name; the reader knew 40 of the 148 and said the line
    was not "NAME = (COLOUR) CHAR" though it was. The table is checked name by name
    against pillow's, written apart from it; an unknown name is named."""
    from PIL import ImageColor

    from xlsolver.formats.css_colours import CSS_COLOURS

    assert CSS_COLOURS == {k: v.lstrip("#").lower() for k, v in ImageColor.colormap.items()}
    text = (
        '[clues]\nrows = "1r 1b"\ncolumns = "1r\\n1b"\n[colors]\nr = "(NAME) %"\nb = "(blue) *"\n'
    )
    for name, rgb in (("darkorange", "#ff8c00"), ("MediumSeaGreen", "#3cb371")):
        source = tmp_path / f"{name}.toml"
        source.write_text(text.replace("NAME", name))
        puzzle = read_one(source)
        assert puzzle.palette.inks[0].rgb == rgb
    bad = tmp_path / "bad.toml"
    bad.write_text(text.replace("NAME", "reddish"))
    with pytest.raises(FormatError, match=r'"reddish" is not an SVG colour name'):
        read_one(bad)


def test_cli_bad_colour_file_names_file_and_line(tmp_path: Path):
    bad = tmp_path / "bad.xml"
    bad.write_text('<puzzleset><puzzle>\n<clues type="rows"><line><count>two</count>')
    run = xlsolver("solve", str(bad))
    assert run.returncode == 2
    assert f"{bad}:2: not valid XML" in run.stdout + run.stderr
    assert "Traceback" not in run.stderr


# --- the colour page of the docs ----------------------------------------------------------


def readme_blocks(language: str) -> list[str]:
    """The code blocks of one language in docs/colour.md."""
    text = (ROOT / "docs" / "colour.md").read_text(encoding="utf-8")
    return [block.split("```", 1)[0] for block in text.split(f"```{language}\n")[1:]]


def test_colour_page_examples_run(tmp_path: Path):
    (example,) = readme_blocks("python")
    scope: dict = {}
    exec(example, scope)  # noqa: S102 - the README's own example
    assert scope["result"].to_json()["solutions"] == [["rrr", "brb"]]
    puzzle_json, output_json = readme_blocks("json")
    flag = tmp_path / "flag.json"
    flag.write_text(puzzle_json)
    run = xlsolver("solve", str(flag), "--json")
    got, shown = json.loads(run.stdout), json.loads(output_json)
    for key in ("status", "solutions", "colours", "width", "height", "difficulty"):
        assert got[key] == shown[key], key

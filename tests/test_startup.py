"""Fast start: ``xlsolver solve x.non`` imports only what the input needs.

Each check runs the command in a fresh interpreter and lists the modules it loaded:
no spreadsheet library, no progress bar off a terminal, no SAT solver when line logic
decides the puzzle (and the SAT solver, as a check that the test can fail, when it
does not). The time itself is measured by ``bench/bench_solve.py --startup``.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

DATA = Path(__file__).resolve().parent / "data"
NEVER = ("openpyxl", "tqdm", "xlwings", "dask", "PIL", "uno", "numba", "llvmlite")

SCRIPT = """
import json, sys
from xlsolver.cli import main
code = main(sys.argv[2:])
with open(sys.argv[1], "w") as fh:
    json.dump({"code": code, "modules": sorted(sys.modules)}, fh)
"""


def loaded(tmp_path: Path, *args: str, full: bool = False) -> tuple[int, set[str]]:
    """Exit status and top-level modules (``full``: every module, dotted) of one
    ``xlsolver`` run in a fresh interpreter."""
    out = tmp_path / "modules.json"
    run = subprocess.run(
        [sys.executable, "-c", SCRIPT, str(out), *args],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert out.exists(), run.stderr
    data = json.loads(out.read_text())
    if full:
        return data["code"], set(data["modules"])
    return data["code"], {m.split(".")[0] for m in data["modules"]}


def test_solving_a_puzzle_file_loads_no_spreadsheet_bar_or_sat_library(tmp_path):
    code, modules = loaded(tmp_path, "solve", str(DATA / "webpbn-00001-dancer.non"))
    assert code == 0
    assert "xlsolver" in modules
    assert not modules & {*NEVER, "pysat"}
    code, modules = loaded(tmp_path, "solve", str(DATA / "webpbn-00001-dancer.non"), full=True)
    sheet_code = {m for m in modules if m.startswith(("xlsolver.sheets.", "xlsolver.workbook."))}
    assert sheet_code <= {"xlsolver.sheets.errors", "xlsolver.workbook.files"}, sheet_code


def test_a_puzzle_that_line_logic_finishes_is_printed_without_numpy(tmp_path):
    """numpy's import alone takes longer than the whole run: text and JSON need none."""
    for args in ([], ["--json"], ["--first"]):
        code, modules = loaded(tmp_path, "solve", *args, str(DATA / "webpbn-00001-dancer.non"))
        assert code == 0
        assert "numpy" not in modules, args
    code, modules = loaded(
        tmp_path, "solve", "--jobs", "1", str(DATA / "taai2011-first3-questions.txt")
    )
    assert "numpy" in modules  # SAT decodes into arrays: the check can fail


def test_deferred_arrays_print_the_same_as_made_ones():
    """The grid, solution and goal held as row masks read as the arrays made from them."""
    import numpy as np

    from xlsolver.formats import read_puzzles
    from xlsolver.nonogram import solve
    from xlsolver.nonogram.cells import grid_text, solution_rows

    puzzle = read_puzzles(DATA / "webpbn-00001-dancer.non")[0]
    result = solve(puzzle)
    as_text = result.to_json(), result.text()
    assert result.solution_count == 1
    grid, solution = result.grid, result.solutions[0]  # made now
    assert isinstance(grid, np.ndarray) and isinstance(solution, np.ndarray)
    assert grid_text(grid) == solution_rows(solution) == as_text[1].split("\n")
    assert (result.to_json(), result.text()) == as_text
    assert puzzle.is_solution(solution)
    goal = puzzle.meta["goal"]
    assert isinstance(goal, np.ndarray) and np.array_equal(goal, solution)
    assert isinstance(dict(puzzle.meta)["goal"], np.ndarray)


def test_a_file_of_several_puzzles_off_a_terminal_loads_no_progress_bar(tmp_path):
    code, modules = loaded(tmp_path, "solve", "--json", str(DATA / "jwilk-data000.nin"))
    assert not modules & set(NEVER)
    code, modules = loaded(
        tmp_path, "solve", "--jobs", "1", str(DATA / "taai2011-first3-questions.txt")
    )
    assert code == 0
    assert not modules & set(NEVER)
    assert "pysat" in modules  # line logic leaves cells open here: the SAT solver is loaded


def test_other_commands_still_listed_in_help():
    run = subprocess.run(
        [sys.executable, "-m", "xlsolver.cli", "--help"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert run.returncode == 0
    for name in ("solve", "convert", "make", "hints", "pentomino"):
        assert name in run.stdout


def on_a_terminal(tmp_path: Path, *args: str) -> tuple[int, set[str], str]:
    """Like :func:`loaded`, with stderr on a pseudo-terminal 120 columns wide: what it showed."""
    import os

    pty = __import__("pytest").importorskip("pty")
    import fcntl
    import struct
    import termios

    out = tmp_path / "modules.json"
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 120, 0, 0))
    proc = subprocess.Popen(
        [sys.executable, "-c", SCRIPT, str(out), *args], stdout=subprocess.PIPE, stderr=slave
    )
    os.close(slave)
    shown = b""
    while True:
        try:
            chunk = os.read(master, 4096)
        except OSError:  # the terminal closed with the child
            break
        if not chunk:
            break
        shown += chunk
    proc.communicate(timeout=120)
    os.close(master)
    data = json.loads(out.read_text())
    return data["code"], {m.split(".")[0] for m in data["modules"]}, shown.decode(errors="replace")


def test_on_a_terminal_a_search_shows_a_bar_and_line_logic_none(tmp_path):
    """One puzzle that needs the search draws a bar of the cells known and the phase; one
    that line logic finishes draws nothing and still imports no tqdm."""
    code, modules, shown = on_a_terminal(tmp_path, "solve", str(DATA / "webpbn-00023-edge.non"))
    assert code == 0
    assert "webpbn-00023-edge.non:" in shown and "% of cells known" in shown, shown
    assert "line logic done" in shown and "tqdm" in modules
    code, modules, shown = on_a_terminal(tmp_path, "solve", str(DATA / "webpbn-00001-dancer.non"))
    assert code == 0
    assert "cells known" not in shown and "tqdm" not in modules


def test_the_bar_of_one_puzzle_is_gone_before_its_answer(monkeypatch):
    """The bar was closed after the answer was printed, so on a terminal the answer's
    first line ran on behind the bar's last frame."""
    import io

    from xlsolver.commands import solve as command

    events = []

    class Bar:
        def __init__(self, title: str) -> None:
            pass

        def close(self) -> None:
            events.append("bar closed")

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    monkeypatch.setattr("xlsolver.progress.LazyBar", Bar)
    monkeypatch.setattr(sys, "stderr", Terminal())
    monkeypatch.setattr(command, "solve_one", lambda puzzle, options, progress=None: "answer")
    with command._solver(["one puzzle"], (2, None, "auto"), 1) as results:
        events.extend(results)
    assert events == ["bar closed", "answer"]

"""The side-by-side mode of ``bench/bench_solve.py``: another solver's command runs after
each of xlsolver's runs on the same file, and the table shows its median and the ratio."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import DATA

BENCH = Path(__file__).resolve().parents[1] / "bench" / "bench_solve.py"


def test_other_solver_alternates_with_each_run_and_a_ratio_is_printed(tmp_path: Path) -> None:
    log = tmp_path / "runs.log"
    other = tmp_path / "other.py"
    other.write_text(
        f"import sys, time\nopen({str(log)!r}, 'a').write(sys.argv[1] + '\\n')\ntime.sleep(0.05)\n"
    )
    puzzle = DATA / "webpbn-00001-dancer.non"
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            str(puzzle),
            "--repeat",
            "3",
            "--other",
            f"{sys.executable} {other} {{file}}",
        ],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert log.read_text().splitlines() == [str(puzzle)] * 3
    row = next(line for line in done.stdout.splitlines() if line.startswith(puzzle.name))
    assert " unique " in row and " ok " in row
    seconds = float(row.split("other: ")[1].split()[0])
    ratio = float(row.split("ratio ")[1].rstrip("×"))
    assert seconds >= 0.05 and 0 <= ratio < 1  # the dancer takes far less than 50 ms here


def test_phases_say_where_the_time_went() -> None:
    """``--phases`` wraps the analyzer's stages: puzzles that line logic leaves open spend
    time in every stage up to the solver, and the shares add up to the whole."""
    puzzles = DATA / "taai2011-first3-questions.txt"
    done = subprocess.run(
        [sys.executable, str(BENCH), str(puzzles), "--phases", "--repeat", "2"],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    out = done.stdout.splitlines()
    assert "phases over 6 runs" in out
    stages = {}
    for line in out[out.index("phases over 6 runs") + 2 :]:
        name, numbers = line[:20].strip(), line[20:].split()
        stages[name] = (float(numbers[0]), float(numbers[1]), float(numbers[2]))
    assert list(stages) == [
        "line logic",
        "CNF",
        "hand-over",
        "first solver call",
        "later solver calls",
        "child solvers",
        "rest",
    ]
    for name in ("line logic", "CNF", "hand-over", "first solver call", "later solver calls"):
        assert stages[name][1] > 0, name  # every run went through it
    assert stages["child solvers"][0] == 0  # small boards finish inside MiniSat's budget
    assert abs(sum(share for _, _, share in stages.values()) - 100) < 0.5

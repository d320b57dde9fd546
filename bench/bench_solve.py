"""Benchmark the analyzer over puzzle sets; print a table per puzzle and totals.

    python bench/bench_solve.py webpbn patterns large        # named sets under ../shared/puzzles
    python bench/bench_solve.py taai2011 --first 200          # the first 200 of a TAAI set
    python bench/bench_solve.py dom                           # 3-Dom … 11-Dom, generated
    python bench/bench_solve.py colour                        # the colour puzzles
    python bench/bench_solve.py FILE... --time-limit 60
    python bench/bench_solve.py webpbn --other "pbnsolve -u {file}"   # time another solver
    python bench/bench_solve.py webpbn dom --repeat 5         # 5 runs each: median (min–max)
    python bench/bench_solve.py taai2011 --first-solution     # one solution each (tournament rule)
    python bench/bench_solve.py --startup                     # `xlsolver solve` of a small .non
    python bench/bench_solve.py webpbn --kernel off           # line logic in Python only
    python bench/bench_solve.py taai2011 --phases             # where the time goes, by stage

Every solution found is checked against the clues; a goal (in the file, or a colour
puzzle's `*.solution.png`), a TAAI reference solution or the class of
patterns/expected.csv is checked against the verdict.
Peak memory is the process's maximum resident set size. With ``--repeat N`` every run's
status and solutions must agree (else the check says NOT REPRODUCIBLE); ``cpu`` is the
processor time of the solve (with its child solvers), which a loaded machine disturbs
less than wall time.
"""

from __future__ import annotations

import argparse
import csv
import resource
import shlex
import statistics
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared" / "puzzles"
SETS = {
    "webpbn": ["webpbn/*.non", "webpbn/*.nin", "patterns/domino_logic.txt"],
    "patterns": ["patterns/*.txt"],
    "large": ["large/*.non"],
    "jwilk": ["jwilk/*.nin"],
    "nonogram-db": ["nonogram-db/**/*.non"],
    "taai2011": ["taai/taai2011-questions.txt"],
    "tcga2016": ["taai/tcga2016-questions.txt"],
    "colour": ["colour/*.non", "colour/*.xml", "colour/*.toml"],
}


def expected_classes() -> dict[tuple[str, str], tuple[str, int]]:
    """(file, grid name) → (class, solutions) from patterns/expected.csv."""
    path = SHARED / "patterns" / "expected.csv"
    if not path.exists():
        return {}
    with open(path, newline="") as fh:
        return {
            (r["File"], r["Grid"]): (r["Valid"], int(r["Solutions"] or 0))
            for r in csv.DictReader(fh)
            if r["Grid"]
        }


def files_of(names: list[str]) -> list[Path]:
    """Puzzle files for set names or paths."""
    out: list[Path] = []
    for name in names:
        if name in SETS:
            if not SHARED.exists():
                sys.exit(f"skipped: {SHARED} is absent (the puzzle sets live in ../shared)")
            for pattern in SETS[name]:
                out += sorted(p for p in SHARED.glob(pattern) if p.name != "expected.csv")
        else:
            out.append(Path(name))
    return out


def reference_solutions(path: Path) -> list[np.ndarray] | None:
    """The TAAI reference solutions that go with a questions file, if present."""
    sol = path.with_name(path.name.replace("questions", "solutions"))
    if sol == path or not sol.exists():
        return None
    from xlsolver.formats import read_taai_solutions

    return read_taai_solutions(sol)


def picture_goal(puzzle) -> np.ndarray | None:
    """A colour goal from the ``*.solution.png`` beside the puzzle file (nearest palette colour)."""
    source = puzzle.meta.get("source", "")
    if not hasattr(puzzle, "palette") or not source:
        return None
    png = Path(source).with_suffix(".solution.png")
    if not png.exists():
        return None
    from PIL import Image

    pixels = np.asarray(Image.open(png).convert("RGB"), dtype=np.int64)
    colours = [puzzle.palette.colour(i).rgb for i in range(puzzle.palette.k + 1)]
    rgb = np.array([[int(c[i : i + 2], 16) for i in (1, 3, 5)] for c in colours])
    return np.abs(pixels[:, :, None, :] - rgb[None, None]).sum(axis=3).argmin(axis=2)


def check(puzzle, result, expected, reference) -> str:
    """'ok' or what is wrong with a verdict."""
    for s in result.solutions:
        if not puzzle.is_solution(s):
            return "WRONG SOLUTION"
    goal = puzzle.meta.get("goal")
    goal = picture_goal(puzzle) if goal is None else goal
    if goal is not None and result.status != "timeout":
        if result.status != "unique" or not np.array_equal(result.solutions[0], goal):
            return "GOAL MISMATCH"
    if expected is not None and result.status != "timeout":
        cls, count = expected
        want = {"OK": "unique", "MULT": "multiple", "ZERO": "contradiction", "ERR": "invalid"}
        if result.status != want[cls]:
            return f"EXPECTED {want[cls]}"
    if reference is not None and result.status == "unique":
        if not np.array_equal(result.solutions[0], reference):
            return "REFERENCE MISMATCH"
    if reference is not None and result.status == "contradiction":
        return "REFERENCE SAYS SOLVABLE"
    return "ok"


def run_other(command: str, path: Path, limit: float | None) -> float | str:
    """Wall seconds another solver's command takes on one file ("timeout", "error: …")."""
    cmd = [part.replace("{file}", str(path)) for part in shlex.split(command)]
    start = time.perf_counter()
    try:
        subprocess.run(cmd, capture_output=True, timeout=limit, check=False)
    except subprocess.TimeoutExpired:
        return "timeout"
    except OSError as exc:
        return f"error: {exc}"
    return time.perf_counter() - start


def other_cell(runs: list[float | str], ours: float | None) -> str:
    """The other solver's median seconds and xlsolver's time as a multiple of it (no
    multiple for a batch, which the other solver ran as a whole file)."""
    failed = [r for r in runs if isinstance(r, str)]
    if failed:
        return f"  other: {failed[0]}"
    other = statistics.median(runs)  # type: ignore[type-var]
    if ours is None:
        return f"  other, whole file: {other:.3f}"
    ratio = f"{ours / other:.2g}×" if other > 0 else "-"
    return f"  other: {other:.3f} ({min(runs):.3f}–{max(runs):.3f}) ratio {ratio}"


STARTUP_PUZZLE = ROOT / "examples" / "dancer.non"


def startup(runs: int = 10) -> int:
    """Median wall seconds of ``xlsolver solve`` of a small .non as a whole process.

    Timed as a user meets it after ``pip install``: Python's bytecode cache is written
    (one untimed run first, with PYTHONDONTWRITEBYTECODE unset). Every run must print
    the puzzle's verdict, or the timing is refused.
    """
    import os

    from _runner import Timing, xlsolver_command

    puzzle = STARTUP_PUZZLE if STARTUP_PUZZLE.exists() else ROOT / "tests/data/jwilk-data001.nin"
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    ours_cmd = [*xlsolver_command(), "solve", str(puzzle)]
    python = [sys.executable, "-c", "pass"]
    ours, bare, cpu = Timing(), Timing(), []

    def children_cpu() -> float:
        usage = resource.getrusage(resource.RUSAGE_CHILDREN)
        return usage.ru_utime + usage.ru_stime

    def timed(argv: list[str]) -> tuple[float, subprocess.CompletedProcess]:
        t0 = time.perf_counter()
        done = subprocess.run(argv, capture_output=True, text=True, env=env, check=False)
        return time.perf_counter() - t0, done

    for i in range(runs + 1):
        c0 = children_cpu()
        seconds, done = timed(ours_cmd)
        if done.returncode != 0 or ": unique" not in done.stdout:
            print(f"start-up: {' '.join(ours_cmd)} failed:\n{done.stdout}{done.stderr}")
            return 1
        if i == 0:
            continue  # the untimed run that writes the bytecode cache
        cpu.append(children_cpu() - c0)
        ours.seconds.append(seconds)
        bare.seconds.append(timed(python)[0])
    print(
        f"start-up: xlsolver solve {puzzle.name}: {ours.cell(digits=3)} s wall, "
        f"{statistics.median(cpu):.3f} s cpu ({runs} runs, median (min–max), bytecode cached)"
    )
    print(f"          python -c pass on this machine now: {bare.cell(digits=3)} s wall")
    return 0


def cpu_now() -> float:
    """Processor seconds of this process and its finished children (Kissat, CaDiCaL)."""
    child = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + child.ru_utime + child.ru_stime


def solve_repeated(puzzle, args, solve, between=None, phases=None):
    """Solve ``args.repeat`` times: the last result, wall timing, median cpu, reproducible?
    ``between`` (another solver's run) is called after each solve, so the two alternate;
    ``phases`` (a :class:`_phases.PhaseClock`) is told where each run begins and ends."""
    from _runner import Timing

    timing, cpu, seen = Timing(), [], set()
    result = None
    for _ in range(max(1, args.repeat)):
        if between is not None and result is not None:
            between()
        if phases is not None:
            phases.start_run()
        c0 = cpu_now()
        result = solve(
            puzzle,
            time_limit=args.time_limit,
            method=args.method,
            max_solutions=1 if args.first_solution else 2,
        )
        cpu.append(cpu_now() - c0)
        if phases is not None:
            phases.end_run(result.seconds)
        timing.seconds.append(result.seconds)
        seen.add((result.status, tuple(s.tobytes() for s in result.solutions)))
    if between is not None:
        between()
    return result, timing, statistics.median(cpu), len(seen) == 1


def arguments(argv: list[str] | None) -> argparse.Namespace:
    """The command line; --kernel is handed on as XLSOLVER_KERNEL."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("sets", nargs="*", help=f"set names ({', '.join(SETS)}) or files")
    ap.add_argument("--first", type=int, help="only the first N puzzles of each file")
    ap.add_argument("--time-limit", type=float, default=None, help="seconds per puzzle")
    ap.add_argument("--method", default="auto", choices=("auto", "logic", "sat"))
    ap.add_argument("--other", help='another solver\'s command, "{file}" for the file')
    ap.add_argument("--quiet", action="store_true", help="totals only")
    ap.add_argument("--repeat", type=int, default=1, help="runs per puzzle (median, range)")
    ap.add_argument("--first-solution", action="store_true", help="stop at one solution")
    ap.add_argument("--startup", action="store_true", help="time `xlsolver solve` of a small .non")
    ap.add_argument(
        "--phases",
        action="store_true",
        help="time the analyzer's stages (line logic, CNF, hand-over, solver calls) and "
        "print where the time went",
    )
    ap.add_argument(
        "--kernel",
        choices=("auto", "on", "off"),
        help="line logic in the compiled kernel (numba): XLSOLVER_KERNEL for this run",
    )
    args = ap.parse_args(argv)
    if args.kernel:
        import os

        os.environ["XLSOLVER_KERNEL"] = args.kernel
    return args


def phase_clock():
    """A :class:`_phases.PhaseClock` wrapped around the analyzer's stages."""
    from _phases import PhaseClock

    clock = PhaseClock()
    clock.install()
    return clock


def summary(rows: list[tuple], cpus: list[float], phases=None) -> int:
    """Print the totals (and where the time went, with ``--phases``); the exit status."""
    times = [r[4] for r in rows]
    statuses: dict[str, int] = {}
    for r in rows:
        statuses[r[2]] = statuses.get(r[2], 0) + 1
    bad = [r for r in rows if r[5] != "ok"]
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print("-" * 90)
    print(f"puzzles {len(rows)}  " + "  ".join(f"{k} {v}" for k, v in sorted(statuses.items())))
    if times:
        print(
            f"total {sum(times):.2f} s  median {statistics.median(times) * 1000:.1f} ms  "
            f"max {max(times):.2f} s  peak memory {peak:.0f} MiB"
        )
    if cpus:
        print(
            f"cpu total {sum(cpus):.2f} s  median {statistics.median(cpus) * 1000:.1f} ms  "
            f"max {max(cpus):.2f} s"
        )
    print(f"checks failed: {len(bad)}" + "".join(f"\n  {r[0]}: {r[5]}" for r in bad))
    if phases is not None:
        print(phases.table())
    return 1 if bad else 0


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark."""
    args = arguments(argv)
    sys.path.insert(0, str(ROOT))
    sys.path.insert(0, str(ROOT / "bench"))
    if args.startup:
        code = startup()
        if code or not args.sets:
            return code
    from xlsolver.formats import FormatError, read_entries
    from xlsolver.nonogram.analyzer import solve

    phases = phase_clock() if args.phases else None
    expected = expected_classes()
    rows = []
    cpus: list[float] = []
    print(f"{'puzzle':40} {'size':>9} {'status':>13} {'method':>6} {'seconds':>9} {'cpu':>7} check")
    sources = [
        (path, read_entries(path)) for path in files_of([n for n in args.sets if n != "dom"])
    ]
    if "dom" in args.sets:  # 3-Dom … 11-Dom, generated by their rule
        sys.path.insert(0, str(ROOT / "tests"))
        from oracles import dom

        sources.append((Path("n-Dom"), [dom(n) for n in range(3, 12)]))
    for path, entries in sources:
        refs = reference_solutions(path) if path.exists() else None
        others: list[float | str] = []  # the other solver's runs on this file

        def run_it(path: Path = path, others: list = others) -> None:
            others.append(run_other(args.other, path, args.time_limit))

        # a file of one puzzle: the other solver runs after each of xlsolver's runs
        alternate = run_it if args.other and path.exists() and len(entries) == 1 else None
        if args.other and path.exists() and alternate is None:  # a batch: once, whole
            run_it()
        for i, puzzle in enumerate(entries[: args.first] if args.first else entries):
            if isinstance(puzzle, FormatError):
                rows.append((f"{path.name}#{i + 1}", "-", "invalid", "", 0.0, "ok"))
                continue
            name = f"{path.name}" + (f"#{i + 1}" if len(entries) > 1 else "")
            if puzzle.meta.get("name"):
                name += f" {puzzle.meta['name']}"
            result, timing, cpu, same = solve_repeated(puzzle, args, solve, alternate, phases)
            exp = expected.get((path.name, puzzle.meta.get("name", "")))
            ref = refs[i] if refs is not None and i < len(refs) else None
            verdict = check(puzzle, result, exp, ref) if same else "NOT REPRODUCIBLE"
            if args.first_solution and verdict.startswith(("GOAL", "EXPECTED", "REFERENCE")):
                verdict = "ok" if result.status == "solved" else verdict  # one of several
            size = f"{puzzle.width}x{puzzle.height}"
            row = (name[:40], size, result.status, result.method, timing.median, verdict)
            rows.append(row)
            cpus.append(cpu)
            if not args.quiet:
                ours = timing.median if alternate is not None else None
                extra = other_cell(others, ours) if others and i == 0 else ""
                secs = timing.cell(digits=3) if args.repeat > 1 else f"{timing.median:9.3f}"
                print(
                    f"{row[0]:40} {size:>9} {row[2]:>13} {row[3]:>6} {secs:>9} {cpu:7.3f} "
                    f"{verdict}" + extra,
                    flush=True,
                )
    return summary(rows, cpus, phases)


if __name__ == "__main__":
    sys.exit(main())

"""What the bench scripts share: repeated timings and side-by-side runs of two commands.

Glossary
    timing        the wall seconds of several runs of one thing; a table shows the median
                  with the range, ``0.41 (0.39–0.47)``
    side by side  two commands run alternately (ours, theirs, ours, theirs, …) as whole
                  processes, so start-up counts and a passing load hits both alike; the
                  table shows each median and their ratio
    template      another solver's command line with ``{file}`` (and other ``{names}``)
                  filled in per input, e.g. ``"miniexact -x -e {file}"``

A script calls :func:`add_arguments` on its parser (``--repeat N``, ``--other CMD``) and
prints with :func:`print_table`; numbers go to stdout, notes to stderr.
"""

from __future__ import annotations

import shlex
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

DEFAULT_REPEAT = 1


@dataclass
class Timing:
    """Wall seconds of repeated runs."""

    seconds: list[float] = field(default_factory=list)

    @property
    def median(self) -> float:
        """The median run."""
        return statistics.median(self.seconds)

    @property
    def min(self) -> float:
        """The fastest run."""
        return min(self.seconds)

    @property
    def max(self) -> float:
        """The slowest run."""
        return max(self.seconds)

    def cell(self, scale: float = 1.0, digits: int = 2) -> str:
        """``median (min–max)`` for a table; one number after a single run."""
        med = f"{self.median * scale:.{digits}f}"
        if len(self.seconds) == 1:
            return med
        return f"{med} ({self.min * scale:.{digits}f}–{self.max * scale:.{digits}f})"


def repeat_call(fn: Callable[[], object], repeat: int) -> tuple[Timing, object]:
    """Call ``fn`` ``repeat`` times; the timing and the last result."""
    timing = Timing()
    out = None
    for _ in range(max(1, repeat)):
        t0 = time.perf_counter()
        out = fn()
        timing.seconds.append(time.perf_counter() - t0)
    return timing, out


def run_command(argv: Sequence[str], timeout: float | None = None) -> tuple[float, str]:
    """Run a command as a whole process; its wall seconds and stdout (stderr on failure)."""
    t0 = time.perf_counter()
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        return time.perf_counter() - t0, "timeout"
    seconds = time.perf_counter() - t0
    return seconds, done.stdout if done.returncode in (0, 1, 10, 20) else done.stderr


def fill(template: str, **fields: object) -> list[str]:
    """A command template with ``{file}`` etc. filled in (quoted), split into argv.

    A program not on PATH is looked for beside this interpreter (a virtualenv's bin).
    """
    text = template
    for name, value in fields.items():
        text = text.replace("{" + name + "}", shlex.quote(str(value)))
    argv = shlex.split(text)
    beside = Path(sys.executable).with_name(argv[0])
    if argv and shutil.which(argv[0]) is None and beside.exists():
        argv[0] = str(beside)
    return argv


def side_by_side(
    ours: Sequence[str], theirs: Sequence[str], repeat: int, timeout: float | None = None
) -> tuple[Timing, Timing, str, str]:
    """Run two commands alternately ``repeat`` times each; timings and last outputs."""
    mine, other = Timing(), Timing()
    out_mine = out_other = ""
    for _ in range(max(1, repeat)):
        seconds, out_mine = run_command(ours, timeout)
        mine.seconds.append(seconds)
        seconds, out_other = run_command(theirs, timeout)
        other.seconds.append(seconds)
    return mine, other, out_mine, out_other


def ratio(ours: Timing, theirs: Timing) -> str:
    """Our median over theirs, ``0.42×`` (below 1: we are faster)."""
    if theirs.median <= 0:
        return "-"
    return f"{ours.median / theirs.median:.2f}×"


def xlsolver_command() -> list[str]:
    """The ``xlsolver`` command of this interpreter's environment."""
    script = Path(sys.executable).with_name("xlsolver")
    if script.exists():
        return [str(script)]
    found = shutil.which("xlsolver")
    return [found] if found else [sys.executable, "-m", "xlsolver"]


def add_arguments(parser) -> None:
    """``--repeat N`` and ``--other CMD`` on a bench script's parser."""
    parser.add_argument(
        "--repeat",
        type=int,
        default=DEFAULT_REPEAT,
        help="runs of each timing; tables show the median (min–max)",
    )
    parser.add_argument(
        "--other",
        metavar="CMD",
        help='another solver\'s command, run alternately with xlsolver; "{file}" is the input',
    )


def print_table(headers: Sequence[str], rows: Sequence[Sequence[object]]) -> None:
    """A Markdown table on stdout, columns padded to line up."""
    cells = [[str(h) for h in headers]] + [[str(v) for v in row] for row in rows]
    widths = [max(len(row[i]) for row in cells) for i in range(len(headers))]

    def line(row: Sequence[str]) -> str:
        return "| " + " | ".join(v.ljust(w) for v, w in zip(row, widths, strict=True)) + " |"

    print(line(cells[0]))
    print("|" + "|".join("-" * (w + 2) for w in widths) + "|")
    for row in cells[1:]:
        print(line(row), flush=True)


def note(text: str) -> None:
    """A remark beside the table (stderr, so stdout stays a table)."""
    print(f"# {text}", file=sys.stderr)

"""Fuzz: mutated puzzle files and workbooks never make a command print a traceback.

Hypothesis mutates real files (byte flips, insertions, deletions, truncation, huge or
odd numbers; for workbooks also the XML inside the zip) and every reading command runs
on each in-process: the exit status is 0, 1 or 2, an error is one line on stderr that
starts with the file, and no Python exception text reaches the user. The examples come
from the fixed seed of the test profile; each test stops drawing new examples when its
share of the time budget is spent (FUZZ_SECONDS in all, 35 unless set: the file ends
within a minute).
"""

from __future__ import annotations

import contextlib
import io
import os
import tempfile
import time
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from xlsolver.cli import main

ROOT = Path(__file__).resolve().parent.parent
SEEDS = {
    "non": ROOT / "examples" / "dancer.non",
    "nin": ROOT / "examples" / "data000.nin",
    "json": ROOT / "examples" / "heart.json",
    "xml": ROOT / "tests" / "data" / "numberloom-take_two.xml",
    "txt": ROOT / "tests" / "data" / "taai2011-first3-questions.txt",
    "toml": ROOT / "tests" / "data" / "nonogrid-uk-flag.toml",
    "mk": ROOT / "tests" / "data" / "olsak-test.mk",
    "g": ROOT / "tests" / "data" / "olsak-viceres.g",
    "pattern": ROOT / "tests" / "data" / "tatham-pattern-ids.txt",
}
BOOK = ROOT / "workbooks" / "small.xlsx"
BUDGET = float(os.environ.get("FUZZ_SECONDS", "35"))
SHARE = BUDGET / (len(SEEDS) + 2)  # seconds per test
PYTHON_ERRORS = ("Traceback", "Error:", "Exception", 'File "')
ODD = [
    *(b"0", b"-1", b"2.9", b"2x", b"99999999999", b"9" * 5000, b"\xff", b"\x00", b"=", b"<"),
    *(b"[" * 3000, b"{" * 40, b"\n300000000 300000000\n", b"\nwidth 400\n", b"&lt;", b"\r"),
]

mutation = st.one_of(
    st.tuples(st.just("flip"), st.integers(0, 10**6), st.integers(1, 255)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.sampled_from(ODD)),
    st.tuples(st.just("insert"), st.integers(0, 10**6), st.binary(min_size=1, max_size=6)),
    st.tuples(st.just("delete"), st.integers(0, 10**6), st.integers(1, 40)),
    st.tuples(st.just("truncate"), st.integers(0, 10**6), st.just(0)),
    st.tuples(st.just("repeat"), st.integers(0, 10**6), st.integers(2, 50)),
)
mutations = st.lists(mutation, min_size=1, max_size=4)


def mutate(data: bytes, edits) -> bytes:
    """Apply edits (positions taken modulo the length) to some bytes."""
    for kind, at, arg in edits:
        at = at % (len(data) + 1)
        if kind == "flip" and data:
            at = min(at, len(data) - 1)
            data = data[:at] + bytes([data[at] ^ arg]) + data[at + 1 :]
        elif kind == "insert":
            data = data[:at] + arg + data[at:]
        elif kind == "delete":
            data = data[:at] + data[at + arg :]
        elif kind == "truncate":
            data = data[:at]
        elif kind == "repeat":  # a line repeated: more lines than declared
            start = data.rfind(b"\n", 0, at) + 1
            end = data.find(b"\n", at)
            line = data[start : end + 1 if end >= 0 else len(data)]
            data = data[:start] + line * arg + data[start:]
    return data


def run(argv: list[str]) -> tuple[int, str, str]:
    """``xlsolver ARGV`` in this process: (exit status, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            code = main(argv)
        except SystemExit as exc:  # argparse
            code = exc.code if isinstance(exc.code, int) else 2
        except BaseException as exc:  # the test's own failure, reported with the input
            import traceback

            code = -1
            err.write("Traceback (escaped main)\n" + "".join(traceback.format_exception(exc)))
    return code, out.getvalue(), err.getvalue()


def check(argv: list[str], path: Path) -> None:
    """Exit 0/1/2, no Python error text, every stderr line traceable to the file."""
    code, out, err = run(argv)
    assert code in (0, 1, 2), f"{argv}: exit {code}\n{err}"
    for text in (out, err):
        assert not any(marker in text for marker in PYTHON_ERRORS[:1]), f"{argv}:\n{text}"
    for line in err.splitlines():
        if line.startswith("xlsolver: replaced "):
            continue
        assert line.startswith(f"xlsolver: {path}") or line.startswith(
            f"xlsolver: {path.parent}"
        ), f"{argv}: a line not traceable to the file: {line!r}"
    if code == 2:
        assert err, f"{argv}: exit 2 without a word"


class Budget:
    """Stop drawing new examples once a test's share of the time is spent."""

    def __init__(self, seconds: float):
        self.end = time.monotonic() + seconds
        self.runs = 0
        self.failed = False  # once an example fails, Hypothesis may replay and shrink it

    @contextlib.contextmanager
    def watch(self):
        """Note a failing example, so that its replays run even after the time is up."""
        try:
            yield
        except BaseException:
            self.failed = True
            raise

    def spent(self) -> bool:
        """True once the share is used up; counts the examples run before that."""
        if time.monotonic() > self.end and not self.failed:
            return True
        self.runs += 1
        return False


FUZZ = settings(
    max_examples=400,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


@pytest.mark.parametrize("kind", sorted(SEEDS))
def test_mutated_puzzle_files(kind: str) -> None:
    """.non, .nin, JSON, webpbn XML, TAAI, TOML, .mk, .g and Pattern game IDs: solve and
    convert never crash."""
    seed = SEEDS[kind].read_bytes()
    budget = Budget(SHARE)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        @FUZZ
        @given(edits=mutations)
        def fuzz(edits) -> None:
            if budget.spent():
                return
            path = folder / f"p{SEEDS[kind].suffix}"
            path.write_bytes(mutate(seed, edits))
            with budget.watch():
                check(["solve", str(path), "--time-limit", "0.5"], path)
                check(["solve", str(path), "--json", "--time-limit", "0.5"], path)
                check(["convert", str(path), "-o", str(folder / "out.json")], path)

        fuzz()
    assert budget.runs >= 5, "too few examples ran to mean anything"
    print(f"{budget.runs} examples")


def _rezip(source: bytes, name: str, edits) -> bytes:
    """The workbook with one part's XML mutated (the zip itself stays valid)."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(source)) as zin, zipfile.ZipFile(buffer, "w") as zout:
        for info in zin.infolist():
            data = zin.read(info)
            zout.writestr(info, mutate(data, edits) if info.filename == name else data)
    return buffer.getvalue()


PARTS = [
    "xl/worksheets/sheet1.xml",
    "xl/sharedStrings.xml",
    "xl/workbook.xml",
    "xl/styles.xml",
    "[Content_Types].xml",
    "xl/_rels/workbook.xml.rels",
]


def _workbook_commands(path: Path, folder: Path) -> None:
    """Every command that reads a workbook, on one file."""
    check(["solve", str(path), "--time-limit", "0.5", "-o", str(folder / "out.xlsx")], path)
    check(["convert", str(path), "-o", str(folder / "out.json")], path)
    check(["check", str(path), "--time-limit", "0.5"], path)


def test_mutated_workbook_bytes() -> None:
    """Byte flips and truncation of the .xlsx file itself."""
    seed = BOOK.read_bytes()
    budget = Budget(SHARE)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        @FUZZ
        @given(edits=mutations)
        def fuzz(edits) -> None:
            if budget.spent():
                return
            path = folder / "book.xlsx"
            path.write_bytes(mutate(seed, edits))
            with budget.watch():
                _workbook_commands(path, folder)

        fuzz()
    assert budget.runs >= 5, "too few examples ran to mean anything"
    print(f"{budget.runs} examples")


def test_mutated_workbook_parts() -> None:
    """The XML inside the zip changed: sheets, shared strings, the workbook, styles."""
    seed = BOOK.read_bytes()
    names = set(zipfile.ZipFile(BOOK).namelist())
    parts = [p for p in PARTS if p in names]
    budget = Budget(SHARE)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)

        @FUZZ
        @given(part=st.sampled_from(parts), edits=mutations)
        def fuzz(part, edits) -> None:
            if budget.spent():
                return
            path = folder / "book.xlsx"
            path.write_bytes(_rezip(seed, part, edits))
            with budget.watch():
                _workbook_commands(path, folder)

        fuzz()
    assert budget.runs >= 5, "too few examples ran to mean anything"
    print(f"{budget.runs} examples")


def test_a_damaged_workbook_part_is_named_corrupt(tmp_path) -> None:
    """A byte flipped inside the compressed workbook part (a case the fuzzer drew):
    zlib's error escaped the Strict Open XML check as a traceback."""
    path = tmp_path / "book.xlsx"
    path.write_bytes(mutate(BOOK.read_bytes(), [("flip", 486242, 2)]))
    for argv in (["convert", str(path), "-o", str(tmp_path / "out.json")], ["solve", str(path)]):
        code, out, err = run(argv)
        assert code == 2 and "the workbook is corrupt" in err and "Traceback" not in err, err

"""Signals stop a run at once and leave no process of ours, checked in the process table.

Each run starts in its own session, so every process it forks (``--jobs`` workers, the
Kissat child of a hard solve, the workers' Kissat children) shares that session id,
even after being re-parented when the parent dies. Faase (80×95) reaches Kissat after
about ten seconds of line logic, Glucose and probing, and needs close to a minute more.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from conftest import DATA, WORKBOOKS

from xlsolver.exits import EXIT_BROKEN_PIPE, EXIT_INTERRUPTED, EXIT_TERMINATED

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc"),
]
WAIT = 60.0  # seconds to wait for the solver children to appear (a slow, shared machine)


def _pids() -> list[int]:
    """Every process id (psutil when installed, else /proc)."""
    try:
        import psutil

        return psutil.pids()
    except ImportError:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]


def _state(pid: int) -> str:
    """The process state letter (``Z`` for a zombie: dead, not yet reaped), "" when gone."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return ""
    return stat.rsplit(")", 1)[1].split()[0]


def _ppid(pid: int) -> int:
    """The parent process id, 0 when gone."""
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, IndexError, ValueError):
        return 0


def live_in_session(sid: int) -> list[int]:
    """The living (not zombie) processes of a session."""
    out = []
    for pid in _pids():
        try:
            if os.getsid(pid) != sid:
                continue
        except OSError:
            continue
        if _state(pid) not in ("", "Z", "X"):
            out.append(pid)
    return out


def start(args: list[str], cwd: Path) -> subprocess.Popen:
    """``xlsolver ARGS`` in a new session (its id = the parent's pid)."""
    return subprocess.Popen(
        [sys.executable, "-m", "xlsolver", *args],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )


def send(how: str, sid: int) -> float:
    """Signal the run as ``how`` says (Ctrl-C in a terminal signals the whole group);
    the moment it was sent."""
    stopped_at = time.monotonic()
    if how == "SIGINT to the group":
        os.killpg(sid, signal.SIGINT)
    elif how == "SIGTERM":
        os.kill(sid, signal.SIGTERM)
    else:
        os.kill(sid, signal.SIGKILL)
    return stopped_at


def wait_for(condition, seconds: float = WAIT) -> bool:
    """Poll ``condition`` until true or the time is up."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.2)
    return False


def gone_soon(sid: int, seconds: float = 5.0) -> list[int]:
    """Wait until no process of the session lives; those still alive after ``seconds``."""
    wait_for(lambda: not live_in_session(sid), seconds)
    left = live_in_session(sid)
    for pid in left:  # never leave them behind, even when the test fails
        os.kill(pid, signal.SIGKILL)
    return left


def grandchildren(parent: int) -> list[int]:
    """Processes whose parent is a child of ``parent``."""
    children = [p for p in live_in_session(parent) if _ppid(p) == parent]
    return [p for p in live_in_session(parent) if _ppid(p) in children]


@pytest.fixture(scope="module")
def faase() -> Path:
    return DATA / "webpbn-faase.nin"


@pytest.mark.parametrize(
    "how", ["SIGINT to the group", "SIGTERM", "kill -9"], ids=["int", "term", "kill9"]
)
def test_a_hard_solve_leaves_no_kissat_child(faase: Path, tmp_path: Path, how: str) -> None:
    """Case 2: SIGINT/SIGTERM/kill -9 of ``solve`` while Kissat runs in its child."""
    run = start(["solve", str(faase)], tmp_path)
    sid = run.pid
    try:
        assert wait_for(lambda: len(live_in_session(sid)) >= 2), "no solver child appeared"
        stopped_at = send(how, sid)
        out, err = run.communicate(timeout=30)
        assert gone_soon(sid) == []
        assert time.monotonic() - stopped_at < 10
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    if how == "kill -9":
        assert run.returncode == -signal.SIGKILL
        return
    expected = EXIT_INTERRUPTED if how.startswith("SIGINT") else EXIT_TERMINATED
    word = "interrupted" if expected == EXIT_INTERRUPTED else "terminated"
    assert run.returncode == expected, err
    assert err == f"xlsolver: {word}; outputs completed: none\n"
    assert "Traceback" not in err


def test_a_kissat_child_killed_by_the_system_is_named_and_the_run_goes_on(
    faase: Path, tmp_path: Path
) -> None:
    """Only the Kissat child is killed (as the out-of-memory killer would): the run goes
    on in MiniSat, here until its time limit, and says what happened on stderr and in
    its JSON record (it went on without a word, looking stuck)."""
    run = start(["solve", str(faase), "--json", "--time-limit", "25"], tmp_path)
    try:
        assert wait_for(lambda: _children(run.pid)), "no solver child appeared"
        (child,) = _children(run.pid)
        os.kill(child, signal.SIGKILL)
        out, err = run.communicate(timeout=60)
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    record = json.loads(out)
    note = (
        "Kissat's process ended without an answer (killed by SIGKILL; was the system short "
        "of memory?): MiniSat searched instead"
    )
    assert record["status"] == "timeout" and record["notes"][0].startswith(note), out
    assert f"xlsolver: {faase}: {note}" in err and "Traceback" not in err, err


def _children(parent: int) -> list[int]:
    """The living children of a process."""
    return [p for p in live_in_session(parent) if _ppid(p) == parent]


CHILD = """
import signal
import sys
from multiprocessing import Pipe
from xlsolver.formats import read_puzzles
from xlsolver.nonogram.board import Board
from xlsolver.nonogram.sat import Encoding, _child_solve
board = Board(read_puzzles(sys.argv[1])[0])
board.propagate()
clauses = Encoding(board).clauses
here, there = Pipe(duplex=False)
signal.signal(signal.SIGINT, signal.SIG_IGN)  # as processes.die_with_parent leaves a child
print("solving", flush=True)
_child_solve(there, clauses, "kissat404", [])
"""


def test_ctrl_c_reaching_the_kissat_child_ends_it_without_a_word(faase: Path) -> None:
    """The solver child ignores Ctrl-C, but python-sat installs its own SIGINT handler
    while Kissat runs, so a Ctrl-C to the process group interrupted Kissat there and the
    child printed 'Process ForkProcess-1:' and a traceback when it won the race with the
    parent's kill. It now ends quietly (the parent reports the stop)."""
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(faase)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert child.stdout.readline() == "solving\n"
        time.sleep(2.0)  # Kissat is well into Faase (it needs more than a minute)
        assert child.poll() is None
        child.send_signal(signal.SIGINT)
        out, err = child.communicate(timeout=20)
    finally:
        if child.poll() is None:
            child.kill()
            child.communicate()
    assert err == "" and child.returncode == EXIT_INTERRUPTED, (child.returncode, err)


@pytest.fixture(scope="module")
def books(faase: Path, tmp_path_factory) -> Path:
    """A quick workbook and three that take a minute each (Faase) in one folder."""
    folder = tmp_path_factory.mktemp("books")
    examples = Path(__file__).resolve().parent.parent / "examples"
    for name, source in [("a-dancer", examples / "dancer.non")] + [
        (f"faase-{i}", faase) for i in (1, 2, 3)
    ]:
        made = subprocess.run(
            [sys.executable, "-m", "xlsolver", "convert", str(source), "-o", f"{name}.xlsx"],
            cwd=folder,
            capture_output=True,
            text=True,
        )
        assert made.returncode == 0, made.stderr
    return folder


@pytest.mark.parametrize(
    "how", ["SIGINT to the group", "SIGTERM", "kill -9"], ids=["int", "term", "kill9"]
)
def test_jobs_stop_at_once_and_name_what_was_written(books: Path, tmp_path: Path, how) -> None:
    """Case 2: ``solve --jobs 2`` stops its workers and their Kissat children at once."""
    out = tmp_path / "out"
    inputs = sorted(str(p) for p in books.glob("*.xlsx"))
    run = start(["solve", *inputs, "--jobs", "2", "--out-dir", str(out)], tmp_path)
    sid = run.pid
    try:
        assert wait_for(lambda: (out / "a-dancer.xlsx").exists()), "the quick file not written"
        assert len(live_in_session(sid)) >= 3, "the parent and two workers"
        wait_for(lambda: len(grandchildren(sid)) >= 1, 20)  # a worker's Kissat child, mostly
        stopped_at = send(how, sid)
        _, err = run.communicate(timeout=30)
        assert gone_soon(sid) == []
        assert time.monotonic() - stopped_at < 10
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
    assert sorted(p.name for p in out.iterdir()) == ["a-dancer.xlsx"]  # no temp file either
    if how == "kill -9":
        assert run.returncode == -signal.SIGKILL
        return
    expected = EXIT_INTERRUPTED if how.startswith("SIGINT") else EXIT_TERMINATED
    assert run.returncode == expected, err
    assert err.splitlines()[-1].endswith(f"outputs completed: {out / 'a-dancer.xlsx'}"), err
    assert "Traceback" not in err


def _cmdline(pid: int) -> str:
    """A process's command line ("" when gone)."""
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
    except OSError:
        return ""


def office_processes(parent: int) -> list[int]:
    """LibreOffice processes started by ``parent`` (its soffice child and that one's own)."""
    direct = [p for p in _pids() if _ppid(p) == parent and "office" in _cmdline(p)]
    return direct + [p for p in _pids() if _ppid(p) in direct]


@pytest.mark.libreoffice
@pytest.mark.parametrize(
    "how", ["SIGTERM", "kill -9", "kill -9 starting"], ids=["term", "kill9", "kill9-starting"]
)
def test_a_signal_stops_the_libreoffice_a_command_started(
    faase: Path, tmp_path: Path, how: str
) -> None:
    """SIGTERM or kill -9 during an .ods solve, or kill -9 while LibreOffice is still
    starting: the run's headless LibreOffice (in a session of its own) and its watchdog
    end too (the watchdog starts with the server, before it answers)."""
    from xlsolver.libreoffice import server

    reason = server.available()
    if reason:
        pytest.skip(reason)
    made = subprocess.run(
        [sys.executable, "-m", "xlsolver", "convert", str(faase), "-o", "faase.ods"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert made.returncode == 0, made.stderr
    run = start(["solve", "faase.ods"], tmp_path)
    offices: list[int] = []
    try:
        assert wait_for(lambda: bool(office_processes(run.pid))), "no LibreOffice started"
        offices = office_processes(run.pid)
        guarded = wait_for(  # the watchdog runs from the server's first moment
            lambda: any("killpg" in _cmdline(p) for p in _pids() if _ppid(p) == run.pid), WAIT
        )
        assert guarded, "no watchdog for the LibreOffice server"
        if how != "kill -9 starting":
            time.sleep(1)
        offices = sorted(set(offices + office_processes(run.pid)))
        offices += [p for p in _pids() if _ppid(p) == run.pid and p not in offices]
        os.kill(run.pid, signal.SIGTERM if how == "SIGTERM" else signal.SIGKILL)
        _, err = run.communicate(timeout=60)
        assert wait_for(lambda: all(_state(p) in ("", "Z") for p in offices), 15), offices
    finally:
        if run.poll() is None:
            run.kill()
            run.communicate()
        for pid in offices:
            if _state(pid) not in ("", "Z"):
                os.kill(pid, signal.SIGKILL)
    assert gone_soon(run.pid) == []
    expected = EXIT_TERMINATED if how == "SIGTERM" else -signal.SIGKILL
    assert run.returncode == expected, err


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_output_read_by_nobody_stops_quietly(jobs: str) -> None:
    """``xlsolver solve … | head -1``: the reader goes away; no traceback, exit 141, and
    no worker left behind."""
    read, write = os.pipe()
    os.close(read)  # the reader is gone before the first line
    try:
        run = subprocess.run(
            [sys.executable, "-m", "xlsolver", "solve", "--jobs", jobs]
            + [str(DATA / "taai2011-first3-questions.txt")] * 4,
            stdout=write,
            stderr=subprocess.PIPE,
            timeout=120,
        )
    finally:
        os.close(write)
    assert run.returncode == EXIT_BROKEN_PIPE, run.stderr.decode()
    assert b"Traceback" not in run.stderr and b"Exception ignored" not in run.stderr


def test_a_stop_that_pyuno_turns_into_another_error_still_stops(tmp_path, monkeypatch, capsys):
    """SIGTERM landing while pyuno had called back into Python came out as pyuno's
    'SystemError: can't import __main__ module', which the batch reported as a bad file
    (exit 2; seen once in CI during an .ods solve). The signal now stops the run: 143,
    the usual line, and no error line for the file."""
    from xlsolver.cli import main
    from xlsolver.commands import solve_workbooks
    from xlsolver.processes import Stopped

    def signalled_inside_pyuno(*args, **kwargs):
        try:
            os.kill(os.getpid(), signal.SIGTERM)  # the handler raises Stopped in here
            time.sleep(5)
        except Stopped:
            raise SystemError("can't import __main__ module") from None  # as pyuno does
        raise AssertionError("no signal arrived")

    monkeypatch.setattr(solve_workbooks, "solve_workbook", signalled_inside_pyuno)
    book = tmp_path / "small.xlsx"
    shutil.copy(WORKBOOKS / "small.xlsx", book)
    assert main(["solve", str(book), "-o", str(tmp_path / "out.xlsx"), "--jobs", "1"]) == 143
    err = capsys.readouterr().err  # (outputs completed: what earlier runs in this process wrote)
    assert err.startswith("xlsolver: terminated; outputs completed: ") and err.count("\n") == 1
    assert "SystemError" not in err and "small.xlsx:" not in err, err
    monkeypatch.undo()
    assert main(["solve", str(book), "--jobs", "1"]) == 0  # the next run starts unstopped


def test_a_stop_while_libreoffice_works_names_what_the_workers_wrote(tmp_path, monkeypatch, capsys):
    """Files Calc reads are solved in this process while the workers solve the rest; a
    stop then named no output at all ("outputs completed: none") although the workers had
    written theirs, and a worker killed while writing left its temporary file behind."""
    from xlsolver.cli import main
    from xlsolver.commands import solve_workbooks

    folder = tmp_path / "class"
    folder.mkdir()
    for name in ("a.xlsx", "b.xlsx", "c.xlsx"):
        shutil.copy(WORKBOOKS / "small.xlsx", folder / name)
    out = tmp_path / "out"
    out.mkdir()
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    stale = out / f".b.xlsx.xlsolver-{dead.pid}.tmp"  # as a worker killed mid-write leaves it
    main_pid, original = os.getpid(), solve_workbooks.solve_workbook

    def solve_workbook(source, target, options, **kwargs):  # workers: forked, the real one
        if os.getpid() != main_pid:
            return original(source, target, options, **kwargs)
        assert wait_for(lambda: (out / "a.xlsx").exists() and (out / "b.xlsx").exists())
        stale.write_bytes(b"half a zip")
        os.kill(main_pid, signal.SIGINT)  # Ctrl-C while "LibreOffice" works on c.xlsx
        time.sleep(5)
        raise AssertionError("no signal arrived")

    monkeypatch.setattr(solve_workbooks, "solve_workbook", solve_workbook)
    monkeypatch.setattr(solve_workbooks, "needs_office", lambda p: Path(p).name == "c.xlsx")
    code = main(["solve", str(folder), "--out-dir", str(out), "--jobs", "2"])
    err = capsys.readouterr().err
    assert code == 130, err
    assert "interrupted; outputs completed: " in err
    assert str(out / "a.xlsx") in err and str(out / "b.xlsx") in err, err
    assert not stale.exists() and sorted(p.name for p in out.iterdir()) == ["a.xlsx", "b.xlsx"]


BREAK_SEARCH = """
import os, signal, threading, time
from pysat.examples.genhard import PHP
from xlsolver.nonogram.sat import limited_solve, new_solver
from xlsolver.processes import Stopped, stopping

solver = new_solver("minisat22", PHP(11).clauses)  # minutes of MiniSat's search
threading.Timer(0.5, os.kill, (os.getpid(), signal.SIGTERM)).start()
start = time.perf_counter()
try:
    with stopping():
        limited_solve(solver, [], None)  # no time limit, no budget: the plain call
    print("finished", flush=True)
except Stopped as exc:
    print(f"stopped {exc.signum} {time.perf_counter() - start:.2f}", flush=True)
"""


def test_a_signal_breaks_a_sat_search_without_a_time_limit() -> None:
    """A search with no time limit ran in one C call that held the main thread, so
    SIGTERM and Ctrl-C waited for it to end (a painted copy of Knotty: a quarter of an
    hour, killed with -9 at last). A watcher thread now breaks the call at the signal."""
    done = subprocess.run(
        [sys.executable, "-c", BREAK_SEARCH], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    word, signum, seconds = done.stdout.split()
    assert (word, int(signum)) == ("stopped", signal.SIGTERM)
    assert float(seconds) < 5, seconds


def _dies_on_faase(source, target, options, in_place):
    """A worker that the system kills on one file (as the OOM killer would)."""
    from xlsolver.commands.solve_workbooks import FileReport

    if "faase" in source:
        os._exit(9)
    return FileReport(source, target=target)


def test_a_worker_that_dies_costs_its_files_not_the_run(tmp_path, monkeypatch, capsys):
    """A --jobs worker killed mid-run (the OOM killer, kill -9) gave a BrokenProcessPool
    traceback, exit 1 and no line for any file: every file is reported, the lost ones say
    so, and the exit status is 2."""
    from xlsolver.cli import main
    from xlsolver.commands import solve_workbooks

    monkeypatch.setattr(solve_workbooks, "_run_one", _dies_on_faase)  # forked workers see it
    names = ["a.xlsx", "faase.xlsx", "z.xlsx"]
    for name in names:
        shutil.copy(WORKBOOKS / "small.xlsx", tmp_path / name)
    code = main(["solve", *(str(tmp_path / n) for n in names), "--jobs", "2"])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err and "BrokenProcessPool" not in err, err
    lost = f"{tmp_path / 'faase.xlsx'}: not solved: a worker process of this run ended"
    assert lost in err, err


def test_each_file_is_reported_when_done_so_a_stop_keeps_what_finished(tmp_path, monkeypatch):
    """Results were printed only after the whole batch: a Ctrl-C late in a long run lost
    the lines of every file finished. Each is passed on as soon as it and those before it
    are done."""
    from xlsolver.commands import solve_workbooks
    from xlsolver.processes import Stopped
    from xlsolver.workbook.batch import SolveOptions

    calls = []

    def run_one(source, target, options, in_place):
        if source.endswith("b.xlsx"):
            raise Stopped(signal.SIGINT)
        return solve_workbooks.FileReport(source)

    monkeypatch.setattr(solve_workbooks, "_run_one", run_one)
    paths = [tmp_path / "a.xlsx", tmp_path / "b.xlsx"]
    with pytest.raises(Stopped):
        solve_workbooks._solve_all(paths, [None, None], SolveOptions(), 1, False, calls.append)
    assert [r.source for r in calls] == [str(tmp_path / "a.xlsx")]


def _dies_on_the_dancer(puzzle, options, progress=None):
    """A puzzle worker that the system kills on the 5-wide Dancer."""
    from xlsolver.nonogram.analyzer import solve

    if puzzle.width == 5:
        os._exit(9)
    limit, time_limit, method = options
    return solve(puzzle, max_solutions=limit, time_limit=time_limit, method=method)


def test_a_puzzle_worker_that_dies_ends_the_run_with_one_line(monkeypatch, capsys):
    """The same for puzzle files: what was solved before is printed, then one line naming
    the puzzle lost (not a BrokenProcessPool traceback and exit 1), exit 2."""
    from xlsolver.cli import main
    from xlsolver.commands import solve as solve_command

    monkeypatch.setattr(solve_command, "solve_one", _dies_on_the_dancer)
    taai, dancer = DATA / "taai2011-first3-questions.txt", DATA / "webpbn-00001-dancer.non"
    code = main(["solve", str(taai), str(dancer), "--jobs", "2", "--json"])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert "Traceback" not in err and "BrokenProcessPool" not in err, err
    lost = re.match(r"xlsolver: (.+?)(?: #(\d+))?: not solved: a worker process of this ", err)
    assert lost is not None, err
    records = [json.loads(line) for line in out.splitlines()]
    if lost.group(1) == str(dancer):  # the three TAAI puzzles before it, all solved
        assert len(records) == 3
    else:  # on a busy machine the pool broke before a TAAI puzzle was done: those before it
        assert lost.group(1) == str(taai) and len(records) == int(lost.group(2) or 1) - 1
    assert all(r["status"] in ("unique", "multiple") for r in records)


def test_a_ctrl_c_while_the_command_loads_is_a_stop_not_a_traceback(monkeypatch, capsys):
    """A SIGINT while the command's modules were imported (before the stop handlers) gave
    an importlib KeyboardInterrupt traceback and exit 1: now the usual line and 130."""
    from xlsolver import cli

    def loading(command):
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "build_parser", loading)
    assert cli.main(["hints", "x.non"]) == EXIT_INTERRUPTED
    assert capsys.readouterr().err.startswith("xlsolver: interrupted; outputs completed: ")

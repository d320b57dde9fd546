"""``xlsolver solve`` of puzzle files with ``--jobs``: the puzzles go to worker processes.

The output (text and JSON, minus the seconds), stderr and exit status are those of one
process; every solution printed satisfies its clues; the workers really are other
processes.
"""

from __future__ import annotations

import json
import os

import pytest
from conftest import DATA

from xlsolver.cli import main
from xlsolver.commands import solve as solve_command
from xlsolver.formats import FormatError, read_entries

FILES = [
    str(DATA / "taai2011-first3-questions.txt"),
    str(DATA / "jwilk-data000.nin"),
    str(DATA / "invalid_input.txt"),
    str(DATA / "webpbn-00001-dancer.non"),
]


def run(capsys, *args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one ``xlsolver`` call in this process."""
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def without_seconds(json_lines: str) -> list[dict]:
    """The JSON records with their (timing) ``seconds`` left out."""
    records = [json.loads(line) for line in json_lines.splitlines()]
    for record in records:
        record.pop("seconds", None)
    return records


def test_json_with_two_workers_is_that_of_one_process(capsys) -> None:
    one = run(capsys, "solve", "--json", "--jobs", "1", *FILES)
    two = run(capsys, "solve", "--json", "--jobs", "2", *FILES)
    assert one[0] == two[0] == 2  # invalid_input.txt holds bad entries
    assert one[2] == two[2]
    records = without_seconds(one[1])
    assert records == without_seconds(two[1])
    entries = [(path, e) for path in FILES for e in read_entries(path)]
    assert len(records) == len(entries)
    checked = 0
    for record, (path, entry) in zip(records, entries, strict=True):
        assert record["source"] == path
        if isinstance(entry, FormatError):
            assert record["status"] == "invalid"
            continue
        for rows in record["solutions"]:
            picture = [[ch == "#" for ch in row] for row in rows]
            assert entry.is_solution(picture), (path, record["index"])
            checked += 1
    assert checked >= 6


def test_text_and_first_with_two_workers(capsys) -> None:
    def text(jobs: str) -> tuple[int, list[str], str]:
        code, out, err = run(capsys, "solve", "--first", "--jobs", jobs, *FILES[:2])
        lines = [line.split(" (")[0] if ": " in line else line for line in out.splitlines()]
        return code, lines, err  # headers without their seconds

    assert text("1") == text("2")


def solve_here_and_tell(puzzle, options):
    """``solve_one`` that records which process solved the puzzle."""
    result = ORIGINAL(puzzle, options)
    result.stats["pid"] = os.getpid()
    return result


ORIGINAL = solve_command.solve_one


def test_the_puzzles_are_solved_by_other_processes(monkeypatch) -> None:
    monkeypatch.setattr(solve_command, "solve_one", solve_here_and_tell)
    puzzles = [e for e in read_entries(FILES[1]) if not isinstance(e, FormatError)]
    options = (2, None, "auto")
    with solve_command._solver(puzzles, options, 2) as results:
        pids = {r.stats["pid"] for r in results}
    assert os.getpid() not in pids and pids
    with solve_command._solver(puzzles, options, 1) as results:
        assert {r.stats["pid"] for r in results} == {os.getpid()}


@pytest.mark.parametrize("given, puzzles, expected", [(None, 5, None), (3, 5, 3), (8, 2, 2)])
def test_jobs_default_to_every_core_and_never_exceed_the_puzzles(given, puzzles, expected):
    class Args:
        jobs = given

    want = expected if expected is not None else max(1, min(os.cpu_count() or 1, puzzles))
    assert solve_command._jobs(Args(), puzzles) == want


def test_a_stopped_pool_prints_no_manager_thread_traceback() -> None:
    """Killing the workers with work queued made CPython 3.11's pool manager thread print
    an InvalidStateError traceback under the run's one line; that one is kept quiet,
    any other thread exception still reaches the hook that was there before."""
    import threading
    from concurrent.futures import InvalidStateError

    from xlsolver.processes import _quiet_pool_manager

    seen: list[type] = []

    def boom(exc: Exception) -> None:
        def run() -> None:
            raise exc

        thread = threading.Thread(target=run)
        thread.start()
        thread.join()

    before = threading.excepthook
    try:
        threading.excepthook = lambda args: seen.append(args.exc_type)
        _quiet_pool_manager()
        boom(InvalidStateError("CANCELLED"))
        assert seen == []
        boom(ValueError("a real error"))
        assert seen == [ValueError]
    finally:
        threading.excepthook = before


def _kissat_in_worker() -> list[int] | None:
    """What a pool worker's Kissat child answers for a small satisfiable CNF."""
    from xlsolver.nonogram import sat

    return sat.solve_in_child([[1, 2], [-1, 2], [1, -2]], "kissat404", None)


def test_a_pool_worker_runs_the_kissat_child_as_the_main_process_does() -> None:
    """A ``--jobs`` worker's solver child took the main process for its parent and ended
    at once, so a hard board of a batch never reached Kissat (Faase ran on in MiniSat for
    a quarter of an hour, and the batch took another road than a single solve)."""
    from xlsolver.nonogram import sat
    from xlsolver.processes import stopping, worker_pool

    with stopping():
        assert sat.solve_in_child([[1, 2], [-1, 2], [1, -2]], "kissat404", None) == [1, 2]
        with worker_pool(2) as pool:
            assert pool.submit(_kissat_in_worker).result(timeout=120) == [1, 2]


def test_a_stopped_pool_leaves_nothing_for_the_exit_hook_to_wake() -> None:
    """After a stop (here an error in the pool's block), the pool's manager thread has
    ended and the exit hook of concurrent.futures no longer holds its wakeup pipe: on
    CPython 3.11 the hook wrote to that pipe as the thread closed it, and a traceback
    followed ``solve … --json | head -1`` in most runs."""
    from concurrent.futures import process

    from xlsolver.processes import stopping, worker_pool

    with stopping():
        with pytest.raises(BrokenPipeError), worker_pool(2) as pool:
            assert pool.submit(os.getpid).result(timeout=60) != os.getpid()
            manager = pool._executor_manager_thread
            raise BrokenPipeError  # the reader of the output went away
    assert manager is not None and not manager.is_alive()
    assert manager not in process._threads_wakeups


def test_dask_without_its_extra_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    """--dask where dask is not installed printed a traceback (ModuleNotFoundError), exit
    1, and left the --out-dir folder behind: now the line naming the extra, exit 2, and
    no folder, as for an unreachable scheduler."""
    import shutil
    import sys

    from conftest import WORKBOOKS

    from xlsolver.exits import EXIT_BAD_INPUT

    for name in ("dask", "dask.distributed", "distributed"):
        monkeypatch.setitem(sys.modules, name, None)  # import fails as when not installed
    book = shutil.copy(WORKBOOKS / "small.xlsx", tmp_path / "small.xlsx")
    out = tmp_path / "out" / "term" / "one"  # none of the three there: none left behind
    capsys.readouterr()
    code = main(["solve", str(book), "--out-dir", str(out), "--dask", "tcp://127.0.0.1:8786"])
    err = capsys.readouterr().err
    assert code == EXIT_BAD_INPUT, err
    assert err == ("xlsolver: --dask needs dask.distributed: pip install 'xlsolver[dask]'\n"), err
    assert not (tmp_path / "out").exists()


def test_dask_with_puzzle_files_solved_here_says_so(tmp_path, capsys):
    """Puzzle files printed (or painted into one -o workbook) are solved here: --dask was
    passed over without a word."""
    (tmp_path / "a.non").write_text("width 2\nheight 2\nrows\n2\n1\ncolumns\n2\n1\n")
    capsys.readouterr()
    code = main(["solve", str(tmp_path / "a.non"), "--dask", "tcp://127.0.0.1:9"])
    out, err = capsys.readouterr()
    assert code == 0 and "unique" in out
    assert err == (
        "xlsolver: --dask sends workbooks, and puzzle files with --out-dir, to the cluster; "
        f"solved here: {tmp_path / 'a.non'}\n"
    ), err

"""``xlsolver solve … --dask ADDRESS``: the same outputs, lines and exit status as ``--jobs 1``.

Runs a one-worker ``LocalCluster`` in a separate process, so each workbook really
travels to the worker as bytes and comes back as bytes.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

distributed = pytest.importorskip(
    "distributed", reason="dask[distributed] is not installed (pip install 'xlsolver[dask]')"
)
openpyxl = pytest.importorskip("openpyxl")

from xlsolver.cli import main  # noqa: E402
from xlsolver.exits import EXIT_BAD_INPUT  # noqa: E402
from xlsolver.workbook import distributed as on_cluster  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
BOOKS = ["small.xlsx", "several-solutions.xlsx", "contradiction.xlsx", "layouts.xlsx"]


@pytest.fixture(scope="module")
def scheduler():
    """The address of a one-worker local cluster (worker in its own process)."""
    with distributed.LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        yield cluster.scheduler_address


def _inputs(tmp_path: Path) -> list[Path]:
    """Sample workbooks and one broken file, copied to a scratch folder."""
    folder = tmp_path / "in"
    folder.mkdir()
    paths = [Path(shutil.copy(ROOT / "workbooks" / name, folder / name)) for name in BOOKS]
    broken = folder / "broken.xlsx"
    broken.write_bytes(b"PK\x03\x04 not really a zip")
    return [*paths, broken]


def _cells(path: Path) -> dict:
    """Every cell's value and fill colour, sheet by sheet."""
    book = openpyxl.load_workbook(path)
    return {
        ws.title: {
            cell.coordinate: (cell.value, cell.fill.fgColor.rgb if cell.fill else None)
            for row in ws.iter_rows()
            for cell in row
        }
        for ws in book.worksheets
    }


def _run(argv: list[str], capsys) -> tuple[int, list[str], list[str]]:
    """Exit status, stdout lines and stderr lines of one command (times left out)."""
    code = main(argv)
    out, err = capsys.readouterr()
    out = re.sub(r"\(\d+\.\d+ s\)", "(… s)", out)
    out = re.sub(r'"seconds": [0-9.e-]+', '"seconds": …', out)
    return code, out.splitlines(), err.splitlines()


def test_dask_gives_the_same_outputs_lines_and_status_as_jobs(tmp_path, capsys, scheduler):
    inputs = [str(p) for p in _inputs(tmp_path)]
    here, there = tmp_path / "jobs", tmp_path / "dask"
    local = _run(["solve", *inputs, "--out-dir", str(here), "--jobs", "1"], capsys)
    remote = _run(["solve", *inputs, "--out-dir", str(there), "--dask", scheduler], capsys)
    assert remote[0] == local[0] == EXIT_BAD_INPUT  # the broken file
    assert remote[1] == [line.replace(str(here), str(there)) for line in local[1]]
    assert [line for line in remote[2] if "xlsolver:" in line] == [
        line for line in local[2] if "xlsolver:" in line
    ]
    assert any("broken.xlsx" in line for line in remote[2])
    written = sorted(p.name for p in here.iterdir())
    assert written == sorted(p.name for p in there.iterdir())
    assert len(written) == len(BOOKS)  # every readable workbook, not the broken one
    for name in written:
        assert _cells(there / name) == _cells(here / name), name


def test_dask_json_lines_match_jobs(tmp_path, capsys, scheduler):
    inputs = [str(p) for p in _inputs(tmp_path)[:2]]
    local = _run(["solve", *inputs, "--json", "--jobs", "1"], capsys)
    remote = _run(["solve", *inputs, "--json", "--dask", scheduler], capsys)
    assert remote[0] == local[0]
    assert remote[1] == local[1] and len(local[1]) > 1
    assert not list(tmp_path.glob("in/*.solved*"))  # nothing written without an output


def test_an_unreachable_scheduler_is_one_line_and_exit_2(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(on_cluster, "CONNECT_SECONDS", 1)
    inputs = [str(p) for p in _inputs(tmp_path)[:1]]
    out = tmp_path / "out"
    code, _, err = _run(
        ["solve", *inputs, "--out-dir", str(out), "--dask", "tcp://127.0.0.1:9"], capsys
    )
    assert code == EXIT_BAD_INPUT
    assert len(err) == 1 and "cannot reach the Dask scheduler at tcp://127.0.0.1:9" in err[0]
    assert not out.exists()  # nothing written, not even the folder


def test_dask_keeps_sub_folders_and_lets_a_worker_start_kissat(tmp_path, capsys, scheduler):
    """A folder's sub-folders were not made under --out-dir (every file there failed),
    and a worker process, daemonic, could not start the Kissat child a hard puzzle needs
    ("AssertionError: daemonic processes are not allowed to have children")."""
    folder = tmp_path / "in"
    (folder / "sub").mkdir(parents=True)
    shutil.copy(ROOT / "workbooks" / "small.xlsx", folder / "sub" / "small.xlsx")
    shutil.copy(ROOT / "tests" / "data" / "webpbn-faase.nin", folder / "faase.nin")
    here, there = tmp_path / "jobs", tmp_path / "dask"
    args = [str(folder), "--time-limit", "15"]
    local = _run(["solve", *args, "--out-dir", str(here), "--jobs", "1"], capsys)
    remote = _run(["solve", *args, "--out-dir", str(there), "--dask", scheduler], capsys)
    assert not any("daemonic" in line or "Error" in line for line in remote[2]), remote[2]
    assert remote[0] == local[0]

    def shown(lines: list[str]) -> list[str]:  # how far the time limit let it get varies
        return [re.sub(r"\d+ cells undecided", "N cells undecided", x) for x in lines]

    expected = [line.replace(str(here), str(there)) for line in local[1]]
    assert shown(remote[1]) == shown(expected)
    assert (there / "sub" / "small.xlsx").exists() and (there / "faase.xlsx").exists()
    assert _cells(there / "sub" / "small.xlsx") == _cells(here / "sub" / "small.xlsx")


def test_a_stopped_run_calls_off_the_tasks_on_the_cluster(tmp_path, monkeypatch, scheduler):
    """After Ctrl-C the cluster went on with the batch (a worker solved Faase for another
    100 s): the tasks are called off, so the scheduler holds none of them afterwards."""
    import time

    import dask.distributed

    folder = tmp_path / "in"
    folder.mkdir()
    for k in range(3):
        shutil.copy(ROOT / "tests" / "data" / "webpbn-faase.nin", folder / f"faase{k}.nin")

    def stopped(futures, loop=None):  # the Ctrl-C lands as the results are awaited
        time.sleep(1.0)
        raise KeyboardInterrupt

    monkeypatch.setattr(dask.distributed, "as_completed", stopped)
    argv = ["solve", str(folder), "--out-dir", str(tmp_path / "out"), "--dask", scheduler]
    assert main(argv) == 130
    monkeypatch.undo()
    with distributed.Client(scheduler, set_as_default=False) as client:
        deadline = time.monotonic() + 20
        left = None
        while time.monotonic() < deadline:
            left = client.run_on_scheduler(lambda dask_scheduler: len(dask_scheduler.tasks))
            if left == 0:
                break
            time.sleep(0.2)
    assert left == 0

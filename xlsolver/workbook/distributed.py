"""Workbooks solved on a Dask cluster: ``xlsolver solve FILES… --out-dir D --dask ADDRESS``.

Each workbook travels to a worker as bytes; the worker solves it in a temporary folder
of its own with the same per-file function as ``--jobs`` and sends back the report and
the painted workbook as bytes; this process writes the outputs (:mod:`xlsolver.writes`),
prints the same lines and returns the same exit status as ``--jobs``. Workers need no
shared storage, only ``dask[distributed]`` and the same xlsolver version installed.

Files LibreOffice reads (.ods, .xls, …) and files this process cannot read are solved
here, as ``--jobs`` does, so their messages are the same.
"""

from __future__ import annotations

import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..sheets.errors import WorkbookError
from .batch import FileReport, SolveOptions
from .files import needs_office, target_folder

CONNECT_SECONDS = 30  # how long to wait for the scheduler before giving up
# The per-file function of --jobs: (source, target, options, in_place) -> FileReport.
RunOne = Callable[[str, "str | None", SolveOptions, bool], FileReport]


class ClusterError(RuntimeError):
    """The cluster cannot be used (dask missing, scheduler unreachable); one line."""


def solve_remote(
    run_one: RunOne, name: str, data: bytes, target_name: str | None, options: SolveOptions
) -> tuple[FileReport, bytes | None]:
    """On a worker: solve a workbook given as bytes; its report and the painted bytes."""
    with tempfile.TemporaryDirectory(prefix="xlsolver-") as tmp:
        source = Path(tmp, "in", name)
        source.parent.mkdir()
        source.write_bytes(data)
        target = Path(tmp, "out", target_name) if target_name else None
        if target is not None:
            target.parent.mkdir()
        report = run_one(str(source), str(target) if target else None, options, False)
        painted = target.read_bytes() if target is not None and report.target else None
    return report, painted


def _as_here(report: FileReport, source: Path, target: Path | None) -> FileReport:
    """A worker's report with its temporary paths replaced by the real ones."""
    if report.target and target is not None:
        report.error = report.error.replace(report.target, str(target))
    report.error = report.error.replace(report.source, str(source))
    report.source, report.target = str(source), None
    return report


def _write(report: FileReport, painted: bytes | None, target: Path | None, in_place: bool):
    """Write a worker's painted workbook where ``--jobs`` would have saved it."""
    from ..writes import WriteError, write_bytes

    if painted is None or target is None:
        return report
    if in_place and report.left_out:  # the worker painted a copy; here it is the input
        from ..sheets.xlsx_parts import in_place_refusal

        report.error, report.left_out = in_place_refusal(report.source, report.left_out), {}
        return report
    try:
        target_folder(target)  # a sub-folder of --out-dir, as --jobs makes it
    except WorkbookError as exc:
        report.error = f"{report.source} → {exc}"
        return report
    try:
        report.target = str(write_bytes(target, painted, [report.source], in_place=in_place))
    except WriteError as exc:
        report.target = None
        report.error = f"{report.source}: {exc}"
    return report


def connect(address: str):
    """A Dask client for the scheduler at ``address``; ClusterError when it cannot be."""
    try:
        from dask.distributed import Client
    except ImportError:
        raise ClusterError("--dask needs dask.distributed: pip install 'xlsolver[dask]'") from None
    try:
        return Client(address, timeout=CONNECT_SECONDS, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None


def solve_on_cluster(
    address: str,
    paths: list[Path],
    targets: list[Path | None],
    options: SolveOptions,
    in_place: bool,
    run_one: RunOne,
) -> list[FileReport]:
    """Solve the workbooks on the cluster (see the module doc); reports in input order.

    ``run_one`` is the per-file function of ``--jobs``, run by the workers (and here for
    the files that stay here).
    """
    client = connect(address)  # first: it says which extra to install when dask is not there
    from dask.distributed import as_completed
    from tqdm import tqdm

    reports: list[FileReport | None] = [None] * len(paths)
    with (
        client,
        tqdm(total=len(paths), unit="file", disable=len(paths) < 2 or None, file=sys.stderr) as bar,
    ):
        futures = {}
        for i, (path, target) in enumerate(zip(paths, targets, strict=True)):
            data = None if needs_office(path) else _read(path)
            if data is None:
                continue
            name = target.name if target else None
            future = client.submit(
                solve_remote, run_one, path.name, data, name, options, pure=False
            )
            futures[future] = i
        for i, (path, target) in enumerate(zip(paths, targets, strict=True)):
            if i not in futures.values():  # here, as --jobs does: LibreOffice, unreadable
                reports[i] = run_one(str(path), str(target) if target else None, options, in_place)
                bar.update()
        try:
            for future in as_completed(futures, loop=client.loop):
                i = futures[future]
                reports[i] = _collect(future, paths[i], targets[i], in_place)
                bar.update()
        except BaseException:  # Ctrl-C, SIGTERM: the tasks not started are called off
            client.cancel(list(futures), force=True)
            raise
    return [r for r in reports if r is not None]


def _read(path: Path) -> bytes | None:
    """The file's bytes, or None to let the local run report why it cannot be read."""
    try:
        return path.read_bytes()
    except OSError:
        return None


def _collect(future, path: Path, target: Path | None, in_place: bool) -> FileReport:
    """One finished task: its report with real paths, the painted workbook written."""
    try:
        report, painted = future.result()
    except Exception as exc:  # a worker that died or failed: the file's error, not ours
        return FileReport(str(path), error=f"{path}: the Dask task failed: {exc}")
    report = _write(_as_here(report, path, target), painted, target, in_place)
    if report.target is None:  # not written here either: no puzzle's line says painted
        report.nothing_written()
    return report

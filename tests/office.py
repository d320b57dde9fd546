"""Shared helpers for tests that run the Calc macros in headless LibreOffice: one
server with the xlsolver macros installed, and running macros on a workbook."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

SYSTEM_PATH = "/usr/bin:/bin"
SCRIPT = "vnd.sun.star.script:xlsolver.py${}?language=Python&location=user"


@contextmanager
def macro_office(tmp_path_factory) -> Iterator[object]:
    """One headless LibreOffice with the xlsolver macros installed (skips without it).

    LibreOffice's embedded Python finds its standard library from the first ``python3``
    on PATH; a pyenv interpreter there (as under pytest) makes it load the wrong one and
    every Python macro fails with "can't import __main__". So soffice starts with the
    system's own folder first on PATH.
    """
    from xlsolver.libreoffice import server as lo_server
    from xlsolver.libreoffice.installer import install

    reason = lo_server.available()
    if reason:
        pytest.skip(reason)
    profile = tmp_path_factory.mktemp("lo-profile")
    install(profile)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("PATH", SYSTEM_PATH + os.pathsep + os.environ.get("PATH", ""))
        lo = lo_server.LibreOffice(profile=str(profile))
        lo.start()
    try:
        yield lo
    finally:
        lo.stop()


def run_macros(office, source: Path, actions: list[str], out: Path) -> list[str]:
    """Open a copy of a workbook, run macros on it in order, save it as .xlsx; the messages."""
    work = out.with_name("work-" + source.name)
    shutil.copy(source, work)
    doc = office.load(work)
    try:
        provider = doc.getScriptProvider()
        messages = []
        for action in actions:
            script = provider.getScript(SCRIPT.format(action))
            messages.append(script.invoke((doc,), (), ())[0])
        office.save_as(doc, out)
    finally:
        office.close(doc)
    return messages


def size_sheet(path: Path, width: int, height: int, title: str | None = None) -> Path:
    """A workbook as a person starts a grid for New grid: ``width`` and ``height`` typed
    in row 2, a title in A1 when given."""
    from openpyxl import Workbook

    wb = Workbook()
    ws = wb.active
    if title is not None:
        ws["A1"] = title
    ws["A2"], ws["C2"], ws["E2"], ws["G2"] = "width", width, "height", height
    wb.save(path)
    return path

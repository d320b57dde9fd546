"""The documentation's examples run: every `sh` block's ``xlsolver …`` lines and every
`python` block of README.md and docs/*.md, in a scratch folder holding copies of
``workbooks/`` and ``examples/`` (so an example never touches the checkout).

Within one page, blocks run in order and share the scratch folder (a later line may use
what an earlier one wrote) and one Python namespace. A line of an `sh` block that does
not start with ``xlsolver`` (pip, pytest, python bench/…) is not run here; commands
that cannot run in a test (Excel, installing macros) belong in `text` blocks.
"""

from __future__ import annotations

import glob
import os
import re
import shlex
import shutil
from pathlib import Path

import pytest
from conftest import ROOT

from xlsolver.cli import main

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
FENCE = re.compile(r"^```(\w*)\n(.*?)^```", re.MULTILINE | re.DOTALL)
OK_EXITS = (0, 1)  # decided, or documented as unsolved / timed out


def blocks(page: Path) -> list[tuple[str, str]]:
    """(language, code) of every fenced block of a page."""
    return [(m.group(1), m.group(2)) for m in FENCE.finditer(page.read_text(encoding="utf-8"))]


def commands(code: str) -> list[list[str]]:
    """The ``xlsolver`` command lines of an sh block as argument lists (comments dropped)."""
    out = []
    for line in code.splitlines():
        words = shlex.split(line, comments=True)
        if words[:1] == ["xlsolver"]:
            out.append(words[1:])
    return out


def expand(args: list[str]) -> list[str]:
    """Shell globs expanded as a shell would (a pattern matching nothing stays)."""
    out = []
    for arg in args:
        matches = sorted(glob.glob(arg)) if any(ch in arg for ch in "*?[") else []
        out.extend(matches or [arg])
    return out


@pytest.fixture
def scratch(tmp_path, monkeypatch) -> Path:
    """A folder with copies of workbooks/ and examples/, as the current directory."""
    shutil.copytree(ROOT / "workbooks", tmp_path / "workbooks")
    shutil.copytree(ROOT / "examples", tmp_path / "examples")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("COLUMNS", "100")
    return tmp_path


def test_pages_have_runnable_examples():
    runnable = [p.name for p in PAGES if any(lang in ("sh", "python") for lang, _ in blocks(p))]
    assert "README.md" in runnable and len(runnable) >= 6, runnable


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_examples_of_page_run(page: Path, scratch: Path, capsys) -> None:
    namespace: dict = {"__name__": f"docs_{page.stem}"}
    for lang, code in blocks(page):
        if lang == "python":
            exec(compile(code, f"{page.name} (python block)", "exec"), namespace)
        elif lang == "sh":
            for args in commands(code):
                code_ = main(expand(args))
                err = capsys.readouterr().err
                assert code_ in OK_EXITS, f"{page.name}: xlsolver {' '.join(args)} → {code_}\n{err}"
    assert os.getcwd() == str(scratch)


LINK = re.compile(r"\]\(([^)#\s]+)(?:#[^)]*)?\)")


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.name)
def test_relative_links_point_to_files(page: Path) -> None:
    text = page.read_text(encoding="utf-8")
    for target in LINK.findall(text):
        if "://" in target:
            continue
        assert (page.parent / target).exists(), f"{page.name}: link to missing {target}"

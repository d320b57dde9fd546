"""Shared test fixtures: where the puzzles are, and skipping when ../shared is absent."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import settings

# Property tests draw the same examples on every run (a fixed seed, no example database),
# so their time and their verdict do not swing between runs; no per-example deadline
# (the machine may be loaded).
settings.register_profile("xlsolver", derandomize=True, database=None, deadline=None)
settings.load_profile("xlsolver")

ROOT = Path(__file__).resolve().parents[1]
WORKBOOKS = ROOT / "workbooks"
DATA = Path(__file__).resolve().parent / "data"
SHARED = ROOT.parent / "shared" / "puzzles"
HEART = [
    "..##..##..",
    ".####.###.",
    "##########",
    "##########",
    ".########.",
    "..######..",
    "...####...",
    "....##....",
    "..........",
    "....##....",
]


def shared_path(*parts: str) -> Path:
    """A path under ../shared/puzzles, skipping the test when that folder is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is absent: the large puzzle sets live in ../shared/puzzles")
    return path


@pytest.fixture
def data_dir() -> Path:
    """The small puzzles that ship with the tests (see tests/data/ATTRIBUTION.md)."""
    return DATA


OPEN_HEART = [  # 11×10, the last row of its box empty (borders, not clues, keep it)
    "..##...##..",
    ".####.####.",
    "###########",
    "###########",
    ".#########.",
    "..#######..",
    "...#####...",
    "....###....",
    ".....#.....",
    "...........",
]


def write_clues(ws, puzzle, top: int, left: int) -> None:
    """Column clues above and row clues left of a grid whose top-left cell is (top, left),
    one number a cell (an empty line as 0), on an openpyxl worksheet."""
    for j, clues in enumerate(puzzle.cols):
        for k, v in enumerate(clues or (0,)):
            ws.cell(top - len(clues or (0,)) + k, left + j, v)
    for i, clues in enumerate(puzzle.rows):
        for k, v in enumerate(clues or (0,)):
            ws.cell(top + i, left - len(clues or (0,)) + k, v)


def picture(rows: list[str]) -> np.ndarray:
    """Row strings of # and . as booleans."""
    return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool)


def workbooks_module(name: str):
    """A module from workbooks/ (not a package), e.g. ``build_xlsm`` and its SAMPLE puzzle."""
    sys.path.insert(0, str(WORKBOOKS))
    try:
        spec = importlib.util.spec_from_file_location(name, WORKBOOKS / f"{name}.py")
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(WORKBOOKS))

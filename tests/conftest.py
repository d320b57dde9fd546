"""Shared test fixtures: where the puzzles are, and skipping when ../shared is absent."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
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


def picture(rows: list[str]) -> np.ndarray:
    """Row strings of # and . as booleans."""
    return np.array([[ch == "#" for ch in row] for row in rows], dtype=bool)

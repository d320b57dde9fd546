"""What the analyzer returns for a colour puzzle: a :class:`Result` that carries the palette.

``grid`` holds colour-set states (uint32, see :mod:`.cells`), ``solutions`` arrays of
colour numbers (int8, 0 = background), and the steps the same :class:`Step` shape as
for black and white, with colour-set states in ``cells``, ``before`` and ``assumed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cells import POSSIBLE, colour_state_text
from .colour_puzzle import Palette
from .result import Result

if TYPE_CHECKING:
    import numpy as np


@dataclass
class ColourResult(Result):
    """The outcome of one colour analysis; ``palette`` names the colours."""

    palette: Palette = field(default_factory=lambda: Palette(()))

    def open_mask(self) -> np.ndarray:
        """Boolean mask of the cells with more than one colour left."""
        import numpy as np

        bits = self.grid & np.uint32(POSSIBLE)
        return (bits & (bits - np.uint32(1))) != 0

    def solution_text(self, solution: np.ndarray) -> list[str]:
        """One solution as letter rows (``.`` background)."""
        return self.palette.rows_text(solution)

    def grid_rows(self) -> list[str]:
        """The partial grid as rows: ``?`` open, ``!`` no colour left."""
        return colour_state_text(self.grid, self.palette.letters)

    def json_extra(self) -> dict:
        """``colours``: every ink's letter and ``#rrggbb``."""
        return {"colours": self.palette.colours_json()}

"""What the analyzer returns for a colour puzzle: a :class:`Result` that carries the palette.

``grid`` holds colour-set states (uint32, see :mod:`.cells`), ``solutions`` arrays of
colour numbers (int8, 0 = background), and the steps the same :class:`Step` shape as
for black and white, with colour-set states in ``cells``, ``before`` and ``assumed``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cells import POSSIBLE, colour_state_text
from .colour_puzzle import Palette
from .result import Result


@dataclass
class ColourResult(Result):
    """The outcome of one colour analysis; ``palette`` names the colours."""

    palette: Palette = field(default_factory=lambda: Palette(()))

    @property
    def undecided(self) -> np.ndarray:
        """Boolean mask of cells that differ between the solutions found (or are open)."""
        if len(self.solutions) >= 2:
            first = self.solutions[0]
            diff = np.zeros(first.shape, dtype=bool)
            for other in self.solutions[1:]:
                diff |= first != other
            return diff
        bits = self.grid & np.uint32(POSSIBLE)
        return (bits & (bits - np.uint32(1))) != 0

    def to_json(self) -> dict:
        """The JSON object of the command-line contract: letter rows and ``colours``."""
        h, w = self.grid.shape
        out = {
            "width": int(w),
            "height": int(h),
            "status": self.status,
            "solutions": [self.palette.rows_text(s) for s in self.solutions],
            "colours": self.palette.colours_json(),
            "seconds": round(self.seconds, 6),
        }
        if self.error:
            out["error"] = self.error
        if self.difficulty:
            out["difficulty"] = self.difficulty
        return out

    def text(self) -> str:
        """The first solution (else the partial grid: ``?`` open, ``!`` no colour left)."""
        if self.solutions:
            rows = self.palette.rows_text(self.solutions[0])
        else:
            rows = colour_state_text(self.grid, self.palette.letters)
        return "\n".join(rows)

"""Puzzle families defined by a rule rather than a file.

``dom(n)``: Josh Greifer's n-Dom (webpbn survey), a (2n+1)-square puzzle with a unique
solution that line logic cannot finish; a classic hard case for search.
"""

from __future__ import annotations

from .puzzle import Puzzle


def dom(n: int) -> Puzzle:
    """The n-Dom puzzle (n ≥ 2): rows 3,1,(3 1,1)×(n-1),1 and columns mirrored."""
    if n < 2:
        raise ValueError("n-Dom needs n ≥ 2")
    rows = [[3], [1]] + [[3, 1], [1]] * (n - 1) + [[1]]
    cols = [[1], [1]] + [[1, 3], [1]] * (n - 1) + [[3]]
    return Puzzle.from_clues(rows, cols, title=f"{n}-Dom", meta={"name": f"{n}-Dom"})

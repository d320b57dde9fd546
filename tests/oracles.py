"""Oracles the tests and benches compare the analyzer with: brute force and rule-made puzzles.

``line_solutions(clues, n)``: every placement of a line's clues, by plain enumeration.
``dom(n)``: Josh Greifer's n-Dom (webpbn survey), a (2n+1)-square puzzle with a unique
solution that line logic cannot finish; a classic hard case for search.
"""

from __future__ import annotations

from xlsolver.nonogram.puzzle import Puzzle


def line_solutions(clues: tuple[int, ...], n: int):
    """Every placement of the clues in an empty line, as black masks (small n only)."""

    def place(j: int, pos: int, acc: int):
        if j == len(clues):
            yield acc
            return
        c = clues[j]
        rest = sum(clues[j + 1 :]) + len(clues) - j - 1
        for s in range(pos, n - c - rest + 1):
            yield from place(j + 1, s + c + 1, acc | (((1 << c) - 1) << s))

    yield from place(0, 0, 0)


def dom(n: int) -> Puzzle:
    """The n-Dom puzzle (n ≥ 2): rows 3,1,(3 1,1)×(n-1),1 and columns mirrored."""
    if n < 2:
        raise ValueError("n-Dom needs n ≥ 2")
    rows = [[3], [1]] + [[3, 1], [1]] * (n - 1) + [[1]]
    cols = [[1], [1]] + [[1, 3], [1]] * (n - 1) + [[3]]
    return Puzzle.from_clues(rows, cols, title=f"{n}-Dom", meta={"name": f"{n}-Dom"})

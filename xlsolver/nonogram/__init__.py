"""The nonogram engine: clues in, a verdict out; it knows nothing of files or sheets.

The pipeline, in the order a puzzle meets it:

1. ``line``     — line logic: the complete line solver (every cell forced by one line's clues)
2. ``board``    — propagation: solve changed rows and columns until nothing changes
3. ``probe``    — probing: assume a cell (without CONC), propagate, learn from a DISCREPANCY
4. ``sat``      — SAT search: what logic leaves open goes to a CDCL solver (``search``: the
                  depth-first search of the logic path, used for hints and difficulty)
5. ``analyzer`` — the verdict: unique, multiple, solved, contradiction, timeout or invalid

``cells`` holds the cell-state flags, ``puzzle`` the clues and their validation,
``result`` what the analyzer returns.

Colour puzzles take the same pipeline in their own modules: ``colour_puzzle`` (the
palette and the clues of ``(length, ink)``), ``colour_line``, ``colour_board``,
``colour_probe`` (probing and search), ``colour_sat``, ``colour_analyzer`` and
``colour_result``; ``analyzer.solve`` hands a :class:`ColourPuzzle` to them.

    from xlsolver.nonogram import Puzzle, solve
    result = solve(Puzzle.from_clues(rows=[[1]], cols=[[1]]))
"""

from .analyzer import rate, solve
from .colour_puzzle import Colour, ColourPuzzle, Palette
from .colour_result import ColourResult
from .puzzle import Puzzle, PuzzleError
from .result import Result, Step

__all__ = [
    "Colour",
    "ColourPuzzle",
    "ColourResult",
    "Palette",
    "Puzzle",
    "PuzzleError",
    "Result",
    "Step",
    "rate",
    "solve",
]

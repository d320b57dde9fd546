"""Pentomino tiling: boards drawn on sheets, covered by the 12 pentominoes.

Modules: ``pieces`` (shapes and orientations), ``board`` (boards, validation,
symmetries), ``solver`` (exact cover on bitmasks: tilings depth first), ``counting`` (counts
breadth first in numpy), ``clock`` (time limit, progress reports), ``progress`` (bars),
``sheet`` (reading boards from and painting tilings onto worksheets).
"""

from __future__ import annotations

from .board import BoardError, PentominoBoard, named_board, parse_board, tiling_text
from .pieces import CANONICAL, LETTERS, identify
from .solver import Tiler, TilingResult, count_tilings, tile

__all__ = [
    "CANONICAL",
    "LETTERS",
    "PentominoBoard",
    "BoardError",
    "Tiler",
    "TilingResult",
    "count_tilings",
    "identify",
    "named_board",
    "parse_board",
    "tile",
    "tiling_text",
]

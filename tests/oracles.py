"""Oracles the tests and benches compare the analyzer with: brute force and rule-made puzzles.

``line_solutions(clues, n)``: every placement of a line's clues, by plain enumeration.
``colour_solutions(puzzle)``: every solution of a small colour puzzle, row by row;
``breaks(puzzle, solution)``: the clues a colour solution breaks (an independent checker).
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


# -- colour puzzles: written apart from the engine ------------------------------------


def colour_blocks(cells) -> list[tuple[int, int]]:
    """The blocks of a line of colour numbers (0 = background) as (length, colour)."""
    blocks: list[tuple[int, int]] = []
    previous = 0
    for v in cells:
        v = int(v)
        if v and v == previous:
            blocks[-1] = (blocks[-1][0] + 1, v)
        elif v:
            blocks.append((1, v))
        previous = v
    return blocks


def breaks(puzzle, solution) -> list[str]:
    """Every clue a colour solution breaks, as "row 2" / "column 3" (empty when none)."""
    bad = []
    for r, clues in enumerate(puzzle.rows):
        if colour_blocks(solution[r]) != list(clues):
            bad.append(f"row {r + 1}")
    for c, clues in enumerate(puzzle.cols):
        if colour_blocks([row[c] for row in solution]) != list(clues):
            bad.append(f"column {c + 1}")
    return bad


def _column_prefix_fits(prefix: list[int], clues) -> bool:
    """True when the top of a column can still grow into its clues."""
    blocks = colour_blocks(prefix)
    if len(blocks) > len(clues):
        return False
    if prefix and prefix[-1]:  # the last block may still grow
        done, (length, colour) = blocks[:-1], blocks[-1]
        want_length, want_colour = clues[len(blocks) - 1]
        return done == list(clues[: len(done)]) and colour == want_colour and length <= want_length
    return blocks == list(clues[: len(blocks)])


def colour_solutions(puzzle, limit: int | None = None) -> list[list[list[int]]]:
    """Every solution of a small colour puzzle (up to ``limit``), by enumerating rows."""
    from itertools import product

    h, w, k = puzzle.height, puzzle.width, puzzle.palette.k
    options = [
        [
            list(cells)
            for cells in product(range(k + 1), repeat=w)
            if colour_blocks(cells) == list(clues)
        ]
        for clues in puzzle.rows
    ]
    found: list[list[list[int]]] = []

    def place(r: int, rows: list[list[int]]) -> None:
        if limit is not None and len(found) >= limit:
            return
        if r == h:
            if not breaks(puzzle, rows):
                found.append([row[:] for row in rows])
            return
        for row in options[r]:
            rows.append(row)
            if all(_column_prefix_fits([rr[c] for rr in rows], puzzle.cols[c]) for c in range(w)):
                place(r + 1, rows)
            rows.pop()

    place(0, [])
    return found

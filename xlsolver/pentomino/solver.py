"""Exact cover of a board by pentominoes: tilings depth first, counts breadth first.

Tilings are listed by Knuth's Algorithm X on Python int bitmasks (here); counts are
dynamic programming over whole levels of search states in numpy (:mod:`.counting`).

Glossary
    bit          one cell of the board's bounding box; cells are numbered along the
                 short side first (the scan order), so the search front stays short
    filled       an int whose set bits are covered cells (holes and fixed cells start set)
    used         an int whose bit ``LETTERS.index(letter)`` is set once that piece is placed
    placement    one piece in one orientation at one place: a mask of 5 bits
    candidates   the placements whose first cell in scan order is a given cell; the search
                 always covers the first empty cell, trying only those
    count        the number of ways to reach each ``(filled, used)`` state, level by
                 level, equal states merged (most branches meet again)
    orbit        placements of one piece that a symmetry of the board maps onto each other;
                 the search fixes the symmetry-breaking piece (X when free) to one
                 representative per orbit, and ``stabiliser`` counts the symmetries keeping
                 that representative in place
    weight       the share of the search tree under a node: 1 / product of the branching
                 factors on the path to it (Knuth's estimate), summed for progress
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .board import PentominoBoard, check_board, symmetries
from .clock import COMPLETE, LIMIT, Clock, Progress, Stop
from .clock import TIMEOUT as TIMEOUT  # a status callers test for
from .pieces import CANONICAL, LETTERS, Coord, orientations

if TYPE_CHECKING:
    from .counting import LevelCounter

TOP_DEPTH = 4  # levels of the search tree walked with progress and time checks
CHECK_EVERY = 1023  # enumeration nodes between clock checks (a power of two minus one)
PREFERRED_BREAKER = "X"  # fewest placements, so fewest orbits: the classic choice


@dataclass
class TilingResult:
    """What a search found: solutions (cell → letter), counts and how it ended."""

    board: PentominoBoard
    solutions: list[dict[Coord, str]] = field(default_factory=list)
    distinct: int | None = None  # solutions up to the board's symmetries (when counted)
    raw: int | None = None  # every solution, symmetric copies included (when counted)
    status: str = COMPLETE  # complete, limit or timeout
    seconds: float = 0.0
    first_seconds: float | None = None  # time to the first solution
    symmetry: int = 1  # size of the board's symmetry group
    nodes: int = 0  # search states expanded

    @property
    def complete(self) -> bool:
        """True when the search ran to the end (counts exact, every solution seen)."""
        return self.status == COMPLETE


class Tiler:
    """A board compiled for the search: bit numbering, placements and symmetries."""

    def __init__(self, board: PentominoBoard, pieces: str = LETTERS, one_sided: bool = False):
        self.board = board
        self.one_sided = one_sided
        self.letters = check_board(board, pieces, one_sided)
        h, w = board.height, board.width
        self.along_rows = h > w  # scan along the short side
        self.stride = w if self.along_rows else h
        self.nbits = h * w
        self.full = (1 << self.nbits) - 1
        self.cell_of = [self._cell(i) for i in range(self.nbits)]
        self.start = sum(
            1 << i for i, cell in enumerate(self.cell_of) if cell not in board.free_cells
        )
        lane = [self._lane(cell) for cell in self.cell_of]
        self.not_first = sum(1 << i for i, a in enumerate(lane) if a != 0)
        self.not_last = sum(1 << i for i, a in enumerate(lane) if a != self.stride - 1)
        self.placements = {letter: self._placements(letter) for letter in self.letters}
        self.syms = symmetries(board, one_sided)
        self.free_action = all(self._no_fixed_tiling(g) for g in self.syms[1:])
        self.breaker = self._choose_breaker()

    # ---- numbering --------------------------------------------------------------

    def _cell(self, bit: int) -> Coord:
        """The (row, col) of a bit."""
        line, lane = divmod(bit, self.stride)
        return (line, lane) if self.along_rows else (lane, line)

    def _lane(self, cell: Coord) -> int:
        """Position of a cell along its scan line."""
        return cell[1] if self.along_rows else cell[0]

    def bit(self, cell: Coord) -> int:
        """The bit number of a cell."""
        r, c = cell
        return r * self.stride + c if self.along_rows else c * self.stride + r

    def mask(self, cells) -> int:
        """The mask of some cells."""
        return sum(1 << self.bit(cell) for cell in cells)

    def cells(self, mask: int) -> list[Coord]:
        """The cells of a mask."""
        out = []
        while mask:
            low = mask & -mask
            out.append(self.cell_of[low.bit_length() - 1])
            mask ^= low
        return out

    def _placements(self, letter: str) -> list[int]:
        """Every mask the piece can cover on the free cells."""
        free = self.board.free_cells
        found: dict[int, None] = {}
        for shape in orientations(CANONICAL[letter], self.one_sided):
            for r0 in range(self.board.height):
                for c0 in range(self.board.width):
                    cells = [(r0 + r, c0 + c) for r, c in shape]
                    if all(cell in free for cell in cells):
                        found[self.mask(cells)] = None
        return list(found)

    # ---- symmetry ---------------------------------------------------------------

    def map_mask(self, g: dict[Coord, Coord], mask: int) -> int:
        """The image of a mask under a symmetry."""
        return self.mask(g[cell] for cell in self.cells(mask))

    def _no_fixed_tiling(self, g: dict[Coord, Coord]) -> bool:
        """True when no tiling is its own image under g (some piece has no g-fixed place).

        Each piece is used once, so a tiling g keeps must keep every piece in place.
        """
        return any(
            all(self.map_mask(g, m) != m for m in masks) for masks in self.placements.values()
        )

    def _choose_breaker(self) -> str | None:
        """The piece to pin to one placement per orbit (None without symmetry)."""
        if len(self.syms) == 1 or not self.free_action or not self.letters:
            return None
        if PREFERRED_BREAKER in self.letters:
            return PREFERRED_BREAKER
        return min(self.letters, key=lambda letter: len(self.orbits(letter)))

    def orbits(self, letter: str) -> list[tuple[int, int]]:
        """One (placement, stabiliser size) per orbit of the piece's placements."""
        seen: set[int] = set()
        out = []
        for m in self.placements[letter]:
            if m in seen:
                continue
            images = [self.map_mask(g, m) for g in self.syms]
            seen.update(images)
            out.append((m, images.count(m)))
        return out

    def canonical_key(self, solution: dict[Coord, str], group) -> tuple:
        """The least image of a solution under some symmetries: equal for symmetric copies."""
        order = sorted(self.board.cells)
        return min(tuple(solution[g[cell]] for cell in order) for g in group)

    # ---- the search -------------------------------------------------------------

    def _starts(self, all_copies: bool) -> list[tuple[int, int, int]]:
        """Root states ``(filled, used, copies)``: one per orbit of the breaking piece.

        ``copies`` is how many raw solutions each solution found from that root stands for
        (the orbit size); a count of distinct solutions divides raw by the group size.
        """
        if all_copies or self.breaker is None:
            return [(self.start, 0, 1)]
        pbit = 1 << LETTERS.index(self.breaker)
        group = len(self.syms)
        return [(self.start | m, pbit, group // stab) for m, stab in self.orbits(self.breaker)]

    def _compile(self, masks_by_letter: dict[str, list[int]]):
        """Candidate lists per bit: ``[(piece bit, mask), ...]`` and their union masks."""
        cand: list[list[tuple[int, int]]] = [[] for _ in range(self.nbits)]
        for letter, masks in masks_by_letter.items():
            pbit = 1 << LETTERS.index(letter)
            for m in masks:
                cand[(m & -m).bit_length() - 1].append((pbit, m))
        window = [0] * self.nbits
        for i, lst in enumerate(cand):
            for _, m in lst:
                window[i] |= m
        return cand, window

    def _kernel(self, masks_by_letter: dict[str, list[int]]):
        """The depth-first search functions ``(fits, enum, stats)`` over closures."""
        cand, window = self._compile(masks_by_letter)
        fits_cache: list[dict[int, tuple]] = [{} for _ in range(self.nbits)]
        full, stride = self.full, self.stride
        not_first, not_last = self.not_first, self.not_last
        dead: set[int] = set()
        shift = self.nbits
        stats = {"nodes": 0}

        def fits(filled: int) -> tuple:
            """Placements covering the first empty cell that fit (cached by neighbourhood)."""
            free = full & ~filled
            i = (free & -free).bit_length() - 1
            key = filled & window[i]
            hit = fits_cache[i].get(key)
            if hit is None:
                hit = tuple((p, m) for p, m in cand[i] if not m & key)
                fits_cache[i][key] = hit
            return hit

        def enum(filled: int, used: int, chosen: list, found: Callable) -> int:
            """Call ``found(chosen)`` for every way to finish; the number of ways."""
            if filled == full:
                found(chosen)
                return 1
            key = (used << shift) | filled
            if key in dead:
                return 0
            stats["nodes"] += 1
            if not stats["nodes"] & CHECK_EVERY:
                stats["tick"]()
            free = full & ~filled
            if free & ~(
                ((free & not_first) >> 1)
                | ((free & not_last) << 1)
                | (free >> stride)
                | (free << stride)
            ):
                dead.add(key)
                return 0
            total = 0
            for p, m in fits(filled):
                if not used & p:
                    chosen.append((p, m))
                    total += enum(filled | m, used | p, chosen, found)
                    chosen.pop()
            if not total:
                dead.add(key)
            return total

        return fits, enum, stats

    def _walk(self, starts, leaf, fits, clock, result: TilingResult) -> None:
        """Walk the top of the search tree, calling ``leaf`` below it, with progress.

        A stop (time limit, enough solutions) ends the walk as the result's status.
        """

        def walk(filled: int, used: int, chosen: list, weight: float, depth: int, copies: int):
            options = (
                [] if filled == self.full else [(p, m) for p, m in fits(filled) if not used & p]
            )
            if depth >= TOP_DEPTH or not options:
                leaf(filled, used, chosen, copies)
                clock.advance(weight)
                return
            share = weight / len(options)
            for p, m in options:
                chosen.append((p, m))
                walk(filled | m, used | p, chosen, share, depth + 1, copies)
                chosen.pop()

        try:
            for filled, used, copies in starts:
                walk(filled, used, [], 1 / len(starts), 0, copies)
        except Stop as stop:
            result.status = stop.reason

    def count(
        self,
        *,
        all_copies: bool = False,
        time_limit: float | None = None,
        progress: Progress | None = None,
        symmetry_breaking: bool = True,
    ) -> TilingResult:
        """Count the tilings: distinct ones and raw ones (symmetric copies included).

        Both counts come from one search with the breaking piece pinned to one placement
        per orbit (``all_copies`` changes nothing here; it is accepted for symmetry with
        :meth:`solve`). Without ``symmetry_breaking`` every placement is tried: the same
        counts, slower (there to check that, and to measure what it saves).
        """
        clock = Clock(time_limit, progress, "counting")
        result = TilingResult(self.board, symmetry=len(self.syms))
        starts = self._starts(not symmetry_breaking)
        result.raw = 0
        if not starts:  # the pinned piece has no place on the board: no tiling
            result.distinct = 0
            clock.done(result)
            return result
        counter = self._counter(self.placements)
        levels = max(1, len(self.letters) - starts[0][1].bit_count())
        try:  # every start at once: states reached from different starts merge
            result.raw = counter.count(starts, lambda level: clock.at(level / levels))
        except Stop as stop:
            result.status = stop.reason
        result.nodes = counter.expanded
        if self.free_action:
            result.distinct = result.raw // len(self.syms)
        elif result.complete:
            result.distinct = self._burnside(result.raw)
        clock.done(result)
        return result

    def _counter(self, masks_by_letter: dict[str, list[int]]) -> LevelCounter:
        """A breadth-first counter over some placements of the pieces."""
        from .counting import LevelCounter, numbering  # numpy, only when counting

        layout = numbering(self.nbits, self.start, self.stride, self.not_first, self.not_last)
        placements = [
            (1 << LETTERS.index(letter), m)
            for letter, masks in masks_by_letter.items()
            for m in masks
        ]
        return LevelCounter(placements, layout)

    def _burnside(self, raw: int) -> int:
        """Distinct tilings when some are symmetric: mean over g of the tilings g keeps."""
        total = raw
        for g in self.syms[1:]:
            kept = {
                letter: [m for m in masks if self.map_mask(g, m) == m]
                for letter, masks in self.placements.items()
            }
            total += self._counter(kept).count([(self.start, 0, 1)], lambda level: None)
        return total // len(self.syms)

    def solve(
        self,
        *,
        limit: int | None = 1,
        all_copies: bool = False,
        time_limit: float | None = None,
        progress: Progress | None = None,
    ) -> TilingResult:
        """Find up to ``limit`` tilings (``None``: all), distinct unless ``all_copies``."""
        clock = Clock(time_limit, progress, "searching")
        result = TilingResult(self.board, symmetry=len(self.syms))
        fits, enum, stats = self._kernel(self.placements)
        stats["tick"] = clock.check
        dedupe = not all_copies and len(self.syms) > 1
        seen: set[tuple] = set()
        group_of_start: dict[int, list] = {}

        def found(chosen):
            solution = dict(self.board.fixed)
            for p, m in chosen:
                letter = LETTERS[p.bit_length() - 1]
                for cell in self.cells(m):
                    solution[cell] = letter
            if dedupe:
                group = group_of_start[chosen[0][1]] if self.breaker else self.syms
                if len(group) > 1:
                    key = self.canonical_key(solution, group)
                    if key in seen:
                        return
                    seen.add(key)
            if result.first_seconds is None:
                result.first_seconds = clock.elapsed()
            result.solutions.append(solution)
            if limit is not None and len(result.solutions) >= limit:
                raise Stop(LIMIT)

        starts = self._starts(all_copies)
        if self.breaker and not all_copies:
            pbit = 1 << LETTERS.index(self.breaker)
            for filled, _, _ in starts:
                m = filled & ~self.start
                group_of_start[m] = [g for g in self.syms if self.map_mask(g, m) == m]
            starts = [(self.start, 0, 1)]  # walk from the root, the breaker placed first
            breaker_placements = [(pbit, m) for m in group_of_start]

            def fits_first(filled, _fits=fits):
                return breaker_placements if filled == self.start else _fits(filled)

            walk_fits = fits_first
        else:
            walk_fits = fits

        def leaf(filled, used, chosen, copies):
            enum(filled, used, chosen, found)

        if limit is None or limit > 0:
            self._walk(starts, leaf, walk_fits, clock, result)
        result.nodes = stats["nodes"]
        clock.done(result)
        return result


def tile(
    board: PentominoBoard,
    *,
    pieces: str = LETTERS,
    one_sided: bool = False,
    limit: int | None = 1,
    all_copies: bool = False,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> TilingResult:
    """Find up to ``limit`` tilings of a board (a convenience over :class:`Tiler`)."""
    return Tiler(board, pieces, one_sided).solve(
        limit=limit, all_copies=all_copies, time_limit=time_limit, progress=progress
    )


def count_tilings(
    board: PentominoBoard,
    *,
    pieces: str = LETTERS,
    one_sided: bool = False,
    all_copies: bool = False,
    time_limit: float | None = None,
    progress: Progress | None = None,
) -> TilingResult:
    """Count the tilings of a board (a convenience over :class:`Tiler`)."""
    return Tiler(board, pieces, one_sided).count(
        all_copies=all_copies, time_limit=time_limit, progress=progress
    )

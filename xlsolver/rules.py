"""Rules a person uses (../shared/RULES.md), easiest first, and hints ordered by them.

Glossary
    rule     one named way of deducing cells on a single line (``overlap``, ``edge`` …)
    tier     a rule's rank: lower is easier; a hint always uses the lowest tier available
    owners   for a cell, the clues whose block can still cover it (from the candidate
             ranges, the macro's PssSt/PssEn)
    finding  what one rule proves on one line: new black and white bits and the words
             that explain them

Each rule looks at one line as two bit masks (known black ``b``, known white ``w``; bit
i is cell i) and returns a :class:`Finding` or ``None``. Rules are written once for
rows and columns. Every finding is cut down to what the complete line solver proves,
so a hint can never be wrong even if a rule is too bold.

Public API: :func:`hint_steps` (replay a puzzle, easiest deduction first),
:func:`explain` (the easiest next step from a partial grid, for the Hint button),
:func:`name_step` (name an analyzer line step), :func:`reason` (its words, en/ja).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np

from .nonogram.analyzer import board_from_grid, discrepancy_cells, solve
from .nonogram.board import Board, Contradiction, Timeout
from .nonogram.cells import BLACK, BLACK_CONC, COLOUR, CONC, DISCREPANCY_CONC, WHITE, WHITE_CONC
from .nonogram.line import LineSolution, solve_line, spread
from .nonogram.probe import unknown_cells
from .nonogram.puzzle import LineId, Puzzle, clue_text, min_length
from .nonogram.result import LINE, PROBE, SEARCH, Step

# Rule ids in order of difficulty (RULES.md); "line" is the complete line solver.
RULE_ORDER = (
    "empty",
    "full",
    "done",
    "overlap",
    "too-small",
    "range",
    "edge",
    "cap",
    "join",
    "attach",
    "reach",
    "line",
    "contradiction",
    "guess",
)
TIER = {name: i for i, name in enumerate(RULE_ORDER)}
RULE_NAMES = {
    "empty": ("Empty line", "空行"),
    "full": ("Full line", "確定行"),
    "done": ("Line complete", "完成"),
    "overlap": ("Overlap", "重なり"),
    "too-small": ("Gap too small", "小さすぎる空白"),
    "range": ("Out of reach", "範囲外"),
    "edge": ("Edge", "端から"),
    "cap": ("Cap", "両端を閉じる"),
    "join": ("Join", "つなぐ"),
    "attach": ("Attachment", "配属"),
    "reach": ("Limited reach", "届かない"),
    "line": ("Line logic", "行の論理"),
    "contradiction": ("Contradiction", "背理法"),
    "guess": ("Guess", "仮定"),
}
LANGS = ("en", "ja")
MIN_SOLVE_SECONDS = 10.0  # the answer that guesses follow is looked for at least this long


@dataclass
class Finding:
    """What one rule proves on one line: new bits and the facts for the reason text."""

    rule: str
    black: int
    white: int
    facts: dict = field(default_factory=dict)


@dataclass
class LineView:
    """One line as a rule sees it: clues, length, known bits and the solver's verdict."""

    clues: tuple[int, ...]
    n: int
    b: int
    w: int
    solved: LineSolution

    @property
    def full(self) -> int:
        """All cells of the line."""
        return (1 << self.n) - 1

    @property
    def unknown(self) -> int:
        """Cells not known yet."""
        return self.full & ~(self.b | self.w)

    def owners(self, i: int) -> list[int]:
        """Indexes of the clues whose block can still cover cell i."""
        return [
            j
            for j, (s, c) in enumerate(zip(self.solved.starts, self.clues, strict=True))
            if spread(s, c) >> i & 1
        ]


# ---- bit helpers -------------------------------------------------------------------


def bits(mask: int) -> list[int]:
    """The set bit positions of a mask, low to high."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def span(a: int, e: int) -> int:
    """Bits a..e inclusive (empty when e < a)."""
    return ((1 << (e - a + 1)) - 1) << a if e >= a else 0


def runs_in(mask: int, n: int) -> list[tuple[int, int]]:
    """Maximal runs of set bits as (first, last)."""
    out = []
    i = 0
    while i < n:
        if mask >> i & 1:
            j = i
            while j + 1 < n and mask >> (j + 1) & 1:
                j += 1
            out.append((i, j))
            i = j + 1
        else:
            i += 1
    return out


def start_bounds(starts: int) -> tuple[int, int]:
    """Lowest and highest start in a start mask."""
    return (starts & -starts).bit_length() - 1, starts.bit_length() - 1


# ---- the rules, easiest first ------------------------------------------------------


def rule_empty(v: LineView) -> Finding | None:
    """Clue 0: every cell white."""
    if v.clues:
        return None
    return Finding("empty", 0, v.unknown)


def rule_full(v: LineView) -> Finding | None:
    """The clues and their single gaps fill the line (or its free cells) exactly."""
    if not v.clues:
        return None
    if min_length(v.clues) == v.n:
        black, pos = 0, 0
        for c in v.clues:
            black |= span(pos, pos + c - 1)
            pos += c + 1
        return Finding("full", black & v.unknown, v.full & ~black & v.unknown, {"cells": v.n})
    sol = _whites_only(v)
    if sol is None or any(s & (s - 1) for s in sol.starts):
        return None  # some block can still move
    free = (v.full & ~v.w).bit_count()
    return Finding("full", sol.black & v.unknown, sol.white & v.unknown, {"free": free})


def rule_done(v: LineView) -> Finding | None:
    """As many black cells as the clues hold: the rest is white."""
    if not v.clues or v.b.bit_count() != sum(v.clues):
        return None
    return Finding("done", 0, v.unknown, {"blocks": len(v.clues)})


def _whites_only(v: LineView) -> LineSolution | None:
    """The line solved knowing only its white cells (what overlap and reach see)."""
    return solve_line(v.clues, v.n, 0, v.w)


def rule_overlap(v: LineView) -> Finding | None:
    """A block pushed left and pushed right overlaps; the overlap is black."""
    sol = _whites_only(v)
    if sol is None:
        return None
    black, parts = 0, []
    for c, s in zip(v.clues, sol.starts, strict=True):
        lo, hi = start_bounds(s)
        cells = span(hi, lo + c - 1)
        if cells & v.unknown:
            black |= cells
            parts.append((c, lo, hi + c - 1, hi, lo + c - 1))
    return Finding("overlap", black & v.unknown, 0, {"parts": parts}) if parts else None


def rule_too_small(v: LineView) -> Finding | None:
    """A run of free cells shorter than every block is white."""
    smallest = min(v.clues) if v.clues else 0
    white, gaps = 0, []
    for a, e in runs_in(v.full & ~v.w, v.n):
        if e - a + 1 < smallest and span(a, e) & v.unknown:
            white |= span(a, e)
            gaps.append((a, e))
    return Finding("too-small", 0, white & v.unknown, {"gaps": gaps, "smallest": smallest})


def rule_range(v: LineView) -> Finding | None:
    """A cell no block's range covers is white."""
    sol = _whites_only(v)
    if sol is None or not sol.white & v.unknown:
        return None
    white = sol.white & v.unknown
    return Finding("range", 0, white, {"runs": runs_in(white, v.n)})


def _edge_side(v: LineView, a: int, e: int, step: int) -> tuple[int, int, int] | None:
    """Extend a black run from the side closed by an edge or a white cell."""
    owners = v.owners(a if step > 0 else e)
    if not owners:
        return None
    lengths = [v.clues[j] for j in owners]
    m = min(lengths)
    if step > 0:
        black = span(a, min(a + m - 1, v.n - 1))
        stop = a + m
    else:
        black = span(max(e - m + 1, 0), e)
        stop = e - m
    white = 1 << stop if len(set(lengths)) == 1 and 0 <= stop < v.n else 0
    return black, white, m


def rule_edge(v: LineView) -> Finding | None:
    """A black cell at the edge or against a white cell starts its block: extend and close."""
    black = white = 0
    facts = []
    for a, e in runs_in(v.b, v.n):
        for closed, start, step in (
            (a == 0 or v.w >> (a - 1) & 1, a, 1),
            (e == v.n - 1 or v.w >> (e + 1) & 1, e, -1),
        ):
            if not closed:
                continue
            got = _edge_side(v, a, e, step)
            if got is None:
                continue
            nb, nw, m = got
            if (nb | nw) & v.unknown:
                black |= nb
                white |= nw
                facts.append((start, m, step, start == 0 or start == v.n - 1))
    if not facts:
        return None
    return Finding("edge", black & v.unknown, white & v.unknown, {"parts": facts})


def rule_cap(v: LineView) -> Finding | None:
    """A black run as long as the largest block it can belong to gets white ends."""
    white, parts = 0, []
    for a, e in runs_in(v.b, v.n):
        owners = set(v.owners(a)) & set(v.owners(e))
        if owners and e - a + 1 == max(v.clues[j] for j in owners):
            ends = (1 << (a - 1) if a > 0 else 0) | (1 << (e + 1) if e + 1 < v.n else 0)
            if ends & v.unknown:
                white |= ends
                parts.append((a, e))
    return Finding("cap", 0, white & v.unknown, {"parts": parts}) if parts else None


def rule_join(v: LineView) -> Finding | None:
    """Two black cells that only one block can hold are joined."""
    black, parts = 0, []
    known = bits(v.b)
    for i, k in zip(known, known[1:], strict=False):
        between = span(i + 1, k - 1)
        if not between & v.unknown or between & v.w:
            continue
        oi, ok = v.owners(i), v.owners(k)
        if len(oi) == 1 and oi == ok:
            black |= between
            parts.append((i, k, v.clues[oi[0]]))
    return Finding("join", black & v.unknown, 0, {"parts": parts}) if parts else None


def _attached_starts(v: LineView) -> tuple[list[int], list[tuple[int, int]]]:
    """Clue starts narrowed by black cells that only one clue can own."""
    starts = list(v.solved.starts)
    tied = []
    for i in bits(v.b):
        owners = v.owners(i)
        if len(owners) == 1:
            j, c = owners[0], v.clues[owners[0]]
            window = span(max(i - c + 1, 0), i)
            if starts[j] & ~window:
                starts[j] &= window
                tied.append((i, c))
    return starts, tied


def rule_attach(v: LineView) -> Finding | None:
    """A black cell only one clue can own narrows that clue's range: its overlap is black."""
    starts, tied = _attached_starts(v)
    if not tied:
        return None
    black = 0
    for c, s in zip(v.clues, starts, strict=True):
        if s:
            lo, hi = start_bounds(s)
            black |= span(hi, lo + c - 1)
    if not black & v.unknown:
        return None
    return Finding("attach", black & v.unknown, 0, {"parts": tied})


def rule_reach(v: LineView) -> Finding | None:
    """Cells farther from a black cell than its only block can stretch are white."""
    starts, tied = _attached_starts(v)
    if not tied:
        return None
    cover = 0
    for c, s in zip(v.clues, starts, strict=True):
        cover |= spread(s, c)
    white = v.full & ~cover & v.unknown
    if not white:
        return None
    return Finding("reach", 0, white, {"parts": tied, "runs": runs_in(white, v.n)})


def rule_line(v: LineView) -> Finding | None:
    """The complete line solver: cells equal in every placement of the clues."""
    black, white = v.solved.black & v.unknown, v.solved.white & v.unknown
    if not black | white:
        return None
    return Finding("line", black, white)


RULES: tuple[Callable[[LineView], Finding | None], ...] = (
    rule_empty,
    rule_full,
    rule_done,
    rule_overlap,
    rule_too_small,
    rule_range,
    rule_edge,
    rule_cap,
    rule_join,
    rule_attach,
    rule_reach,
    rule_line,
)


def _sound(v: LineView, found: Finding | None) -> Finding | None:
    """A finding cut down to cells the complete solver proves (None when nothing is left)."""
    if found is None:
        return None
    found.black &= v.solved.black & v.unknown
    found.white &= v.solved.white & v.unknown
    return found if found.black | found.white else None


def view(clues: tuple[int, ...], n: int, b: int, w: int) -> LineView | None:
    """A line view, or None when the line has no placement left."""
    solved = solve_line(clues, n, b, w)
    return None if solved is None else LineView(clues, n, b, w, solved)


def easiest(clues: tuple[int, ...], n: int, b: int, w: int) -> Finding | None:
    """The finding of the easiest rule that proves anything on this line."""
    v = view(clues, n, b, w)
    if v is None:
        return None
    for rule in RULES:
        found = _sound(v, rule(v))
        if found is not None:
            return found
    return None


def explaining(clues: tuple[int, ...], n: int, b: int, w: int, nb: int, nw: int) -> Finding:
    """The easiest single rule that proves all of (nb, nw); ``line`` when none does."""
    v = view(clues, n, b, w)
    if v is None:
        return Finding("line", nb, nw)
    for rule in RULES:
        found = _sound(v, rule(v))
        if found is not None and nb & ~found.black == 0 and nw & ~found.white == 0:
            found.black, found.white = nb, nw
            return found
    return Finding("line", nb, nw)


# ---- steps -------------------------------------------------------------------------


def _masks(states) -> tuple[int, int]:
    """(black, white) bit masks of a tuple of cell states."""
    b = w = 0
    for i, s in enumerate(states):
        if s & COLOUR == BLACK:
            b |= 1 << i
        elif s & COLOUR == WHITE:
            w |= 1 << i
    return b, w


def _step_line(puzzle: Puzzle, step: Step) -> tuple[tuple[int, ...], int, int, int, int, int]:
    """A line step's clues, length, (black, white) masks before it and of the cells it set."""
    kind, _ = step.line
    b, w = _masks(step.before)
    nb = nw = 0
    for r, c, state in step.cells:
        bit = 1 << (c if kind == "row" else r)
        if state & COLOUR == BLACK:
            nb |= bit
        else:
            nw |= bit
    n = puzzle.width if kind == "row" else puzzle.height
    return puzzle.clues(step.line), n, b, w, nb, nw


def name_step(puzzle: Puzzle, step: Step) -> Step:
    """An analyzer line step renamed with the simplest rule of RULES.md that explains it."""
    if step.kind != LINE or step.line is None or step.before is None:
        return step
    clues, n, b, w, nb, nw = _step_line(puzzle, step)
    found = explaining(clues, n, b, w, nb, nw)
    step.rule = found.rule
    step.detail = reason_text(found, step.line, clues, n, "en")
    return step


def _line_step(board: Board, line: int, found: Finding) -> Step:
    """A Step for one finding on one board line."""
    cells = []
    for i in range(board.length[line]):
        if found.black >> i & 1:
            cells.append((*board.cell(line, i), BLACK_CONC))
        elif found.white >> i & 1:
            cells.append((*board.cell(line, i), WHITE_CONC))
    line_id = board.line_id(line)
    step = Step(
        kind=LINE,
        rule=found.rule,
        cells=cells,
        line=line_id,
        before=board.line_states(line),
    )
    step.detail = reason_text(found, line_id, board.clues[line], board.length[line], "en")
    return step


class Replay:
    """A board plus a cache of the easiest finding per line state."""

    def __init__(self, puzzle: Puzzle, grid: np.ndarray | None = None):
        self.puzzle = puzzle
        self.board = Board(puzzle) if grid is None else board_from_grid(puzzle, grid)
        self.cache: dict[tuple[int, int, int], Finding | None] = {}

    def finding(self, line: int) -> Finding | None:
        """The easiest finding on one line (cached by the line's known bits)."""
        bd = self.board
        key = (line, bd.black[line], bd.white[line])
        if key not in self.cache:
            self.cache[key] = easiest(
                bd.clues[line], bd.length[line], bd.black[line], bd.white[line]
            )
        return self.cache[key]

    def broken_line(self) -> int | None:
        """A line whose known cells leave no placement, else None."""
        bd = self.board
        for line in range(bd.h + bd.w):
            if solve_line(bd.clues[line], bd.length[line], bd.black[line], bd.white[line]) is None:
                return line
        return None

    def line_step(self) -> Step | None:
        """The easiest single-line step: lowest tier, then most cells, then first line."""
        best = None
        for line in range(self.board.h + self.board.w):
            found = self.finding(line)
            if found is None:
                continue
            rank = (TIER[found.rule], -(found.black | found.white).bit_count(), line)
            if best is None or rank < best[0]:
                best = (rank, line, found)
        if best is None:
            return None
        return _line_step(self.board, best[1], best[2])

    def probe_step(self, deadline: float | None = None) -> Step | None:
        """A cell whose one colour leads a line to have no placement (a contradiction)."""
        bd = self.board
        for r, c in unknown_cells(bd):
            for black in (True, False):
                trial = bd.copy()
                try:
                    trial.set_cell(r, c, black)
                    trial.propagate([r, bd.h + c], deadline=deadline)
                except Contradiction as exc:
                    state = (WHITE if black else BLACK) | CONC
                    step = Step(
                        kind=PROBE,
                        rule="contradiction",
                        cells=[(r, c, state)],
                        cell=(r, c),
                        assumed=BLACK if black else WHITE,
                    )
                    step.failed_line = bd.line_id(exc.line)  # type: ignore[attr-defined]
                    step.detail = _probe_detail(step, step.failed_line, "en")
                    return step
        return None

    def apply(self, step: Step) -> None:
        """Set a step's cells on the board."""
        for r, c, state in step.cells:
            if not self.board.cell_state(r, c):
                self.board.set_cell(r, c, state & COLOUR == BLACK)


def explain(puzzle: Puzzle, grid: np.ndarray) -> Step | None:
    """The easiest next deduction from a partial grid, named and explained; None when stuck.

    Order: the easiest RULES.md rule on any line, then line logic, then a contradiction
    probe. A grid that already breaks a line gives rule ``"discrepancy"``.
    """
    replay = Replay(puzzle, grid)
    broken = replay.broken_line()
    if broken is not None:
        cells = [(r, c, DISCREPANCY_CONC) for r, c in discrepancy_cells(replay.board, broken)]
        return Step(kind=LINE, rule="discrepancy", cells=cells, line=replay.board.line_id(broken))
    return replay.line_step() or replay.probe_step()


def hint_steps(
    puzzle: Puzzle,
    solution: np.ndarray | None = None,
    *,
    givens: np.ndarray | None = None,
    time_limit: float | None = 30.0,
) -> list[Step]:
    """Replay a puzzle from an empty grid, always taking the easiest deduction available.

    When neither a line nor a probe decides anything, a ``guess`` step sets one cell to
    its colour in ``solution`` (solved here when not given) and the replay goes on, so
    the steps always end at a complete solution. ``givens`` (a state grid of cells
    printed on the sheet) start the replay instead of the empty grid.
    """
    deadline = None if time_limit is None else time.perf_counter() + time_limit
    replay = Replay(puzzle, givens)
    steps: list[Step] = []
    while not replay.board.solved:
        step = replay.line_step()
        if step is None:
            try:
                step = replay.probe_step(deadline)
            except Timeout:
                step = None  # out of time for probing: the rest is guessed from the answer
        if step is None:
            if solution is None:
                limit = None if time_limit is None else max(time_limit, MIN_SOLVE_SECONDS)
                result = solve(puzzle, max_solutions=1, givens=givens, time_limit=limit)
                if not result.solutions:
                    raise ValueError(f"no solution to replay ({result.status})")
                solution = result.solutions[0]
            step = _guess(replay.board, solution)
        steps.append(step)
        replay.apply(step)
    return steps


def _guess(board: Board, solution: np.ndarray) -> Step:
    """Set the first promising unknown cell to its colour in the solution."""
    r, c = next(iter(unknown_cells(board)))
    black = bool(solution[r, c])
    step = Step(
        kind=SEARCH,
        rule="guess",
        cells=[(r, c, BLACK_CONC if black else WHITE_CONC)],
        cell=(r, c),
        assumed=BLACK if black else WHITE,
    )
    step.detail = reason(step, None, "en")
    return step


# ---- words ---------------------------------------------------------------------------


def line_words(line: LineId, lang: str) -> str:
    """``row 4`` / ``4行目``."""
    kind, i = line
    if lang == "ja":
        return f"{i + 1}{'行目' if kind == 'row' else '列目'}"
    return f"{'row' if kind == 'row' else 'column'} {i + 1}"


def cells_words(a: int, e: int, lang: str) -> str:
    """Cells a..e (0-based) as a person counts them."""
    if lang == "ja":
        return f"{a + 1}マス目" if a == e else f"{a + 1}〜{e + 1}マス目"
    return f"cell {a + 1}" if a == e else f"cells {a + 1}–{e + 1}"


def _runs_words(runs: list[tuple[int, int]], lang: str) -> str:
    """Several runs of cells."""
    sep = "、" if lang == "ja" else ", "
    return sep.join(cells_words(a, e, lang) for a, e in runs)


def reason_text(found: Finding, line: LineId, clues: tuple[int, ...], n: int, lang: str) -> str:
    """The plain-words reason for one finding on one line."""
    ja = lang == "ja"
    where = line_words(line, lang)
    f = found.facts
    nb, nw = found.black.bit_count(), found.white.bit_count()
    rule = found.rule
    if rule == "empty":
        return (
            f"{where}: 塗るブロックがない — 全部白" if ja else f"{where} has no blocks — all white"
        )
    if rule == "full":
        if "free" in f:
            if ja:
                return f"{where}: {clue_text(clues)} は空いた{f['free']}マスにちょうど収まる"
            return f"{where}: {clue_text(clues)} fits the {f['free']} free cells exactly"
        if ja:
            return f"{where}: {clue_text(clues)} で{n}マスちょうど埋まる"
        return f"{where}: {clue_text(clues)} fills all {n} cells"
    if rule == "done":
        return (
            f"{where}: ブロックはすべて置けた — 残りは白"
            if ja
            else f"{where}: all blocks are in place — the rest is white"
        )
    if rule == "overlap":
        parts = []
        for c, lo, hi, a, e in f["parts"]:
            k, free = e - a + 1, hi - lo + 1
            if k == free:
                parts.append(
                    f"{c}は{free}マスにちょうど入る — 全部黒"
                    if ja
                    else f"clue {c} fits exactly in its {free} free cells"
                )
            elif ja:
                parts.append(f"{c}は{free}マスの中 — 真ん中の{k}マスは黒")
            else:
                parts.append(f"clue {c} in {free} free cells — the middle {k} must be black")
        return f"{where}: " + "; ".join(parts)
    if rule == "too-small":
        gaps = _runs_words(f["gaps"], lang)
        if ja:
            return f"{where}: {gaps}の空白は{f['smallest']}より小さい — 白"
        return f"{where}: the gap at {gaps} is smaller than {f['smallest']} — white"
    if rule == "range":
        runs = _runs_words(f["runs"], lang)
        return (
            f"{where}: {runs}にはどのブロックも届かない — 白"
            if ja
            else f"{where}: no block can reach {runs} — white"
        )
    if rule == "edge":
        start, m, _step, at_edge = f["parts"][0]
        if ja:
            side = "端" if at_edge else "白マスの隣"
            return f"{where}: {side}の黒({start + 1}マス目)から{m}マス伸ばして閉じる"
        side = "the edge" if at_edge else "a white cell"
        return f"{where}: the block at cell {start + 1} touches {side}, so it runs {m} cells"
    if rule == "cap":
        a, e = f["parts"][0]
        if ja:
            return f"{where}: {cells_words(a, e, lang)}の黒は完成 — 両端は白"
        return (
            f"{where}: the black run at {cells_words(a, e, lang)} is complete — its ends are white"
        )
    if rule == "join":
        i, k, c = f["parts"][0]
        if ja:
            return f"{where}: {i + 1}マス目と{k + 1}マス目は同じ{c}のブロック — 間も黒"
        return (
            f"{where}: one block of {c} holds both cell {i + 1} and cell {k + 1}, "
            f"so the cells between are black"
        )
    if rule == "attach":
        i, c = f["parts"][0]
        if ja:
            return f"{where}: {i + 1}マス目は{c}のブロックにしか属さない — {nb}マス黒"
        return f"{where}: cell {i + 1} can only belong to the {c}, so {nb} more cells are black"
    if rule == "reach":
        i, c = f["parts"][0]
        runs = _runs_words(f["runs"], lang)
        if ja:
            return f"{where}: {i + 1}マス目の{c}は{runs}まで届かない — 白"
        return f"{where}: the {c} around cell {i + 1} cannot reach {runs} — white"
    what = (
        f"黒{nb}・白{nw}"
        if ja
        else ", ".join(p for p in (f"{nb} black" if nb else "", f"{nw} white" if nw else "") if p)
    )
    if ja:
        return f"{where}: {clue_text(clues)} のどの置き方でも同じマス — {what}"
    return f"{where}: in every placement of {clue_text(clues)} these cells agree — {what}"


def _probe_detail(step: Step, failed: LineId, lang: str) -> str:
    """Why a probed cell is the other colour."""
    r, c = step.cell
    tried_black = step.assumed == BLACK
    if lang == "ja":
        tried, other = ("黒", "白") if tried_black else ("白", "黒")
        return f"{r + 1}行{c + 1}列が{tried}だと{line_words(failed, lang)}が置けない — {other}"
    tried, other = ("black", "white") if tried_black else ("white", "black")
    return (
        f"if row {r + 1}, column {c + 1} were {tried}, "
        f"{line_words(failed, lang)} could not be filled — so it is {other}"
    )


def reason(step: Step, puzzle: Puzzle | None, lang: str = "en") -> str:
    """A step's reason in plain words, English (``en``) or Japanese (``ja``)."""
    if lang not in LANGS:
        raise ValueError(f"language {lang!r}: use one of {', '.join(LANGS)}")
    if step.kind == SEARCH and step.cell is not None:
        r, c = step.cell
        black = step.assumed == BLACK
        if lang == "ja":
            return (
                f"{r + 1}行{c + 1}列: 一本の線でも一マスの仮定でも決まらない — "
                f"答えから{'黒' if black else '白'}とする(探索)"
            )
        return (
            f"row {r + 1}, column {c + 1}: no line and no single trial decides more — "
            f"the answer has it {'black' if black else 'white'} (found by search)"
        )
    if step.kind == PROBE and step.cell is not None:
        failed = getattr(step, "failed_line", None)
        if failed is None:
            return step.detail
        return _probe_detail(step, failed, lang)
    if step.kind == LINE and step.line is not None and step.before is not None:
        if puzzle is None:
            return step.detail
        clues, n, b, w, nb, nw = _step_line(puzzle, step)
        found = _refind(clues, n, b, w, nb, nw, step.rule)
        return reason_text(found, step.line, clues, n, lang)
    return step.detail


def _refind(clues, n, b, w, nb, nw, rule: str) -> Finding:
    """The finding of a named rule on a line again (its facts feed the words)."""
    v = view(clues, n, b, w)
    fn = {f.__name__.removeprefix("rule_").replace("_", "-"): f for f in RULES}.get(rule)
    found = fn(v) if v is not None and fn is not None else None
    if found is None:
        return Finding("line", nb, nw)
    found.black, found.white = nb, nw
    return found

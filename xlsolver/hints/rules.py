"""The rule catalogue: the rules a person uses (../shared/RULES.md), easiest first.

Glossary
    rule     one named way of deducing cells on a single line (``overlap``, ``edge`` …)
    tier     a rule's rank: lower is easier; a hint always uses the lowest tier available
    owners   for a cell, the clues whose block can still cover it (from the candidate
             ranges, the macro's PssSt/PssEn)
    finding  what one rule proves on one line: new black and white bits and the facts
             its words are made from

Each rule looks at one line as two bit masks (known ``black``, known ``white``; bit
i is cell i) and returns a :class:`Finding` or ``None``. Rules are written once for
rows and columns. Every finding is cut down to what the complete line solver proves,
so a hint can never be wrong even if a rule is too bold.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from ..nonogram.cells import is_black, is_white
from ..nonogram.line import LineSolution, solve_line, spread
from ..nonogram.puzzle import Puzzle, min_length
from ..nonogram.result import RULE_CONTRADICTION, RULE_GUESS, RULE_LINE, Step
from .masks import bits, runs_in, span, start_bounds

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
    RULE_LINE,
    RULE_CONTRADICTION,
    RULE_GUESS,
)
TIER = {name: i for i, name in enumerate(RULE_ORDER)}


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
    black: int  # cells known black
    white: int  # cells known white
    solved: LineSolution

    @property
    def full(self) -> int:
        """All cells of the line."""
        return (1 << self.n) - 1

    @property
    def unknown(self) -> int:
        """Cells not known yet."""
        return self.full & ~(self.black | self.white)

    def owners(self, i: int) -> list[int]:
        """Indexes of the clues whose block can still cover cell i."""
        return [
            j
            for j, (s, c) in enumerate(zip(self.solved.starts, self.clues, strict=True))
            if spread(s, c) >> i & 1
        ]


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
    free = v.full & ~v.white
    single_gaps = (sol.black << 1) & (sol.black >> 1) & ~sol.black
    if sol.white & free & ~single_gaps:
        return None  # a free cell the blocks leave over: they do not fill the free cells
    return Finding("full", sol.black & v.unknown, sol.white & v.unknown, {"free": free.bit_count()})


def rule_done(v: LineView) -> Finding | None:
    """As many black cells as the clues hold: the rest is white."""
    if not v.clues or v.black.bit_count() != sum(v.clues):
        return None
    return Finding("done", 0, v.unknown, {"blocks": len(v.clues)})


def _whites_only(v: LineView) -> LineSolution | None:
    """The line solved knowing only its white cells (what overlap and reach see)."""
    return solve_line(v.clues, v.n, 0, v.white)


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
    for a, e in runs_in(v.full & ~v.white, v.n):
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
    for a, e in runs_in(v.black, v.n):
        for closed, start, step in (
            (a == 0 or v.white >> (a - 1) & 1, a, 1),
            (e == v.n - 1 or v.white >> (e + 1) & 1, e, -1),
        ):
            if not closed:
                continue
            got = _edge_side(v, a, e, step)
            if got is None:
                continue
            new_black, new_white, m = got
            if (new_black | new_white) & v.unknown:
                black |= new_black
                white |= new_white
                facts.append((start, m, step, start == 0 or start == v.n - 1))
    if not facts:
        return None
    return Finding("edge", black & v.unknown, white & v.unknown, {"parts": facts})


def rule_cap(v: LineView) -> Finding | None:
    """A black run as long as the largest block it can belong to gets white ends."""
    white, parts = 0, []
    for a, e in runs_in(v.black, v.n):
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
    known = bits(v.black)
    for i, k in zip(known, known[1:], strict=False):
        between = span(i + 1, k - 1)
        if not between & v.unknown or between & v.white:
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
    for i in bits(v.black):
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
    return Finding(RULE_LINE, black, white)


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


def _sound(v: LineView, finding: Finding | None) -> Finding | None:
    """A finding cut down to cells the complete solver proves (None when nothing is left)."""
    if finding is None:
        return None
    finding.black &= v.solved.black & v.unknown
    finding.white &= v.solved.white & v.unknown
    return finding if finding.black | finding.white else None


def view(clues: tuple[int, ...], n: int, black: int, white: int) -> LineView | None:
    """A line view, or None when the line has no placement left."""
    solved = solve_line(clues, n, black, white)
    return None if solved is None else LineView(clues, n, black, white, solved)


def easiest(clues: tuple[int, ...], n: int, black: int, white: int) -> Finding | None:
    """The finding of the easiest rule that proves anything on this line."""
    if (black | white) == (1 << n) - 1:
        return None  # nothing left to find (every rule's cells are cut to the unknown ones)
    v = view(clues, n, black, white)
    if v is None:
        return None
    for rule in RULES:
        finding = _sound(v, rule(v))
        if finding is not None:
            return finding
    return None


def explaining(
    clues: tuple[int, ...], n: int, black: int, white: int, new_black: int, new_white: int
) -> Finding:
    """The easiest single rule that proves all the new cells; ``line`` when none does."""
    v = view(clues, n, black, white)
    if v is None:
        return Finding(RULE_LINE, new_black, new_white)
    for rule in RULES:
        finding = _sound(v, rule(v))
        if (
            finding is not None
            and new_black & ~finding.black == 0
            and new_white & ~finding.white == 0
        ):
            finding.black, finding.white = new_black, new_white
            return finding
    return Finding(RULE_LINE, new_black, new_white)


def refind(
    clues: tuple[int, ...],
    n: int,
    black: int,
    white: int,
    new_black: int,
    new_white: int,
    rule: str,
) -> Finding:
    """The finding of a named rule on a line again (its facts feed the words)."""
    v = view(clues, n, black, white)
    fn = {f.__name__.removeprefix("rule_").replace("_", "-"): f for f in RULES}.get(rule)
    finding = fn(v) if v is not None and fn is not None else None
    if finding is None:
        return Finding(RULE_LINE, new_black, new_white)
    finding.black, finding.white = new_black, new_white
    return finding


def state_masks(states) -> tuple[int, int]:
    """(black, white) bit masks of a sequence of cell states."""
    black = white = 0
    for i, state in enumerate(states):
        if is_black(state):
            black |= 1 << i
        elif is_white(state):
            white |= 1 << i
    return black, white


def step_masks(puzzle: Puzzle, step: Step) -> tuple[tuple[int, ...], int, int, int, int, int]:
    """A line step's clues, length, (black, white) before it and (black, white) it set."""
    kind, _ = step.line
    black, white = state_masks(step.before)
    new_black = new_white = 0
    for r, c, state in step.cells:
        bit = 1 << (c if kind == "row" else r)
        if is_black(state):
            new_black |= bit
        else:
            new_white |= bit
    n = puzzle.width if kind == "row" else puzzle.height
    return puzzle.clues(step.line), n, black, white, new_black, new_white

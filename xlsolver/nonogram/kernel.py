"""Line logic compiled with numba: the propagation loop of :class:`.board.Board` as one call.

Only imported when numba is installed (the ``fast`` extra) and the work pays for the
import (see :mod:`.kernel_policy`). It finds exactly what the pure-Python loop finds:
the same cells, the same line named by a contradiction, because it is the same loop —
the lines waiting in the same first-in, first-out queue, crossing lines queued in the
same order (those of new black cells, then those of new white cells, lowest first) —
and the line solver is complete in both, so a line's result depends only on its clues
and known cells. The pure-Python line solver (:mod:`.line`) stays the reference; the
tests compare the two on random lines and whole boards.

The line solver here is the plain O(k·n) dynamic programme over cells: ``fw[j][p]``
says the first j clues fit in cells 0..p-1, ``bw[j][p]`` that clues j.. fit in p..n-1;
a start of clue j is valid when both sides fit around it, a cell can be white when
some j has ``fw[j][i]`` and ``bw[j][i+1]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

DONE, CONTRADICTION, PAUSED = 0, 1, 2  # what propagate() returns as its status
WORD = 63  # lines up to this long are solved on one machine word, as :mod:`.line` does

_ONE = np.uint64(1)
_M1 = np.uint64(0x5555555555555555)
_M2 = np.uint64(0x3333333333333333)
_M4 = np.uint64(0x0F0F0F0F0F0F0F0F)
_M8 = np.uint64(0x00FF00FF00FF00FF)
_M16 = np.uint64(0x0000FFFF0000FFFF)


@njit(cache=True, nogil=True, inline="always")
def _reverse(x, n):
    """Bit i becomes bit n-1-i (x < 2**n, n <= 63)."""
    x = ((x >> np.uint64(1)) & _M1) | ((x & _M1) << np.uint64(1))
    x = ((x >> np.uint64(2)) & _M2) | ((x & _M2) << np.uint64(2))
    x = ((x >> np.uint64(4)) & _M4) | ((x & _M4) << np.uint64(4))
    x = ((x >> np.uint64(8)) & _M8) | ((x & _M8) << np.uint64(8))
    x = ((x >> np.uint64(16)) & _M16) | ((x & _M16) << np.uint64(16))
    x = (x >> np.uint64(32)) | (x << np.uint64(32))
    return x >> np.uint64(64 - n)


@njit(cache=True, nogil=True, inline="always")
def _smear(x, length, spread):
    """``spread``: the cells a block of that length covers from any start in x; else the
    starts s whose cells s..s+length-1 all lie in x. Shifts that double each time."""
    have = 1
    while have < length:
        step = have if have + have <= length else length - have
        if spread:
            x |= x << np.uint64(step)
        else:
            x &= x >> np.uint64(step)
        have += step
    return x


@njit(cache=True, nogil=True)
def _forward(clues, k, backward, n, can_white, can_black, out):
    """:func:`.line._forward` on one word: gaps and starts interleaved in ``out``."""
    reach = ((can_white + (_ONE & can_white)) ^ can_white) | _ONE
    out[0] = reach & can_white
    after = reach
    for idx in range(k):
        c = clues[k - 1 - idx] if backward else clues[idx]
        s = reach & _smear(can_black, c, False)
        if s == 0:
            return False
        out[2 * idx + 1] = s
        seeds = s << np.uint64(c)
        after = ((can_white + (seeds & can_white)) ^ can_white) | seeds
        g = after & can_white
        out[2 * idx + 2] = g
        reach = g << _ONE
    return (after >> np.uint64(n)) & _ONE != 0


@njit(cache=True, nogil=True)
def solve_word(clues, k, n, black, white, fwd, bwd):
    """:func:`.line._solve` on one word (n <= 63): (fits, black cells, white cells)
    every placement agrees on. ``fwd`` and ``bwd`` (2k+1 words) are scratch space."""
    full = (_ONE << np.uint64(n)) - _ONE
    zero = np.uint64(0)
    if k == 0:
        return black == 0, zero, full
    can_white = full & ~black
    can_black = full & ~white
    if not _forward(clues, k, False, n, can_white, can_black, fwd):
        return False, zero, zero
    if not _forward(clues, k, True, n, _reverse(can_white, n), _reverse(can_black, n), bwd):
        return False, zero, zero
    cover = zero
    gap = zero
    for j in range(k):
        c = clues[j]
        gap |= fwd[2 * j] & _reverse(bwd[2 * (k - j)], n)
        s = fwd[2 * j + 1] & (_reverse(bwd[2 * (k - j) - 1], n) >> np.uint64(c - 1))
        if s == 0:
            return False, zero, zero
        cover |= _smear(s, c, True)
    gap |= fwd[2 * k] & _reverse(bwd[0], n)
    return True, full & ~gap, full & ~cover


@njit(cache=True, nogil=True)
def solve_cells(cells, n, clues, k, fw, bw, wpre, cover, new_black, new_white):  # noqa: C901
    """Solve one line of ``cells`` (0 open, 1 black, 2 white); False when nothing fits.

    Fills ``new_black``/``new_white`` (0/1 per cell) with what every placement agrees on
    among the open cells. ``fw``, ``bw`` ((k+1)×(n+1)), ``wpre`` and ``cover`` (n+1) are
    scratch space.
    """
    wpre[0] = 0
    for i in range(n):
        wpre[i + 1] = wpre[i] + (1 if cells[i] == 2 else 0)
    # forward: the first j clues fit in cells 0..p-1 (cells not covered can be white)
    fw[0, 0] = True
    for p in range(1, n + 1):
        fw[0, p] = fw[0, p - 1] and cells[p - 1] != 1
    for j in range(1, k + 1):
        c = clues[j - 1]
        fw[j, 0] = False
        for p in range(1, n + 1):
            ok = fw[j, p - 1] and cells[p - 1] != 1
            if not ok:
                s = p - c
                if s >= 0 and wpre[p] == wpre[s]:
                    if s == 0:
                        ok = j == 1
                    else:
                        ok = cells[s - 1] != 1 and fw[j - 1, s - 1]
            fw[j, p] = ok
    if not fw[k, n]:
        return False
    # backward: clues j.. fit in cells p..n-1
    bw[k, n] = True
    for p in range(n - 1, -1, -1):
        bw[k, p] = bw[k, p + 1] and cells[p] != 1
    for j in range(k - 1, -1, -1):
        c = clues[j]
        bw[j, n] = False
        for p in range(n - 1, -1, -1):
            ok = bw[j, p + 1] and cells[p] != 1
            if not ok:
                e = p + c
                if e <= n and wpre[e] == wpre[p]:
                    if e == n:
                        ok = j == k - 1
                    else:
                        ok = cells[e] != 1 and bw[j + 1, e + 1]
            bw[j, p] = ok
    # valid starts: a block covers cells (difference array)
    for i in range(n + 1):
        cover[i] = 0
    for j in range(k):
        c = clues[j]
        for s in range(n - c + 1):
            e = s + c
            if wpre[e] != wpre[s]:
                continue
            if s == 0:
                left = j == 0
            else:
                left = cells[s - 1] != 1 and fw[j, s - 1]
            if not left:
                continue
            if e == n:
                right = j == k - 1
            else:
                right = cells[e] != 1 and bw[j + 1, e + 1]
            if right:
                cover[s] += 1
                cover[e] -= 1
    run = 0
    for i in range(n):
        run += cover[i]
        new_black[i] = 0
        new_white[i] = 0
        if cells[i] != 0:
            continue
        can_white = False
        for j in range(k + 1):
            if fw[j, i] and bw[j, i + 1]:
                can_white = True
                break
        if not can_white:
            new_black[i] = 1
        elif run == 0:
            new_white[i] = 1
    return True


@njit(cache=True, nogil=True)
def propagate(grid, clues, first, queue, queued, head, size, max_solves):  # noqa: C901
    """Solve queued lines of ``grid`` (h×w; 0 open, 1 black, 2 white) until none is left.

    Lines 0..h-1 are rows, h.. columns; line l's clues are ``clues[first[l]:first[l+1]]``.
    ``queue`` is a ring of h+w slots holding ``size`` lines from ``head``; ``queued``
    marks them. Stops after ``max_solves`` line solves. Returns (status, line, head,
    size, solves): status DONE, CONTRADICTION (``line`` has no placement; the cells set
    before it stay set) or PAUSED (the budget ran out, the queue holds the rest).
    """
    h, w = grid.shape
    lines = h + w
    longest = max(h, w)
    kmax = 1
    for line in range(lines):
        kmax = max(kmax, first[line + 1] - first[line])
    fw = np.zeros((kmax + 1, longest + 1), dtype=np.bool_)
    bw = np.zeros((kmax + 1, longest + 1), dtype=np.bool_)
    wpre = np.zeros(longest + 1, dtype=np.int32)
    cover = np.zeros(longest + 1, dtype=np.int32)
    cells = np.zeros(longest, dtype=np.uint8)
    nb = np.zeros(longest, dtype=np.uint8)
    nw = np.zeros(longest, dtype=np.uint8)
    fwd = np.zeros(2 * kmax + 1, dtype=np.uint64)
    bwd = np.zeros(2 * kmax + 1, dtype=np.uint64)
    solves = 0
    while size > 0:
        if solves >= max_solves:
            return PAUSED, -1, head, size, solves
        line = queue[head]
        head += 1
        if head == lines:
            head = 0
        size -= 1
        queued[line] = 0
        solves += 1
        row = line < h
        n = w if row else h
        for i in range(n):
            cells[i] = grid[line, i] if row else grid[i, line - h]
        lc = clues[first[line] : first[line + 1]]
        if n <= WORD:
            black = np.uint64(0)
            white = np.uint64(0)
            for i in range(n):
                if cells[i] == 1:
                    black |= _ONE << np.uint64(i)
                elif cells[i] == 2:
                    white |= _ONE << np.uint64(i)
            fits, all_black, all_white = solve_word(lc, lc.shape[0], n, black, white, fwd, bwd)
            if not fits:
                return CONTRADICTION, line, head, size, solves
            all_black &= ~black
            all_white &= ~white
            for i in range(n):
                nb[i] = (all_black >> np.uint64(i)) & _ONE
                nw[i] = (all_white >> np.uint64(i)) & _ONE
        elif not solve_cells(cells, n, lc, lc.shape[0], fw, bw, wpre, cover, nb, nw):
            return CONTRADICTION, line, head, size, solves
        for colour in range(1, 3):
            news = nb if colour == 1 else nw
            for i in range(n):
                if news[i] == 0:
                    continue
                if row:
                    grid[line, i] = colour
                    other = h + i
                else:
                    grid[i, line - h] = colour
                    other = i
                if queued[other] == 0:
                    queued[other] = 1
                    tail = head + size
                    if tail >= lines:
                        tail -= lines
                    queue[tail] = other
                    size += 1
    return DONE, -1, head, size, solves


def warm_up() -> None:
    """Compile (or load from numba's cache) both functions on a tiny board."""
    grid = np.zeros((1, 1), dtype=np.uint8)
    clues = np.array([1, 1], dtype=np.int32)
    first = np.array([0, 1, 2], dtype=np.int32)
    queue = np.array([0, 1], dtype=np.int32)
    queued = np.ones(2, dtype=np.uint8)
    propagate(grid, clues, first, queue, queued, 0, 2, 10)

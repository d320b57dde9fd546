"""The time limit and progress reports of one pentomino search."""

from __future__ import annotations

import time
from collections.abc import Callable

Progress = Callable[[float, str], None]
REPORT_EVERY = 0.1  # seconds between progress reports
COMPLETE = "complete"  # how a search ended: ran to the end,
LIMIT = "limit"  # found as many tilings as asked,
TIMEOUT = "timeout"  # or reached the time limit


class Stop(Exception):
    """Raised inside the search to stop it (time limit or solution limit)."""

    def __init__(self, reason: str):
        super().__init__(reason)
        self.reason = reason


class Clock:
    """Time limit and progress reports for one search."""

    def __init__(self, time_limit: float | None, progress: Progress | None, what: str):
        self.t0 = time.perf_counter()
        self.deadline = None if time_limit is None else self.t0 + time_limit
        self.progress = progress
        self.what = what
        self.fraction = 0.0
        self.last = self.t0

    def elapsed(self) -> float:
        """Seconds since the search began."""
        return time.perf_counter() - self.t0

    def check(self) -> None:
        """Stop the search when past the deadline."""
        now = time.perf_counter()
        if self.deadline is not None and now > self.deadline:
            raise Stop(TIMEOUT)

    def at(self, fraction: float) -> None:
        """Progress reached ``fraction`` of the whole: report now and then, mind the deadline."""
        self.advance(max(0.0, fraction - self.fraction))

    def advance(self, weight: float) -> None:
        """A part of the tree is done: report progress now and then, mind the deadline."""
        self.fraction += weight
        now = time.perf_counter()
        if self.progress is not None and now - self.last >= REPORT_EVERY:
            self.last = now
            self.progress(min(self.fraction, 1.0), f"{self.what}: {self.fraction:.0%} of the tree")
        if self.deadline is not None and now > self.deadline:
            raise Stop(TIMEOUT)

    def done(self, result) -> None:
        """The search is over: its time into the result, and the final report."""
        result.seconds = self.elapsed()
        if self.progress is not None:
            self.progress(
                1.0 if result.complete else self.fraction, f"{self.what}: {result.status}"
            )

"""Progress of a search shown to a person: a terminal bar, or a workbook's status bar.

A solver reports ``progress(fraction, message)``. The pentomino search's ``fraction`` is
the share of the search tree done, each subtree weighted by 1 / the product of the
branching factors on its path (Knuth's estimate), so the bar moves with the work, not
with the count of first pieces tried; the nonogram analyzer's is the share of cells
known, its message the phase it is in (``searching with Kissat (5363 cells open)``),
repeated while a long phase runs so the elapsed time goes on. ``None`` keeps the bar
where it is.
"""

from __future__ import annotations

from collections.abc import Callable

BAR_STEPS = 1000  # resolution of the terminal bar
SEARCH_FORMAT = "{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}"
# The share of cells known says nothing of the time left: no estimate then.
KNOWN_FORMAT = "{desc}: {percentage:3.0f}% of cells known|{bar}| {elapsed}{postfix}"

Progress = Callable[[float | None, str], None]


class TerminalBar:
    """A tqdm bar on stderr fed by ``progress(fraction, message)``; use as a context."""

    def __init__(self, title: str, enabled: bool = True, bar_format: str = SEARCH_FORMAT):
        from tqdm import tqdm

        self.bar = tqdm(
            total=BAR_STEPS,
            desc=title,
            disable=not enabled,
            leave=False,
            bar_format=bar_format,
        )

    def __call__(self, fraction: float | None, message: str) -> None:
        """Move the bar to a fraction and show the message."""
        if fraction is not None:
            self.bar.n = round(max(0.0, min(1.0, fraction)) * BAR_STEPS)
        self.bar.set_postfix_str(message, refresh=False)
        self.bar.refresh()

    def __enter__(self) -> TerminalBar:
        return self

    def __exit__(self, *exc) -> None:
        self.bar.close()


def both(*callbacks: Progress | None) -> Progress:
    """One callback that feeds several (a terminal bar and a status bar, say)."""
    live = [cb for cb in callbacks if cb is not None]

    def report(fraction: float, message: str) -> None:
        for cb in live:
            cb(fraction, message)

    return report


class LazyBar:
    """The analyzer's bar: a :class:`TerminalBar` of the share of cells known, made on
    the first report, so a puzzle solved before it reports imports no tqdm."""

    def __init__(self, title: str):
        self.title = title
        self.bar: TerminalBar | None = None

    def __call__(self, fraction: float | None, message: str) -> None:
        """Show the report, making the bar first if need be (not for a finished board)."""
        if self.bar is None:
            if fraction is not None and fraction >= 1.0:
                return
            self.bar = TerminalBar(self.title, bar_format=KNOWN_FORMAT)
        self.bar(fraction, message)

    def close(self) -> None:
        """Take the bar off the terminal (if one was drawn)."""
        if self.bar is not None:
            self.bar.bar.close()

"""Progress of a search shown to a person: a terminal bar, or a workbook's status bar.

The solver reports ``progress(fraction, message)`` where ``fraction`` is the share of
the search tree done, each subtree weighted by 1 / the product of the branching factors
on its path (Knuth's estimate), so the bar moves with the work, not with the count of
first pieces tried.
"""

from __future__ import annotations

from collections.abc import Callable

from tqdm import tqdm

BAR_STEPS = 1000  # resolution of the terminal bar

Progress = Callable[[float, str], None]


class TerminalBar:
    """A tqdm bar on stderr fed by ``progress(fraction, message)``; use as a context."""

    def __init__(self, title: str, enabled: bool = True):
        self.bar = tqdm(
            total=BAR_STEPS,
            desc=title,
            disable=not enabled,
            leave=False,
            bar_format="{desc}: {percentage:3.0f}%|{bar}| {elapsed}<{remaining} {postfix}",
        )

    def __call__(self, fraction: float, message: str) -> None:
        """Move the bar to a fraction and show the message."""
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

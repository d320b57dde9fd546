"""Explaining a deduction to a person: one room.

rules    the catalogue: the rules of ../shared/RULES.md, easiest first, on one line
replay   the one next-step engine: the easiest next step, a whole replay, step names
words    the one wording: a message table per language (en, ja)

from xlsolver.hints import explain, hint_steps, reason
step = explain(puzzle, grid)          # the easiest next step from a partial grid
reason(step, puzzle, "ja")            # its reason in Japanese
"""

from .replay import (
    HintsStopped,
    NoSolution,
    clues_unmet,
    explain,
    hint_steps,
    name_step,
    unmet_line,
)
from .rules import RULE_ORDER
from .words import LANGS, RULE_NAMES, hint_message, line_words, reason, rule_name

__all__ = [
    "HintsStopped",
    "LANGS",
    "NoSolution",
    "RULE_NAMES",
    "RULE_ORDER",
    "clues_unmet",
    "explain",
    "hint_message",
    "hint_steps",
    "line_words",
    "name_step",
    "reason",
    "rule_name",
    "unmet_line",
]

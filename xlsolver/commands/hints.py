"""``xlsolver hints``: a step-by-step hints workbook, easiest deduction first."""

from __future__ import annotations

import argparse
import sys
from collections import Counter

from ..exits import EXIT_OK, EXIT_UNSOLVED
from ..limits import DEFAULT_TIME_LIMIT
from ._teaching import BAD_INPUT, fail
from .options import Once, add_range, add_time_limit, count, sheet_or_range

HELP = "write the order in which a puzzle's cells can be deduced, with reasons, to a workbook"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The hints command's options."""
    p.add_argument("workbook", help="a workbook with a puzzle sheet, or a puzzle file")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="the hints workbook to write (.xlsx; .ods and .xls through LibreOffice)",
    )
    p.add_argument("--lang", choices=("en", "ja"), default="en", help="language of the reasons")
    p.add_argument("--stages", type=count, default=0, metavar="N", help="also N stage sheets")
    p.add_argument(
        "--sheet",
        metavar="NAME",
        action=Once,
        help="the puzzle's sheet (default: Puzzle, first); of a puzzle file of several "
        "puzzles, the title or number of one",
    )
    add_range(p)
    add_time_limit(p, DEFAULT_TIME_LIMIT)


def run(args: argparse.Namespace) -> int:
    """Replay the puzzle and write the steps (those found before a stop at the time limit,
    with a note saying so, exit 1)."""
    from ..hints import HintsStopped, NoSolution
    from ..teaching import hints_workbook
    from ..teaching.verdict import steps_text
    from ..workbook.files import is_workbook

    try:
        sheet = sheet_or_range(args, is_workbook(args.workbook))
    except ValueError as exc:
        return fail(exc, args.workbook)
    try:
        steps = hints_workbook(
            args.workbook,
            args.output,
            sheet=sheet,
            lang=args.lang,
            stages=args.stages,
            time_limit=args.time_limit,
        )
    except (HintsStopped, NoSolution) as exc:
        print(f"xlsolver: {args.workbook}: {exc}", file=sys.stderr)
        if isinstance(exc, HintsStopped) and exc.written:
            done = steps_text(len(exc.steps))
            print(f"{exc.written}: {done} before the stop ({_rules(exc.steps)})")
        return EXIT_UNSOLVED
    except BAD_INPUT as exc:
        return fail(exc, args.workbook)
    rules = _rules(steps) or "the grid is already complete"
    print(f"{args.output}: {steps_text(len(steps))} ({rules})")
    return EXIT_OK


def _rules(steps) -> str:
    """``line 12, overlap 3``: how many steps each rule took, most first."""
    return ", ".join(f"{rule} {n}" for rule, n in Counter(s.rule for s in steps).most_common())

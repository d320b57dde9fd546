"""``xlsolver check``: verdict and difficulty of a puzzle sheet, nothing painted."""

from __future__ import annotations

import argparse

from ..limits import DEFAULT_TIME_LIMIT
from ._teaching import BAD_INPUT, fail, report
from .options import add_time_limit

HELP = "tell whether a puzzle sheet has one solution and how hard it is (writes nothing)"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The check command's options."""
    p.add_argument("workbook", help="a workbook with a puzzle sheet")
    p.add_argument("--sheet", metavar="NAME", help="the puzzle's sheet (default: Puzzle, first)")
    add_time_limit(p, DEFAULT_TIME_LIMIT)
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON line")


def run(args: argparse.Namespace) -> int:
    """Read, judge, print."""
    from ..teaching import check_workbook

    try:
        verdict = check_workbook(args.workbook, sheet=args.sheet, time_limit=args.time_limit)
    except BAD_INPUT as exc:
        return fail(exc, args.workbook)
    return report(args.workbook, verdict, args.json)

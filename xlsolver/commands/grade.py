"""``xlsolver grade``: returned worksheets against the key, marked copies, a class summary."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK
from ..limits import DEFAULT_TIME_LIMIT
from ._teaching import BAD_INPUT, fail
from .options import Once, add_time_limit

HELP = "grade students' workbooks against the key: wrong cells marked, a class summary"


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The grade command's options."""
    p.add_argument(
        "answers",
        nargs="+",
        help="the students' workbooks; a folder stands for those in it (wildcards expanded)",
    )
    p.add_argument(
        "--key", required=True, help="the worksheet made by make (or any puzzle, a file too)"
    )
    p.add_argument(
        "--key-sheet",
        action=Once,
        metavar="NAME",
        help="the key's puzzle sheet; of a puzzle file of several, the title or number of one",
    )
    p.add_argument("--out-dir", default="graded", help="marked copies go here (graded/)")
    add_time_limit(p, DEFAULT_TIME_LIMIT)  # for a key that must be solved (a puzzle file)
    p.add_argument("-o", "--summary", help="the class summary workbook (OUT_DIR/summary.xlsx)")
    p.add_argument(
        "--lang", choices=("en", "ja"), default="en", help="language of the summary and notes"
    )


def run(args: argparse.Namespace) -> int:
    """Grade every file; exit 2 when any file could not be read."""
    from ..inputs import expand
    from ..teaching import grade_files
    from ..workbook.files import is_workbook

    summary = args.summary or str(Path(args.out_dir) / "summary.xlsx")
    found = expand(args.answers, is_workbook, leave_out=[args.out_dir, summary, args.key])
    found.report()
    if not found.paths:
        return EXIT_BAD_INPUT
    try:
        grades = grade_files(
            found.paths,
            args.key,
            out_dir=args.out_dir,
            summary=summary,
            lang=args.lang,
            key_sheet=args.key_sheet,
            time_limit=args.time_limit,
        )
    except BAD_INPUT as exc:
        return fail(exc)
    for g in grades:
        if g.error:
            print(f"{g.file}: not graded — {g.error}")
        else:
            note = f" ({g.note})" if g.note else ""
            print(f"{g.file}: {g.name}: {g.wrong} wrong of {g.cells}, score {g.score}{note}")
        if g.left_out:
            from ..sheets.xlsx_parts import left_out_note

            lost = left_out_note(g.file, g.left_out, "the marked copy", "the student's file")
            print(lost, file=sys.stderr)
    print(f"summary: {summary}")
    return EXIT_BAD_INPUT if found.errors or any(g.error for g in grades) else EXIT_OK

"""What the teaching commands share: printing a verdict, errors as one line."""

from __future__ import annotations

import json
import sys

from ..exits import EXIT_BAD_INPUT, EXIT_OK, EXIT_UNSOLVED
from ..nonogram.puzzle import PuzzleError
from ..nonogram.result import CONTRADICTION, INVALID, TIMEOUT
from ..sheets.errors import WorkbookError

BAD_INPUT = (WorkbookError, PuzzleError, OSError, ValueError)


def fail(exc: BaseException | str, source: str | None = None) -> int:
    """Print one line naming what is wrong (starting with ``source``, the file read, when
    the message does not name a file yet); exit status 2."""
    message = str(exc)
    if source:
        from ..workbook.batch import with_file

        message = with_file(str(source), message)
    print(f"xlsolver: {message}", file=sys.stderr)
    return EXIT_BAD_INPUT


def report(source: str, verdict, as_json: bool, heading: str = "", extra=None) -> int:
    """Print a verdict (text under ``heading``, else the source; or one JSON line with
    ``extra`` fields after the source); the exit status it deserves."""
    for note in getattr(verdict, "notes", ()):  # how the search went (a solver killed)
        print(f"xlsolver: {source}: {note}", file=sys.stderr)
    if as_json:
        record = {"source": source, **(extra or {}), **verdict.to_json()}
        print(json.dumps(record, ensure_ascii=False))
    else:
        print(f"{heading or source}:")
        for line in verdict.lines():
            print(f"  {line}")
    if verdict.status == INVALID:
        return EXIT_BAD_INPUT
    if verdict.status in (CONTRADICTION, TIMEOUT) or getattr(verdict, "stopped", False):
        return EXIT_UNSOLVED  # no solution, or the time limit ran out (givens not found too)
    return EXIT_OK

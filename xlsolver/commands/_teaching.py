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


def report(source: str, verdict, as_json: bool) -> int:
    """Print a verdict (text or one JSON line); the exit status it deserves."""
    if as_json:
        print(json.dumps({"source": source, **verdict.to_json()}, ensure_ascii=False))
    else:
        print(f"{source}:")
        for line in verdict.lines():
            print(f"  {line}")
    if verdict.status == INVALID:
        return EXIT_BAD_INPUT
    if verdict.status in (CONTRADICTION, TIMEOUT):
        return EXIT_UNSOLVED
    return EXIT_OK

"""Options several commands share, parsed and checked once."""

from __future__ import annotations

import argparse
import math


class Once(argparse.Action):
    """An option that picks one thing (``--sheet``, ``--range``): given twice it is an
    error, not the last one silently (``--sheet Puzzle --sheet Second`` solved Second)."""

    def __call__(self, parser, namespace, values, option_string=None) -> None:
        seen = getattr(namespace, f"_{self.dest}_given", None)
        if seen is not None:
            parser.error(
                f"{option_string} given twice ({seen!r} and {values!r}): it picks one; run "
                f"the command once for each"
            )
        setattr(namespace, f"_{self.dest}_given", values)
        setattr(namespace, self.dest, values)


def seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a positive number of seconds")
    return value


def _whole(text: str) -> int:
    """A whole number (argparse type helper); ArgumentTypeError naming the text if not."""
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None


def solutions(text: str) -> int:
    """How many solutions to look for: a whole number, 1 or more (argparse type)."""
    value = _whole(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text!r}: give 1 or more (1: the first, as --first)")
    return value


def count(text: str) -> int:
    """A whole number, 0 or more (argparse type)."""
    value = _whole(text)
    if value < 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give 0 or more")
    return value


def add_time_limit(
    parser: argparse.ArgumentParser, default: float | None = None, *, each: str = ""
) -> None:
    """``--time-limit SECONDS``: the user's stop, the only clock (``each``: a limit per
    puzzle of a batch, so said)."""
    tail = f" (default {default:g})" if default is not None else " (default: no limit)"
    what = f"stop each {each} after this many seconds" if each else "stop after this many seconds"
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=default,
        metavar="SECONDS",
        help=f"{what} and report what is known" + tail,
    )


def add_range(parser: argparse.ArgumentParser) -> None:
    """``--range SHEET!A1:Z30``: one puzzle of a sheet that holds several."""
    parser.add_argument(
        "--range",
        action=Once,
        metavar="SHEET!A1:Z30",
        help="only the puzzle in this range of a sheet (its grid, or the grid with its clues)",
    )


def sheet_or_range(args: argparse.Namespace, workbook: bool) -> str | None:
    """The sheet (or ``--range``) a teaching command works on; ValueError when both are
    given, or a range for a puzzle file."""
    if args.range is None:
        return args.sheet
    if args.sheet is not None:
        raise ValueError("give --sheet or --range, not both")
    if not workbook:
        raise ValueError(f"--range {args.range}: only a workbook has ranges")
    return args.range

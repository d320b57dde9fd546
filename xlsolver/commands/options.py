"""Options several commands share, parsed and checked once."""

from __future__ import annotations

import argparse
import math


def seconds(text: str) -> float:
    """A positive, finite number of seconds (argparse type)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number of seconds") from None
    if not math.isfinite(value) or value <= 0:
        raise argparse.ArgumentTypeError(f"{text!r}: give a positive number of seconds")
    return value


def add_time_limit(parser: argparse.ArgumentParser, default: float | None = None) -> None:
    """``--time-limit SECONDS``: the user's stop, the only clock."""
    tail = f" (default {default:g})" if default is not None else " (default: no limit)"
    parser.add_argument(
        "--time-limit",
        type=seconds,
        default=default,
        metavar="SECONDS",
        help="stop after this many seconds and report what is known" + tail,
    )

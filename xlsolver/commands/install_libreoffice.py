"""``xlsolver install-libreoffice``: put the New grid / Solve / Hint / Clear macros into Calc."""

from __future__ import annotations

import argparse
from pathlib import Path

from ..exits import EXIT_BAD_INPUT, EXIT_OK

HELP = "install the xlsolver macros (New grid, Solve, Hint, Clear) for LibreOffice Calc"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Options of the command."""
    parser.add_argument(
        "--profile",
        type=Path,
        help="LibreOffice user profile folder (default: the usual one, e.g. "
        "~/.config/libreoffice/4); the macros go to <profile>/user/Scripts/python/",
    )
    parser.add_argument(
        "--print", action="store_true", help="print the macro file instead of writing it"
    )


def run(args: argparse.Namespace) -> int:
    """Write the macro file and say where it went and how to run it."""
    from ..libreoffice.installer import install, macro_source

    if args.print:
        print(macro_source(), end="")
        return EXIT_OK
    try:
        target = install(args.profile)
    except OSError as exc:
        print(f"xlsolver: cannot write the macro file: {exc}")
        return EXIT_BAD_INPUT
    print(f"wrote {target}")
    print("In Calc: Tools > Macros > Run Macro > My Macros > xlsolver > solve (or hint, clear,")
    print("new_grid). Restart LibreOffice if it was running.")
    return EXIT_OK

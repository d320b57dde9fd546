"""The ``xlsolver`` command: one sub-command per module in :mod:`xlsolver.commands`.

Each command module defines ``HELP`` (one line), ``add_arguments(parser)`` and
``run(args) -> int``. Exit status (CONVENTIONS §5): 0 every puzzle read and decided,
1 a puzzle had no solution or timed out, 2 unreadable or invalid input.
"""

from __future__ import annotations

import argparse
import importlib
import os
import signal
import sys

from .exits import EXIT_BROKEN_PIPE
from .processes import Stopped, exit_status, stop_received, stopping
from .writes import WRITTEN

COMMANDS = {
    "solve": "xlsolver.commands.solve",
    "convert": "xlsolver.commands.convert",
    "new": "xlsolver.commands.new",
    "make": "xlsolver.commands.make",
    "check": "xlsolver.commands.check",
    "hints": "xlsolver.commands.hints",
    "grade": "xlsolver.commands.grade",
    "pentomino": "xlsolver.commands.pentomino",
    "install-libreoffice": "xlsolver.commands.install_libreoffice",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The argument parser with every command that is installed (or only the one named).

    Naming the command imports only its module, so ``xlsolver solve x.non`` does not
    load the spreadsheet libraries the other commands import.
    """
    parser = argparse.ArgumentParser(
        prog="xlsolver", description="Solve nonogram and pentomino puzzles in spreadsheets."
    )
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name, module_name in COMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as exc:
            if exc.name == module_name:
                continue
            raise
        p = sub.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(p)
        p.set_defaults(_run=module.run)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Entry point of the console script."""
    argv = sys.argv[1:] if argv is None else list(argv)
    try:  # a Ctrl-C while the command's modules load is a stop too, not a traceback
        parser = build_parser(argv[0] if argv and argv[0] in COMMANDS else None)
        args = parser.parse_args(argv)
    except KeyboardInterrupt:
        return stopped(signal.SIGINT)
    try:
        with stopping():
            code = int(args._run(args) or 0)
    except Stopped as stop:
        return stopped(stop.signum)
    except KeyboardInterrupt:
        return stopped(signal.SIGINT)
    except BrokenPipeError:
        return broken_pipe()
    signum = stop_received()  # a stop that came out as another error on the way
    return stopped(signum) if signum is not None else code


def broken_pipe() -> int:
    """The reader of the output went away (``xlsolver solve … | head``): stop quietly.

    What is left in the output buffer goes nowhere, so the interpreter's last flush at
    exit does not fail as well; workers and children were stopped on the way out.
    """
    devnull = os.open(os.devnull, os.O_WRONLY)
    os.dup2(devnull, sys.stdout.fileno())
    os.close(devnull)
    return EXIT_BROKEN_PIPE


def stopped(signum: int) -> int:
    """After SIGINT/SIGTERM: stop LibreOffice, name the outputs completed; 130 or 143."""
    documents = sys.modules.get("xlsolver.libreoffice.documents")
    if documents is not None:
        documents.shutdown()
    name = "interrupted" if signum == signal.SIGINT else "terminated"
    done = ", ".join(WRITTEN) if WRITTEN else "none"
    print(f"xlsolver: {name}; outputs completed: {done}", file=sys.stderr)
    return exit_status(signum)


if __name__ == "__main__":
    sys.exit(main())

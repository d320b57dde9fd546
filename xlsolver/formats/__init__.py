"""Puzzle files: one module per format behind one registry (as tablib's ``formats/``).

Glossary
    format  a module with ``NAME``, ``EXTENSIONS``, ``sniff(text)``, ``loads(text,
            source)`` and optionally ``dumps(puzzle)`` (``COLOUR = True`` when it writes
            colour puzzles too)
    entry   one item of a file: a Puzzle or a ColourPuzzle (not yet validated), or a
            FormatError in its place when that part of the file cannot be read
    batch   a file that holds many puzzles (TAAI, GRID text, ``.nonpack``, a JSON list,
            a webpbn ``<puzzleset>``, ``.nin``); ``dumps_all(puzzles)`` writes one

Every Puzzle read carries ``meta["source"]`` (the path) and ``meta["index"]`` (its
position in the file, from 1); a FormatError entry carries ``index`` too.
"""

from __future__ import annotations

import importlib
import re
import sys
from pathlib import Path
from types import ModuleType

from ..limits import MAX_FILE_SIDE, MAX_PUZZLE_FILE
from ..nonogram.colour_puzzle import ColourPuzzle
from ..nonogram.puzzle import Puzzle, PuzzleError
from .base import STRING_SOURCE, FormatError
from .taai import read_taai_solutions

__all__ = [
    "FORMATS",
    "FormatError",
    "detect_format",
    "dumps",
    "dumps_all",
    "shown_name",
    "validated",
    "format_module",
    "loads",
    "read_entries",
    "read_puzzles",
    "read_taai_solutions",
    "write_puzzle",
    "write_puzzles",
]

MANY = (
    "write them to a .nonpack, .json, .xml or .nin file, GRID text (--format grid), or a workbook"
)
STDIN = "-"  # the name that reads a puzzle from standard input
XML_ENCODING = re.compile(rb"""<\?xml\s[^>]*?encoding\s*=\s*["']([A-Za-z][\w.:-]*)["']""")
# Sniffing order matters: the most specific signatures first.
FORMATS = {
    "non": "xlsolver.formats.non",
    "nin": "xlsolver.formats.nin",
    "mk": "xlsolver.formats.mk",
    "cwd": "xlsolver.formats.cwd",
    "taai": "xlsolver.formats.taai",
    "xml": "xlsolver.formats.webpbn_xml",
    "toml": "xlsolver.formats.nonogrid_toml",
    "grid": "xlsolver.formats.grid",
    "g": "xlsolver.formats.olsak_g",
    "pattern": "xlsolver.formats.pattern",
    "json": "xlsolver.formats.jsonfile",
}


def format_module(fmt: str) -> ModuleType:
    """The module of a format name (imported on first use)."""
    try:
        return importlib.import_module(FORMATS[fmt])
    except KeyError:
        known = ", ".join(FORMATS)
        raise FormatError(f'unknown format "{fmt}" (known: {known})') from None


def _by_extension(path: str | Path) -> str | None:
    """The format that claims a file's extension, if one does."""
    suffix = Path(path).suffix.lower()
    for name in FORMATS:
        if suffix in format_module(name).EXTENSIONS:
            return name
    return None


def detect_format(path: str | Path, text: str | None = None) -> str:
    """A file's format: by its extension, else by sniffing its text."""
    name = _by_extension(path)
    if name:
        return name
    if text is not None:
        for name in FORMATS:
            if format_module(name).sniff(text):
                return name
        from .taai import SOLUTIONS_FILE, is_solutions

        if is_solutions(text):
            raise FormatError(SOLUTIONS_FILE, path)
        _refuse_other_game(text, path)
        if str(path) == STDIN:  # piped in, no name to tell the format: a typo in it is
            furthest = _furthest_error(text, path)  # named as in a file
            if furthest is not None:
                raise furthest
    raise _unknown_format(path)


# What the start of a format's text looks like even with a typo further on: only the
# readers whose look fits are asked where a piped text goes wrong.
LOOKS = {
    "nin": re.compile(r"\A\s*\d+[ \t]+\d+[ \t]*\r?\n"),
    "cwd": re.compile(r"\A\s*\d+[ \t]*\r?\n[ \t]*\d+[ \t]*\r?\n"),
    "non": re.compile(r"^[ \t]*(width|height)[ \t]+\d+[ \t]*\r?$", re.IGNORECASE | re.MULTILINE),
    "taai": re.compile(r"\A\s*\$\d"),
    "grid": re.compile(r"\A\s*(#.*\n\s*)*GRID\b"),
    "g": re.compile(r"^:", re.MULTILINE),  # ": rows", ":radky:", or ":" alone
    "pattern": re.compile(r"\A\s*\d+(x\d+)?:\S*/"),
    "json": re.compile(r'\A\s*[\[{][\s\S]*"(rows|columns)"'),
    "xml": re.compile(r"\A\s*(<\?xml[^>]*>\s*)?<puzzle"),
}


def _furthest_error(text: str, path: str | Path) -> FormatError | None:
    """For text no format recognises: the error of the reader, among those whose start
    fits the text (LOOKS), that got furthest into it, which names the line at fault as
    reading it by its extension would (``stdin:2: clue "x" is not a number``); None
    when no such reader names a line."""
    best: FormatError | None = None
    for name in FORMATS:
        if name not in LOOKS or not LOOKS[name].search(text):
            continue  # a letter, a CSV, a web page: no reader's line error fits them
        try:
            entries = format_module(name).loads(text, shown_name(path))
        except FormatError as exc:
            entries = [exc]
        except Exception:  # noqa: BLE001 - a reader's own trouble with text not its own
            continue
        for entry in entries:
            if isinstance(entry, FormatError) and entry.line:
                if best is None or entry.line > (best.line or 0):
                    best = entry
    return best


def _refuse_other_game(text: str, path: str | Path) -> None:
    """FormatError naming the game of a Tatham save file that is not Pattern's."""
    from .pattern import not_pattern, other_game

    game = other_game(text)
    if game is not None:
        raise FormatError(not_pattern(game), path)


def shown_name(path: str | Path) -> str:
    """The name an error gives a file: ``stdin`` for ``-``."""
    return "stdin" if str(path) == STDIN else str(path)


def _unknown_format(path: str | Path) -> FormatError:
    """The error for a file no format recognises."""
    suffix = "" if str(path) == STDIN else " " + (Path(path).suffix or "(no extension)")
    return FormatError(
        f"unknown puzzle format{suffix}: not .non, .nin, .mk, .g, .cwd, TAAI, webpbn XML, "
        "TOML, GRID, JSON or a Tatham Pattern game ID or save file",
        shown_name(path),
    )


def _read_text(path: str | Path) -> str:
    """A file's text (UTF-8, a BOM allowed; UTF-16 with its BOM; the encoding an XML
    declaration names), or a FormatError saying why not."""
    encoding = "UTF-8"
    shown = shown_name(path)
    try:
        if str(path) == STDIN:  # `xlsolver solve -`: the puzzle piped in
            data = sys.stdin.buffer.read(MAX_PUZZLE_FILE + 1)
        else:
            with Path(path).open("rb") as fh:
                data = fh.read(MAX_PUZZLE_FILE + 1)  # a stream (/dev/zero) is capped too
        if len(data) > MAX_PUZZLE_FILE:
            limit = MAX_PUZZLE_FILE // 2**20
            raise FormatError(f"over {limit} MB: puzzle files are read up to {limit} MB", shown)
        if data[:2] in (b"\xff\xfe", b"\xfe\xff"):  # UTF-16 with its BOM (Windows Notepad)
            return data.decode("utf-16")
        declared = XML_ENCODING.match(data)  # <?xml … encoding="ISO-8859-1"?>
        named = declared.group(1).decode("ascii") if declared else "UTF-8"
        if named.lower().replace("_", "-") not in ("utf-8", "utf8"):
            encoding = named
            return _decode(data, encoding, shown)
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - data.rfind(b"\n", 0, exc.start)  # from 1 in its line
        where = f"line {line}, byte {column} of the line"
        if encoding != "UTF-8":
            reason = f"not {encoding} text ({where}), the encoding its XML declaration names"
            raise FormatError(reason, shown) from exc
        raise FormatError(f"not UTF-8 text ({where}); save it as UTF-8", shown) from exc
    except FileNotFoundError as exc:
        from ..inputs import missing

        raise FormatError(f"cannot read: {missing(path)}", shown) from exc
    except OSError as exc:
        raise FormatError(f"cannot read: {exc.strerror or exc}", shown) from exc


def _decode(data: bytes, encoding: str, path: str | Path) -> str:
    """Bytes in the encoding an XML declaration names; FormatError when Python knows no
    such text encoding (UnicodeDecodeError, naming the byte, when the bytes are not in it)."""
    try:
        return data.decode(encoding)
    except UnicodeDecodeError:
        raise
    except (LookupError, ValueError):  # no such codec, or no text codec ("zlib", "idna")
        reason = f'the XML declaration names the encoding "{encoding}", which is not known'
        raise FormatError(f"{reason}; save it as UTF-8", path, 1) from None


def loads(text: str, fmt: str, source: str = STRING_SOURCE) -> list[Puzzle | FormatError]:
    """Every entry of a text in a given format, each numbered from 1."""
    module = format_module(fmt)
    try:
        entries = module.loads(text, source) if text.strip() else []
    except FormatError as exc:
        entries = [exc]
    if not entries:
        entries = [FormatError("no puzzle found", source, 1)]
    for index, entry in enumerate(entries, 1):
        if not isinstance(entry, FormatError) and max(entry.width, entry.height) > MAX_FILE_SIDE:
            reason = f"size {entry.width}x{entry.height}: each side must be 1…{MAX_FILE_SIDE}"
            entries[index - 1] = entry = FormatError(reason, source, entry.meta.get("line"))
        if isinstance(entry, FormatError):
            entry.index = index
        else:
            entry.meta["source"] = source
            entry.meta["index"] = index
    return entries


def read_entries(path: str | Path) -> list[Puzzle | FormatError]:
    """Every puzzle of a file in order, a FormatError entry where one cannot be read.

    Raises FormatError when the file is unreadable or its format unknown.
    """
    if str(path) != STDIN and not Path(path).exists():
        from .pattern import GAME_ID
        from .pattern import sniff as game_id

        looks = GAME_ID.fullmatch(str(path)) is not None and "/" in str(path)
        if game_id(str(path)) or looks:  # a Pattern game ID typed as the argument, as
            return loads(str(path), "pattern", source="game ID")  # copied (a typo named)
    try:
        text = _read_text(path)
    except FormatError as exc:
        if isinstance(exc.__cause__, UnicodeDecodeError) and _by_extension(path) is None:
            unknown = _unknown_format(path)
            raise FormatError(f"{unknown.reason}; the file is {exc.reason}", exc.path) from exc
        raise
    return loads(text, detect_format(path, text), source=shown_name(path))


def read_puzzles(path: str | Path) -> list[Puzzle | ColourPuzzle]:
    """Every puzzle of a file, validated; FormatError naming the first fault and where
    the others are (``…; 3 more puzzles of the file are faulty: lines 49, 63, 74``)."""
    entries = [validated(entry, path) for entry in read_entries(path)]
    faults = [e for e in entries if isinstance(e, FormatError)]
    if faults:
        first = faults[0]
        if len(faults) > 1:
            lines = [str(f.line) for f in faults[1:] if f.line is not None]
            where = f": line{'s' if len(lines) > 1 else ''} {', '.join(lines)}" if lines else ""
            more = len(faults) - 1
            puzzles = "puzzle" if more == 1 else "puzzles"
            error = FormatError(
                f"{first.reason}; {more} more {puzzles} of the file "
                f"{'is' if more == 1 else 'are'} faulty{where}",
                first.path,
                first.line,
            )
            error.__cause__, error.index = first.__cause__, first.index
            raise error
        raise first
    return entries  # type: ignore[return-value]


def validated(
    entry: Puzzle | ColourPuzzle | FormatError, path: str | Path
) -> Puzzle | ColourPuzzle | FormatError:
    """An entry of :func:`read_entries` validated: the puzzle, or a FormatError naming
    the file, the puzzle's line and its fault (clues that cannot fit, totals that differ)."""
    if isinstance(entry, FormatError):
        return entry
    try:
        entry.validate()
    except PuzzleError as exc:
        name = f"{entry.title}: " if entry.title else ""
        error = FormatError(f"{name}{exc}", shown_name(path), _line_of(entry, exc))
        error.__cause__ = exc
        return error
    return entry


def error_line(entry: Puzzle | ColourPuzzle) -> int | None:
    """The file line of a puzzle's clue error (its first line when the reader kept no
    line per clue line, or the clues are right)."""
    try:
        entry.validate()
    except PuzzleError as exc:
        return _line_of(entry, exc)
    return entry.meta.get("line")


def _line_of(entry: Puzzle | ColourPuzzle, exc: PuzzleError) -> int | None:
    """The file line of the clue line a PuzzleError names, where the reader kept it
    (``.non``, ``.nin``), else the puzzle's first line."""
    if exc.line is not None:
        kind, index = exc.line
        lines = entry.meta.get("row_lines" if kind == "row" else "col_lines") or []
        if index < len(lines):
            return lines[index]
    return entry.meta.get("line")


def dumps(puzzle: Puzzle | ColourPuzzle, fmt: str) -> str:
    """The text of a puzzle in a format that can be written (colour: ``COLOUR = True``)."""
    return _writer(fmt, [puzzle]).dumps(puzzle)


def dumps_all(puzzles: list[Puzzle | ColourPuzzle], fmt: str) -> str:
    """The text of several puzzles in one file of a format that holds many
    (``dumps_all``); one puzzle is written as :func:`dumps` writes it."""
    module = _writer(fmt, puzzles)
    if len(puzzles) == 1:
        return module.dumps(puzzles[0])
    if not hasattr(module, "dumps_all"):
        raise FormatError(f'{len(puzzles)} puzzles, but format "{fmt}" holds one; {MANY}')
    return module.dumps_all(puzzles)


def _writer(fmt: str, puzzles: list[Puzzle | ColourPuzzle]) -> ModuleType:
    """The module that writes a format, when it can write these puzzles."""
    module = format_module(fmt)
    if not hasattr(module, "dumps"):
        writable = ", ".join(n for n in FORMATS if hasattr(format_module(n), "dumps"))
        raise FormatError(f'format "{fmt}" cannot be written (writable: {writable})')
    colour = any(isinstance(p, ColourPuzzle) for p in puzzles)
    if colour and not getattr(module, "COLOUR", False):
        colour = ", ".join(n for n in FORMATS if getattr(format_module(n), "COLOUR", False))
        raise FormatError(f'format "{fmt}" cannot hold colour puzzles (use {colour})')
    return module


def write_puzzle(
    puzzle: Puzzle | ColourPuzzle,
    path: str | Path,
    fmt: str | None = None,
    inputs=(),
    *,
    in_place: bool = False,
) -> None:
    """Write a puzzle (format from the extension unless given) through :mod:`..writes`.

    Refuses (WriteError) to write over any of ``inputs`` unless ``in_place``.
    """
    write_puzzles([puzzle], path, fmt, inputs, in_place=in_place)


def left_out(puzzles: list[Puzzle | ColourPuzzle], path: str | Path, fmt: str | None = None):
    """What the file written in ``fmt`` (or by ``path``'s extension) cannot hold of the
    puzzles, one line each (a .non drops a background that is not white)."""
    fmt = fmt or _by_extension(Path(path))
    module = format_module(fmt) if fmt else None
    lost = getattr(module, "left_out", None)
    lines = set() if lost is None else {line for p in puzzles for line in lost(p)}
    if module is None:
        return sorted(lines)
    kind = _kind(path, fmt)
    if fmt not in KEEPS_CREDITS:
        credits = sorted({k for p in puzzles for k in CREDITS if p.meta.get(k)}, key=CREDITS.index)
        if credits:  # a CC-BY puzzle's credit must not go without a word
            lines.add(
                f"the credits ({', '.join(credits)}): {kind} has no place for them "
                f"(.non, .nonpack, JSON, webpbn XML and workbooks keep them)"
            )
    if fmt not in KEEPS_TITLE and any(_own_title(p) for p in puzzles):
        lines.add(
            f"the title: {kind} has no place for it (.non, .g, GRID text, JSON, webpbn XML and "
            "workbooks keep it)"
        )
    elif fmt == "g" and any(len(_own_title(p)) > module.MAX_TITLE for p in puzzles):
        lines.add(f"the title: {kind} keeps a title of at most {module.MAX_TITLE} characters")
    if fmt not in KEEPS_GOAL and any(p.meta.get("goal") is not None for p in puzzles):
        lines.add(
            f"the goal (the intended picture): {kind} has no place for it (.non, JSON, webpbn "
            "XML keep it; a workbook keeps it as its answer key)"
        )
    return sorted(lines)


# How a message names a format written under an extension that is not its own.
FORMAT_LABELS = {"grid": "GRID text", "taai": "a TAAI batch", "xml": "webpbn XML", "json": "JSON"}


def _kind(path: str | Path, fmt: str) -> str:
    """``a .nin file``, or the format's name when ``--format`` chose another than the
    extension's (``GRID text`` written to ``d.txt``)."""
    suffix = Path(path).suffix
    if suffix and _by_extension(path) == fmt:
        return f"a {suffix} file"
    return FORMAT_LABELS.get(fmt, f"a .{fmt} file")


def _own_title(puzzle: Puzzle | ColourPuzzle) -> str:
    """A puzzle's title, unless it is only its number: in a TAAI file (``$3``), or the
    sheet name a workbook xlsolver laid out gave an untitled puzzle (``Puzzle 1``)."""
    title = (puzzle.title or "").strip()
    return "" if re.fullmatch(r"\$\d+|Puzzle \d+", title) else title


CREDITS = ("by", "copyright", "license", "catalogue")  # what a puzzle file credits
KEEPS_CREDITS = frozenset({"non", "json", "xml"})  # the formats that write them
KEEPS_TITLE = frozenset({"non", "json", "xml", "g", "grid"})
KEEPS_GOAL = frozenset({"non", "json", "xml"})


def write_puzzles(
    puzzles: list[Puzzle | ColourPuzzle],
    path: str | Path,
    fmt: str | None = None,
    inputs=(),
    *,
    in_place: bool = False,
) -> None:
    """Write puzzles into one file of a format that holds them all (a ``.nonpack``, a
    JSON list, a webpbn ``<puzzleset>``, GRID text, ``.nin``); FormatError naming such
    formats when the target holds one puzzle (a ``.non``)."""
    from ..writes import WriteError, check_output, write_text

    path = Path(path)
    fmt = fmt or _by_extension(path)
    if fmt is None:
        raise FormatError(f"no format writes the extension {path.suffix!r}", path)
    single = getattr(format_module(fmt), "ONE_PUZZLE_EXTENSIONS", ())
    if len(puzzles) > 1 and path.suffix.lower() in single:
        reason = f"{len(puzzles)} puzzles, but a {path.suffix} file holds one; {MANY}"
        raise FormatError(reason, path)
    try:
        check_output(path, inputs, in_place=in_place)
        text = dumps_all(puzzles, fmt)
        write_text(path, text, inputs, in_place=in_place)
    except FormatError as exc:
        raise FormatError(exc.reason, path) from exc
    except WriteError as exc:
        raise FormatError(exc.reason, path) from None

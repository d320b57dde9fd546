"""Steve Simpson's ``.non`` format, with the nonogram-db extensions.

Keywords one per line: ``width N``, ``height N``, ``rows`` / ``columns`` each followed by
one line per line of the grid (clues separated by commas; blank or ``0`` for an empty
line), and optional quoted strings ``title``, ``by``, ``copyright``, ``catalogue``,
``license`` (an SPDX code or a quoted string) and ``goal "0101…"`` (the solution, row by
row). Unknown lines are ignored. A ``.nonpack`` holds several puzzles separated by
``====`` lines.

Colour puzzles come in two dialects, told apart by their content:

* the extended ``.non`` (mikix/nonogram-db): ``color a #ff0000`` lines, and a colour
  letter after each clue number (``3a,1b``); the goal holds ``0`` for the background and
  the letters (colours used but not declared get colours picked here);
* Nonny's: ``color NAME RRGGBB [CHAR]`` lines, and colour names before their numbers
  (``red 1 yellow 2``, or as Nonny saves them ``red: 2, 1, blue: 2``: a name, one letter
  or more, with or without a colon, colours the numbers after it; numbers before any
  name are ``black``).

A colour whose value is white and that no clue uses is the background. Clues in one
colour only make a black-and-white puzzle.
"""

from __future__ import annotations

import re
import string
from typing import TYPE_CHECKING

from ..nonogram.colour_puzzle import ColourPuzzle, is_letter
from ..nonogram.deferred import picture
from ..nonogram.puzzle import Puzzle
from .base import FormatError, check_goal, split_lines, whole_number
from .colours import ColourDraft, Line, colour_puzzle

if TYPE_CHECKING:
    import numpy as np

NAME = "non"
EXTENSIONS = (".non", ".nonpack")
ONE_PUZZLE_EXTENSIONS = (".non",)  # several go in a .nonpack
COLOUR = True  # writes colour puzzles (the extended .non)

STRING_KEYS = ("catalogue", "title", "by", "copyright", "license")
SIZE_KEYS = ("width", "height")
SECTION_KEYS = {"rows": "height", "columns": "width"}
KEYWORDS = {*STRING_KEYS, *SIZE_KEYS, *SECTION_KEYS, "goal", "color"}
BUNDLE_DIVIDER = "===="
BACKGROUND = "#ffffff"
EMPTY_GOAL_CELL = "0"
BLACK_GOAL_CELLS = "1#Xx"  # a goal's cells: 0/1 as written here, #/. or X/- by other programs
WHITE_GOAL_CELLS = "0.-"
CLUE_TOKEN = re.compile(r"(\d+)([^\d\s,]?)")
CLUE_TEXT = re.compile(r"[\d\s,]+")  # a plain line of clues
NONNY_DEFAULT = "black"  # Nonny's colour of numbers before any colour name
COLOUR_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")  # Nonny's, before numbers: `red`, `r`
CLUE_SPLIT = re.compile(r"[,:\s]+")  # Nonny writes `red: 2, 1`; a colon never ends a clue
SPDX_CODE = re.compile(r"[A-Za-z0-9.+-]+")
SIZE_LINE = re.compile(r"^\s*(width|height)\s+\d+\s*$", re.MULTILINE)
SECTION_LINE = re.compile(r"^\s*(rows|columns)\s*$", re.MULTILINE)


def sniff(text: str) -> bool:
    """True when the text has ``width``/``height`` and ``rows``/``columns`` keywords."""
    return bool(SIZE_LINE.search(text) and SECTION_LINE.search(text))


def loads(text: str, source: str) -> list[Puzzle | FormatError]:
    """Every puzzle of a ``.non`` text (a ``.nonpack`` holds several)."""
    entries: list[Puzzle | FormatError] = []
    for first, chunk in _bundles(split_lines(text)):
        if not any(line.strip() for line in chunk):
            continue
        try:
            entries.append(_parse(chunk, first, source))
        except FormatError as exc:
            entries.append(exc)
    return entries


def _bundles(lines: list[str]) -> list[tuple[int, list[str]]]:
    """The puzzles of a bundle as (number of the first line, lines)."""
    out: list[tuple[int, list[str]]] = []
    first, chunk = 1, []
    for lineno, line in enumerate(lines, 1):
        if line.strip() == BUNDLE_DIVIDER:
            out.append((first, chunk))
            first, chunk = lineno + 1, []
        else:
            chunk.append(line)
    out.append((first, chunk))
    return out


def _unquote(value: str) -> str:
    """A quoted string's text with HTML escapes resolved (unquoted text as it is)."""
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] == '"':
        value = value[1:-1]
    if "&" not in value:
        return value
    import html  # only for escapes: a fast start goes without

    return html.unescape(value)


def _is_keyword_line(text: str) -> bool:
    """True when a stripped line starts with a word: it ends a rows/columns section.

    Nonny's colour lines (``red 1 yellow 2``: colour names before their numbers) are
    clue lines, not keywords.
    """
    if not text or not text[0].isalpha():
        return False
    tokens = [t for t in CLUE_SPLIT.split(text) if t]
    if tokens[0].lower() in KEYWORDS:
        return True
    return not (
        any(t.isdigit() for t in tokens)
        and all(t.isdigit() or COLOUR_NAME.fullmatch(t) for t in tokens)
    )


def _section(lines: list[str], start: int, count: int | None) -> list[str]:
    """The clue lines of a section: ``count`` lines, or up to a blank line if unknown."""
    out: list[str] = []
    for line in lines[start:]:
        text = line.strip()
        if _is_keyword_line(text) or (count is None and not text):
            break
        if count is not None and len(out) == count:
            break
        out.append(text)
    return out


def _check_section_end(
    lines: list[str], end: int, count: int | None, first: int, source: str
) -> None:
    """A section cut short by a line that is no keyword: that line is at fault."""
    if count is None or end >= len(lines):
        return
    text = lines[end].strip()
    word = text.split()[0].lower() if text else ""
    known = word in SIZE_KEYS or word in SECTION_KEYS or word in STRING_KEYS
    if text and not known and word not in ("goal", "color"):
        if CLUE_TEXT.fullmatch(text):  # one line of clues too many: a blank line counted
            raise FormatError(
                f'"{text}": more lines of clues than the {count} the size gives; a blank '
                f"line or a comment in the section counts as a line",
                source,
                first + end,
            )
        raise FormatError(f'"{text}" is not a line of clues', source, first + end)


def _clue_line(text: str, source: str, lineno: int, names: set[str]) -> Line:
    """One line of clues as (length, key): a letter ``3a``, a Nonny name, or None."""
    clues: Line = []
    name = None
    tokens = [t for t in CLUE_SPLIT.split(text) if t]
    for at, token in enumerate(tokens):
        last = at == len(tokens) - 1  # a name colours the numbers after it: none is a typo
        if COLOUR_NAME.fullmatch(token) and not last:  # Nonny's: a name before its numbers
            name = token.lower()
            names.add(name)
            continue
        match = CLUE_TOKEN.fullmatch(token)
        if not match:
            raise FormatError(f'clue "{token}" is not a number', source, lineno)
        letter = match.group(2) or None
        if letter is not None and not is_letter(letter):
            raise FormatError(f'clue "{token}": "{letter}" cannot name a colour', source, lineno)
        number = whole_number(match.group(1), "clue", source, lineno)
        clues.append((number, letter if name is None else name))
    if any(n == 0 for n, _ in clues) and len(clues) > 1:
        raise FormatError(f"clue 0 stands among other clues ({text})", source, lineno)
    return [(n, key) for n, key in clues if n]


def _parse(lines: list[str], first: int, source: str) -> Puzzle | ColourPuzzle:
    """One puzzle from its lines; ``first`` is the file line number of ``lines[0]``."""
    meta: dict = {}
    size: dict[str, int] = {}
    sections: dict[str, list[tuple[int, Line]]] = {}  # per line of the grid: (lineno, clues)
    section_line: dict[str, int] = {}
    colours: list[tuple[list[str], int]] = []  # the parts of each color line, and its line
    names: set[str] = set()  # Nonny colour names used in clue lines
    goal: tuple[str, int] | None = None
    seen: dict[str, int] = {}  # the line of each key that a puzzle has once
    i = 0
    while i < len(lines):
        lineno, text = first + i, lines[i].strip()
        i += 1
        key, _, value = text.replace("\t", " ").partition(" ")  # a tab separates as a space
        key, value = key.lower(), value.strip()
        once = key in SIZE_KEYS or key == "goal"  # (a repeated title or by: the last)
        if once or (key in SECTION_KEYS and not value):
            if key in seen:
                raise FormatError(
                    f'a second "{key}" (the first is on line {seen[key]}): a .non file holds '
                    f"one puzzle; put several in a .nonpack, separated by {BUNDLE_DIVIDER} lines",
                    source,
                    lineno,
                )
            seen[key] = lineno
        if key in SIZE_KEYS:
            size[key] = whole_number(value, key, source, lineno)
        elif key in SECTION_KEYS and not value:
            count = size.get(SECTION_KEYS[key])
            body = _section(lines, i, count)
            _check_section_end(lines, i + len(body), count, first, source)
            sections[key] = [
                (i + first + k, _clue_line(t, source, i + first + k, names))
                for k, t in enumerate(body)
            ]
            section_line[key] = lineno
            i += len(body)
        elif key in STRING_KEYS:
            meta[key] = _unquote(value)
        elif key == "goal" and not value:  # pbnsolve's form: the image on the lines below,
            rows = []  # one a row, up to a blank line or the height
            while i < len(lines) and lines[i].strip() and len(rows) < size.get("height", 10**6):
                if lines[i].strip().split(" ")[0].lower() in KEYWORDS:
                    break
                rows.append(lines[i].strip())
                i += 1
            goal = ("".join(rows), lineno)
        elif key == "goal":
            goal = (_unquote(value), lineno)
        elif key == "color":
            colours.append((_colour_parts(value, source, lineno), lineno))
    return _assemble(meta, size, sections, section_line, (colours, names), goal, first, source)


def _colour_parts(value: str, source: str, lineno: int) -> list[str]:
    """The parts of a ``color a #rrggbb`` (or Nonny's ``color NAME RRGGBB [CHAR]``) line."""
    parts = value.split()
    simpson = len(parts) == 2 and len(parts[0]) == 1
    hexed = len(parts) in (2, 3) and re.fullmatch(r"#?[0-9A-Fa-f]{6}", parts[1]) is not None
    nonny = hexed and (len(parts) == 3 or len(parts[0]) > 1)
    if not (simpson or nonny):
        raise FormatError(f'color "{value}" is not "LETTER #RRGGBB"', source, lineno)
    return parts


def _draft(
    colours: tuple[list[tuple[list[str], int]], set[str]],
    sections: dict[str, list[tuple[int, Line]]],
    source: str,
) -> tuple[ColourDraft, bool]:
    """The colours declared and used, and whether the puzzle is in Nonny's dialect."""
    lines, names = colours
    nonny = bool(names) or any(len(parts) == 3 for parts, _ in lines)
    draft = ColourDraft(source)
    for key in ("rows", "columns"):
        for lineno, clues in sections[key]:
            for _, colour in clues:
                draft.use(NONNY_DEFAULT if nonny and colour is None else colour, lineno)
    for parts, lineno in lines:
        name = parts[0] if not nonny else parts[0].lower()
        if name not in draft.used and parts[1].lower().lstrip("#") == BACKGROUND.lstrip("#"):
            draft.background = (name, BACKGROUND)
            continue
        draft.declare(name, parts[1], parts[2] if nonny and len(parts) > 2 else None, lineno)
    if not nonny and None in draft.used and draft.is_colour():
        lettered = min(at for colour, at in draft.used.items() if colour is not None)
        tail = "; no colours are declared: a clue is a whole number" if not lines else ""
        raise FormatError(
            f"a clue without a colour letter among clues with colour letters{tail}",
            source,
            min(lettered, draft.used[None]),  # the first line of either kind
        )
    return draft, nonny


def _assemble(
    meta: dict,
    size: dict[str, int],
    sections: dict[str, list[tuple[int, Line]]],
    section_line: dict[str, int],
    colours: tuple[list[tuple[list[str], int]], set[str]],
    goal: tuple[str, int] | None,
    first: int,
    source: str,
) -> Puzzle | ColourPuzzle:
    """Check the parts read against each other and build the puzzle."""
    for key, size_key in SECTION_KEYS.items():
        if key not in sections:
            raise FormatError(f'no "{key}" section', source, first)
        declared = size.get(size_key, len(sections[key]))
        if declared != len(sections[key]):
            raise FormatError(
                f"{key}: {len(sections[key])} lines of clues but {size_key} is {declared}",
                source,
                section_line[key],
            )
    draft, nonny = _draft(colours, sections, source)
    if nonny:
        sections = {
            key: [(n, [(c, k or NONNY_DEFAULT) for c, k in clues]) for n, clues in lines]
            for key, lines in sections.items()
        }
    rows = [clues for _, clues in sections["rows"]]
    cols = [clues for _, clues in sections["columns"]]
    if nonny and NONNY_DEFAULT in draft.used and NONNY_DEFAULT not in draft.declared:
        draft.declare(NONNY_DEFAULT, "#000000", None, None)
    title = meta.get("title", "")
    puzzle = colour_puzzle(
        draft, rows, cols, title=title, meta=meta, line=first, undeclared_ok=not nonny
    )
    puzzle.meta["row_lines"] = [n for n, _ in sections["rows"]]  # where a clue error is
    puzzle.meta["col_lines"] = [n for n, _ in sections["columns"]]
    if goal is not None:
        puzzle.meta["goal"] = _goal(goal[0], puzzle, source, goal[1], inks=set(draft.used))
    return puzzle


def _goal(
    text: str,
    puzzle: Puzzle | ColourPuzzle,
    source: str,
    lineno: int,
    inks: frozenset[str] | set[str] = frozenset(),
) -> np.ndarray:
    """The solution of a ``goal`` line: booleans, or colour numbers for a colour puzzle
    (``inks``: the letters of a file's one colour, black in a black-and-white goal).

    A black-and-white goal is made into an array when first read (a fast start needs no
    numpy).
    """
    height, width = puzzle.height, puzzle.width
    if len(text) != height * width:
        raise FormatError(
            f"goal has {len(text)} cells but the grid has {height}×{width} = {height * width}",
            source,
            lineno,
        )
    if not isinstance(puzzle, ColourPuzzle):
        black = set(BLACK_GOAL_CELLS) | inks
        odd = set(text) - black - set(WHITE_GOAL_CELLS)
        if odd:
            raise FormatError(
                f'goal: "{min(odd)}" is neither black (1, #, X) nor white (0, ., -)',
                source,
                lineno,
            )
        cells = [[ch in black for ch in text[r * width : (r + 1) * width]] for r in range(height)]
        check_goal(puzzle, cells, source, lineno)
        masks = tuple(sum(1 << c for c, black in enumerate(row) if black) for row in cells)
        return picture(masks, width)
    import numpy as np

    number = {EMPTY_GOAL_CELL: 0} | {c.letter: i for i, c in enumerate(puzzle.palette.inks, 1)}
    bad = next((ch for ch in text if ch not in number), None)
    if bad is not None:
        raise FormatError(f'goal: "{bad}" is no colour of the puzzle', source, lineno)
    goal = np.array([number[ch] for ch in text], dtype=np.int8).reshape(height, width)
    check_goal(puzzle, goal, source, lineno)
    return goal


def _quote(value: str) -> str:
    """A string value quoted, with HTML escapes for the characters that need them (a line
    break too, so that the value stays on its line)."""
    import html

    escaped = html.escape(value, quote=True).replace("\r", "&#13;").replace("\n", "&#10;")
    return '"' + escaped + '"'


def _spec_letters(letters: str) -> str:
    """The background's letter, then a letter from a-z for each ink (the format's rule:
    a Nonny file's ``#`` or ``@`` would be misread), keeping those already in a-z."""
    free = [ch for ch in string.ascii_lowercase + string.ascii_uppercase if ch not in letters]
    out = letters[0]
    for ch in letters[1:]:
        out += ch if ch in string.ascii_lowercase else free.pop(0)
    return out


def dumps(puzzle: Puzzle | ColourPuzzle) -> str:
    """The ``.non`` text of a puzzle (with its goal when meta holds one).

    A colour puzzle is written in the extended ``.non``: a ``color`` line per ink and a
    colour letter after each clue number.
    """
    import numpy as np

    meta = dict(puzzle.meta)
    if puzzle.title:
        meta.setdefault("title", puzzle.title)
    out: list[str] = []
    for key in STRING_KEYS:
        value = meta.get(key)
        if not value:
            continue
        if key == "license" and SPDX_CODE.fullmatch(str(value)):
            out.append(f"{key} {value}")
        else:
            out.append(f"{key} {_quote(str(value))}")
    out += [f"width {puzzle.width}", f"height {puzzle.height}"]
    if isinstance(puzzle, ColourPuzzle):
        letters = _spec_letters(puzzle.palette.letters)
        out += [""] + [
            f"color {letter} {c.rgb}"
            for letter, c in zip(letters[1:], puzzle.palette.inks, strict=True)
        ]
        rows = [",".join(f"{n}{letters[ink]}" for n, ink in clues) for clues in puzzle.rows]
        cols = [",".join(f"{n}{letters[ink]}" for n, ink in clues) for clues in puzzle.cols]
        cell = EMPTY_GOAL_CELL + letters[1:]
    else:
        rows = [",".join(map(str, clues)) for clues in puzzle.rows]
        cols = [",".join(map(str, clues)) for clues in puzzle.cols]
        cell = EMPTY_GOAL_CELL + "1"
    out += ["", "rows"] + [line or "0" for line in rows]
    out += ["", "columns"] + [line or "0" for line in cols]
    goal = meta.get("goal")
    if goal is not None and np.shape(goal) == (puzzle.height, puzzle.width):
        cells = "".join(cell[int(v)] for v in np.asarray(goal).ravel())
        out += ["", f'goal "{cells}"']
    return "\n".join(out) + "\n"


def left_out(puzzle: Puzzle | ColourPuzzle) -> list[str]:
    """What of a puzzle its ``.non`` text cannot hold: a background other than white
    (the format has no place for one; its cells read as white)."""
    if not isinstance(puzzle, ColourPuzzle):
        return []
    out = []
    letters = _spec_letters(puzzle.palette.letters)[1:]
    names = [
        f"{c.name} as {letter}"
        for letter, c in zip(letters, puzzle.palette.inks, strict=True)
        if c.name and c.name.lower() not in (letter, c.rgb.lower())
    ]
    if names:
        out.append(f"the colours' names ({', '.join(names)}): a .non names a colour by a letter")
    background = puzzle.palette.background
    if background.rgb.lower() == BACKGROUND:
        return out
    name = f"{background.name} " if background.name else ""
    return out + [
        f"the background colour {name}({background.rgb}): a .non has none, its cells read white"
    ]


def dumps_all(puzzles: list[Puzzle | ColourPuzzle]) -> str:
    """Several puzzles as a ``.nonpack``: their texts between ``====`` lines."""
    return f"{BUNDLE_DIVIDER}\n".join(dumps(puzzle) for puzzle in puzzles)

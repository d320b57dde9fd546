"""webpbn's XML puzzle format (the pbn-0.3 DTD; what pbnsolve reads), colour and black-and-white.

::

    <puzzleset><puzzle type="grid" defaultcolor="black">
      <title>…</title><author>…</author><copyright>…</copyright>
      <color name="white" char=".">FFFFFF</color>
      <color name="red" char="*">FF0000</color>
      <clues type="columns"><line><count color="red">2</count><count>1</count></line>…</clues>
      <clues type="rows">…</clues>
      <solution type="goal"><image>|..**|…</image></solution>
      <note>license: CC-BY-SA-4.0</note>
    </puzzle></puzzleset>

A catalogue number is written as ``<id>`` and a licence, which the DTD has no element
for, as a ``<note>`` (both read back). A count without ``color`` takes the puzzle's
``defaultcolor`` (``black``); the colour named by ``backgroundcolor`` (``white``) is the
background. Without ``color`` elements, black is ``000000`` and white ``FFFFFF``. A goal
image shows each colour by its ``char``; a colour without one is shown by its name when
that is one character, black and white by ``X`` and ``.`` (as pbnsolve does), and any
other is refused naming its element when the image holds a character of no colour. A
puzzle set may hold several puzzles. Entity declarations are refused (no entity
expansion); the DTD is never fetched, and a reference to an entity it would declare
reads as the HTML name (``&copy;`` → ©).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from xml.parsers import expat
from xml.sax.saxutils import escape, quoteattr

import numpy as np

from ..nonogram.colour_puzzle import BACKGROUND_LETTER, ColourPuzzle
from ..nonogram.puzzle import Puzzle
from .base import FormatError, check_goal, whole_number
from .colours import ColourDraft, Line, colour_puzzle

NAME = "xml"
EXTENSIONS = (".xml", ".pbn")
COLOUR = True  # writes colour puzzles

DEFAULT_COLOURS = {"black": ("000000", "X"), "white": ("FFFFFF", ".")}
META_ELEMENTS = {
    "title": "title",
    "author": "by",
    "copyright": "copyright",
    "description": "description",
}
LICENSE_NOTE = "license"  # <note>license: CC-BY-SA-4.0</note>
DOCTYPE = '<!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">'


@dataclass
class Node:
    """One XML element: tag, attributes, text, children and the line it starts on."""

    tag: str
    attrs: dict[str, str]
    line: int
    text: str = ""
    children: list[Node] = field(default_factory=list)

    def find(self, tag: str) -> Node | None:
        """The first child with this tag."""
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str) -> list[Node]:
        """Every child with this tag."""
        return [c for c in self.children if c.tag == tag]


def sniff(text: str) -> bool:
    """True when the text is XML with a ``<puzzle`` element."""
    head = text.lstrip()[:200]
    return head.startswith("<") and "<puzzle" in text[:4000]


def parse_xml(text: str, source: str) -> Node:
    """The element tree of a text, with line numbers; FormatError on bad XML or entities."""
    parser = expat.ParserCreate()
    root = Node("", {}, 0)
    stack = [root]

    def start(tag: str, attrs: dict[str, str]) -> None:
        node = Node(tag, attrs, parser.CurrentLineNumber)
        stack[-1].children.append(node)
        stack.append(node)

    def end(_tag: str) -> None:
        stack.pop()

    def chars(data: str) -> None:
        stack[-1].text += data

    def skipped(name: str, is_parameter: bool) -> None:
        """A reference to an entity the DTD (never fetched) declares: webpbn's exports
        write ``&copy;``; the HTML names are read as HTML reads them."""
        from html.entities import name2codepoint

        if not is_parameter and name in name2codepoint:
            stack[-1].text += chr(name2codepoint[name])

    def entity(name, *_args) -> None:
        raise FormatError(
            f'entity "{name}" declared: entities are not allowed', source, parser.CurrentLineNumber
        )

    parser.StartElementHandler = start
    parser.EndElementHandler = end
    parser.CharacterDataHandler = chars
    parser.EntityDeclHandler = entity
    parser.SkippedEntityHandler = skipped
    parser.SetParamEntityParsing(expat.XML_PARAM_ENTITY_PARSING_NEVER)
    try:
        parser.Parse(text, True)
    except expat.ExpatError as exc:
        raise FormatError(
            f"not valid XML: {expat.ErrorString(exc.code)}", source, exc.lineno
        ) from None
    if not root.children:
        raise FormatError("no XML element", source, 1)
    return root.children[0]


def loads(text: str, source: str) -> list[Puzzle | ColourPuzzle | FormatError]:
    """Every puzzle of a webpbn XML text; a faulty puzzle becomes a FormatError entry."""
    top = parse_xml(text, source)
    puzzles = [top] if top.tag == "puzzle" else top.findall("puzzle")
    if top.tag not in ("puzzle", "puzzleset"):
        raise FormatError(
            f"<{top.tag}> is no webpbn puzzle (<puzzleset> expected)", source, top.line
        )
    entries: list[Puzzle | ColourPuzzle | FormatError] = []
    for node in puzzles:
        try:
            entries.append(_puzzle(node, source))
        except FormatError as exc:
            entries.append(exc)
    return entries


def _count(node: Node, source: str) -> int:
    """The number of a ``<count>``."""
    return whole_number(node.text.strip(), "count", source, node.line)


def _clue_lines(
    puzzle: Node, kind: str, default: str, background: str, draft: ColourDraft, source: str
) -> list[Line]:
    """The clue lines of ``<clues type="rows|columns">``, each count with its colour name."""
    found = [c for c in puzzle.findall("clues") if c.attrs.get("type") == kind]
    if not found:
        raise FormatError(f'no <clues type="{kind}">', source, puzzle.line)
    out: list[Line] = []
    for line in found[0].findall("line"):
        clues: Line = []
        for count in line.findall("count"):
            n = _count(count, source)
            colour = count.attrs.get("color", default)
            if colour == background:
                raise FormatError(
                    f'a count in the background colour "{colour}"', source, count.line
                )
            if n:
                draft.use(colour, count.line)
                clues.append((n, colour))
        out.append(clues)
    return out


def _puzzle(node: Node, source: str) -> Puzzle | ColourPuzzle:
    """One ``<puzzle>`` element."""
    if node.attrs.get("type", "grid") != "grid":
        raise FormatError(
            f'puzzle type "{node.attrs["type"]}" is not supported (only grid)', source, node.line
        )
    default = node.attrs.get("defaultcolor", "black")
    background = node.attrs.get("backgroundcolor", "white")
    draft = ColourDraft(source)
    declared: dict[str, tuple[str, str | None, int]] = {}
    for colour in node.findall("color"):
        name = colour.attrs.get("name")
        if not name:
            raise FormatError("<color> without a name", source, colour.line)
        declared[name] = (colour.text.strip(), colour.attrs.get("char"), colour.line)
    for name, (rgb, char) in DEFAULT_COLOURS.items():
        declared.setdefault(name, (rgb, char, node.line))
    meta = {
        key: " ".join(child.text.split())
        for tag, key in META_ELEMENTS.items()
        if (child := node.find(tag)) is not None
    }
    if (child := node.find("id")) is not None and child.text.strip():
        meta["catalogue"] = " ".join(child.text.split())
    for note in (c for c in node.children if c.tag == "note"):
        key, colon, value = " ".join(note.text.split()).partition(": ")
        if colon and key.casefold() == LICENSE_NOTE and value:
            meta["license"] = value
    rows = _clue_lines(node, "rows", default, background, draft, source)
    cols = _clue_lines(node, "columns", default, background, draft, source)
    for name, (rgb, char, line) in declared.items():
        if name == background:
            draft.background = (name, rgb)
        elif name in draft.used:
            draft.declare(name, rgb, char, line)
    puzzle = colour_puzzle(
        draft, rows, cols, title=meta.get("title", ""), meta=meta, line=node.line
    )
    goal = _goal(node, puzzle, declared, background, draft, source)
    if goal is not None:
        puzzle.meta["goal"] = goal
    return puzzle


def _goal(node, puzzle, declared, background, draft: ColourDraft, source: str) -> np.ndarray | None:
    """The ``<solution type="goal">`` image, if there is one."""
    goal = next(
        (s for s in node.findall("solution") if s.attrs.get("type", "goal") == "goal"), None
    )
    image = goal.find("image") if goal is not None else None
    if image is None:
        return None
    if isinstance(puzzle, ColourPuzzle):
        number = {c.name: i for i, c in enumerate(puzzle.palette.inks, 1)}
    else:
        number = {name: 1 for name in draft.used}
    number[background] = 0
    chars, charless = _image_chars(declared, number)
    cells = []
    for offset, raw in enumerate(image.text.split("\n")):
        row = raw.strip()
        if not row:
            continue
        if len(row) < 2 or row[0] != "|" or row[-1] != "|":
            raise FormatError(f'image row "{row}" is not "|…|"', source, image.line + offset)
        values = [chars.get(ch, -1) for ch in row[1:-1]]
        if -1 in values and charless:
            name, line = charless[0]
            raise FormatError(
                f'<color name="{name}"> has no "char" attribute, so the goal image (line '
                f'{image.line + offset}: "{row}") cannot show it; add char="…" to it',
                source,
                line,
            )
        if -1 in values or len(values) != puzzle.width:
            raise FormatError(
                f'image row "{row}" is not {puzzle.width} cells of the puzzle\'s colours',
                source,
                image.line + offset,
            )
        cells.append(values)
    if len(cells) != puzzle.height:
        raise FormatError(
            f"image has {len(cells)} rows but the grid has {puzzle.height}", source, image.line
        )
    check_goal(puzzle, cells, source, image.line)
    if isinstance(puzzle, ColourPuzzle):
        return np.array(cells, dtype=np.int8)
    return np.array(cells, dtype=bool)


def _image_chars(
    declared: dict[str, tuple[str, str | None, int]], number: dict[str, int]
) -> tuple[dict[str, int], list[tuple[str, int]]]:
    """The colour number of each image character, and the (name, line) of the colours the
    image cannot show. A colour without ``char`` is shown by its name when that is one
    character, and black and white by webpbn's ``X`` and ``.`` when no colour has them.
    A character two colours claim shows the one the puzzle uses, the file's own before
    webpbn's defaults (``declared`` lists the file's colours first): a navy ``X``, a sky
    background ``.``."""
    chars: dict[str, int] = {}
    for name, (_, char, _) in declared.items():
        if char and name in number:
            chars.setdefault(char, number[name])
    for _, char, _ in declared.values():
        if char:
            chars.setdefault(char, -1)
    charless = []
    for name, (_, char, line) in declared.items():
        if char or name not in number:
            continue
        fallback = name if len(name) == 1 else DEFAULT_COLOURS.get(name, ("", ""))[1]
        if fallback and fallback not in chars:
            chars[fallback] = number[name]
        else:
            charless.append((name, line))
    return chars, charless


def _names(puzzle: Puzzle | ColourPuzzle) -> tuple[str, list[tuple[str, str, str]]]:
    """The background's name and (name, char, RRGGBB) per ink, names made unique."""
    if not isinstance(puzzle, ColourPuzzle):
        return "white", [("black", "X", "000000")]
    background = puzzle.palette.background.name or "white"
    seen = {background}
    inks = []
    for i, colour in enumerate(puzzle.palette.inks, 1):
        name = colour.name if colour.name and colour.name not in seen else f"colour{i}"
        seen.add(name)
        inks.append((name, colour.letter, colour.rgb.lstrip("#").upper()))
    return background, inks


def dumps(puzzle: Puzzle | ColourPuzzle) -> str:
    """The webpbn XML of a puzzle (with its goal when meta holds one)."""
    return dumps_all([puzzle])


def dumps_all(puzzles: list[Puzzle | ColourPuzzle]) -> str:
    """Several puzzles in one ``<puzzleset>``."""
    out = ['<?xml version="1.0"?>', DOCTYPE, "<puzzleset>"]
    for puzzle in puzzles:
        out += _puzzle_lines(puzzle)
    out.append("</puzzleset>")
    return "\n".join(out) + "\n"


def _puzzle_lines(puzzle: Puzzle | ColourPuzzle) -> list[str]:
    """The ``<puzzle>`` element of a puzzle, line by line."""
    background, inks = _names(puzzle)
    colour = isinstance(puzzle, ColourPuzzle)
    bg_rgb = puzzle.palette.background.rgb.lstrip("#").upper() if colour else "FFFFFF"
    out = []
    default, back = quoteattr(inks[0][0]), quoteattr(background)
    out.append(f'<puzzle type="grid" defaultcolor={default} backgroundcolor={back}>')
    meta = dict(puzzle.meta)
    if puzzle.title:
        meta["title"] = puzzle.title
    if meta.get("catalogue"):  # the DTD's order: id before title
        out.append(f"<id>{escape(str(meta['catalogue']))}</id>")
    for tag, key in META_ELEMENTS.items():
        if meta.get(key):
            out.append(f"<{tag}>{escape(str(meta[key]))}</{tag}>")
    out.append(
        f"<color name={quoteattr(background)} char={quoteattr(BACKGROUND_LETTER)}>{bg_rgb}</color>"
    )
    out += [f"<color name={quoteattr(n)} char={quoteattr(ch)}>{rgb}</color>" for n, ch, rgb in inks]
    for kind, lines in (("columns", puzzle.cols), ("rows", puzzle.rows)):
        out.append(f'<clues type="{kind}">')
        for clues in lines:
            if colour:
                counts = "".join(
                    f"<count color={quoteattr(inks[ink - 1][0])}>{n}</count>" for n, ink in clues
                )
            else:
                counts = "".join(f"<count>{n}</count>" for n in clues)
            out.append(f"<line>{counts}</line>")
        out.append("</clues>")
    goal = meta.get("goal")
    if goal is not None and np.shape(goal) == (puzzle.height, puzzle.width):
        letters = BACKGROUND_LETTER + "".join(ch for _, ch, _ in inks)
        rows = ["|" + "".join(letters[int(v)] for v in row) + "|" for row in np.asarray(goal)]
        out += ['<solution type="goal">', "<image>", *rows, "</image>", "</solution>"]
    if meta.get("license"):  # the DTD has no licence element: a note, read back
        out.append(f"<note>{LICENSE_NOTE}: {escape(str(meta['license']))}</note>")
    out.append("</puzzle>")
    return out

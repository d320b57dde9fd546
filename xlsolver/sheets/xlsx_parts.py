"""What an .xlsx/.xlsm copy written by openpyxl leaves out of the workbook it was read from.

openpyxl rewrites a workbook from what it understood: text boxes, shapes, threaded
comments, slicers, sparklines, pivot tables and more are dropped without a word, and
images only survive when Pillow is installed and can read them. Rather than guess, the
parts of the input and of the copy are counted and compared:

    left_out(Path("book.xlsx"), data)   # {"text box": 1, "image": 1}
    left_out_phrase({"text box": 1, "image": 1})
    # "1 image and 1 text box (openpyxl cannot keep them; ...)"
"""

from __future__ import annotations

import io
import re
import zipfile
import zlib
from collections import Counter
from pathlib import Path

# (kind, which parts of the zip, what to count in them: a regex, or None for the part itself)
_XML = r"<(?:[A-Za-z_][\w.-]*:)?{}[\s/>]"
PARTS: tuple[tuple[str, str, str | None], ...] = (
    ("VBA project", r"xl/vbaProject\.bin", None),
    ("image", r"xl/drawings/[^/]+\.xml", _XML.format("pic")),
    ("picture in a cell", r"xl/richData/rdrichvalue\.xml", _XML.format("rv")),
    ("header or footer picture", r"xl/drawings/[^/]+\.vml", _XML.format("imagedata")),
    ("chart", r"xl/charts/chart\d*\.xml", None),
    ("text box", r"xl/drawings/[^/]+\.xml", r'<(?:[\w.-]+:)?cNvSpPr\b[^>]*txBox="(?:1|true)"'),
    ("shape", r"xl/drawings/[^/]+\.xml", _XML.format("(?:sp|cxnSp)")),
    ("form control", r"xl/drawings/[^/]+\.vml", r'ObjectType="(?!Note")'),
    ("checkbox style", r"xl/featurePropertyBag/[^/]+\.xml", r'type="Checkbox"'),
    ("ActiveX control", r"xl/activeX/activeX\d*\.xml", None),
    ("embedded object", r"xl/embeddings/[^/]+", None),
    ("comment", r"xl/(?:comments\d*|comments/[^/]+)\.xml", _XML.format("comment")),
    ("threaded comment", r"xl/threadedComments/[^/]+\.xml", _XML.format("threadedComment")),
    ("pivot table", r"xl/pivotTables/[^/]+\.xml", None),
    ("slicer", r"xl/slicers/[^/]+\.xml", _XML.format("slicer")),
    ("timeline", r"xl/timelines/[^/]+\.xml", _XML.format("timeline")),
    ("table", r"xl/tables/[^/]+\.xml", None),
    ("external link", r"xl/externalLinks/[^/]+\.xml", None),
    ("sparkline group", r"xl/worksheets/[^/]+\.xml", _XML.format("sparklineGroup")),
    ("data validation", r"xl/worksheets/[^/]+\.xml", _XML.format("dataValidation")),
    ("conditional format", r"xl/worksheets/[^/]+\.xml", _XML.format("cfRule")),
    ("hyperlink", r"xl/worksheets/[^/]+\.xml", _XML.format("hyperlink")),
    ("defined name", r"xl/workbook\.xml", _XML.format("definedName")),
    ("custom XML part", r"customXml/item\d*\.xml", None),
)
PLURALS = {
    "text box": "text boxes",
    "picture in a cell": "pictures in cells",
    "header or footer picture": "header or footer pictures",
}
_COMPILED = [
    (kind, re.compile(part), re.compile(what) if what else None) for kind, part, what in PARTS
]


def count_parts(source: Path | bytes) -> Counter[str]:
    """How many of each kind of :data:`PARTS` a workbook file (a path or its bytes) holds."""
    counts: Counter[str] = Counter()
    fh = io.BytesIO(source) if isinstance(source, bytes) else source
    with zipfile.ZipFile(fh) as zf:
        for name in zf.namelist():
            for kind, part, what in _COMPILED:
                if not part.fullmatch(name):
                    continue
                if what is None:
                    counts[kind] += 1
                else:
                    text = zf.read(name).decode("utf-8", "replace")
                    counts[kind] += len(what.findall(text))
    counts["shape"] -= counts["text box"]  # a text box is a shape too: counted once
    return +counts


def left_out(source: Path, copy: bytes) -> dict[str, int]:
    """The kinds of part the copy holds fewer of than the input, and how many fewer."""
    try:
        lost = count_parts(source) - count_parts(copy)
    except (OSError, zipfile.BadZipFile, zlib.error, EOFError):  # a damaged part: not counted
        return {}
    return {kind: lost[kind] for kind, _, _ in PARTS if lost[kind] > 0}


def left_out_note(
    source: object, lost: dict[str, int], copy: str = "the copy", kept: str = "the input"
) -> str:
    """The line that tells what a written copy of ``source`` lacks, its input unchanged."""
    return f"xlsolver: {source}: {copy} leaves out {left_out_phrase(lost)}; {kept} is unchanged"


def left_out_phrase(lost: dict[str, int]) -> str:
    """``{"image": 1, "chart": 2}`` → ``1 image and 2 charts (openpyxl cannot keep them)``."""
    items = [f"{n} {kind if n == 1 else PLURALS.get(kind, kind + 's')}" for kind, n in lost.items()]
    text = items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]
    why = "openpyxl cannot keep them"
    if "VBA project" in lost:  # an .xlsx copy of an .xlsm: the macros and their buttons
        why = "an .xlsx file holds no macros nor their buttons: name the copy .xlsm to keep them"
        if set(lost) - {"VBA project", "form control"}:
            why += "; openpyxl cannot keep the rest"
    if "image" in lost and not _pillow():
        why += "; images are kept once Pillow is installed: pip install pillow"
    return f"{text} ({why})"


def in_place_refusal(source: object, lost: dict[str, int]) -> str:
    """The one line that refuses to paint a file whose copy would leave parts out."""
    return (
        f"{source}: painting the file itself would remove {left_out_phrase(lost)}; "
        "nothing written: write a painted copy with -o or --out-dir"
    )


def _pillow() -> bool:
    """True when Pillow can be imported (openpyxl keeps images only then)."""
    try:
        import PIL  # noqa: F401
    except ImportError:
        return False
    return True

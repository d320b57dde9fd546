"""``xlsolver make``: a teacher's drawing → a verified puzzle worksheet with answer key."""

from __future__ import annotations

import argparse
import sys
import time

from ..exits import EXIT_UNSOLVED
from ..limits import DEFAULT_TIME_LIMIT
from ..workbook.clues import parse_size
from ._teaching import BAD_INPUT, fail, report
from .options import Once, add_time_limit

HELP = (
    "turn a drawing (filled cells in a workbook, or a PNG) or a puzzle file into a puzzle "
    "worksheet + key"
)


def add_arguments(p: argparse.ArgumentParser) -> None:
    """The make command's options."""
    p.add_argument(
        "drawing",
        nargs="?",
        help="a workbook with the picture drawn in cells (a picture file is read as --image; "
        "a puzzle file gives the worksheet of its puzzle)",
    )
    p.add_argument(
        "--image",
        metavar="PNG",
        help="a picture file instead (PNG, JPEG…): flat colours make a colour puzzle",
    )
    p.add_argument("--size", metavar="WxH", help="cells of the puzzle made from an image")
    p.add_argument("--threshold", type=int, default=128, help="grey below this is black (128)")
    p.add_argument(
        "-o",
        "--output",
        required=True,
        help="the worksheet to write (.xlsx; .ods and .xls through LibreOffice)",
    )
    p.add_argument("--title", default="", help="the title (default: text on the sheet, file name)")
    p.add_argument("--sheet", metavar="NAME", action=Once, help="the sheet holding the drawing")
    p.add_argument(
        "--range",
        metavar="A1:J10",
        action=Once,
        help="the drawing's cells, Sheet1!A1:J10 too (default: found)",
    )
    p.add_argument(
        "--add-givens",
        action="store_true",
        help="print the suggested givens on the puzzle when it is not unique",
    )
    colour = p.add_mutually_exclusive_group()
    colour.add_argument(
        "--colours",
        "--colors",
        choices=("auto",),
        default="auto",
        help="auto (the default): a drawing in two fill colours or more makes a colour puzzle",
    )
    colour.add_argument(
        "--mono", action="store_true", help="the black-and-white puzzle of a colour drawing"
    )
    add_time_limit(p, DEFAULT_TIME_LIMIT)
    p.add_argument("--json", action="store_true", help="print the verdict as one JSON line")


IMAGE_SUFFIXES = (".png", ".jpg", ".jpeg", ".gif", ".bmp", ".webp", ".tif", ".tiff")
IMAGE_MAGIC = (b"\x89PNG\r\n\x1a\n", b"\xff\xd8\xff", b"GIF8", b"BM", b"II*\x00", b"MM\x00*")


def is_image(path: str) -> bool:
    """True for a picture file (by its name or its first bytes), not a workbook."""
    if path.lower().endswith(IMAGE_SUFFIXES):
        return True
    try:
        with open(path, "rb") as f:
            head = f.read(12)
    except OSError:
        return False
    return head.startswith(IMAGE_MAGIC) or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")


def _read(args: argparse.Namespace, size):
    """The drawing to make a worksheet of, and where it came from: ``picture`` (an image),
    ``puzzle`` (a puzzle file or sheet, from its picture) or ``drawing`` (cells drawn)."""
    from ..teaching import read_drawing_file, read_image
    from ..teaching.puzzle_files import puzzle_drawing, sheet_drawing
    from ..workbook.files import is_workbook

    if args.image:
        return read_image(args.image, size=size, threshold=args.threshold), "picture"
    limit = args.time_limit
    if not is_workbook(args.drawing):  # a puzzle file: its worksheet, from its picture
        return puzzle_drawing(args.drawing, args.sheet, limit), "puzzle"
    if found := sheet_drawing(args.drawing, args.sheet, limit, area=args.range):
        return found, "puzzle"  # a puzzle sheet (clues, maybe solved): the worksheet of it
    return read_drawing_file(args.drawing, sheet=args.sheet, rect=args.range), "drawing"


def run(args: argparse.Namespace) -> int:
    """Read the drawing, judge it, write the worksheet."""
    from ..teaching import make_worksheet
    from ..teaching.puzzle_files import NoPicture, PictureStopped

    if args.drawing and not args.image and is_image(args.drawing):
        args.image, args.drawing = args.drawing, None  # a picture given as the drawing
    if bool(args.drawing) == bool(args.image):
        return fail("give either a drawing workbook or --image PNG")
    if args.size and not args.image:
        return fail("--size goes with --image (a drawing's size is its cells)")
    size = None
    if args.size:
        size = parse_size(args.size)
        if size is None:
            return fail(f"--size {args.size!r}: expected WIDTHxHEIGHT, e.g. 20x20")
    start = time.perf_counter()
    try:
        drawing, origin = _read(args, size)
        spent = time.perf_counter() - start  # one time limit for the whole command
        verdict, path = make_worksheet(
            drawing,
            args.output,
            title=args.title,
            add_givens=args.add_givens,
            time_limit=None if args.time_limit is None else max(args.time_limit - spent, 0.0),
            inputs=[args.drawing or args.image],
            mono=args.mono,
        )
    except (PictureStopped, NoPicture) as exc:  # no solution, or none found in time: exit 1
        print(f"xlsolver: {exc}", file=sys.stderr)
        return EXIT_UNSOLVED
    except BAD_INPUT as exc:
        return fail(exc, args.drawing or args.image)
    h, w = drawing.picture.shape
    _say_how_read(args, drawing, size)
    extra = {"output": str(path), "width": w, "height": h}
    code = report(args.drawing or args.image, verdict, args.json, f"{path} ({w}×{h})", extra)
    if verdict.suggestion and args.add_givens and not args.json:
        print("  the suggested givens are printed on the puzzle sheet")
    palette = getattr(verdict, "palette", None)  # a ColourVerdict's
    if palette is not None and not args.json:
        n = len(palette.inks)
        if origin == "puzzle":
            print(f"  a colour puzzle in {n} colours")
        else:
            inks = f"{n} fill colours" if origin == "drawing" else f"{n} colours"
            print(f"  a colour puzzle, from the {origin}'s {inks} (--mono: black and white)")
    return code


def _say_how_read(args: argparse.Namespace, drawing, size) -> None:
    """On stderr, what a person should know of how the drawing was read: an image's
    blocks and colours, fills merged or too pale, parts standing apart."""
    h, w = drawing.picture.shape
    if args.image and size is None and drawing.pixels != (w, h) and not args.json:
        pw, ph = drawing.pixels
        print(
            f"xlsolver: {args.image}: {pw}×{ph} pixels drawn in blocks of {pw // w}×{ph // h},"
            f" read as {w}×{h} cells (--size {pw}x{ph} for a cell a pixel)",
            file=sys.stderr,
        )
    if drawing.shades and not (args.json or args.mono):
        from ..teaching.image import MAX_FLAT_COLOURS

        print(
            f"xlsolver: {args.image}: {drawing.shades:,} colours, more than a colour puzzle "
            f"takes ({MAX_FLAT_COLOURS}): read in black and white by the threshold; for a "
            f"colour puzzle save the picture in at most {MAX_FLAT_COLOURS} flat colours as "
            f"PNG (a JPEG's compression adds shades of its own)",
            file=sys.stderr,
        )
    if drawing.merged and not (args.json or args.mono):
        same = ", ".join(f"{fill} as {ink}" for fill, ink in drawing.merged.items())
        one = "" if drawing.colours is not None else " (one colour left: black and white)"
        print(
            f"xlsolver: {args.drawing}: colours too close to tell apart, read as one: {same}" + one,
            file=sys.stderr,
        )
    if drawing.pale and not args.json:
        n = sum(drawing.pale.values())
        print(
            f"xlsolver: {args.drawing}: {n} cell{'s' if n > 1 else ''} in fills too light to "
            f"print as ink ({', '.join(drawing.pale)}) read as paper; fill them darker to "
            f"make them part of the picture",
            file=sys.stderr,
        )
    if drawing.parts and not args.json:
        from ..workbook.address import rect_ref, where

        apart = ", ".join(rect_ref(part) for part in drawing.parts)
        print(
            f"xlsolver: {args.drawing}: {where(drawing.sheet, drawing.rect)} is read as one "
            f"drawing, though its parts {apart} stand apart; for one of them alone give "
            f"--range {where(drawing.sheet, drawing.parts[0])}",
            file=sys.stderr,
        )

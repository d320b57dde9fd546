"""Build workbooks/xlsolver.xlsm: a puzzle sheet with New grid / Solve / Hint / Clear buttons.

    python workbooks/build_xlsm.py                 # rebuild from the files in workbooks/vba/
                                                   # (and xlsolver/data/buttons.xlsm)
    python workbooks/build_xlsm.py --from-xlwings  # first refresh vba/vbaProject.bin from the
                                                   # installed xlwings' standalone quickstart

How the VBA project is made: ``xlwings quickstart NAME --standalone`` ships a ready
vbaProject.bin (xlwings' own ``xlwings`` module with ``RunPython``, a ``Dictionary`` class,
and a ``Module1`` holding a sample). We keep xlwings' project and only replace the source
of ``Module1`` with workbooks/vba/Module1.bas (MS-OVBA compression, and the module's
offset in the ``dir`` stream set to 0, dropping the p-code that the project's version
0xFFFF tells Excel to ignore anyway); see workbooks/vba_project.py. xlsxwriter then writes
the .xlsm (VBA project, sheet code names, buttons) and openpyxl (keep_vba) lays out the
sample puzzle with xlsolver's own template writer. Zip dates and document times are fixed
so the same inputs give the same bytes.
"""

from __future__ import annotations

import argparse
import io
import re
import struct
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent))

from vba_project import compress, decompress, read_cfb, write_cfb  # noqa: E402

VBA_DIR = HERE / "vba"
MODULE_SOURCE = VBA_DIR / "Module1.bas"
VBA_BIN = VBA_DIR / "vbaProject.bin"
OUTPUT = HERE / "xlsolver.xlsm"
# The same workbook without the sample, shipped inside the package (a wheel has no
# workbooks/ folder): ``xlsolver new -o NAME.xlsm`` lays a template out on it.
PACKAGE_COPY = HERE.parent / "xlsolver" / "data" / "buttons.xlsm"
MODULE = "Module1"
CODEPAGE = "cp1252"
FIXED_TIME = "2026-01-01T00:00:00Z"
ZIP_DATE = (1980, 1, 1, 0, 0, 0)
SAMPLE_TITLE = "A boat: press Solve"
SAMPLE = [
    "....#.....",
    "....##....",
    "....###...",
    "....####..",
    "....#.....",
    "##########",
    ".########.",
    "..######..",
    "..........",
    "###.##.###",
]
BUTTONS = [  # caption, VBA macro
    ("New grid", "NewGrid"),
    ("Solve", "SolvePuzzle"),
    ("Hint", "HintStep"),
    ("Clear", "ClearGrid"),
]
BUTTON_WIDTH, BUTTON_HEIGHT = 90, 26
XLWINGS_CONF = [
    ("Instructions:", 'Rename this sheet to "xlwings.conf" to activate these settings.'),
    ("Interpreter_Win", ""),
    ("Interpreter_Mac", ""),
    ("PYTHONPATH", ""),
    ("Conda Path", ""),
    ("Conda Env", ""),
]


def module_record_offset(dir_stream: bytes, module: str) -> int:
    """Where the 4-byte MODULEOFFSET value of a module sits in the decompressed dir stream."""
    name = module.encode(CODEPAGE)
    stream_name = b"\x1a\x00" + struct.pack("<I", len(name)) + name  # MODULESTREAMNAME
    at = dir_stream.find(stream_name)
    offset_record = dir_stream.find(b"\x31\x00\x04\x00\x00\x00", at)  # MODULEOFFSET
    if at < 0 or offset_record < 0:
        raise ValueError(f"module {module} not found in the VBA project's dir stream")
    return offset_record + 6


def module_source(items: dict, module: str = MODULE) -> str:
    """The VBA source of a module in a project (for checks)."""
    directory = decompress(items[("VBA", "dir")])
    (offset,) = struct.unpack_from("<I", directory, module_record_offset(directory, module))
    return decompress(items[("VBA", module)][offset:]).decode(CODEPAGE)


def inject(base: bytes, source: str, module: str = MODULE) -> bytes:
    """A vbaProject.bin with a module's source replaced (no p-code kept)."""
    items = read_cfb(base)
    version = items[("VBA", "_VBA_PROJECT")][2:4]
    if version != b"\xff\xff":
        raise ValueError("the base project carries compiled p-code for one Excel version")
    directory = bytearray(decompress(items[("VBA", "dir")]))
    struct.pack_into("<I", directory, module_record_offset(bytes(directory), module), 0)
    items[("VBA", "dir")] = compress(bytes(directory))
    text = "\r\n".join(source.splitlines()) + "\r\n"
    items[("VBA", module)] = compress(text.encode(CODEPAGE))
    return write_cfb(items)


def xlwings_base() -> bytes:
    """xlwings' standalone quickstart VBA project (``xlwings quickstart --standalone``)."""
    import xlwings

    path = Path(xlwings.__file__).parent / "quickstart_standalone.xlsm"
    with zipfile.ZipFile(path) as zf:
        return zf.read("xl/vbaProject.bin")


def write_base_workbook(path: Path, vba: bytes) -> None:
    """xlsxwriter: the VBA project, the sheets with matching code names, the buttons."""
    import xlsxwriter

    from xlsolver.workbook.template import plan

    layout = plan(len(SAMPLE[0]), len(SAMPLE))
    wb = xlsxwriter.Workbook(str(path))
    wb.set_properties({"title": "xlsolver", "created": _fixed_datetime()})
    wb.set_vba_name("ThisWorkbook")
    vba_file = path.with_suffix(".vba.bin")
    vba_file.write_bytes(vba)
    wb.add_vba_project(str(vba_file))
    puzzle = wb.add_worksheet("Puzzle")
    puzzle.set_vba_name("Sheet1")
    conf = wb.add_worksheet("_xlwings.conf")
    conf.set_vba_name("Sheet2")
    for r, (key, value) in enumerate(XLWINGS_CONF):
        conf.write(r, 0, key)
        conf.write(r, 1, value)
    col = max(layout.grid[3], layout.print_area[3]) + 1  # 1-based column right of the sheet
    for i, (caption, macro) in enumerate(BUTTONS):
        puzzle.insert_button(
            layout.col_band[0] - 1 + i * 2,
            col,
            {"macro": macro, "caption": caption, "width": BUTTON_WIDTH, "height": BUTTON_HEIGHT},
        )
    wb.close()
    vba_file.unlink()


def lay_out_sample(path: Path) -> None:
    """openpyxl (keep_vba): the sample puzzle in the template layout."""
    from xlsolver.nonogram.cells import solution_from_rows
    from xlsolver.nonogram.puzzle import Puzzle
    from xlsolver.sheets.openpyxl_sheet import open_book
    from xlsolver.workbook.template import write_template

    book = open_book(path)
    puzzle = Puzzle.from_solution(solution_from_rows(SAMPLE))
    write_template(book.sheet("Puzzle"), puzzle, title=SAMPLE_TITLE, checks=True)
    book.wb.save(path)


def _fixed_datetime():
    """The document time written into every build."""
    from datetime import datetime, timezone

    return datetime(2026, 1, 1, tzinfo=timezone.utc)


def normalise(path: Path) -> None:
    """Fixed zip dates, member order, content-type order and document times.

    openpyxl writes the content types from a set, whose order changes with Python's
    hash seed from one process to the next; they are sorted here.
    """
    with zipfile.ZipFile(path) as zf:
        members = {name: zf.read(name) for name in zf.namelist()}
    core = members.get("docProps/core.xml")
    if core is not None:
        text = core.decode("utf-8")
        text = re.sub(
            r"(<dcterms:(created|modified)[^>]*>)[^<]*(</dcterms:\2>)",
            lambda m: m.group(1) + FIXED_TIME + m.group(3),
            text,
        )
        members["docProps/core.xml"] = text.encode("utf-8")
    types = members["[Content_Types].xml"].decode("utf-8")
    parts = re.findall(r"<(?:Default|Override) [^>]*/>", types)
    head = types[: types.index(parts[0])]
    tail = types[types.rindex(parts[-1]) + len(parts[-1]) :]
    members["[Content_Types].xml"] = (head + "".join(sorted(parts)) + tail).encode("utf-8")
    first = ["[Content_Types].xml"]
    order = first + sorted(n for n in members if n not in first)
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as out:
        for name in order:
            info = zipfile.ZipInfo(name, ZIP_DATE)
            info.compress_type = zipfile.ZIP_DEFLATED
            out.writestr(info, members[name])
    path.write_bytes(buffer.getvalue())


def build(
    output: Path = OUTPUT, *, from_xlwings: bool = False, package_copy: Path | None = PACKAGE_COPY
) -> Path:
    """Write the workbook (and refresh vba/vbaProject.bin when asked); its path.

    ``package_copy`` receives the workbook before the sample is laid out (buttons, VBA,
    an empty Puzzle sheet); ``None`` skips it.
    """
    base = xlwings_base() if from_xlwings else VBA_BIN.read_bytes()
    vba = inject(base, MODULE_SOURCE.read_text(encoding=CODEPAGE))
    if from_xlwings:
        VBA_BIN.write_bytes(vba)
    tmp = output.with_name(f".{output.stem}.tmp.xlsm")
    write_base_workbook(tmp, vba)
    if package_copy is not None:
        normalise(tmp)
        package_copy.parent.mkdir(parents=True, exist_ok=True)
        package_copy.write_bytes(tmp.read_bytes())
    lay_out_sample(tmp)
    normalise(tmp)
    tmp.replace(output)
    return output


def main(argv: list[str] | None = None) -> int:
    """Command line of the build script."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("-o", "--output", type=Path, default=OUTPUT)
    parser.add_argument(
        "--from-xlwings",
        action="store_true",
        help="refresh vba/vbaProject.bin from the installed xlwings' standalone quickstart",
    )
    args = parser.parse_args(argv)
    print(f"wrote {build(args.output, from_xlwings=args.from_xlwings)} and {PACKAGE_COPY}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

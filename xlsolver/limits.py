"""Limits in one place: the largest grid, the largest input, the default time limit.

Internal limits that choose a path are counts of work and live with the code that
counts; the only clock is the user's ``--time-limit``. The input limits here are checked
before anything of that size is allocated (see docs/safety.md).
"""

from __future__ import annotations

import os
import re

MAX_SIDE = 300  # sheets and drawings larger than this on either side are refused (CONVENTIONS §3)
MAX_FILE_SIDE = 1000  # puzzle files: the largest shared puzzles are 512×512 (Cauldron)
DEFAULT_TIME_LIMIT = 20.0  # seconds: make, check and hints stop here unless told otherwise
MAX_UNZIPPED = 100 * 2**20  # bytes: a workbook's parts together, once decompressed
MAX_CELLS = 1_000_000  # cells written in all the sheets of a workbook together
MAX_PUZZLE_FILE = 20 * 2**20  # bytes: a puzzle file (TAAI sets of 1000 puzzles are ~2 MB)

CELL_TAG = re.compile(rb"<(?:[A-Za-z_][\w.-]*:)?c[\s/>]")
CHUNK = 2**20
OVERLAP = 64  # longer than any cell tag


class TooLarge(ValueError):
    """An input over one of the limits above; the message says which and by how much."""


def _count_cells(part, limit: int) -> int:
    """The ``<c>`` elements of a worksheet part, read as a stream (bounded memory); the
    count stops soon after passing ``limit``."""
    count, carry = 0, b""
    while count <= limit:
        chunk = part.read(CHUNK)
        buffer = carry + chunk
        if not chunk:
            return count + sum(1 for _ in CELL_TAG.finditer(buffer))
        cut = max(0, len(buffer) - OVERLAP)
        count += sum(1 for m in CELL_TAG.finditer(buffer) if m.start() < cut)
        carry = buffer[cut:]
    return count


CELL_FREE = ("sharedStrings.xml", "styles.xml", "theme1.xml")  # large parts without cells


def check_workbook_zip(path: str | os.PathLike) -> None:
    """TooLarge when an .xlsx/.xlsm would decompress past MAX_UNZIPPED or hold more than
    MAX_CELLS cells: the zip's declared sizes first, then the sheets streamed and counted.

    The zip module stops reading a part at its declared size, so the declared sizes bound
    what any reader of the file decompresses.
    """
    import zipfile  # only for workbooks: a puzzle file starts without it

    with zipfile.ZipFile(path) as zf:
        infos = zf.infolist()
        total = sum(info.file_size for info in infos)
        if total > MAX_UNZIPPED:
            raise TooLarge(
                f"the workbook unpacks to {total / 2**20:.0f} MB "
                f"(at most {MAX_UNZIPPED // 2**20} MB are read)"
            )
        cells = 0
        for info in infos:  # every XML part: a sheet may be stored anywhere (xl/sheet.xml)
            if info.filename.endswith(".xml") and not info.filename.endswith(CELL_FREE):
                with zf.open(info) as part:
                    cells += _count_cells(part, MAX_CELLS - cells)
                if cells > MAX_CELLS:
                    raise TooLarge(
                        f"the workbook holds more than {MAX_CELLS:,} cells "
                        f"({info.filename} and before); a puzzle needs far fewer"
                    )

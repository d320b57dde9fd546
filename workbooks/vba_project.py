"""Just enough of two Microsoft formats to put our VBA module into a vbaProject.bin.

- MS-OVBA §2.4.1 compression, which VBA source is stored in (``compress``/``decompress``).
- MS-CFB, the compound file a vbaProject.bin is (``read_cfb``/``write_cfb``: version 3,
  512-byte sectors, a mini stream for streams under 4096 bytes).

Used by workbooks/build_xlsm.py only (not part of the xlsolver package).
"""

from __future__ import annotations

import struct

CHUNK = 4096
SECTOR = 512
MINI_SECTOR = 64
MINI_CUTOFF = 4096
FREESECT, ENDOFCHAIN, FATSECT, NOSTREAM = 0xFFFFFFFF, 0xFFFFFFFE, 0xFFFFFFFD, 0xFFFFFFFF
MAGIC = bytes.fromhex("d0cf11e0a1b11ae1")
STORAGE, STREAM, ROOT = 1, 2, 5
NODE_BLACK = 1  # the colour of a directory entry in its red-black sibling tree


def _bit_count(done: int) -> int:
    """Bits of a copy token's offset for a position ``done`` bytes into a chunk."""
    return max((done - 1).bit_length(), 4)


def decompress(data: bytes) -> bytes:
    """MS-OVBA decompression of a CompressedContainer."""
    if not data or data[0] != 1:
        raise ValueError("not an MS-OVBA compressed container")
    out = bytearray()
    pos = 1
    while pos < len(data):
        header = int.from_bytes(data[pos : pos + 2], "little")
        size = (header & 0x0FFF) + 3
        chunk = data[pos + 2 : pos + size]
        pos += size
        start = len(out)
        if not header & 0x8000:
            out += chunk
            continue
        i = 0
        while i < len(chunk):
            flags = chunk[i]
            i += 1
            for bit in range(8):
                if i >= len(chunk):
                    break
                if flags >> bit & 1:
                    token = int.from_bytes(chunk[i : i + 2], "little")
                    i += 2
                    bits = _bit_count(len(out) - start)
                    length = (token & (0xFFFF >> bits)) + 3
                    offset = (token >> (16 - bits)) + 1
                    for _ in range(length):
                        out.append(out[-offset])
                else:
                    out.append(chunk[i])
                    i += 1
    return bytes(out)


def _longest_match(data: bytes, start: int, pos: int, end: int) -> tuple[int, int]:
    """(offset, length) of the longest earlier match inside the chunk, length 0 if none."""
    bits = _bit_count(pos - start)
    max_length = min((0xFFFF >> bits) + 3, end - pos)
    best_len, best_off = 0, 0
    for candidate in range(pos - 1, start - 1, -1):
        n = 0
        while n < max_length and data[candidate + n] == data[pos + n]:
            n += 1
        if n > best_len:
            best_len, best_off = n, pos - candidate
            if n == max_length:
                break
    return best_off, best_len


def compress(data: bytes) -> bytes:
    """MS-OVBA compression into a CompressedContainer."""
    out = bytearray(b"\x01")
    for start in range(0, len(data), CHUNK):
        end = min(start + CHUNK, len(data))
        body = bytearray()
        pos = start
        while pos < end:
            flag_at = len(body)
            body.append(0)
            flags = 0
            for bit in range(8):
                if pos >= end:
                    break
                offset, length = _longest_match(data, start, pos, end)
                if length >= 3:
                    bits = _bit_count(pos - start)
                    token = ((offset - 1) << (16 - bits)) | (length - 3)
                    body += struct.pack("<H", token)
                    flags |= 1 << bit
                    pos += length
                else:
                    body.append(data[pos])
                    pos += 1
            body[flag_at] = flags
        if len(body) > CHUNK and end - start == CHUNK:  # store raw
            out += struct.pack("<H", 0x3FFF) + data[start:end]
        else:
            out += struct.pack("<H", 0xB000 | (len(body) + 2 - 3)) + body
    return bytes(out)


# ---- compound files ----------------------------------------------------------------------


def read_cfb(blob: bytes) -> dict[tuple[str, ...], bytes | None]:
    """Every storage (value None) and stream of a compound file, by path from the root."""
    if blob[:8] != MAGIC:
        raise ValueError("not a compound file")
    sector = 1 << struct.unpack_from("<H", blob, 0x1E)[0]
    mini = 1 << struct.unpack_from("<H", blob, 0x20)[0]
    n_fat, first_dir = struct.unpack_from("<II", blob, 0x2C)
    cutoff, first_minifat, n_minifat, first_difat, n_difat = struct.unpack_from(
        "<IIIII", blob, 0x38
    )

    def sector_bytes(i: int) -> bytes:
        return blob[(i + 1) * sector : (i + 2) * sector]

    difat = list(struct.unpack_from("<109I", blob, 0x4C))
    nxt = first_difat
    for _ in range(n_difat):
        words = struct.unpack(f"<{sector // 4}I", sector_bytes(nxt))
        difat += words[:-1]
        nxt = words[-1]
    fat: list[int] = []
    for i in difat[:n_fat]:
        fat += struct.unpack(f"<{sector // 4}I", sector_bytes(i))

    def chain(first: int, table: list[int]) -> list[int]:
        out = []
        while first not in (ENDOFCHAIN, FREESECT) and len(out) <= len(table):
            out.append(first)
            first = table[first]
        return out

    def big(first: int) -> bytes:
        return b"".join(sector_bytes(i) for i in chain(first, fat))

    directory = big(first_dir)
    entries = [directory[i : i + 128] for i in range(0, len(directory), 128)]
    minifat_bytes = big(first_minifat) if n_minifat else b""
    minifat = list(struct.unpack(f"<{len(minifat_bytes) // 4}I", minifat_bytes))
    root_start, root_size = struct.unpack_from("<IQ", entries[0], 0x74)
    ministream = big(root_start)[:root_size]

    def stream(entry: bytes) -> bytes:
        start, size = struct.unpack_from("<IQ", entry, 0x74)
        size &= 0xFFFFFFFF
        if size < cutoff:
            data = b"".join(ministream[i * mini : (i + 1) * mini] for i in chain(start, minifat))
        else:
            data = big(start)
        return data[:size]

    out: dict[tuple[str, ...], bytes | None] = {}

    def walk(index: int, parent: tuple[str, ...]) -> None:
        if index == NOSTREAM:
            return
        entry = entries[index]
        name_len = struct.unpack_from("<H", entry, 0x40)[0]
        name = entry[: max(name_len - 2, 0)].decode("utf-16-le")
        kind = entry[0x42]
        left, right, child = struct.unpack_from("<III", entry, 0x44)
        path = parent + (name,)
        out[path] = stream(entry) if kind == STREAM else None
        walk(left, parent)
        walk(right, parent)
        if kind == STORAGE:
            walk(child, path)

    walk(struct.unpack_from("<I", entries[0], 0x4C)[0], ())
    return out


def _order(name: str) -> tuple[int, str]:
    """MS-CFB's sibling order: shorter names first, then by upper-case name."""
    return (len(name), name.upper())


def _sibling_trees(
    items: dict[tuple[str, ...], bytes | None], paths: list[tuple[str, ...]], index: dict
) -> tuple[dict[int, tuple[int, int]], dict[int, int]]:
    """Left/right links of every entry and the root of each storage's sibling tree."""
    children: dict[tuple[str, ...], list[tuple[str, ...]]] = {(): []}
    for path in paths:
        children.setdefault(path[:-1], []).append(path)
        if items[path] is None:
            children.setdefault(path, [])
    links: dict[int, tuple[int, int]] = {}

    def tree(kids: list[tuple[str, ...]]) -> int:
        """A balanced binary tree of siblings (all black); its root entry."""
        if not kids:
            return NOSTREAM
        kids = sorted(kids, key=lambda p: _order(p[-1]))
        mid = len(kids) // 2
        links[index[kids[mid]]] = (tree(kids[:mid]), tree(kids[mid + 1 :]))
        return index[kids[mid]]

    child_of = {index[p]: tree(k) for p, k in children.items()}
    return links, child_of


def _mini_stream(
    items: dict[tuple[str, ...], bytes | None], paths: list[tuple[str, ...]]
) -> tuple[bytearray, list[int], dict[tuple[str, ...], int]]:
    """The mini stream holding the small streams, its FAT, and where each stream starts."""
    ministream, minifat, placed = bytearray(), [], {}
    for path in paths:
        data = items[path]
        if data is not None and len(data) < MINI_CUTOFF:
            first = len(minifat) if data else ENDOFCHAIN
            n = -(-len(data) // MINI_SECTOR)
            minifat += [len(minifat) + k + 1 for k in range(n)]
            if n:
                minifat[-1] = ENDOFCHAIN
            placed[path] = first
            ministream += data + b"\0" * (n * MINI_SECTOR - len(data))
    return ministream, minifat, placed


def write_cfb(items: dict[tuple[str, ...], bytes | None]) -> bytes:
    """A version-3 compound file holding these storages (None) and streams."""
    paths = sorted(items, key=lambda p: (len(p), [_order(n) for n in p]))
    index = {(): 0}
    for i, path in enumerate(paths, start=1):
        index[path] = i
    links, child_of = _sibling_trees(items, paths, index)
    ministream, minifat, placed = _mini_stream(items, paths)
    big_streams = [p for p in paths if items[p] is not None and len(items[p]) >= MINI_CUTOFF]
    n_dir = -(-(len(paths) + 1) // 4)
    n_mini = -(-len(ministream) // SECTOR)
    n_minifat = -(-len(minifat) * 4 // SECTOR)
    n_big = sum(-(-len(items[p]) // SECTOR) for p in big_streams)
    body = n_dir + n_mini + n_minifat + n_big
    n_fat = 1
    while n_fat * (SECTOR // 4) < body + n_fat:
        n_fat += 1
    if n_fat > 109:
        raise ValueError("vbaProject too large for this small writer")
    fat = [FATSECT] * n_fat
    pieces: list[bytes] = []

    def add(data: bytes) -> int:
        n = -(-len(data) // SECTOR)
        if n == 0:
            return ENDOFCHAIN
        first = len(fat)
        fat.extend(first + k + 1 for k in range(n))
        fat[-1] = ENDOFCHAIN
        pieces.append(data + b"\0" * (n * SECTOR - len(data)))
        return first

    entries: list[bytes] = []
    dir_first = add(b"\0" * (n_dir * SECTOR))  # placeholder, filled below
    mini_first = add(bytes(ministream))
    minifat_first = add(struct.pack(f"<{len(minifat)}I", *minifat)) if minifat else ENDOFCHAIN
    for path in big_streams:
        placed[path] = add(items[path])
    fat += [FREESECT] * (n_fat * (SECTOR // 4) - len(fat))

    def entry(name: str, kind: int, number: int, start: int, size: int) -> bytes:
        raw = name.encode("utf-16-le") + b"\0\0"
        left, right = links.get(number, (NOSTREAM, NOSTREAM))
        child = child_of.get(number, NOSTREAM) if kind != STREAM else NOSTREAM
        return (
            raw.ljust(64, b"\0")
            + struct.pack("<HBB", len(raw), kind, NODE_BLACK)
            + struct.pack("<III", left, right, child)
            + b"\0" * 16
            + b"\0" * 4
            + b"\0" * 16
            + struct.pack("<IQ", start, size)
        )

    entries.append(entry("Root Entry", ROOT, 0, mini_first, len(ministream)))
    for path in paths:
        data = items[path]
        if data is None:
            entries.append(entry(path[-1], STORAGE, index[path], 0, 0))
        else:
            entries.append(entry(path[-1], STREAM, index[path], placed[path], len(data)))
    empty = b"\0" * 64 + struct.pack("<HBB", 0, 0, 0) + struct.pack("<III", *[NOSTREAM] * 3)
    empty = empty.ljust(128, b"\0")
    directory = b"".join(entries) + empty * (n_dir * 4 - len(entries))
    pieces[0] = directory
    header = bytearray(SECTOR)
    header[:8] = MAGIC
    struct.pack_into("<HHHHH", header, 0x18, 0x3E, 3, 0xFFFE, 9, 6)
    struct.pack_into("<I", header, 0x2C, n_fat)
    struct.pack_into("<I", header, 0x30, dir_first)
    struct.pack_into("<I", header, 0x38, MINI_CUTOFF)
    struct.pack_into("<II", header, 0x3C, minifat_first, n_minifat)
    struct.pack_into("<II", header, 0x44, ENDOFCHAIN, 0)
    difat = list(range(n_fat)) + [FREESECT] * (109 - n_fat)
    struct.pack_into("<109I", header, 0x4C, *difat)
    fat_bytes = struct.pack(f"<{len(fat)}I", *fat)
    return bytes(header) + fat_bytes + b"".join(pieces)

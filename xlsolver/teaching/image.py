"""A small picture (PNG and other Pillow formats) → a drawing: black and white, or a
colour drawing when the image is drawn in a few flat colours (pixel art, a solution
picture), each cell taking the ink nearest its average colour."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..limits import MAX_SIDE
from ..nonogram.colour_puzzle import Palette
from ..sheets.errors import WorkbookError
from .drawing import Drawing

DEFAULT_THRESHOLD = 128  # grey levels below this (0 black … 255 white) are black
MAX_FLAT_COLOURS = 12  # an image with more ink colours is a photo: black and white
PAPER_GREY = 242  # lighter pixels are the paper when colours are read
SHADE = 48  # pixels this close (each channel) to a colour are shades of it (JPEG noise)
FLAT_SHARE = 0.9  # the shades of the flat colours cover this much of the ink, or it is a photo
MAX_CENTRES = 4 * MAX_FLAT_COLOURS  # more groups of shades than this: a photo, looked at no further


def _pillow():
    """The PIL.Image module, or an error telling which extra brings it."""
    try:
        from PIL import Image, ImageOps
    except ModuleNotFoundError:
        raise WorkbookError("reading images needs Pillow: pip install pillow") from None
    return Image, ImageOps


def read_image(
    path: str | os.PathLike,
    *,
    size: tuple[int, int] | None = None,
    threshold: int = DEFAULT_THRESHOLD,
) -> Drawing:
    """The picture of an image: scaled to ``size`` (width, height) by area, then thresholded.

    Without ``size``, a cell is a pixel, or a block of pixels when the image is pixel
    art scaled up (see :func:`cells_of`).
    """
    Image, ImageOps = _pillow()
    if not 0 < threshold <= 255:
        raise WorkbookError(f"threshold {threshold}: use 1…255")
    try:
        with Image.open(path) as img:
            img = ImageOps.exif_transpose(img)
            if img.mode in ("RGBA", "LA", "P"):
                rgba = img.convert("RGBA")
                paper = Image.new("RGBA", rgba.size, (255, 255, 255, 255))
                img = Image.alpha_composite(paper, rgba)
            rgb = img.convert("RGB")
            grey = grey_full = img.convert("L")
    except (OSError, SyntaxError, ValueError) as exc:
        raise WorkbookError(f"{path}: not a readable image ({exc})") from None
    width, height = size or cells_of(rgb)
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise WorkbookError(
            f"{path}: {width}×{height} cells; give --size up to {MAX_SIDE}x{MAX_SIDE}"
        )
    if (width, height) != grey.size:
        grey = grey.resize((width, height), Image.Resampling.BOX)
    picture = np.asarray(grey, dtype=np.uint8) < threshold
    colours, palette = image_colours(rgb, grey_full, (width, height))
    if not picture.any() and colours is None:
        raise WorkbookError(f"{path}: no pixel is darker than the threshold {threshold}")
    rect = (1, 1, height, width)
    drawing = Drawing(picture, Path(path).stem, "", rect, colours, palette, rgb.size)
    if colours is None:
        drawing.shades = photo_shades(rgb, grey_full)
    return drawing


def _scale(pixels: np.ndarray) -> int:
    """The largest step every run of equal pixels along axis 1 is a multiple of (starts
    included), and the length is: pixel art scaled up k times has k."""
    change = (pixels[:, 1:] != pixels[:, :-1]).any(axis=tuple(range(2, pixels.ndim)))
    starts = np.flatnonzero(change.any(axis=0)) + 1  # columns where some row's run begins
    return int(np.gcd.reduce(np.append(starts, pixels.shape[1])))


def cells_of(rgb) -> tuple[int, int]:
    """(width, height) in cells of an image without ``--size``: one cell a pixel, or one
    cell a block when the image is pixel art scaled up by whole numbers (each pixel
    drawn as a k×k block, as exported by pixel-art editors); then the blocks."""
    pixels = np.asarray(rgb)
    sx = _scale(pixels)
    sy = _scale(pixels.swapaxes(0, 1))
    return pixels.shape[1] // sx, pixels.shape[0] // sy


def image_colours(rgb, grey, size: tuple[int, int]):
    """(colour numbers, palette) of a flat-colour image: two to MAX_FLAT_COLOURS colours
    other than the white paper, one of them not grey; else (None, None), a black-and-white
    picture. Each cell takes the colour (or paper) nearest its average colour."""
    from PIL import Image

    inks, counts = _inks(rgb, grey)
    chromatic = (inks.max(axis=1) != inks.min(axis=1)).any() if len(inks) else False
    if len(inks) > MAX_FLAT_COLOURS:
        inks = flat_colours(inks, counts, rgb.size[0] * rgb.size[1] / (size[0] * size[1]))
    if not chromatic or not 2 <= len(inks) <= MAX_FLAT_COLOURS:
        return None, None  # shades of grey, or a photo: black and white by the threshold
    mean = rgb if rgb.size == size else rgb.resize(size, Image.Resampling.BOX)
    cells = np.asarray(mean, dtype=np.int64)
    choices = np.vstack([[[255, 255, 255]], inks])  # 0 is the paper
    nearest = np.abs(cells[:, :, None, :] - choices[None, None]).sum(axis=3).argmin(axis=2)
    order: dict[int, int] = {}
    numbers = np.zeros(nearest.shape, dtype=np.int16)
    for (r, c), k in np.ndenumerate(nearest):
        if k:
            numbers[r, c] = order.setdefault(int(k), len(order) + 1)
    if len(order) < 2:
        return None, None
    names = ["#" + "".join(f"{int(v):02x}" for v in choices[k]) for k in order]
    return numbers, Palette.build([(name, name, None) for name in names])


def _inks(rgb, grey) -> tuple[np.ndarray, np.ndarray]:
    """The distinct colours of the pixels darker than the paper, and how many of each."""
    pixels = np.asarray(rgb, dtype=np.int64).reshape(-1, 3)
    ink = pixels[np.asarray(grey, dtype=np.uint8).reshape(-1) < PAPER_GREY]
    return np.unique(ink, axis=0, return_counts=True)


def flat_colours(inks: np.ndarray, counts: np.ndarray, cell: float) -> np.ndarray:
    """The flat colours of an image whose colours are shades of a few (a JPEG's noise
    around each colour, the blur at its edges): the commonest colour not yet taken is a
    centre and takes every colour within SHADE of it, again and again; the centres
    covering half a cell or more are the flat colours when they hold FLAT_SHARE of the
    ink, else all colours come back (a photo; so do more than MAX_CENTRES centres)."""
    left = np.ones(len(inks), dtype=bool)
    centres: list[np.ndarray] = []
    held: list[int] = []
    while left.any() and len(centres) <= MAX_CENTRES:
        i = int(np.flatnonzero(left)[np.argmax(counts[left])])
        near = left & (np.abs(inks - inks[i]).max(axis=1) <= SHADE)
        centres.append(inks[i])
        held.append(int(counts[near].sum()))
        left &= ~near
    kept = [k for k, n in enumerate(held) if n >= cell / 2]
    if left.any() or len(kept) > MAX_FLAT_COLOURS:
        return inks
    if sum(held[k] for k in kept) < FLAT_SHARE * counts.sum():
        return inks
    return np.array([centres[k] for k in kept])


def photo_shades(rgb, grey) -> int | None:
    """How many colours an image read in black and white has when it has colour (not only
    greys) — too many shades to be flat colours; None for shades of grey."""
    inks, _ = _inks(rgb, grey)
    if not len(inks) or not (inks.max(axis=1) != inks.min(axis=1)).any():
        return None
    return len(inks) if len(inks) > MAX_FLAT_COLOURS else None

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
    drawing = Drawing(
        picture, Path(path).stem, "", (1, 1, height, width), colours, palette, rgb.size
    )
    if colours is None:
        inks = _inks(rgb, grey_full)
        if len(inks) > MAX_FLAT_COLOURS and _chromatic(inks):
            drawing.shades = len(inks)
    return drawing


def _inks(rgb, grey) -> np.ndarray:
    """The distinct colours of an image's pixels darker than paper (one row each)."""
    pixels = np.asarray(rgb, dtype=np.int64).reshape(-1, 3)
    return np.unique(pixels[np.asarray(grey, dtype=np.uint8).reshape(-1) < PAPER_GREY], axis=0)


def _chromatic(inks: np.ndarray) -> bool:
    """True when some colour is not a grey."""
    return bool((inks.max(axis=1) != inks.min(axis=1)).any()) if len(inks) else False


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

    inks = _inks(rgb, grey)
    if not _chromatic(inks) or not 2 <= len(inks) <= MAX_FLAT_COLOURS:
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

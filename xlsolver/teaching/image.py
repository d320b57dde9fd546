"""A small black-and-white picture (PNG and other Pillow formats) → a drawing."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np

from ..limits import MAX_SIDE
from ..sheets.errors import WorkbookError
from .drawing import Drawing

DEFAULT_THRESHOLD = 128  # grey levels below this (0 black … 255 white) are black


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
    """The picture of an image: scaled to ``size`` (width, height) by area, then thresholded."""
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
            grey = img.convert("L")
    except (OSError, SyntaxError, ValueError) as exc:
        raise WorkbookError(f"{path}: not a readable image ({exc})") from None
    width, height = size or grey.size
    if not (1 <= width <= MAX_SIDE and 1 <= height <= MAX_SIDE):
        raise WorkbookError(
            f"{path}: {width}×{height} cells; give --size up to {MAX_SIDE}x{MAX_SIDE}"
        )
    if (width, height) != grey.size:
        grey = grey.resize((width, height), Image.Resampling.BOX)
    picture = np.asarray(grey, dtype=np.uint8) < threshold
    if not picture.any():
        raise WorkbookError(f"{path}: no pixel is darker than the threshold {threshold}")
    return Drawing(picture, Path(path).stem, "", (1, 1, height, width))

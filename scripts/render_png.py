"""Render a workbook's sheet to PNG with headless LibreOffice (xlsx → PDF → pdftoppm).

python scripts/render_png.py solved.xlsx -o solved.png [--dpi 110]
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from xlsolver.libreoffice.server import INSTALL_HINT, find_soffice


def render(workbook: Path, png: Path, dpi: int = 110) -> Path:
    """Convert the workbook's first printed page to a PNG; RuntimeError when a tool is missing."""
    soffice = find_soffice()
    if soffice is None or shutil.which("pdftoppm") is None:
        raise RuntimeError(f"needs soffice and pdftoppm (poppler-utils); {INSTALL_HINT}")
    with tempfile.TemporaryDirectory(prefix="xlsolver-render-") as tmp:
        profile = Path(tmp, "profile").as_uri()
        subprocess.run(
            [
                soffice,
                "--headless",
                f"-env:UserInstallation={profile}",
                "--convert-to",
                "pdf",
                "--outdir",
                tmp,
                str(workbook),
            ],
            check=True,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            timeout=120,
        )
        pdf = Path(tmp, workbook.with_suffix(".pdf").name)
        if not pdf.exists():
            raise RuntimeError(f"{workbook}: LibreOffice wrote no PDF")
        stem = Path(tmp, "page")
        subprocess.run(
            [
                "pdftoppm",
                "-png",
                "-r",
                str(dpi),
                "-f",
                "1",
                "-l",
                "1",
                "-singlefile",
                str(pdf),
                str(stem),
            ],
            check=True,
            timeout=120,
        )
        png.parent.mkdir(parents=True, exist_ok=True)
        shutil.move(str(stem.with_suffix(".png")), png)
    _trim(png)
    return png


def _trim(png: Path, margin: int = 12) -> None:
    """Cut the white page margins away (when Pillow is installed)."""
    try:
        from PIL import Image, ImageChops, ImageOps
    except ImportError:
        return
    with Image.open(png) as img:
        rgb = img.convert("RGB")
    box = ImageChops.difference(rgb, Image.new("RGB", rgb.size, "white")).getbbox()
    if box:
        ImageOps.expand(rgb.crop(box), border=margin, fill="white").save(png)


def main(argv: list[str] | None = None) -> int:
    """Command line: WORKBOOK -o PNG."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("workbook", type=Path)
    parser.add_argument("-o", "--output", type=Path, required=True)
    parser.add_argument("--dpi", type=int, default=110)
    args = parser.parse_args(argv)
    try:
        print(render(args.workbook, args.output, args.dpi))
    except (RuntimeError, subprocess.CalledProcessError, subprocess.TimeoutExpired) as exc:
        print(f"render_png: {exc}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())

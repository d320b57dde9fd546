"""Write the Calc macro file: a few lines that put xlsolver on LibreOffice's ``sys.path``.

LibreOffice runs Python macros in its own interpreter (Debian: ``/usr/bin/python3``), which
knows nothing of the environment xlsolver was installed into. The file written here adds
that environment's folders (xlsolver's own and its site-packages) and forwards each macro
to :mod:`xlsolver.libreoffice.macros`. The interpreters must share a Python minor version,
because numpy is compiled for one.
"""

from __future__ import annotations

import os
import site
import sys
import sysconfig
import tempfile
from pathlib import Path

import xlsolver

MACRO_FILE = "xlsolver.py"
ACTIONS = ("new_grid", "solve", "hint", "clear")
TEMPLATE = '''# xlsolver buttons for LibreOffice Calc, written by `xlsolver install-libreoffice`.
# Tools > Macros > Run Macro > My Macros > xlsolver. Regenerate after moving xlsolver.
import sys

PATHS = {paths!r}
BUILT_FOR = {version!r}
for _path in PATHS:
    if _path not in sys.path:
        sys.path.append(_path)


def _run(action, args):
    """Run one xlsolver action on the open document; the outcome as a line of text."""
    try:
        from xlsolver.libreoffice import macros
    except Exception as exc:
        here = "%d.%d" % sys.version_info[:2]
        message = "xlsolver cannot be imported in LibreOffice's Python %s (built for %s): %s" % (
            here, BUILT_FOR, exc)
        _tell(message)
        return "error: " + message
    return macros.run(action, XSCRIPTCONTEXT, args)


def _tell(message):
    """A message box when a document window is visible."""
    try:
        from com.sun.star.awt.MessageBoxType import ERRORBOX

        doc = XSCRIPTCONTEXT.getDocument()
        window = doc.getCurrentController().getFrame().getContainerWindow()
        box = window.getToolkit().createMessageBox(window, ERRORBOX, 1, "xlsolver", message)
        box.execute()
    except Exception:
        pass

'''
FUNCTION = '''
def {name}(*args):
    """xlsolver: {doc}"""
    return _run("{name}", args)

'''
DOCS = {
    "new_grid": "lay out an empty template for the width and height typed in the sheet",
    "solve": "solve the puzzle on the active sheet and paint the answer",
    "hint": "paint one more deduction, its reason in a cell note",
    "clear": "clear the grid, keeping clues and borders",
}


def package_paths() -> list[str]:
    """Folders LibreOffice's Python needs: xlsolver's parent and this environment's packages."""
    here = Path(next(iter(xlsolver.__path__))).resolve().parent
    paths = [str(here)]
    found = [sysconfig.get_paths()[key] for key in ("purelib", "platlib")]
    found += site.getsitepackages()  # a venv that sees the system's packages sees these too
    for path in found:
        if path not in paths:
            paths.append(path)
    return paths


def macro_source() -> str:
    """The text of the macro file."""
    version = f"{sys.version_info[0]}.{sys.version_info[1]}"
    text = TEMPLATE.format(paths=package_paths(), version=version)
    for name in ACTIONS:
        text += FUNCTION.format(name=name, doc=DOCS[name])
    text += f"\ng_exportedScripts = ({', '.join(ACTIONS)},)\n"
    return text


def default_profile() -> Path:
    """LibreOffice's usual user profile folder on this system."""
    if sys.platform == "win32":
        return Path(os.environ.get("APPDATA", "~")).expanduser() / "LibreOffice" / "4"
    if sys.platform == "darwin":
        return Path("~/Library/Application Support/LibreOffice/4").expanduser()
    config = os.environ.get("XDG_CONFIG_HOME") or "~/.config"
    return Path(config).expanduser() / "libreoffice" / "4"


def install(profile: Path | None = None) -> Path:
    """Write the macro file into ``<profile>/user/Scripts/python/``; its path."""
    folder = (profile or default_profile()) / "user" / "Scripts" / "python"
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / MACRO_FILE
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=".xlsolver-", suffix=".tmp")
    with os.fdopen(fd, "w", encoding="utf-8") as fh:
        fh.write(macro_source())
    os.replace(tmp, target)
    return target

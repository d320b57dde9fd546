"""A private headless LibreOffice reached through UNO, as a context manager.

    with LibreOffice() as lo:
        doc = lo.load("solved.xlsx")
        sheet = doc.Sheets.getByIndex(0)
        ...
        lo.close(doc)

Each server gets its own user profile in a temporary folder (so it never meets a running
LibreOffice or its lock files) and a free port; leaving the block closes the documents,
terminates the server and removes the profile. The ``uno`` module is Debian's
(python3-uno): its folder is appended to ``sys.path`` for any other Python 3.11.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path

from ..sheets import uno_sheet

SOFFICE_NAMES = ("soffice", "libreoffice")
START_TIMEOUT = 60.0  # seconds to wait for the server to accept a connection
STOP_TIMEOUT = 10.0
NEVER_EXECUTE = 0  # com.sun.star.document.MacroExecMode.NEVER_EXECUTE
NO_UPDATE = 0  # com.sun.star.document.UpdateDocMode.NO_UPDATE: links are not fetched
INSTALL_HINT = (
    "LibreOffice with Python UNO is needed: apt-get install libreoffice-calc-nogui "
    "python3-uno libreoffice-script-provider-python"
)


class LibreOfficeError(RuntimeError):
    """LibreOffice is missing, did not start, or could not load a document."""


def import_uno():
    """The ``uno`` module (see :func:`xlsolver.sheets.uno_sheet.import_uno`)."""
    try:
        return uno_sheet.import_uno()
    except ImportError as exc:
        raise LibreOfficeError(f"{exc}; {INSTALL_HINT}") from None


def find_soffice() -> str | None:
    """The soffice program on PATH (or the usual Debian place), None when absent."""
    for name in SOFFICE_NAMES:
        found = shutil.which(name)
        if found:
            return found
    fallback = Path("/usr/lib/libreoffice/program/soffice")
    return str(fallback) if fallback.exists() else None


def available() -> str:
    """Empty when LibreOffice + UNO can be used here, else the reason they cannot."""
    if find_soffice() is None:
        return f"soffice not found; {INSTALL_HINT}"
    try:
        import_uno()
    except LibreOfficeError as exc:
        return str(exc)
    return ""


def _free_port() -> int:
    """A TCP port nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def file_url(path: str | os.PathLike) -> str:
    """An absolute ``file://`` URL for a path."""
    return Path(path).resolve().as_uri()


def props(**values) -> tuple:
    """A tuple of UNO PropertyValue from keyword arguments."""
    uno = import_uno()
    out = []
    for name, value in values.items():
        p = uno.createUnoStruct("com.sun.star.beans.PropertyValue")
        p.Name, p.Value = name, value
        out.append(p)
    return tuple(out)


PRIVATE_PATTERN = re.compile(r"xlsolver-(?:lo|doc)-(\d+)-")


def private_dir(kind: str) -> Path:
    """A new private folder of this process in the temp folder: ``xlsolver-KIND-PID-…``
    (a LibreOffice profile, ``lo``, or a document's private copy, ``doc``)."""
    return Path(tempfile.mkdtemp(prefix=f"xlsolver-{kind}-{os.getpid()}-"))


def clean_stale_private(folder: str | os.PathLike | None = None) -> list[Path]:
    """Remove the private folders of processes that died without removing them (kill -9
    stops a process before it can): a LibreOffice profile, copies of the user's files.
    The ones removed."""
    from ..writes import orphans

    removed = orphans(Path(folder or tempfile.gettempdir()), PRIVATE_PATTERN)
    for path in removed:
        shutil.rmtree(path, ignore_errors=True)
    return removed


class LibreOffice:
    """A headless soffice with its own profile, connected through a UNO socket."""

    def __init__(
        self, *, timeout: float = START_TIMEOUT, profile: str | None = None, guarded: bool = False
    ):
        self.timeout = timeout
        self.guarded = guarded  # a watchdog kills the server if this process dies (kill -9)
        self._guard: subprocess.Popen | None = None
        self._own_profile = profile is None
        self.profile = Path(profile) if profile else private_dir("lo")
        self.port = _free_port()
        self.process: subprocess.Popen | None = None
        self.ctx = None
        self.desktop = None
        self._docs: list = []

    def __enter__(self) -> LibreOffice:
        self.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop()

    def start(self) -> None:
        """Start the server and connect; LibreOfficeError when it does not answer in time."""
        uno = import_uno()
        soffice = find_soffice()
        if soffice is None:
            raise LibreOfficeError(f"soffice not found; {INSTALL_HINT}")
        accept = f"socket,host=127.0.0.1,port={self.port};urp;StarOffice.ComponentContext"
        self.process = subprocess.Popen(
            [
                soffice,
                "--headless",
                "--invisible",
                "--nologo",
                "--norestore",
                "--nodefault",
                "--nolockcheck",
                f"-env:UserInstallation={self.profile.as_uri()}",
                f"--accept={accept}",
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        if self.guarded and os.name == "posix":  # from the first moment, not once connected
            from ..processes import guard_group

            with contextlib.suppress(OSError):
                self._guard = guard_group(self.process.pid)
        local = uno.getComponentContext()
        resolver = local.ServiceManager.createInstanceWithContext(
            "com.sun.star.bridge.UnoUrlResolver", local
        )
        url = f"uno:socket,host=127.0.0.1,port={self.port};urp;StarOffice.ComponentContext"
        deadline = time.monotonic() + self.timeout
        while True:
            try:
                self.ctx = resolver.resolve(url)
                break
            except Exception:
                if self.process.poll() is not None:
                    self.stop()
                    raise LibreOfficeError(
                        f"soffice exited with status {self.process.returncode}"
                    ) from None
                if time.monotonic() > deadline:
                    self.stop()
                    raise LibreOfficeError(
                        f"soffice did not answer within {self.timeout:.0f} s"
                    ) from None
                time.sleep(0.25)
        self.desktop = self.ctx.ServiceManager.createInstanceWithContext(
            "com.sun.star.frame.Desktop", self.ctx
        )

    def load(
        self,
        path: str | os.PathLike,
        *,
        hidden: bool = True,
        read_only: bool = False,
        untrusted: bool = False,
    ):
        """Open a document; LibreOfficeError if it cannot be loaded.

        A document opened for editing first loses a leftover ``.~lock`` file (CONVENTIONS
        §7: one makes the load fail silently). ``read_only`` opens it without a lock (it
        can be stored elsewhere but not changed); ``untrusted`` never runs its macros and
        never updates its links (files the command line opens).
        """
        path = Path(path).resolve()
        if not path.exists():
            raise LibreOfficeError(f"{path}: no such file")
        options: dict[str, object] = {"Hidden": hidden}
        if read_only:
            options["ReadOnly"] = True
        else:
            path.with_name(f".~lock.{path.name}#").unlink(missing_ok=True)
        if untrusted:
            options |= {"MacroExecutionMode": NEVER_EXECUTE, "UpdateDocMode": NO_UPDATE}
        try:
            doc = self.desktop.loadComponentFromURL(file_url(path), "_blank", 0, props(**options))
        except Exception as exc:  # IOException, IllegalArgumentException from the bridge
            reason = getattr(exc, "Message", "") or type(exc).__name__
            raise LibreOfficeError(f"{path}: LibreOffice could not load it ({reason})") from None
        if doc is None:
            raise LibreOfficeError(f"{path}: LibreOffice could not load it")
        self._docs.append(doc)
        return doc

    def save_as(self, doc, path: str | os.PathLike, filter_name: str = "Calc Office Open XML"):
        """Store a document under a new name with an export filter (e.g. ``calc_pdf_Export``)."""
        doc.storeToURL(file_url(path), props(FilterName=filter_name, Overwrite=True))

    def close(self, doc) -> None:
        """Close a document without saving."""
        with contextlib.suppress(Exception):
            doc.close(True)
        if doc in self._docs:
            self._docs.remove(doc)

    def stop(self) -> None:
        """Close documents, terminate the server, remove the private profile."""
        for doc in list(self._docs):
            self.close(doc)
        if self.desktop is not None:
            with contextlib.suppress(Exception):
                self.desktop.terminate()
        self.desktop = self.ctx = None
        if self.process is not None:
            try:
                self.process.wait(timeout=STOP_TIMEOUT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(timeout=STOP_TIMEOUT)
            _kill_group(self.process.pid)
            self.process = None
        if self._guard is not None:
            self._guard.kill()
            self._guard.wait()
            self._guard = None
        if self._own_profile:
            shutil.rmtree(self.profile, ignore_errors=True)


def _kill_group(leader: int) -> None:
    """Kill what is left of the server's process group.

    The launcher may restart ``soffice.bin`` (on a first start with a new profile); the
    restarted one outlives the launcher, so the group is killed, not only the launcher.
    """
    if os.name != "posix":
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(leader, signal.SIGKILL)

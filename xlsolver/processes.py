"""Signals and child processes: a run stops at once, and nothing of ours outlives it.

    with stopping():                    # SIGINT / SIGTERM raise Stopped in the main thread
        with worker_pool(jobs) as pool:   # workers killed at once when the run stops
            ...
    ctx.Process(target=child_main, args=(work, *args))   # a solver child

- SIGINT (Ctrl-C) and SIGTERM raise :class:`Stopped` in the main thread; the command
  line turns it into exit status 130 or 143 (:mod:`xlsolver.exits`) after naming the
  outputs that were completed (:data:`xlsolver.writes.WRITTEN`).
- Every child (a ``--jobs`` worker, a Kissat solver child) dies with its parent, even
  after ``kill -9`` of the parent: ``prctl(PR_SET_PDEATHSIG, SIGKILL)`` on Linux, a
  watchdog thread reading a pipe whose other end only the parent holds elsewhere.
- A child ignores SIGINT (the terminal sends it to the whole process group): the
  parent decides and kills its children, so no child prints a traceback.
"""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import sys
import threading
from collections.abc import Callable, Iterator

PR_SET_PDEATHSIG = 1  # linux/prctl.h

MANAGER_JOIN_SECONDS = 5.0  # a stopped pool's manager thread ends at once; this bounds a hang
_parent_pid = os.getpid()
_watch_read: int | None = None  # the watchdog pipe (not Linux): children read, parent holds
_watch_write: int | None = None


LOST_WORKER = (
    "a worker process of this run ended unexpectedly before it was done (stopped by the "
    "system, perhaps out of memory)"
)


class Stopped(BaseException):
    """The run was stopped by a signal (SIGINT or SIGTERM)."""

    def __init__(self, signum: int):
        self.signum = signum
        super().__init__(signal.Signals(signum).name)


_received: int | None = None  # the stop signal this process received, once it has
_interrupts: list[Callable[[], None]] = []  # long C calls of the main thread to break
_children_lock = threading.Lock()  # children_allowed() toggles a process-wide flag
_wakeup: tuple[socket.socket, socket.socket] | None = None  # the C handler writes to [1]


def _raise_stopped(signum: int, frame) -> None:
    """Signal handler of the main process: stop the run where it is (and remember it)."""
    global _received
    _received = signum
    raise Stopped(signum)


def stop_received() -> int | None:
    """The stop signal received, if any. A Stopped raised while C code had called back
    into Python (pyuno, talking to LibreOffice) can come out as another error (pyuno's
    'SystemError: can't import __main__ module'): the signal still stops the run."""
    return _received


@contextlib.contextmanager
def stopping() -> Iterator[None]:
    """SIGINT and SIGTERM raise :class:`Stopped` while the block runs (main thread only)."""
    global _parent_pid, _received
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    _parent_pid = os.getpid()
    _received = None  # a run starts unstopped (tests run many in one process)
    _open_watchdog()
    old = {s: signal.signal(s, _raise_stopped) for s in (signal.SIGINT, signal.SIGTERM)}
    old_fd = signal.set_wakeup_fd(_wakeup_socket(), warn_on_full_buffer=False)
    try:
        yield
    finally:
        signal.set_wakeup_fd(old_fd)
        for s, handler in old.items():
            signal.signal(s, handler)


@contextlib.contextmanager
def interruptible(interrupt: Callable[[], None]) -> Iterator[None]:
    """Around a long C call of the main thread that releases the GIL (a SAT search):
    a stop signal calls ``interrupt`` from a watcher thread, so the call returns and the
    signal's handler runs (it waits while C code holds the main thread: Ctrl-C and
    SIGTERM went unheard for as long as a search took)."""
    _interrupts.append(interrupt)
    try:
        yield
    finally:
        _interrupts.remove(interrupt)


def _wakeup_socket() -> int:
    """The socket Python's C signal handler writes each signal's number to (a socket,
    which Windows asks for; made once, with the thread that reads it and breaks the
    calls in :func:`interruptible`)."""
    global _wakeup
    if _wakeup is None:
        read, write = socket.socketpair()
        write.setblocking(False)
        _wakeup = (read, write)
        threading.Thread(target=_watch_signals, args=(read,), daemon=True).start()
    return _wakeup[1].fileno()


def _watch_signals(read: socket.socket) -> None:
    """Break the main thread's long C calls whenever a stop signal arrives."""
    while True:
        data = read.recv(64)
        if not data:
            return
        if any(b in STOP_SIGNALS for b in data):
            for interrupt in list(_interrupts):
                interrupt()


def _open_watchdog() -> None:
    """Where prctl is missing: a pipe whose write end only this process keeps."""
    global _watch_read, _watch_write
    if sys.platform.startswith("linux") or _watch_read is not None:
        return
    _watch_read, _watch_write = os.pipe()


def _libc_prctl() -> Callable | None:
    """``prctl`` from the C library (Linux), None elsewhere."""
    if not sys.platform.startswith("linux"):
        return None
    import ctypes
    import ctypes.util

    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return libc.prctl
    except (OSError, AttributeError):
        return None


STOP_SIGNALS = {signal.SIGINT, signal.SIGTERM}


@contextlib.contextmanager
def children_allowed() -> Iterator[None]:
    """Let a daemonic process (a Dask worker's) start a child while the block runs.

    multiprocessing refuses children to daemonic processes lest they outlive them; ours
    die with their parent (:func:`child_main`), so the refusal ("daemonic processes are
    not allowed to have children") is lifted for the start, and the flag put back.
    """
    import multiprocessing

    config = getattr(multiprocessing.current_process(), "_config", {})
    with _children_lock:  # a worker's threads may start children at once
        daemon = config.get("daemon")
        if daemon:
            config["daemon"] = False
        try:
            yield
        finally:
            if daemon:
                config["daemon"] = daemon


@contextlib.contextmanager
def stop_signals_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM while a child starts: the child inherits them held until
    :func:`die_with_parent` has set its own handlers, so a Ctrl-C to the process group in
    that moment cannot stop it half way (with a traceback); here they come after."""
    if not hasattr(signal, "pthread_sigmask"):  # Windows: no signal masks
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, STOP_SIGNALS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)


def die_with_parent() -> None:
    """In a child: be killed when the parent dies, ignore Ctrl-C, default SIGTERM; then
    this process is the parent its own children check for (a pool worker's solver child
    compared its parent with the main process and ended at once)."""
    global _parent_pid
    _die_with_parent()
    _parent_pid = os.getpid()


def _die_with_parent() -> None:
    """:func:`die_with_parent` for the process's parent as it was at the fork."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):  # held by stop_signals_held: now they may come
        signal.pthread_sigmask(signal.SIG_UNBLOCK, STOP_SIGNALS)
    prctl = _libc_prctl()
    if prctl is not None and prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
        if os.getppid() != _parent_pid:  # the parent died before prctl took effect
            os._exit(1)
        return
    _watch_parent()


def _watch_parent() -> None:
    """A daemon thread that ends this process when the parent's pipe end closes."""
    if _watch_write is not None:
        with contextlib.suppress(OSError):
            os.close(_watch_write)
    reader = _watch_read

    def watch() -> None:
        parent = os.getppid()
        while True:
            if reader is not None:
                try:
                    if os.read(reader, 1) == b"":
                        os._exit(1)
                except OSError:
                    os._exit(1)
            else:  # no pipe (spawned, not forked): poll for re-parenting
                threading.Event().wait(0.5)
                if os.getppid() != parent:
                    os._exit(1)

    threading.Thread(target=watch, name="xlsolver-watchdog", daemon=True).start()


def child_main(work: Callable, *args) -> None:
    """The target of a solver child: die with the parent, then ``work(*args)``."""
    die_with_parent()
    work(*args)


@contextlib.contextmanager
def worker_pool(jobs: int):
    """A process pool whose workers die with this process and are killed when it stops.

    On an exception (``Stopped`` above all) every worker is killed at once and queued
    work is cancelled, instead of waiting for the running files to finish.
    """
    import multiprocessing as mp
    from concurrent.futures import ProcessPoolExecutor

    method = "fork" if "fork" in mp.get_all_start_methods() else None
    pool = ProcessPoolExecutor(
        max_workers=jobs, mp_context=mp.get_context(method), initializer=die_with_parent
    )
    try:
        yield pool
    except BaseException:
        _quiet_pool_manager()
        manager = getattr(pool, "_executor_manager_thread", None)  # gone after shutdown
        kill_workers(pool)
        pool.shutdown(wait=False, cancel_futures=True)
        _forget_manager(manager)
        raise
    pool.shutdown(wait=True)


def _forget_manager(thread: threading.Thread | None) -> None:
    """Let a stopped pool's manager thread end (its workers are dead) before the exit
    hook of concurrent.futures wakes it: on CPython 3.11 that hook could write to the
    thread's wakeup pipe as the thread closed it (``OSError: [Errno 9] Bad file
    descriptor``, a traceback after ``| head`` or a Ctrl-C)."""
    from concurrent.futures import process

    if thread is None:
        return
    thread.join(MANAGER_JOIN_SECONDS)
    process._threads_wakeups.pop(thread, None)


def _quiet_pool_manager() -> None:
    """Keep a stopped run's stderr to its one line.

    When the workers are killed, the pool's manager thread marks the queued work as
    broken, and on CPython 3.11 it trips over the futures just cancelled
    (``InvalidStateError``, printed as a thread traceback). That is not an error of
    the run, so it is not shown; any other thread exception still is.
    """
    from concurrent.futures import InvalidStateError

    previous = threading.excepthook

    def hook(args) -> None:
        if args.exc_type is not None and issubclass(args.exc_type, InvalidStateError):
            return
        previous(args)

    threading.excepthook = hook


def kill_workers(pool) -> None:
    """SIGKILL every worker process of a ProcessPoolExecutor and reap them.

    A worker the pool was starting when the stop came is not in its table yet (the pool
    starts them one by one as work arrives); it is among this process's children, and
    left alive it would hold the exit forever (multiprocessing joins it at exit).
    """
    import multiprocessing as mp

    workers = list((getattr(pool, "_processes", None) or {}).values())
    workers += [p for p in mp.active_children() if p not in workers]
    for process in workers:
        with contextlib.suppress(Exception):
            process.kill()
    for process in workers:
        with contextlib.suppress(Exception):
            process.join(timeout=5)


def exit_status(signum: int) -> int:
    """130 for SIGINT, 143 for SIGTERM (as shells report them)."""
    from .exits import EXIT_INTERRUPTED, EXIT_TERMINATED

    return EXIT_TERMINATED if signum == signal.SIGTERM else EXIT_INTERRUPTED


GUARD = """
import os, signal, sys, time
group, parent = int(sys.argv[1]), int(sys.argv[2])
def end(*_):
    try:
        os.killpg(group, signal.SIGKILL)
    except OSError:
        pass
    os._exit(0)
signal.signal(signal.SIGTERM, end)
if sys.platform.startswith("linux"):
    import ctypes, ctypes.util
    libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    libc.prctl(1, signal.SIGTERM, 0, 0, 0)
while True:
    if os.getppid() != parent:
        end()
    time.sleep(0.5) if not sys.platform.startswith("linux") else signal.pause()
"""


def guard_group(group: int):
    """A small watchdog process that kills process group ``group`` (a LibreOffice server
    in its own session) when this process dies, even by ``kill -9``; stop it with
    ``.kill()`` once the group has been stopped the ordinary way."""
    import subprocess

    return subprocess.Popen(
        [sys.executable, "-c", GUARD, str(group), str(os.getpid())],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        start_new_session=True,  # Ctrl-C in the terminal is for xlsolver, not for it
    )

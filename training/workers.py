"""Worker process pools whose workers die with the process that started them.

A ``ProcessPoolExecutor`` worker waits on its task queue forever: when the parent is killed with
SIGKILL (no chance to shut the pool down) its workers used to live on, orphaned. Each worker here
asks the kernel for SIGKILL when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``), and, where that
is not available, watches its parent id from a daemon thread and exits within a second of the change.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from concurrent.futures import ProcessPoolExecutor

PR_SET_PDEATHSIG = 1
WATCH_INTERVAL_S = 0.5


def die_with_parent(parent: int, torch_threads: int | None = None) -> None:
    """Worker initializer: end this process when ``parent`` (the pool's owner) goes away; with
    ``torch_threads``, limit torch's intra-op threads (see :func:`limit_torch_threads`)."""
    if torch_threads:
        limit_torch_threads(torch_threads)
    if sys.platform.startswith("linux"):
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    if os.getppid() != parent:  # the parent died before the request above took effect
        os._exit(1)
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="parent-watch").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_INTERVAL_S)
    os._exit(1)


def limit_torch_threads(threads: int) -> None:
    """Give torch at most ``threads`` intra-op threads in this process, whether or not it is imported yet.

    A worker that evaluates a network on small batches gains nothing from a second thread, and two
    workers with two threads each fight over two cores. An imported torch is told directly; one not
    imported yet (a scripted-only worker never pays for the import) reads the OpenMP/MKL variables when it is.
    """
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = str(threads)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(threads)


def worker_pool(workers: int | None, jobs: int, *, torch_threads: int | None = None) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (default one per CPU, never more than ``jobs``) that die with this one;
    ``torch_threads`` limits each worker's torch threads (:func:`limit_torch_threads`)."""
    size = max(1, min(workers or os.cpu_count() or 1, jobs))
    return ProcessPoolExecutor(max_workers=size, initializer=die_with_parent,
                               initargs=(os.getpid(), torch_threads))

"""Worker process pools whose workers die with the process that started them and run torch on one thread.

A ``ProcessPoolExecutor`` worker waits on its task queue forever: when the parent is killed with
SIGKILL (no chance to shut the pool down) its workers used to live on, orphaned. Each worker here
asks the kernel for SIGKILL when its parent dies (Linux ``prctl(PR_SET_PDEATHSIG)``), and, where that
is not available, watches its parent id from a daemon thread and exits within a second of the change.

Every worker also runs torch on one thread (:func:`one_torch_thread`): the pool already runs one worker per
core, so a worker's second torch thread only fights its neighbours for a core (fine-tuning on two workers
with torch's default threads ran six times slower than on none).
"""

from __future__ import annotations

import contextlib
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


def die_with_parent(parent: int) -> None:
    """Worker initializer: end this process when ``parent`` (the pool's owner) goes away, and run torch on one
    thread (:func:`one_torch_thread`)."""
    one_torch_thread()
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


def one_torch_thread() -> None:
    """Give torch one intra-op thread (and one inter-op thread where it still may) in this worker process, whether
    or not torch is imported yet.

    A worker that trains or evaluates a network on small batches gains nothing from a second thread, and two
    workers with two threads each fight over two cores. An imported torch is told directly; one not imported
    yet (a scripted-only worker never pays for the import) reads the OpenMP/MKL variables when it is. torch
    refuses a new inter-op size once its inter-op pool has started (a parent's, inherited by a fork), and has
    no variable for it: the pool then keeps its size, which matters little, as it runs only ``torch.jit.fork``
    work and none of ours.
    """
    for variable in ("OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ[variable] = "1"
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
        with contextlib.suppress(RuntimeError):  # the inter-op pool has started: its size is fixed
            torch.set_num_interop_threads(1)


def worker_pool(workers: int | None, jobs: int) -> ProcessPoolExecutor:
    """A pool of ``workers`` processes (default one per CPU, never more than ``jobs``) that die with this one and
    run torch on one thread each (:func:`one_torch_thread`)."""
    size = max(1, min(workers or os.cpu_count() or 1, jobs))
    return ProcessPoolExecutor(max_workers=size, initializer=die_with_parent, initargs=(os.getpid(),))

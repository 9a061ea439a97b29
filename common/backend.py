"""Where the lab's independent jobs run: this process, the local process pool, or a Ray cluster.

Every job the lab farms out (a tournament's batch of games, a weapon's combo table, a fine-tuning
under a restriction, a hunt's best response, a slice of ``issoku evaluate``'s duels) is a pure function
of its inputs: seeds, rules fingerprints, policy files. So where it runs changes nothing in what it
returns, and one small protocol serves them all: :meth:`Backend.map_unordered` takes a job function
and an iterable of jobs and yields ``(job, result)`` pairs as jobs finish, keeping at most two jobs
per worker in flight so a lazy schedule stays lazy.

* :class:`InProcess` (``--workers 0``): one job after the other, here.
* :class:`LocalPool` (the default): :func:`~issoku.common.workers.worker_pool`, whose workers die with
  this process (``PR_SET_PDEATHSIG``).
* :class:`RayBackend` (``--backend ray``; ``--ray-address`` or ``RAY_ADDRESS``, else a local
  ``ray.init``): each job a Ray task with ``max_retries``, so a job whose worker dies is run again.
  Ray is imported only here, only when this backend is built (``pip install 'issoku[ray]'``).

The caller stays the only writer: workers return results and the driver stores them (the match
store, checkpoint files), so a killed driver resumes exactly as with the pool, and a job Ray retried
is still written once. Files a job reads (checkpoints with their metadata, rules variant folders,
data files) travel with it through Ray's object store, never through a shared filesystem: the driver
fingerprints each (:func:`bundle_digest`), puts its bytes once, and the worker unpacks them into a
local cache under their fingerprint, checks the fingerprint of what it unpacked and runs the job on
those copies (:func:`shipped_paths`, :func:`relocate`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import os
import shutil
import tempfile
from collections.abc import Callable, Iterable, Iterator, Mapping, Sized
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any, Protocol, TypeVar

from issoku.common.workers import one_torch_thread, worker_pool

J = TypeVar("J")
R = TypeVar("R")

BACKENDS = ("local", "ray")
"""The ``--backend`` choices."""
RETRIES = 3
"""How many times Ray reruns a job whose worker died (a job that raises is a bug or a bad input: not rerun)."""
IN_FLIGHT_PER_WORKER = 2
"""Jobs submitted per worker slot before waiting for one to finish (a lazy schedule stays lazy)."""

SHIPPED = {"shipped": True}
"""Field metadata of a job field holding a path (or a tuple of paths) the job reads: shipped to Ray workers."""
SHIPPED_KWARGS = ("variant", "data", "terrain")
"""Env keyword arguments that name files or folders (rules variants, data files, terrain)."""
ENV_FACTORY = {"env_factory": True}
"""Field metadata of a job's env factory: on a Ray worker it is called with shipped paths in its env keywords."""


class Backend(Protocol):
    """Runs independent jobs somewhere and hands their results back to the caller, the only writer."""

    slots: int
    """How many jobs run at once."""

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R]]:
        """``(job, fn(job))`` for every job, in the order they finish."""
        ...  # pragma: no cover


class InProcess:
    """Every job in this process, in order (``--workers 0``: no pool, the easiest to debug)."""

    slots = 1

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R]]:
        for job in jobs:
            yield job, fn(job)


class LocalPool:
    """The local process pool (:func:`~issoku.common.workers.worker_pool`): ``workers`` processes (default one
    per CPU) that die with this one and run torch on one thread each."""

    def __init__(self, workers: int | None = None) -> None:
        self.slots = max(1, workers or os.cpu_count() or 1)

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R]]:
        size = min(self.slots, len(jobs)) if isinstance(jobs, Sized) else self.slots  # no idle workers
        pools: list[ProcessPoolExecutor] = []

        def submit(job: Any) -> Future:
            if not pools:  # no pool for no job
                pools.append(worker_pool(size, size))
            return pools[0].submit(fn, job)

        def finished(in_flight: dict[Any, Any]) -> Iterator[tuple[Any, Any]]:
            for future in wait(in_flight, return_when=FIRST_COMPLETED).done:
                yield in_flight.pop(future), future.result()

        try:
            yield from _windowed(jobs, submit, finished, IN_FLIGHT_PER_WORKER * size, {})
        finally:
            for pool in pools:
                pool.shutdown(cancel_futures=True)


def _windowed(jobs: Iterable[Any], submit: Callable[[Any], Any],
              finished: Callable[[dict[Any, Any]], Iterator[tuple[Any, Any]]], window: int,
              in_flight: dict[Any, Any]) -> Iterator[tuple[Any, Any]]:
    """Submit ``jobs`` lazily, keeping at most ``window`` in ``in_flight`` (handle -> job); ``finished`` waits for at
    least one, takes it out and yields ``(job, result)``. What is left in ``in_flight`` if the caller stops early is
    the caller's to cancel."""
    for job in jobs:
        in_flight[submit(job)] = job
        while len(in_flight) >= window:
            yield from finished(in_flight)
    while in_flight:
        yield from finished(in_flight)


class RayBackend:
    """Jobs as Ray tasks on a cluster (``address``, else ``RAY_ADDRESS``, else a local ``ray.init``).

    ``cpus`` caps the local instance this starts (a test's 2-CPU ``ray.init``); joining a running cluster,
    its size is the cluster's. Each task asks for one CPU and is rerun up to :data:`RETRIES` times if its
    worker dies. A task runs torch on one thread, as a pool's worker does.
    """

    def __init__(self, address: str | None = None, *, cpus: int | None = None) -> None:
        ray = import_ray()
        address = address or os.environ.get("RAY_ADDRESS") or None
        if not ray.is_initialized():  # workers' output stays in Ray's logs; Ray's own notes from warnings up
            if address is None:
                ray.init(num_cpus=cpus, include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING)
            else:
                ray.init(address=address, log_to_driver=False, logging_level=logging.WARNING)
        self._ray = ray
        self.slots = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self._task = ray.remote(num_cpus=1, max_retries=RETRIES)(run_shipped)
        self._bundles: dict[tuple, tuple[str, Any]] = {}
        self.identity = code_identity()
        """What every task checks its worker against (:func:`check_identity`)."""

    def _manifest(self, job: Any) -> tuple[tuple[str, str, Any], ...]:
        """``(driver path, fingerprint, object ref of its bytes)`` of every file or folder the job reads; each put
        in the object store once, and fingerprinted again only when its files changed on disk."""
        manifest = []
        for path in shipped_paths(job):
            stamp = (path, tuple((name, file.stat().st_mtime_ns, file.stat().st_size)
                                 for name, file in _bundle_files(path)))
            if stamp not in self._bundles:
                self._bundles[stamp] = (bundle_digest(path), self._ray.put(pack(path)))
            manifest.append((path, *self._bundles[stamp]))
        return tuple(manifest)

    def map_unordered(self, fn: Callable[[J], R], jobs: Iterable[J]) -> Iterator[tuple[J, R]]:
        ray = self._ray
        in_flight: dict[Any, Any] = {}

        def submit(job: Any) -> Any:
            return self._task.remote(fn, job, self._manifest(job), self.identity)

        def finished(in_flight: dict[Any, Any]) -> Iterator[tuple[Any, Any]]:
            done, _ = ray.wait(list(in_flight), num_returns=1)
            for ref in done:
                job = in_flight.pop(ref)
                try:
                    result = ray.get(ref)
                except ray.exceptions.RayTaskError as error:
                    if isinstance(getattr(error, "cause", None), WorkerMismatchError):
                        raise error.cause from None  # one line; the driver stores nothing from this run's workers
                    raise
                yield job, result

        try:
            yield from _windowed(jobs, submit, finished, IN_FLIGHT_PER_WORKER * self.slots, in_flight)
        finally:  # a driver stopped early (an error, a bad result) leaves no task running for nothing
            for ref in in_flight:
                ray.cancel(ref)


def import_ray() -> Any:
    """The ``ray`` module, or a ValueError saying how to install it (a bad ``--backend``, not a traceback)."""
    try:
        import ray
    except ImportError:
        raise ValueError("--backend ray: Ray is not installed (pip install 'issoku[ray]')") from None
    return ray


Workers = int | None | Backend
"""How a command runs its jobs: a worker count for the local pool (None: one per CPU, 0: in this process),
or a :class:`Backend` (Ray)."""


def backend_of(workers: Workers, *, most: int | None = None) -> Backend:
    """The backend ``workers`` names (see :data:`Workers`); a local pool has at most ``most`` workers (no idle
    process for a short run)."""
    if workers == 0:
        return InProcess()
    if workers is None or isinstance(workers, int):
        size = workers or os.cpu_count() or 1
        return LocalPool(min(size, most) if most else size)
    return workers


def make_backend(name: str, workers: int | None = None, address: str | None = None) -> Workers:
    """What ``--backend NAME [--workers N] [--ray-address A]`` asks for: ``workers`` itself for the local
    backend, a connected :class:`RayBackend` for ``ray``."""
    if name not in BACKENDS:
        raise ValueError(f"--backend {name!r}: choose {' or '.join(BACKENDS)}")
    if name == "local":
        if address:
            raise ValueError("--ray-address goes with --backend ray")
        return workers
    return RayBackend(address)


# -- files that travel with a job ---------------------------------------------------------------------------


def _walk(value: Any, visit: Callable[[Any, dataclasses.Field | None], Any]) -> Any:
    """``value`` rebuilt with ``visit(item, field)`` applied to every dataclass field's value (``field`` given) and
    every item of a tuple, list or dict inside it (``field`` None); a visit returning its input is descended into."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        changes = {}
        for item in dataclasses.fields(value):
            old = getattr(value, item.name)
            new = visit(old, item)
            new = _walk(new, visit) if new is old else new
            if new is not old:
                changes[item.name] = new
        return dataclasses.replace(value, **changes) if changes else value
    if isinstance(value, (tuple, list)):
        items = [_walk(visit(item, None), visit) for item in value]
        return value if all(a is b for a, b in zip(items, value)) else type(value)(items)
    if isinstance(value, Mapping):
        pairs = {key: _walk(visit(item, None), visit) for key, item in value.items()}
        return value if all(pairs[key] is value[key] for key in value) else pairs
    return value


def _paths_in(value: Any) -> list[str]:
    """The paths on this machine's disk that ``value`` names (a registry name beside them is no path)."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    return [str(item) for item in items if isinstance(item, (str, Path)) and str(item) and os.path.exists(item)]


def shipped_paths(job: Any) -> list[str]:
    """The files and folders ``job`` reads from the driver's disk: every value of a field marked :data:`SHIPPED`
    and every env keyword of :data:`SHIPPED_KWARGS`, anywhere in its dataclasses, tuples, lists and dicts."""
    found: list[str] = []

    def visit(value: Any, field: dataclasses.Field | None) -> Any:
        if field is not None and field.metadata.get("shipped"):
            found.extend(_paths_in(value))
        elif isinstance(value, Mapping):
            for key in SHIPPED_KWARGS:
                found.extend(_paths_in(value.get(key)) if isinstance(key, str) and key in value else [])
        return value

    _walk(job, visit)
    return list(dict.fromkeys(found))


def relocate(job: Any, where: Mapping[str, str]) -> Any:
    """``job`` reading each file from ``where[driver path]``: fields marked :data:`SHIPPED` are rewritten, and every
    field marked :data:`ENV_FACTORY` is wrapped so that the env keywords of :data:`SHIPPED_KWARGS` are rewritten
    when it is called, leaving the job's own keyword mappings (which records carry) as they were."""

    def moved(value: Any) -> Any:
        if isinstance(value, (str, Path)):
            return type(value)(where.get(str(value), str(value)))
        return type(value)(moved(item) for item in value) if isinstance(value, (tuple, list)) else value

    def visit(value: Any, field: dataclasses.Field | None) -> Any:
        if field is not None and field.metadata.get("shipped"):
            return moved(value)
        if field is not None and field.metadata.get("env_factory"):
            return RelocatedFactory(value, tuple(where.items()))
        return value

    return _walk(job, visit)


@dataclasses.dataclass(frozen=True)
class RelocatedFactory:
    """An env factory called with the env keywords of :data:`SHIPPED_KWARGS` pointing at the worker's copies."""

    factory: Callable[..., Any]
    where: tuple[tuple[str, str], ...]

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        where = dict(self.where)
        for key in SHIPPED_KWARGS:
            value = kwargs.get(key)
            if isinstance(value, (str, Path)):
                kwargs[key] = where.get(str(value), value)
            elif isinstance(value, (tuple, list)):
                kwargs[key] = type(value)(where.get(str(item), item) for item in value)
        return self.factory(*args, **kwargs)


def _bundle_files(path: str) -> list[tuple[str, Path]]:
    """``(name in the bundle, file)`` of what a path brings: a folder's files; a file, and the metadata JSON
    a checkpoint keeps beside it."""
    root = Path(path)
    if root.is_dir():
        return [(file.relative_to(root).as_posix(), file) for file in sorted(root.rglob("*")) if file.is_file()]
    files = [(root.name, root)]
    sidecar = root.with_suffix(".json")
    if root.suffix == ".zip" and sidecar.is_file():
        files.append((sidecar.name, sidecar))
    return files


def _digest(named: Iterable[tuple[str, bytes]]) -> str:
    digest = hashlib.sha256()
    for name, data in named:
        digest.update(name.encode() + b"\0" + hashlib.sha256(data).digest())
    return digest.hexdigest()[:16]


def bundle_digest(path: str) -> str:
    """The fingerprint of a shipped path: its files' names and bytes."""
    return _digest((name, file.read_bytes()) for name, file in _bundle_files(path))


Bundle = tuple[bool, tuple[tuple[str, bytes], ...]]
"""A shipped path as data: whether it is a folder, and its files' names and bytes."""


def pack(path: str) -> Bundle:
    """A path's bundle as data for the object store: whether it is a folder, and its files' names and bytes."""
    return Path(path).is_dir(), tuple((name, file.read_bytes()) for name, file in _bundle_files(path))


def unpack(path: str, digest: str, fetch: Callable[[], Bundle], cache: Path) -> str:
    """The worker's copy of a shipped path under ``cache/<digest>/``, unpacked once per worker machine, its
    fingerprint checked; the path to give the job (the folder, or the file in it). ``fetch`` gets the bundle
    when the cache lacks it."""
    home = cache / digest
    name = Path(path).name
    if not home.is_dir():
        is_dir, files = fetch()
        if _digest(files) != digest:
            raise ValueError(f"{path}: shipped bytes do not match the driver's fingerprint {digest}")
        staging = Path(tempfile.mkdtemp(prefix=f".{digest}-", dir=cache))
        target = staging / name if is_dir else staging
        for relative, data in files:
            (target / relative).parent.mkdir(parents=True, exist_ok=True)
            (target / relative).write_bytes(data)
        try:
            staging.rename(home)
        except OSError:  # another worker unpacked it first
            shutil.rmtree(staging, ignore_errors=True)
    local = home / name
    if bundle_digest(str(local)) != digest:
        raise ValueError(f"{path}: the worker's copy {local} does not match the driver's fingerprint {digest}")
    return str(local)


def shipped_cache() -> Path:
    """Where a worker keeps shipped files (per machine; ``ISSOKU_SHIPPED_CACHE`` moves it)."""
    cache = Path(os.environ.get("ISSOKU_SHIPPED_CACHE") or Path(tempfile.gettempdir()) / "issoku-shipped")
    cache.mkdir(parents=True, exist_ok=True)
    return cache


class WorkerMismatchError(ValueError):
    """A Ray worker runs other issoku code or rules data than the driver: its games would be stored under the
    driver's keys with other results, so the run stops before the worker plays."""


LAYERS = ("rules", "common", "envs", "agents", "training", "evaluation")
"""The subpackages whose files make up the code and data a worker must share with the driver."""


@functools.lru_cache(maxsize=1)
def code_identity() -> tuple[str, str, str]:
    """``(issoku version, digest of its Python code, digest of its rules data)`` in this process: every ``.py`` file
    of the package and of :data:`LAYERS`, and every ``.toml`` under ``rules/`` (the shipped rules data), by name
    and bytes. A driver and its Ray workers must agree on all three."""
    import issoku

    package = Path(issoku.__file__).resolve().parent
    files = [(path.name, path) for path in sorted(package.glob("*.py"))]
    for name in LAYERS:
        root = (package / name).resolve()  # a checkout links the layers into the package; a wheel holds them
        files += [(f"{name}/{path.relative_to(root).as_posix()}", path) for path in sorted(root.rglob("*"))
                  if path.suffix in (".py", ".toml") and "__pycache__" not in path.parts]
    code, data = hashlib.sha256(), hashlib.sha256()
    for relative, path in files:
        digest = data if path.suffix == ".toml" and relative.startswith("rules/") else code
        digest.update(relative.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    return issoku.__version__, code.hexdigest()[:16], data.hexdigest()[:16]


def check_identity(driver: tuple[str, str, str]) -> None:
    """Refuse to run a job on a worker whose :func:`code_identity` differs from the driver's, naming what differs."""
    here = code_identity()
    if tuple(driver) != here:
        names = ("issoku version", "code digest", "rules data digest")
        differing = "; ".join(f"{name}: driver {theirs}, worker {mine}" for name, theirs, mine in zip(names, driver, here)
                              if theirs != mine)
        raise WorkerMismatchError(f"a Ray worker runs other issoku code or data than this command ({differing}); "
                                  "install the same issoku on every node (nothing was stored)")


def run_shipped(fn: Callable[[Any], Any], job: Any, manifest: tuple[tuple[str, str, Any], ...],
                identity: tuple[str, str, str] | None = None) -> Any:
    """A Ray task's body: the worker's code and data checked against the driver's ``identity`` (before anything is
    played), torch on one thread, the job's files unpacked (their fingerprints checked), ``fn`` run on the relocated
    job."""
    if identity is not None:
        check_identity(identity)
    one_torch_thread()
    where = {}
    if manifest:
        import ray

        cache = shipped_cache()
        for path, digest, ref in manifest:
            where[path] = unpack(path, digest, _fetcher(ray, ref), cache)
    return fn(relocate(job, where) if where else job)


def _fetcher(ray: Any, ref: Any) -> Callable[[], Bundle]:
    """A shipped bundle's fetch from the object store, run only when the worker's cache lacks it."""
    return lambda: ray.get(ref)

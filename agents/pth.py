"""Read a torch ``.pth`` file of plain tensors (a ``state_dict``) as numpy arrays, without torch.

Why: a checkpoint's actor plays in numpy (:mod:`issoku.agents.numpy_actor`), and ``import torch`` only to
read its weights cost every process that loaded one (a study's parent, whose workers fork from it, a spawned
worker, ``issoku evaluate``) 1.6–2.4 CPU seconds, more than the games of a small study. The file format is torch's zip serialization: ``<archive>/data.pkl``, a pickle
of an ``OrderedDict`` of tensors, each rebuilt by ``torch._utils._rebuild_tensor_v2`` from a storage that the
pickle names by key (a *persistent id*) and whose raw little-endian bytes are ``<archive>/data/<key>``.

**Safe as ``torch.load(weights_only=True)``.** The pickle is read by an unpickler that resolves exactly three
globals (the ordered dict, the tensor rebuild, a storage type) to functions of this module and refuses every
other one, so no object the file names is imported and no code of the file runs. Storages are read from
their own entries with a checked size, and a tensor must be a contiguous view inside its storage, else
:class:`PthError`.
"""

from __future__ import annotations

import collections
import io
import math
import pickle
import zipfile
from typing import Any

import numpy as np

STORAGE_DTYPES = {"FloatStorage": "<f4", "DoubleStorage": "<f8", "HalfStorage": "<f2", "BFloat16Storage": None,
                  "LongStorage": "<i8", "IntStorage": "<i4", "ShortStorage": "<i2", "CharStorage": "i1",
                  "ByteStorage": "u1", "BoolStorage": "?"}
"""torch's typed storage classes, by name, as numpy dtypes (None: no numpy dtype, refused)."""
STORAGE = "torch storage"


class PthError(ValueError):
    """A ``.pth`` entry that is not torch's zip format of plain tensors, or names something beyond them."""


def _storage_dtype(storage_type: Any) -> np.dtype:
    """The numpy dtype of a storage type as :meth:`_TensorUnpickler.find_class` resolved it (an immutable tuple,
    so nothing in the pickle can change it afterwards)."""
    if not (isinstance(storage_type, tuple) and len(storage_type) == 2 and storage_type[0] == STORAGE
            and STORAGE_DTYPES.get(storage_type[1])):
        raise PthError(f"a storage of type {storage_type!r:.80}")
    return np.dtype(STORAGE_DTYPES[storage_type[1]])


def _rebuild_tensor(storage: np.ndarray, offset: int, size: tuple[int, ...], stride: tuple[int, ...],
                    requires_grad: bool = False, hooks: Any = None, metadata: Any = None) -> np.ndarray:
    """``torch._utils._rebuild_tensor_v2`` for a contiguous tensor: a copy of its elements, shaped."""
    if not (isinstance(offset, int) and all(isinstance(n, int) and n >= 0 for n in size)):
        raise PthError(f"a tensor of size {size!r} at offset {offset!r}")
    contiguous, step = [], 1
    for n in reversed(size):
        contiguous.append(step)
        step *= n
    count = math.prod(size)
    if tuple(reversed(contiguous)) != tuple(stride) and count > 1:
        raise PthError(f"a tensor of size {size} with strides {stride}: not contiguous")
    if offset < 0 or offset + count > len(storage):
        raise PthError(f"a tensor of {count} elements at offset {offset} in a storage of {len(storage)}")
    return storage[offset:offset + count].reshape(size).copy()


class _TensorUnpickler(pickle.Unpickler):
    """Resolves the pickle's globals to this module's own functions, and its storages to arrays."""

    def __init__(self, data: bytes, archive: zipfile.ZipFile, prefix: str) -> None:
        super().__init__(io.BytesIO(data))
        self.archive, self.prefix = archive, prefix

    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("collections", "OrderedDict"):
            return collections.OrderedDict
        if (module, name) == ("torch._utils", "_rebuild_tensor_v2"):
            return _rebuild_tensor
        if module == "torch" and name in STORAGE_DTYPES:
            return (STORAGE, name)
        raise PthError(f"the pickle names {module}.{name}, not a plain tensor")

    def persistent_load(self, pid: Any) -> np.ndarray:
        if not (isinstance(pid, tuple) and len(pid) == 5 and pid[0] == "storage" and isinstance(pid[2], str)
                and pid[2].isdigit() and isinstance(pid[4], int)):
            raise PthError(f"a storage reference {pid!r:.80}")
        dtype, key, count = _storage_dtype(pid[1]), pid[2], pid[4]
        try:
            raw = self.archive.read(f"{self.prefix}/data/{key}")
        except KeyError:
            raise PthError(f"storage {key} is missing") from None
        if len(raw) != count * dtype.itemsize:
            raise PthError(f"storage {key} holds {len(raw)} bytes, not {count} elements of {dtype}")
        return np.frombuffer(raw, dtype)


def read_tensors(raw: bytes) -> dict[str, np.ndarray]:
    """The tensors of a ``.pth`` file's bytes (torch's zip format), by name, as numpy arrays. Raises :class:`PthError`."""
    try:
        with zipfile.ZipFile(io.BytesIO(raw)) as archive:
            names = archive.namelist()
            pickles = [name for name in names if name.endswith("/data.pkl") and name.count("/") == 1]
            if len(pickles) != 1:
                raise PthError("not torch's zip format (no single <archive>/data.pkl)")
            prefix = pickles[0].split("/")[0]
            if f"{prefix}/byteorder" in names and archive.read(f"{prefix}/byteorder").strip() != b"little":
                raise PthError("tensors saved big-endian")
            tensors = _TensorUnpickler(archive.read(pickles[0]), archive, prefix).load()
    except PthError:
        raise
    except (zipfile.BadZipFile, EOFError, OSError, pickle.UnpicklingError, ValueError, TypeError, IndexError,
            KeyError, AttributeError) as error:  # what a damaged pickle or zip raises
        raise PthError(f"unreadable ({type(error).__name__})") from None
    if not (isinstance(tensors, dict) and all(isinstance(key, str) and isinstance(value, np.ndarray)
                                              for key, value in tensors.items())):
        raise PthError("not a dict of named tensors")
    return dict(tensors)

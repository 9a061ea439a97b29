"""Reading a checkpoint's tensors without torch: the same arrays as ``torch.load``, nothing a tampered
file names is ever resolved, and a worker that plays a checkpoint never imports torch."""

import io
import os
import pickle
import subprocess
import sys
import zipfile
from pathlib import Path

import numpy as np
import pytest
import torch

from issoku.agents.checkpoint_zip import POLICY_ENTRY
from issoku.agents.pth import PthError, read_tensors

SHIPPED = Path(__file__).resolve().parents[2] / "agents" / "shipped" / "breath_duel_v0.zip"


def _policy_pth() -> bytes:
    with zipfile.ZipFile(SHIPPED) as archive:
        return archive.read(POLICY_ENTRY)


def _saved(tensors) -> bytes:
    buffer = io.BytesIO()
    torch.save(tensors, buffer)
    return buffer.getvalue()


def _with_pickle(raw: bytes, data_pkl: bytes) -> bytes:
    """``raw`` (torch's zip format) with its ``data.pkl`` replaced."""
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            target.writestr(name, data_pkl if name.endswith("/data.pkl") else source.read(name))
    return out.getvalue()


def test_the_shipped_actor_reads_as_torch_reads_it():
    raw = _policy_pth()
    expected = torch.load(io.BytesIO(raw), weights_only=True)
    tensors = read_tensors(raw)
    assert list(tensors) == list(expected)
    for name, value in expected.items():
        assert tensors[name].dtype == np.float32 and np.array_equal(tensors[name], value.numpy()), name


@pytest.mark.parametrize("dtype", [torch.float32, torch.float64, torch.int64, torch.bool])
def test_tensors_of_other_dtypes_and_shapes_read_back(dtype):
    tensors = {"a": torch.arange(24).reshape(2, 3, 4).to(dtype), "scalar": torch.tensor(3).to(dtype),
               "empty": torch.zeros(0, 5, dtype=dtype)}
    read = read_tensors(_saved(tensors))
    for name, value in tensors.items():
        assert read[name].shape == tuple(value.shape) and np.array_equal(read[name], value.numpy()), name


class _Payload:
    """Unpickling this runs ``os.system`` (what a sent checkpoint could carry)."""

    def __init__(self, command: str) -> None:
        self.command = command

    def __reduce__(self):
        return os.system, (self.command,)


def test_a_payload_in_the_pickle_is_refused_and_never_runs(tmp_path):
    marker = tmp_path / "marker"
    tampered = _with_pickle(_policy_pth(), pickle.dumps({"w": _Payload(f"touch {marker}")}, protocol=2))
    with pytest.raises(PthError, match="names posix.system|names os.system"):
        read_tensors(tampered)
    assert not marker.exists()


def test_a_storage_shorter_than_its_tensor_is_refused():
    raw = _saved({"w": torch.ones(4, 4)})
    out = io.BytesIO()
    with zipfile.ZipFile(io.BytesIO(raw)) as source, zipfile.ZipFile(out, "w") as target:
        for name in source.namelist():
            data = source.read(name)
            target.writestr(name, data[:-4] if "/data/" in name else data)
    with pytest.raises(PthError, match="holds 60 bytes, not 16 elements"):
        read_tensors(out.getvalue())


def test_a_strided_view_is_refused():
    with pytest.raises(PthError, match="not contiguous"):
        read_tensors(_saved({"w": torch.ones(4, 6)[:, ::2]}))


@pytest.mark.parametrize("raw", [b"", b"not a zip", pickle.dumps({"w": 1})])
def test_what_is_not_torchs_zip_format_is_refused(raw):
    with pytest.raises(PthError):
        read_tensors(raw)


def test_a_worker_plays_a_checkpoint_without_importing_torch():
    script = ("import sys\n"
              "from issoku.evaluation.games.policies import resolve_policy\n"
              "from issoku.envs.registry import make_env\n"
              "from issoku.evaluation.games.match import play_match\n"
              f"policy = resolve_policy('learned={SHIPPED}').factory(0)\n"
              "record = play_match(make_env('breath_duel_v0'), [policy, policy], 0, key='k', loadout='default',\n"
              "                    loadout_kwargs={}, policy_names=('learned', 'learned'))\n"
              "assert record.length > 0, record\n"
              "print('torch' in sys.modules)\n")
    result = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    assert result.stdout.strip() == "False"

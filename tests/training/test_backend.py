"""The execution backends without Ray: the in-process and pool backends, the choice on the command line, and
Ray imported only when asked for (tests/evaluation/test_ray_backend.py runs the Ray backend itself)."""

import subprocess
import sys

import pytest
from typer.testing import CliRunner

from issoku.cli import app
from issoku.common.backend import InProcess, LocalPool, backend_of, make_backend

from tests.training.conftest import ROOT


def square(x: int) -> int:
    return x * x


def test_in_process_runs_each_job_once_in_order():
    assert list(InProcess().map_unordered(square, [1, 2, 3])) == [(1, 1), (2, 4), (3, 9)]


def test_the_pool_hands_back_every_job_once_with_its_own_result():
    assert sorted(LocalPool(2).map_unordered(square, range(9))) == [(x, x * x) for x in range(9)]


def torch_threads(_: int) -> int:
    import torch

    return torch.get_num_threads()


def test_a_pool_worker_trains_and_plays_on_one_torch_thread():
    """Fine-tuning on two workers with torch's default threads ran six times slower than in one process."""
    assert [threads for _, threads in LocalPool(2).map_unordered(torch_threads, range(2))] == [1, 1]


def test_workers_name_the_backend():
    assert isinstance(backend_of(0), InProcess)
    assert backend_of(4, most=3).slots == 3
    assert make_backend("local", 3) == 3


@pytest.mark.parametrize("arguments, message", [
    (["--backend", "slurm"], "--backend 'slurm': choose local or ray"),
    (["--ray-address", "10.0.0.1:6379"], "--ray-address goes with --backend ray"),
])
def test_a_bad_backend_is_one_line_and_exit_2(tmp_path, arguments, message):
    result = CliRunner().invoke(app, ["balance-report", "--env", "tempo_duel_v0", "-p", "random", "-n", "2",
                                      "--db", str(tmp_path / "m.sqlite"), "--out", str(tmp_path / "out"), *arguments])
    assert result.exit_code == 2 and message in result.output
    assert not (tmp_path / "m.sqlite").exists()


def test_without_ray_installed_backend_ray_says_how_to_install_it(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "ray", None)  # what an absent package looks like to import
    result = CliRunner().invoke(app, ["head-to-head", "-a", "ma_heuristic", "-n", "2", "--backend", "ray"])
    assert result.exit_code == 2 and "pip install 'issoku[ray]'" in result.output


def test_ray_is_imported_only_for_backend_ray():
    code = ("import sys; from typer.testing import CliRunner; from issoku.cli import app; "
            "result = CliRunner().invoke(app, ['head-to-head', '-a', 'ma_heuristic', '-n', '4', '-j', '2']); "
            "assert result.exit_code == 0, result.output; print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True).stdout
    assert out.strip() == "False"

"""A Ray worker on other code or data stops the run before it plays: nothing is stored under the driver's keys."""

from __future__ import annotations

import pytest

from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import run_tournament
from issoku.common.backend import WorkerMismatchError, code_identity, run_shipped
from tests.evaluation.toy_env import toy_tournament


def test_a_worker_checks_the_drivers_version_code_and_data_before_the_job():
    version, code, data = code_identity()
    assert run_shipped(len, "abc", (), (version, code, data)) == 3
    with pytest.raises(WorkerMismatchError, match="rules data digest: driver 0+, worker"):
        run_shipped(len, "abc", (), (version, code, "0" * 16))
    with pytest.raises(WorkerMismatchError, match="issoku version: driver 9.9, worker") as refused:
        run_shipped(len, "abc", (), ("9.9", code, data))
    assert "code digest" not in str(refused.value)  # only what differs


def test_a_changed_rules_data_file_changes_the_data_digest(tmp_path, monkeypatch):
    """The digest covers the rules data a worker loads: one weapon value changed on a worker is caught."""
    import shutil

    import issoku
    from issoku.common import backend

    package = tmp_path / "issoku"
    shutil.copytree(__import__("pathlib").Path(issoku.__file__).resolve().parent, package, symlinks=False,
                    ignore=shutil.ignore_patterns("__pycache__", "*.zip", "*.onnx", "*.png", "golden"))
    weapons = package / "rules" / "breath" / "data" / "weapons.toml"
    monkeypatch.setattr(issoku, "__file__", str(package / "__init__.py"))
    backend.code_identity.cache_clear()
    try:
        before = backend.code_identity()
        backend.code_identity.cache_clear()
        weapons.write_text(weapons.read_text().replace("cost = 2", "cost = 1", 1))
        after = backend.code_identity()
    finally:
        backend.code_identity.cache_clear()
    assert before[:2] == after[:2] and before[2] != after[2]


def test_a_ray_run_whose_workers_differ_stores_nothing(tmp_path):
    """The attack: a worker with one weapon value changed stored 1,600 rows under the driver's keys, exit 0. Here the
    driver's identity is made to differ from its (local) workers', which is the same check seen from either side."""
    ray = pytest.importorskip("ray")
    from issoku.common.backend import RayBackend

    backend = RayBackend(cpus=2)
    try:
        version, code, data = backend.identity
        backend.identity = (version, code, "0" * 16)
        with MatchStore(tmp_path / "m.sqlite") as store:
            with pytest.raises(WorkerMismatchError, match="nothing was stored"):
                run_tournament(toy_tournament(games_per_pair=4), store, workers=backend, batch_size=2, progress=False)
            assert store.count() == 0
    finally:
        ray.shutdown()

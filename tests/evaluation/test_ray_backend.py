"""The Ray backend: the same jobs give the same store rows as the process pool; files travel with their
fingerprints checked; a job whose worker dies is rerun by Ray and stored once.

One 2-CPU local ``ray.init`` serves the module. Ray is an optional extra (``issoku[ray]``, installed by
scripts/setup.sh, so CI runs these); without it the module is skipped.
"""

from __future__ import annotations

import dataclasses
import json
import os
import signal
import zipfile
from pathlib import Path

import pytest

from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, PolicySpec, Tournament, run_tournament
from issoku.common.backend import RayBackend, bundle_digest, pack, relocate, shipped_paths, unpack

from .toy_env import TakeOne, toy_tournament

ray = pytest.importorskip("ray")


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """A local 2-CPU Ray instance whose workers unpack shipped files into a cache of this test's own."""
    cache = tmp_path_factory.mktemp("shipped")
    os.environ["ISSOKU_SHIPPED_CACHE"] = str(cache)  # read by the workers, which inherit the environment
    backend = RayBackend(cpus=2)
    yield backend, cache
    ray.shutdown()
    os.environ.pop("ISSOKU_SHIPPED_CACHE", None)


def rows(path: Path) -> list[tuple]:
    """Every row of the store's match and seat tables, in key order, without the time each was stored."""
    with MatchStore(path) as store:
        matches = store._db.execute("SELECT key, env_id, rules_fingerprint, loadout, loadout_kwargs, seed, winner,"
                                    " first_seat, length, truncated FROM matches ORDER BY key").fetchall()
        seats = store._db.execute("SELECT * FROM seats ORDER BY match_key, seat").fetchall()
    return matches + seats


def played_on(tournament: Tournament, path: Path, workers) -> list[tuple]:
    with MatchStore(path) as store:
        run = run_tournament(tournament, store, workers=workers, batch_size=3, progress=False)
    assert run.played == run.scheduled
    return rows(path)


def test_a_study_on_ray_stores_exactly_the_rows_of_the_process_pool(cluster, tmp_path):
    backend, _ = cluster
    tournament = toy_tournament(games_per_pair=4)
    assert played_on(tournament, tmp_path / "ray.sqlite", backend) == played_on(tournament, tmp_path / "pool.sqlite", 2)


def test_a_balance_report_on_ray_stores_the_rows_and_combo_table_of_the_pool(cluster, tmp_path):
    """A loadout study on edited data files (the planted exploit's), its restricted-play battery and combo table."""
    from issoku.evaluation.reports.commands import balance_report
    from issoku.evaluation.games.config import StudyConfig

    root = Path(__file__).resolve().parents[2]
    data = [str(root / "rules/breath/data" / name) for name in
            ("archetypes.toml", "armor.toml", "kata.toml", "maneuvers.toml", "stances.toml")]
    study = StudyConfig.model_validate({
        "env": "breath_duel_v0", "policies": ["ma_heuristic"], "mirrors": True, "games_per_pair": 2,
        "composition_kind": "breath", "composition_end": ["end_breath", "stand"],
        "loadout_grid": {"seat_key": "fighters", "labels": ["ninjato", "yari"],
                         "templates": {"ninjato": "shinobi", "yari": "ashigaru"},
                         "kwargs": {"data": [*data, str(root / "tests/data/planted_exploit_weapons.toml")]}},
        "combo_table": {"samples": 10, "weapons": ["ninjato"]},
        "restricted_play": {"games": 2, "maneuvers": 1, "combos": 0, "replies": 0, "loadouts": 1}})
    stored = {}
    for name, workers in (("pool", 2), ("ray", cluster[0])):
        balance_report([study], tmp_path / f"{name}.sqlite", tmp_path / name, workers=workers, bootstrap=10,
                       progress=False)
        with MatchStore(tmp_path / f"{name}.sqlite") as store:
            artifacts = store._db.execute("SELECT key, kind, body FROM artifacts ORDER BY key").fetchall()
        stored[name] = rows(tmp_path / f"{name}.sqlite") + artifacts
    assert stored["ray"] == stored["pool"] and any(" -" in row[3] for row in stored["ray"] if len(row) == 8)


def test_a_rules_variant_travels_to_the_workers_and_plays_the_same_games(cluster, tmp_path):
    from issoku.envs.registry import resolve_env
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.rules.variant import RULES_DIR

    backend, cache = cluster
    variant = tmp_path / "variant"
    (variant / "tempo/data").mkdir(parents=True)
    shipped = (RULES_DIR / "tempo/data/armour.toml").read_text()
    (variant / "tempo/data/armour.toml").write_text(shipped)
    tournament = Tournament(resolve_env("tempo_duel_v0"),
                            (resolve_policy("tempo_heuristic"), resolve_policy("random")),
                            (Loadout("variant", {"variant": str(variant)}),), games_per_pair=4)
    assert played_on(tournament, tmp_path / "ray.sqlite", backend) == played_on(tournament, tmp_path / "here.sqlite", 0)
    assert (cache / bundle_digest(str(variant)) / "variant" / "tempo/data/armour.toml").read_text() == shipped


def test_a_checkpoint_travels_with_its_metadata_and_plays_the_same_games(cluster, tmp_path):
    from issoku.evaluation.games.policies import resolve_policy

    from tests.training.test_finetune import tiny_checkpoint

    backend, cache = cluster
    checkpoint = tiny_checkpoint(tmp_path)
    tournament = Tournament(toy_tournament().env_factory, (resolve_policy(f"ck={checkpoint}"), PolicySpec("one", TakeOne)),
                            games_per_pair=6)
    assert played_on(tournament, tmp_path / "ray.sqlite", backend) == played_on(tournament, tmp_path / "here.sqlite", 0)
    copy = cache / bundle_digest(str(checkpoint))
    assert sorted(path.name for path in copy.iterdir()) == ["toy_model.json", "toy_model.zip"]


def test_fine_tuning_on_ray_writes_the_checkpoints_one_process_writes(cluster, tmp_path):
    from issoku.training.finetune import FineTuneJob, fine_tune_all

    from tests.evaluation.toy_env import take_away_env
    from tests.training.test_finetune import tiny_checkpoint

    backend, _ = cluster
    checkpoint = tiny_checkpoint(tmp_path)
    written = {}
    for name, workers in (("here", 0), ("ray", backend)):
        jobs = [FineTuneJob(take_away_env, {}, str(checkpoint), (banned,), steps=32, seed=0,
                            out=str(tmp_path / name / f"x{banned}.zip")) for banned in (1, 2)]
        written[name] = [zip_members(path) for path in fine_tune_all(jobs, workers, progress=False)]
        assert json.loads(Path(jobs[0].out).with_suffix(".json").read_text())["fine_tuned"]["from"] == str(checkpoint)
    assert written["ray"] == written["here"]


def zip_members(path: str) -> dict[str, bytes]:
    """A checkpoint zip's members but ``data`` (SB3 writes the time and object addresses into it): the weights,
    the optimizer's state, the versions."""
    with zipfile.ZipFile(path) as archive:
        return {name: archive.read(name) for name in archive.namelist() if name != "data"}


@dataclasses.dataclass(frozen=True)
class KillsItsWorkerOnce:
    """Takes one; but the first policy ever built (no marker file yet) SIGKILLs its own worker process."""

    marker: str

    def __call__(self, seed: int | None = None) -> TakeOne:
        if not os.path.exists(self.marker):
            Path(self.marker).touch()
            os.kill(os.getpid(), signal.SIGKILL)
        return TakeOne(seed)


def test_a_job_whose_worker_is_killed_is_rerun_by_ray_and_stored_once(cluster, tmp_path):
    backend, _ = cluster
    marker = tmp_path / "killed-once"
    killer = dataclasses.replace(toy_tournament(games_per_pair=4), policies=(
        *toy_tournament().policies[:2], PolicySpec("take_one", KillsItsWorkerOnce(str(marker)))))
    marker.touch()  # in this process: no kill
    expected = played_on(killer, tmp_path / "here.sqlite", 0)
    marker.unlink()
    ray_rows = played_on(killer, tmp_path / "ray.sqlite", backend)
    assert marker.exists(), "no worker was killed: the test tested nothing"
    assert ray_rows == expected
    assert len({row[0] for row in ray_rows if len(row) == 10}) == 4 * 3 * 2  # games: pairs x games x loadouts


def test_shipped_paths_are_found_relocated_and_checked(tmp_path):
    from issoku.evaluation.games.policies import CheckpointFactory
    from issoku.evaluation.games.tournament import Job

    checkpoint = tmp_path / "a.zip"
    checkpoint.write_bytes(b"zip")
    (tmp_path / "a.json").write_text("{}")
    job = Job(toy_tournament().env_factory, Loadout("v", {"variant": str(tmp_path)}),
              (PolicySpec("a", CheckpointFactory(str(checkpoint))), PolicySpec("random", TakeOne)), (), 10)
    assert shipped_paths(job) == [str(tmp_path), str(checkpoint)]
    moved = relocate(job, {str(checkpoint): "/elsewhere/a.zip", str(tmp_path): "/elsewhere/v"})
    assert moved.policies[0].factory.path == "/elsewhere/a.zip" and moved.loadout == job.loadout  # records unchanged
    assert moved.env_factory.where == ((str(checkpoint), "/elsewhere/a.zip"), (str(tmp_path), "/elsewhere/v"))

    cache = tmp_path / "cache"
    cache.mkdir()
    digest = bundle_digest(str(checkpoint))
    local = unpack(str(checkpoint), digest, lambda: pack(str(checkpoint)), cache)
    assert Path(local).read_bytes() == b"zip" and Path(local).with_suffix(".json").read_text() == "{}"
    assert unpack(str(checkpoint), digest, lambda: pytest.fail("fetched twice"), cache) == local  # cached
    with pytest.raises(ValueError, match="do not match the driver's fingerprint"):
        unpack(str(checkpoint), "0" * 16, lambda: pack(str(checkpoint)), cache)


def test_evaluate_duels_on_ray_add_up_to_the_one_process_result(cluster, tmp_path):
    from issoku.evaluation.strength.checkpoint_duels import duel_checkpoint
    from issoku.training.config import TrainConfig
    from issoku.training.selfplay import train

    from tests.training.conftest import TINY

    backend, _ = cluster
    checkpoint = train(TrainConfig(**TINY, total_steps=128, checkpoint_every=128, run_dir=str(tmp_path)))["checkpoint"]
    here = duel_checkpoint(checkpoint, "random", duels=21, seed=5, allow_imports=True)
    assert duel_checkpoint(checkpoint, "random", duels=21, seed=5, allow_imports=True, workers=backend) == here


def test_a_hunt_on_ray_trains_its_best_response_on_a_worker_and_finds_the_same(cluster, tmp_path):
    from issoku.evaluation.strength.hunt import HuntConfig, hunt

    from tests.evaluation.test_hunt import TINY

    backend, _ = cluster
    config = {**TINY, "iterations": 1}
    here = hunt(HuntConfig(out=str(tmp_path / "here"), **config))
    there = hunt(HuntConfig(out=str(tmp_path / "ray"), **config), backend)
    assert [(it.mixture, it.gain) for it in there] == [(it.mixture, it.gain) for it in here]
    assert zip_members(str(tmp_path / "ray/agents/br1.zip")) == zip_members(str(tmp_path / "here/agents/br1.zip"))


def test_a_hunt_control_on_ray_trains_on_a_worker_and_measures_the_same(cluster, tmp_path):
    """``hunt --control`` on Ray: the control best response (shipped rules) trains as the best responses do."""
    from issoku.evaluation.strength.hunt import HuntConfig, hunt

    from tests.evaluation.test_hunt import TINY

    backend, _ = cluster
    config = {**TINY, "iterations": 1, "env_id": "breath_duel_v0", "population": ("random", "ma_heuristic"),
              "variant": "tests/data/variants/learned_only_tanto_thrust", "control": True}
    (here,) = hunt(HuntConfig(out=str(tmp_path / "here"), **config))
    (there,) = hunt(HuntConfig(out=str(tmp_path / "ray"), **config), backend)
    assert there.control_gain == here.control_gain and there.edited == here.edited
    assert zip_members(str(tmp_path / "ray/agents/control1.zip")) == zip_members(str(tmp_path / "here/agents/control1.zip"))


def test_the_scale_benchmark_plays_a_study_three_ways_into_the_same_rows(cluster, capsys):
    from benchmarks.scale import main

    main(["-n", "2"])
    out = capsys.readouterr().out
    assert "the three stores hold the same rows" in out and "cores:" in out

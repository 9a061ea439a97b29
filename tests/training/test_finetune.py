"""Restricted play with fine-tuning: a checkpoint is trained on under each restriction before it plays."""

import json

from issoku.evaluation.reports.commands import balance_report
from issoku.evaluation.games.config import StudyConfig
from issoku.training.finetune import FineTuneJob, fine_tune_all
from issoku.evaluation.games.store import MatchStore

from tests.evaluation.toy_env import TakeAwayEnv, TakeOne, take_away_env


def tiny_checkpoint(folder, env_id="tests.evaluation.toy_env:take_away_env", named_env=None):
    """A MaskablePPO checkpoint of take-away after a few dozen steps (what issoku.training would write), its
    metadata naming the env the studies name (``env_id``, built as ``named_env``)."""
    from sb3_contrib import MaskablePPO
    from stable_baselines3.common.vec_env import DummyVecEnv

    from issoku.envs.single_agent import SingleAgentEnv
    from issoku.training.make_env import env_identity

    env = DummyVecEnv([lambda: SingleAgentEnv(TakeAwayEnv(), opponent=TakeOne())])
    model = MaskablePPO("MlpPolicy", env, n_steps=32, batch_size=16, n_epochs=1, seed=0, device="cpu")
    model.learn(32)
    path = folder / "toy_model.zip"
    model.save(path)
    identity = env_identity(named_env if named_env is not None else take_away_env(), env_id)
    (folder / "toy_model.json").write_text(json.dumps(identity))
    return path


def test_fine_tuning_writes_a_new_checkpoint_once_and_restricted_play_uses_it(tmp_path):
    checkpoint = tiny_checkpoint(tmp_path)
    job = FineTuneJob(take_away_env, {}, str(checkpoint), (2,), steps=32, seed=0, out=str(tmp_path / "ft" / "x.zip"))
    [out] = fine_tune_all([job], workers=0, progress=False)
    stamp = (tmp_path / "ft" / "x.zip").stat().st_mtime_ns
    assert json.loads((tmp_path / "ft" / "x.json").read_text())["fine_tuned"]["banned"] == [2]
    assert fine_tune_all([job], workers=0, progress=False) == [out]
    assert (tmp_path / "ft" / "x.zip").stat().st_mtime_ns == stamp  # reused

    study = StudyConfig.model_validate({
        "env": "tests.evaluation.toy_env:take_away_env", "games_per_pair": 4,
        "policies": [f"ck={checkpoint}", "take_one=tests.evaluation.toy_env:TakeOne"],
        "restricted_play": {"policy": "ck", "games": 4, "maneuvers": 1, "combos": 0, "fine_tune_steps": 32}})
    runs, report = balance_report([study], tmp_path / "m.sqlite", tmp_path / "out", workers=0, bootstrap=10,
                                  progress=False)
    assert runs[0].restricted.played == 4
    assert len(list((tmp_path / "fine_tuned").glob("toy_model-*-32.zip"))) == 1
    with MatchStore(tmp_path / "m.sqlite") as store:
        restricted = [r for r in store.records() if any(" -" in p for p in r.policies)]
    assert len(restricted) == 4 and "### Restricted play" in report.read_text()

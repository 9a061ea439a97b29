"""The shipped checkpoints (``agents/shipped/<env>.zip``) still fit today's rules, and the default studies field them.

When a rules change (content data, action table, observation layout) breaks one, the failure names the exact
commands that retrain it and copy the result into place (docs/training.md, "Shipped checkpoints").
"""

import json

import pytest

from issoku.agents.checkpoint import read_metadata
from issoku.evaluation.games.studies import default_studies
from issoku.evaluation.games.config import load_study
from issoku.evaluation.games.policies import SHIPPED_DIR, expand_shipped, resolve_policy, shipped_checkpoints
from issoku.training.config import TrainConfig, checkpoint_config, read_config_file
from issoku.training.make_env import env_identity, make_config_env

DUELS = ("breath_duel_v0", "tempo_duel_v0", "encounter_duel_v0")


def shipped_config_name(env_id: str) -> str:
    """``breath_duel_v0`` -> ``shipped_breath_duel``: the training config that makes its shipped checkpoint."""
    return "shipped_" + env_id.rsplit("_v", 1)[0]


def retrain_command(env_id: str, steps: int) -> str:
    """The commands that rebuild ``env_id``'s shipped checkpoint, as a failure message prints them."""
    name = shipped_config_name(env_id)
    final = f"runs/{name}/checkpoints/step_{steps:012d}"
    return (f"retrain it: issoku train --config {name}   (up to a quarter of an hour on one core, docs/training.md)\n"
            f"then: cp {final}.zip agents/shipped/{env_id}.zip && cp {final}.json agents/shipped/{env_id}.json")


def test_a_checkpoint_is_shipped_for_every_duel():
    assert sorted(shipped_checkpoints()) == sorted(DUELS)
    for path in shipped_checkpoints().values():
        assert path.with_suffix(".json").is_file(), f"{path}: its metadata .json is not shipped beside it"
        assert path.stat().st_size < 1_100_000, f"{path}: {path.stat().st_size:,} bytes; keep shipped agents small"


@pytest.mark.parametrize("env_id", DUELS)
def test_a_shipped_checkpoint_matches_the_current_rules_and_interface(env_id):
    path = shipped_checkpoints()[env_id]
    metadata = read_metadata(path)
    env = make_config_env(checkpoint_config(path, metadata, allow_imports=False))
    identity = env_identity(env, env_id)
    env.close()
    stale = [f"{key}: shipped {metadata.get(key)!r}, today's rules {identity[key]!r}"
             for key in ("env_id", "env_version", "rules_version", "rules_fingerprint", "interface")
             if metadata.get(key) != identity[key]]
    assert not stale, (f"{path} no longer fits the rules ({'; '.join(stale)});\n"
                       + retrain_command(env_id, int(metadata["steps"])))


@pytest.mark.parametrize("env_id", DUELS)
def test_the_shipped_config_reproduces_the_shipped_checkpoint(env_id):
    """The retrain command is exact: the shipped config is the config the checkpoint was trained with."""
    metadata = read_metadata(shipped_checkpoints()[env_id])
    shipped = TrainConfig.from_json(read_config_file(shipped_config_name(env_id)))
    assert TrainConfig.from_json(metadata["config"]) == shipped, retrain_command(env_id, int(metadata["steps"]))


@pytest.mark.parametrize("env_id", DUELS)
def test_the_default_policy_study_fields_the_shipped_agent(env_id):
    (study,) = [load_study(path) for path in default_studies() if path.name.endswith(f"_{env_id}_policies.toml")]
    assert f"learned=shipped:{env_id}" in study.policies
    spec = resolve_policy(f"learned=shipped:{env_id}")
    assert spec.name == "learned" and spec.factory.path == str(SHIPPED_DIR / f"{env_id}.zip")


def test_an_unknown_shipped_name_is_refused_naming_the_shipped_ones():
    with pytest.raises(ValueError, match="no shipped checkpoint 'shipped:chess_v0' .*shipped:breath_duel_v0"):
        expand_shipped("shipped:chess_v0")
    assert expand_shipped("ma_heuristic") == "ma_heuristic"
    assert json.loads(SHIPPED_DIR.joinpath("tempo_duel_v0.json").read_text())["env_id"] == "tempo_duel_v0"


@pytest.mark.parametrize("env_id", ["breath_duel_v0", "tempo_duel_v0"])
def test_the_shipped_agent_decides_its_duels_against_itself(env_id):
    """A shipped agent must not stall against its own copy (docs/training.md, "Shipped checkpoints"): the first
    tempo agent waited out of reach and drew every such duel at the round limit."""
    from issoku.evaluation.strength.head_to_head import IN_MEMORY, head_to_head

    checkpoint = shipped_checkpoints()[env_id]
    result = head_to_head(f"agent={checkpoint}", f"twin={checkpoint}", 20, env=env_id, workers=0, db=IN_MEMORY)
    assert result.truncated == 0

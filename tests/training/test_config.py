"""Command-line overrides become typed config values; unknown or malformed ones are refused."""

import pytest

from issoku.training.config import ConfigError, TrainConfig, apply_overrides, parse_assignments


def test_overrides_are_converted_to_field_types():
    config = apply_overrides(TrainConfig(), parse_assignments(
        ["n_envs=4", "learning_rate=1e-4", "opponents=random,heuristic", "net-arch=64,64",
         "progress_bar=false", 'env_kwargs={"loadouts": "random"}']))
    assert (config.n_envs, config.learning_rate, config.opponents) == (4, 1e-4, ("random", "heuristic"))
    assert config.net_arch == (64, 64) and config.progress_bar is False
    assert config.env_kwargs == {"loadouts": "random"}


def test_config_round_trips_through_json():
    config = TrainConfig(env_id="x_v1", net_arch=(8,), opponents=())
    assert TrainConfig.from_json(config.to_json()) == config


@pytest.mark.parametrize("assignment, message", [
    ("bogus=1", "unknown config field"), ("n_envs=many", "expected int"), ("progress_bar=maybe", "true or false"),
    ("n_envs", "key=value")])
def test_bad_overrides_are_refused(assignment, message):
    with pytest.raises(ConfigError, match=message):
        apply_overrides(TrainConfig(), parse_assignments([assignment]))


def test_default_run_dir_names_env_and_seed():
    assert TrainConfig(env_id="breath_duel_v0", seed=3).resolved_run_dir == "runs/breath_duel_v0-seed3"

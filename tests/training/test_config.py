"""Command-line overrides and config files become typed config values; unknown or malformed ones are refused."""

import pytest

from issoku.training.config import ConfigError, TrainConfig, apply_overrides, parse_assignments, read_config_file


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


def test_the_shipped_reference_config_is_found_by_name_and_is_valid():
    config = apply_overrides(TrainConfig(), read_config_file("reference_breath_duel"))
    assert config.env_id == "breath_duel_v0" and len(config.matchups) == 6
    assert "ma_heuristic" in config.opponents and config.eval_opponents == ("ma_heuristic",)
    assert config.final_eval_episodes == 1000 and config.net_arch == (128, 128)


def test_the_shipped_encounter_reference_config_is_found_by_name_and_is_valid():
    config = apply_overrides(TrainConfig(), read_config_file("reference_encounter_duel"))
    assert config.env_id == "encounter_duel_v0" and config.matchups == () and config.env_kwargs == {}
    assert "encounter_heuristic" in config.opponents and config.eval_opponents == ("encounter_heuristic",)
    assert config.final_eval_episodes == 1000 and config.run_dir == "runs/reference_encounter_duel"


def test_the_shipped_tempo_styles_config_is_found_by_name_and_trains_the_suites_matchup_with_any_style():
    config = apply_overrides(TrainConfig(), read_config_file("styles_tempo_duel"))
    assert config.env_id == "tempo_duel_v0" and config.matchups == () and config.style == ""
    feinter = apply_overrides(config, {"style": "feinter", "style_weight": 3.0})
    assert feinter.style == "feinter" and feinter.style_weight == 3.0 and feinter.run_dir == config.run_dir


def test_a_config_file_by_path_is_read_and_bad_files_are_refused(tmp_path):
    good = tmp_path / "run.toml"
    good.write_text('env_id = "tempo_duel_v0"\nnet_arch = [16]\nenv_kwargs = { round_limit = 3 }\n')
    config = apply_overrides(TrainConfig(), read_config_file(str(good)))
    assert (config.env_id, config.net_arch, config.env_kwargs) == ("tempo_duel_v0", (16,), {"round_limit": 3})
    with pytest.raises(ConfigError, match="not found.*reference_breath_duel"):
        read_config_file(str(tmp_path / "missing.toml"))
    broken = tmp_path / "broken.toml"
    broken.write_text("n_envs = \n")
    with pytest.raises(ConfigError, match="broken.toml"):
        read_config_file(str(broken))
    unknown = tmp_path / "unknown.toml"
    unknown.write_text("n_env = 4\n")
    with pytest.raises(ConfigError, match="unknown config field"):
        apply_overrides(TrainConfig(), read_config_file(str(unknown)))


def test_a_run_ends_after_the_whole_rollout_that_crosses_total_steps():
    from issoku.training.selfplay import final_step_count

    config = TrainConfig(total_steps=500_000, n_envs=8, n_steps=512)
    assert final_step_count(config, 0) == 503_808
    assert final_step_count(config, 503_808) == 503_808
    assert final_step_count(config, 499_712) == 503_808

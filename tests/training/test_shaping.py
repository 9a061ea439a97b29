"""Play styles: style files are validated data, the bonus reaches the learner only in training, and ``issoku
styles`` measures strength in the plain game beside the action shares."""

import json

import numpy as np
import pytest
from typer.testing import CliRunner

from issoku.agents.policy import RandomLegal
from issoku.cli import app
from issoku.envs import breath_duel_v0, tempo_duel_v0
from issoku.rules.kernel.content import DataError
from issoku.training.config import TrainConfig
from issoku.training.make_env import make_selfplay_env
from issoku.training.opponents import Opponent, OpponentPool
from issoku.training.shaping import STYLES_DIR, action_shares, bonus_per_action, load_style, matches
from issoku.training.selfplay import train

NAMES = breath_duel_v0.env().unwrapped.action_names


def test_prefixes_match_whole_segments():
    assert matches("attack", "attack:straight_thrust:torso") and matches("half_step:close", "half_step:close")
    assert not matches("half", "half_step:close") and not matches("half_step:close", "half_step:open")


@pytest.mark.parametrize("path", sorted(STYLES_DIR.glob("*.toml")), ids=lambda path: path.stem)
def test_every_shipped_style_matches_actions_of_its_env(path):
    from issoku.envs.registry import make_env

    style = load_style(path.stem)
    bonus = bonus_per_action(style, style.env, make_env(style.env).unwrapped.action_names)
    assert bonus.max() > 0 and (bonus > 0).sum() >= len(style.bonus)


def test_a_misspelt_prefix_or_another_envs_style_is_refused_naming_file_and_field(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('description = "x"\nenv = "breath_duel_v0"\n[bonus]\nattak = 1.0\n')
    with pytest.raises(DataError, match=r"bad.toml[\s\S]*bonus.attak: matches no action"):
        bonus_per_action(load_style(str(bad)), "breath_duel_v0", NAMES)
    with pytest.raises(DataError, match="the style is for tempo_duel_v0"):
        bonus_per_action(load_style("feinter"), "breath_duel_v0", NAMES)
    bad.write_text('description = "x"\nenv = "breath_duel_v0"\nbonus = {}\nextra = 1\n')
    with pytest.raises(DataError, match="extra"):
        load_style(str(bad))


def test_the_mean_bonus_is_added_when_the_fight_ends_in_training_and_never_in_evaluation():
    config = TrainConfig(env_id="breath_duel_v0", style="defensive", style_weight=0.5)
    pool = OpponentPool([Opponent("random", RandomLegal(0))])
    bonus = bonus_per_action(load_style("defensive"), "breath_duel_v0", NAMES)
    for shaped in (True, False):
        env = make_selfplay_env(config, pool, shaped=shaped)
        env.reset(seed=3)
        rng = np.random.default_rng(3)
        chosen, rewards = [], []
        done = False
        while not done:
            mask = env.get_wrapper_attr("action_masks")()
            chosen.append(int(rng.choice(np.flatnonzero(mask))))
            _, reward, terminated, truncated, info = env.step(chosen[-1])
            rewards.append(reward)
            done = terminated or truncated
        expected = 0.5 * float(np.mean(bonus[chosen])) if shaped else 0.0
        assert all(reward == 0 for reward in rewards[:-1])  # nothing before the end: no farming by long fights
        assert rewards[-1] == pytest.approx(info["selfplay"]["return"] + expected)
        assert ("style_bonus" in info) == shaped
        if shaped:
            assert 0 < expected <= 0.5 and info["style_bonus"] == pytest.approx(expected)


def test_action_shares_count_kinds_maneuvers_and_deeper_prefixes():
    shares = action_shares(["attack:a:b", "attack:c", "half_step:close", "end_breath"],
                           ["half_step:close", "attack", "attack:a:b"])
    assert shares == {"attack": 0.5, "attack:a": 0.25, "attack:a:b": 0.25, "attack:c": 0.25, "end_breath": 0.25,
                      "half_step": 0.25, "half_step:close": 0.25}


def test_tempo_action_shares_show_the_maneuver_not_only_the_phase():
    """The tempo duel's first segment is the phase: a feinter's table must show feints against attacks."""
    names = tempo_duel_v0.env().unwrapped.action_names
    played = ["proactive:feint", "proactive:melee_attack", "proactive:melee_attack", "react:parry"]
    assert set(played) <= set(names)
    shares = action_shares(played, sorted(load_style("feinter").bonus))
    assert shares["proactive"] == 0.75 and shares["proactive:feint"] == 0.25
    assert shares["proactive:melee_attack"] == 0.5 and shares["react:parry"] == 0.25


def test_issoku_styles_rates_in_the_plain_game_and_compares_shares_with_the_first_agent(tmp_path):
    runs = []
    for style in ("", "defensive"):
        run = tmp_path / (style or "neutral")
        train(TrainConfig(env_id="breath_duel_v0", n_envs=2, n_steps=64, batch_size=64, n_epochs=1, net_arch=(32, 32),
                          eval_every=0, final_eval_episodes=2, progress_bar=False, total_steps=128,
                          checkpoint_every=128, run_dir=str(run), style=style))
        runs.append(run / "checkpoints" / "step_000000000128.zip")
        assert json.loads(runs[-1].with_suffix(".json").read_text())["config"]["style"] == style
    suite = tmp_path / "suite.toml"
    suite.write_text('name = "tiny"\nversion = 1\nenv = "breath_duel_v0"\npolicies = ["random", "breath_aggressive"]\n'
                     'games_per_pair = 4\n[reference_elo]\nrandom = 0.0\nbreath_aggressive = 45.0\n')
    result = CliRunner().invoke(app, ["styles", *map(str, runs), "--out", str(tmp_path / "out"), "--suite", str(suite),
                                      "--db", str(tmp_path / "m.sqlite"), "--workers", "0"])
    assert result.exit_code == 0, result.output
    header, _, elo, decisions, *rows = [line for line in result.stdout.splitlines() if line.startswith("|")]
    assert "neutral" in header and "defensive" in header and elo.startswith("| Elo on the suite")
    assert any(row.startswith("| `reserve` *") for row in rows)
    assert all(row.count("(+") + row.count("(-") == 1 for row in rows)  # the styled agent's change vs neutral

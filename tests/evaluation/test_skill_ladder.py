"""The skill ladder: adjacent rungs and the top rung against references, each a seeded head-to-head."""

from typer.testing import CliRunner

from issoku.cli import app
from issoku.evaluation.strength.skill_ladder import measure, table


def test_the_ladder_plays_adjacent_rungs_then_the_top_one_against_each_reference():
    steps = measure("tempo_duel_v0", rungs=("random", "one_step"), references=("tempo_heuristic",), duels=4)
    assert [(step.upper, step.lower) for step in steps] == [("one_step", "random"), ("one_step", "tempo_heuristic")]
    assert all(step.result.total.duels == 4 for step in steps)
    text = table("tempo_duel_v0", steps)
    assert text.splitlines()[2].startswith("| `one_step` | `random` | 4 | ")


def test_skill_ladder_command_writes_its_table_with_a_dated_header(tmp_path):
    out = tmp_path / "ladder.md"
    result = CliRunner().invoke(app, ["skill-ladder", "--env", "tempo_duel_v0", "--rungs", "random,one_step",
                                      "--references", "", "-n", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    written = out.read_text()
    assert written.startswith("Written by `issoku ")
    from issoku.common.backend import code_identity
    version, code, data = code_identity()
    assert f"issoku {version} (code {code}, rules data {data})" in written.splitlines()[0]
    assert "| `one_step` | `random` | 2 |" in written


def test_skill_ladder_refuses_a_bad_budget_in_one_line():
    result = CliRunner().invoke(app, ["skill-ladder", "--env", "tempo_duel_v0", "-n", "0"])
    assert result.exit_code == 2
    assert "skill-ladder: --duels" in result.output


def test_every_pair_is_checked_before_any_duel_is_played():
    """An unknown rung, or a reference of another env, is refused before the pairs before it are played."""
    for args in (["--rungs", "random,one_step,nosuch"], ["--rungs", "random,one_step", "--references", "ma_heuristic"]):
        result = CliRunner().invoke(app, ["skill-ladder", "--env", "tempo_duel_v0", "-n", "2", *args])
        assert result.exit_code == 2, result.output
        assert "game/s]" not in result.output and len(result.output.strip().splitlines()) == 1  # no progress bar


def test_agent_names_cannot_shift_a_column_or_break_out_of_their_code_span():
    from dataclasses import replace

    [step] = measure("tempo_duel_v0", rungs=("random", "one_step"), references=(), duels=2)
    text = table("tempo_duel_v0", [replace(step, upper="a|b`c", lower="x")])
    row = text.splitlines()[2]
    assert row.startswith("| ``a\\|b`c`` | `x` | 2 |") and row.count(" | ") == 4


def test_the_ladder_can_play_a_mirror_match_and_names_it_in_its_table(tmp_path):
    out = tmp_path / "ladder.md"
    result = CliRunner().invoke(app, ["skill-ladder", "--env", "encounter_duel_v0", "--env-kwargs",
                                      '{"fighters": ["kenshi", "kenshi"]}', "--rungs", "random,one_step",
                                      "--references", "", "-n", "2", "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert '| encounter_duel_v0 {"fighters": \\["kenshi", "kenshi"\\]}: agent |' in out.read_text()
    [step] = measure("encounter_duel_v0", rungs=("random", "one_step"), references=(), duels=2,
                     env_kwargs={"fighters": ["kenshi", "kenshi"]})
    assert step.result.env_kwargs == {"fighters": ["kenshi", "kenshi"]}


def test_skill_ladder_refuses_bad_env_kwargs_in_one_line():
    for text, says in (("[1]", "must be a JSON object"), ("{", "not JSON"), ('{"nosuch": 1}', "nosuch")):
        result = CliRunner().invoke(app, ["skill-ladder", "--env", "tempo_duel_v0", "--env-kwargs", text, "-n", "2"])
        assert result.exit_code == 2, result.output
        assert result.output.startswith("skill-ladder: ") and says in result.output
        assert len(result.output.strip().splitlines()) == 1

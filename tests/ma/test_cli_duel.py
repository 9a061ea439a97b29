"""``issoku duel --ma``: a seeded Ma and Blade duel between scripted fighters, printed rule by rule."""

from typer.testing import CliRunner

from issoku.cli import app


def test_duel_ma_prints_a_reproducible_log_with_ma_rules():
    runner = CliRunner()
    args = ["duel", "--ma", "--seed", "3", "--kind", "hatashiai", "--stage", "high_ground"]
    first = runner.invoke(app, args)
    assert first.exit_code == 0, first.output
    assert "[MA-009 ] ma_start" in first.output and "ma: " in first.output
    assert runner.invoke(app, args).output == first.output
    sparring = runner.invoke(app, ["duel", "--ma", "--sparring", "--seed", "5"])
    assert sparring.exit_code == 0 and "points " in sparring.output
    bad = runner.invoke(app, ["duel", "--ma", "--stage", "volcano"])
    assert bad.exit_code != 0 and "unknown terrain stage" in bad.output

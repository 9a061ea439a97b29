"""``issoku encounter-duel``: a seeded fight's log, the same bytes for the same seed, and bad input refused
with one line and exit 2."""

from typer.testing import CliRunner

from issoku.cli import app


def test_encounter_duel_prints_a_seeded_log_and_a_verdict():
    runner = CliRunner()
    first = runner.invoke(app, ["encounter-duel", "--seed", "3"])
    assert first.exit_code == 0, first.output
    assert "[EN-002 ] initiative" in first.output and "wins" in first.output.splitlines()[-1]
    assert runner.invoke(app, ["encounter-duel", "--seed", "3"]).output == first.output
    as_json = runner.invoke(app, ["encounter-duel", "--seed", "3", "--json", "--agent-b", "random"])
    assert as_json.exit_code == 0 and as_json.output.startswith('{"actor":null')


def test_encounter_duel_refuses_bad_input(tmp_path):
    runner = CliRunner()
    for bad in (["--a", "dragon"], ["--agent-a", "nobody"], ["--start-distance", "99"],
                ["--data", str(tmp_path)]):
        refused = runner.invoke(app, ["encounter-duel", *bad])
        assert refused.exit_code == 2, (bad, refused.output)
        assert "Traceback" not in refused.output

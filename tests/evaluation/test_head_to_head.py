"""issoku head-to-head: counted from the agent's side whatever name the agent is stored under."""

from typer.testing import CliRunner

from issoku.cli import app


def test_a_shipped_agent_is_counted_under_the_name_it_is_stored_by():
    """``shipped:<env>`` is stored under its checkpoint's name; the count once looked for the entry as typed and
    died after playing every duel."""
    result = CliRunner().invoke(app, ["head-to-head", "-a", "shipped:tempo_duel_v0", "-o", "random", "-n", "2",
                                      "--env", "tempo_duel_v0"])
    assert result.exit_code == 0, result.output
    assert "tempo_duel_v0 vs random on tempo_duel_v0" in result.output and "2 duels" in result.output

"""The scripted breath fighters play legally and the heuristic one is clearly stronger than random."""

from __future__ import annotations

import numpy as np
from typer.testing import CliRunner

from issoku.agents.breath_scripted import SCRIPTED
from issoku.agents.play import play_fight
from issoku.agents.policy import RandomLegal
from issoku.cli import app
from issoku.rules.breath.ruleset import BreathConfig, BreathRuleset, FighterSpec

ARCHETYPES = ("kenshi", "ashigaru", "ronin", "shinobi", "mikkyo_monk", "wildman")


def test_every_scripted_agent_finishes_fights_on_every_archetype():
    for a in ARCHETYPES:
        ruleset = BreathRuleset(BreathConfig((FighterSpec(a, 0), FighterSpec("kenshi", 1))))
        for name, agent in SCRIPTED.items():
            state = play_fight(ruleset.new_initial_state(3), [agent(ruleset, 1), RandomLegal(2)])
            assert state.is_terminal() or state.is_truncated(), (a, name)


def test_heuristic_beats_random_legal_over_mixed_matchups():
    rng = np.random.default_rng(0)
    wins = 0
    games = 60
    for game in range(games):
        a, b = rng.choice(ARCHETYPES), rng.choice(ARCHETYPES)
        ruleset = BreathRuleset(BreathConfig((FighterSpec(a, 0), FighterSpec(b, 1))))
        heuristic_seat = game % 2
        policies = [RandomLegal(game), RandomLegal(game)]
        policies[heuristic_seat] = SCRIPTED["heuristic"](ruleset, game)
        state = play_fight(ruleset.new_initial_state(game), policies)
        wins += state.returns()[heuristic_seat] > 0
    assert wins / games >= 0.85


def test_duel_command_prints_a_readable_seeded_log():
    runner = CliRunner()
    first = runner.invoke(app, ["duel", "--seed", "11"])
    assert first.exit_code == 0, first.output
    assert "[BR-G01 ] attack_check" in first.output and ("wins" in first.output or "draw" in first.output)
    assert runner.invoke(app, ["duel", "--seed", "11"]).output == first.output
    as_json = runner.invoke(app, ["duel", "--seed", "11", "--json"])
    assert as_json.output.splitlines()[0].startswith('{"actor":null')
    bad = runner.invoke(app, ["duel", "--a", "nobody"])
    assert bad.exit_code != 0 and "unknown archetype" in bad.output

"""The scripted tempo fighters: always legal, each doing what its name says, the heuristic beating random."""

import random

import pytest

from issoku.agents.play import play_fight
from issoku.agents.policy import RandomLegal
from issoku.agents.tempo_approach import CombatApproach
from issoku.agents.tempo_scripted import AlwaysParry, FeintCounter, Heuristic, read
from issoku.agents.scripted_from_state import state_chooser
from issoku.agents.tempo_state_view import read_state
from issoku.rules.tempo import TempoConfig, TempoDuel, action
from tempo_helpers import decide, duel, kinds, play

PAIRS = [("fencer", "knight"), ("knight", "fencer"), ("spearman", "knife_fighter"), ("brawler", "archer"),
         ("crossbowman", "fencer")]
AGENTS = [AlwaysParry, FeintCounter, Heuristic, CombatApproach]


@pytest.mark.parametrize("agent", AGENTS, ids=lambda a: a.__name__)
def test_scripted_agents_play_whole_duels_legally(agent):
    for game, pair in enumerate(PAIRS * 4):
        state = TempoDuel(TempoConfig(pair, initiator=game % 2)).new_initial_state(game, record_events=False)
        play_fight(state, [agent(seed=game), RandomLegal(seed=game)] if game % 2 else
                   [RandomLegal(seed=game), agent(seed=game)])
        assert state.current_seat() is None


def test_observation_reader_decodes_the_view():
    state = duel()
    play(state, "proactive:melee_attack")
    view = read(state.observation(1))
    assert (view.decision, view.status, view.declared, view.weapon_kind) == ("react", "on_guard", "melee_attack",
                                                                             "melee")


@pytest.mark.rule("TP-041")
def test_always_parry_parries():
    state = duel()
    play(state, "proactive:melee_attack")
    assert decide(AlwaysParry(), state) == action("react:parry")


@pytest.mark.rule("TP-047")
def test_feint_counter_feints_then_takes_the_plus_three_counter_attack():
    state = duel([10, 10, 9])
    feinter = FeintCounter()
    assert decide(feinter, state) == action("proactive:feint")
    play(state, "proactive:feint", "react:parry")
    assert decide(feinter, state) == action("ct:feint_counter_attack")


def test_feint_counter_uses_its_trick_against_always_parry():
    state = TempoDuel(TempoConfig(("fencer", "fencer"))).new_initial_state(3)
    play_fight(state, [FeintCounter(seed=1), AlwaysParry(seed=2)])
    assert any(e["action"] == "ct:feint_counter_attack" for e in kinds(state, "counter_tempo"))


def test_heuristic_beats_random():
    wins = 0
    for game in range(60):
        state = TempoDuel(TempoConfig(PAIRS[game % len(PAIRS)])).new_initial_state(game, record_events=False)
        heuristic_seat = game % 2
        policies = [Heuristic(seed=game), RandomLegal(seed=game)]
        play_fight(state, policies if heuristic_seat == 0 else policies[::-1])
        wins += state.returns()[heuristic_seat] > 0
    assert wins >= 40


def test_cli_tempo_duel_is_deterministic():
    from typer.testing import CliRunner

    from issoku.cli import app

    runner = CliRunner()
    args = ["tempo-duel", "--seed", "4", "--a", "spearman", "--agent-b", "feint_counter", "--json"]
    first, second = runner.invoke(app, args), runner.invoke(app, args)
    assert first.exit_code == 0 and first.output == second.output and first.output.count("\n") > 20
    assert runner.invoke(app, ["tempo-duel", "--agent-a", "nobody"]).exit_code != 0


@pytest.mark.rule("TP-027")
@pytest.mark.parametrize("agent", AGENTS, ids=lambda a: a.__name__)
def test_reading_the_state_gives_the_observations_view_and_choice(agent):
    """A search's playouts read the state (:func:`~issoku.agents.scripted_from_state.state_chooser`): they must
    play exactly as the agent plays in an env, and never see the other seat's feint (TP-027)."""
    by_observation, by_state = agent(seed=3), agent(seed=3)
    by_state_chooser = state_chooser(by_state)
    rng = random.Random(0)
    kinds, declared = set(), set()
    decisions = 0
    for game, pair in enumerate(PAIRS * 3):
        state = TempoDuel(TempoConfig(pair, initiator=game % 2)).new_initial_state(game, record_events=False)
        while (seat := state.current_seat()) is not None:
            observation = state.observation(seat)
            view = read(observation)
            assert read_state(state, seat) == view
            kinds.add(view.decision)
            declared.add(view.declared)
            chosen = decide(by_observation, state)
            assert by_state_chooser(state, seat) == chosen
            legal = state.legal_actions()  # half the fight played by the agent, half at random: varied positions
            state.apply(chosen if rng.random() < 0.5 else legal[rng.randrange(len(legal))])
            decisions += 1
    assert decisions > 300 and {"act", "react", "counter"} <= kinds and "melee_attack" in declared

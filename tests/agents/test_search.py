"""Search agents: they read the state only through what their seat may know, decide alike for a seed, and play
every env through the lab's game loops."""

from __future__ import annotations

import numpy as np
import pytest

from issoku.agents.state_reading import watch_state
from issoku.agents.registry import make_policy
from issoku.agents.search import MCTS, NotWatchingError, OneStepLookahead, SearchBudget
from issoku.agents.search.mcts import search
from issoku.agents.search.worlds import team_values
from issoku.rules.kernel.outcomes import health_leads
from issoku.envs import (breath_duel_v0, breath_skirmish_v0, encounter_duel_v0, encounter_skirmish_v0, tempo_duel_v0,
                         tempo_skirmish_v0)
from issoku.envs.adapter import legal_mask
from issoku.evaluation.games.match import MatchGame, play_matches
from issoku.rules.kernel import Dice

TINY = SearchBudget(simulations=12, rollout_depth=6)
TINY_UCB = SearchBudget(simulations=12, rollout_depth=6, root="ucb", expand_after=1)
DUELS = {"breath_duel_v0": breath_duel_v0, "tempo_duel_v0": tempo_duel_v0, "encounter_duel_v0": encounter_duel_v0}
ALL_ENVS = {**DUELS, "breath_skirmish_v0": breath_skirmish_v0, "tempo_skirmish_v0": tempo_skirmish_v0,
            "encounter_skirmish_v0": encounter_skirmish_v0}


def _ruleset(env_id: str):
    env = ALL_ENVS[env_id].env()
    return env.unwrapped.ruleset


def _tempo_exchange(declared: str):
    """A tempo duel in which the first actor has just declared ``declared`` (proactive:feint or
    proactive:melee_attack) and the other seat must react; both are legal for it at that moment."""
    ruleset = _ruleset("tempo_duel_v0")
    names = ruleset.action_names
    for seed in range(200):
        state = ruleset.new_initial_state(seed, record_events=False)
        for _ in range(60):
            legal = state.legal_actions()
            wanted = [names.index(n) for n in ("proactive:feint", "proactive:melee_attack") if n in names]
            if state.decision_kind() == "act" and all(a in legal for a in wanted):
                state.apply(names.index(declared))
                if state.decision_kind() == "react":
                    return state
                break
            closing = [a for a in legal if names[a] in ("proactive:move:close", "proactive:combat_move:close")]
            state.apply(closing[0] if closing else legal[0])
    raise AssertionError("no seed gave a reaction to a melee attack or feint")


@pytest.mark.parametrize("env_id", sorted(DUELS))
def test_search_decides_alike_for_a_seed(env_id: str) -> None:
    ruleset = _ruleset(env_id)
    state = ruleset.new_initial_state(3, record_events=False)
    seat = state.current_seat()
    for budget in (TINY, TINY_UCB):
        first = search(state, seat, budget, np.random.default_rng(5))
        assert first == search(state, seat, budget, np.random.default_rng(5))
        spent = sum(visits for visits, _ in first.values())  # halving rounds, and tries every action once
        most = max(budget.simulations, len(state.legal_actions()))
        assert budget.simulations - 1 <= spent <= most + 1


@pytest.mark.parametrize("env_id", sorted(DUELS))
def test_search_never_reads_the_seeded_dice(env_id: str) -> None:
    """Two states alike but for the dice their future rolls come from: the search cannot tell them apart."""
    ruleset = _ruleset(env_id)
    state = ruleset.new_initial_state(11, record_events=False)
    other = state.clone()
    other.set_dice(Dice(999))
    seat = state.current_seat()
    budget = SearchBudget(simulations=30, rollout_depth=10)
    assert search(state, seat, budget, np.random.default_rng(1)) == search(other, seat, budget, np.random.default_rng(1))


def test_tp_027_search_cannot_tell_a_feint_from_a_melee_attack() -> None:
    """TP-027: the reactor sees a Feint as a Melee Attack; its search decides the same against either."""
    feint, attack = _tempo_exchange("proactive:feint"), _tempo_exchange("proactive:melee_attack")
    assert feint.declared != attack.declared  # the two states do differ, in what the reactor cannot see
    seat = feint.current_seat()
    assert seat == attack.current_seat()
    assert np.array_equal(feint.observation(seat), attack.observation(seat))
    budget = SearchBudget(simulations=60, rollout_depth=12)
    assert search(feint, seat, budget, np.random.default_rng(2)) == search(attack, seat, budget, np.random.default_rng(2))
    agents = [MCTS(seed=4, budget=budget), MCTS(seed=4, budget=budget)]
    for agent, state in zip(agents, (feint, attack)):
        agent.watch(lambda state=state: state)
    mask = legal_mask(feint.legal_actions(), len(feint.ruleset.action_names))
    assert agents[0](feint.observation(seat), mask) == agents[1](attack.observation(seat), mask)


def test_tp_027_resample_hidden_draws_both_readings_and_one_number() -> None:
    """TP-027: the reactor's sampled worlds hold a Feint sometimes and a Melee Attack sometimes; the declarer's own
    never change; each call draws one number whatever the state."""
    state = _tempo_exchange("proactive:feint")
    names = state.ruleset.action_names
    reactor, declarer = state.current_seat(), state.actor()
    seen = set()
    rng = np.random.default_rng(0)
    for _ in range(40):
        world = state.clone()
        world.resample_hidden(reactor, rng)
        seen.add(names[world.declared])
    assert seen == {"proactive:feint", "proactive:melee_attack"}
    own = state.clone()
    own.resample_hidden(declarer, np.random.default_rng(0))
    assert names[own.declared] == "proactive:feint"
    a, b = np.random.default_rng(7), np.random.default_rng(7)
    state.clone().resample_hidden(reactor, a)
    _tempo_exchange("proactive:melee_attack").clone().resample_hidden(declarer, b)
    assert a.random() == b.random()


@pytest.mark.parametrize("env_id", sorted(ALL_ENVS))
def test_search_agents_play_every_env_through_the_tournament_loop(env_id: str) -> None:
    env = ALL_ENVS[env_id].env()
    seats = len(env.possible_agents)
    policies = tuple(MCTS(seed=seat, budget=TINY) if seat % 2 == 0 else OneStepLookahead(seed=seat, samples=1)
                     for seat in range(seats))
    game = MatchGame(policies, 7, "k", "default", {}, tuple(f"p{seat}" for seat in range(seats)), max_decisions=400)
    record = play_matches([env], [game])[0]
    assert record.length > 0


@pytest.mark.parametrize("name", ["one_step", "mcts_small", "mcts_large"])
def test_search_rungs_are_registered(name: str) -> None:
    policy = make_policy(name, seed=0, ruleset=_ruleset("breath_duel_v0"))
    assert getattr(policy, "reads_state", False)


def test_a_search_agent_refuses_to_decide_blind() -> None:
    ruleset = _ruleset("breath_duel_v0")
    state = ruleset.new_initial_state(0, record_events=False)
    agent = MCTS(seed=0, budget=TINY)
    mask = legal_mask(state.legal_actions(), len(ruleset.action_names))
    with pytest.raises(NotWatchingError, match="watch"):
        agent(state.observation(state.current_seat()), mask)
    watch_state(agent, lambda: state)
    wrong = np.zeros_like(mask)
    wrong[[a for a in range(len(mask)) if not mask[a]][0]] = 1
    with pytest.raises(NotWatchingError, match="legal set"):
        agent(state.observation(state.current_seat()), wrong)
    assert mask[agent(state.observation(state.current_seat()), mask)]


def test_search_budget_refuses_nonsense() -> None:
    for bad in ({"simulations": 0}, {"rollout_depth": -1}, {"playout": "oracle"}, {"time_limit": 0}, {"prior": -1}):
        with pytest.raises(ValueError):
            SearchBudget(**bad)


@pytest.mark.parametrize("env_id, rule", [("breath_duel_v0", "BR-G04"), ("tempo_duel_v0", "TP-G03"),
                                          ("encounter_duel_v0", "EN-050")])
def test_health_fractions_start_whole_and_a_finished_fight_scores_its_returns(env_id: str, rule: str) -> None:
    """BR-G04 (Wounds), TP-G03 (Health), EN-050 (Out): every fighter starts with all it can lose; a decided fight's
    value is its returns, a drawn one's half the health lead."""
    ruleset = _ruleset(env_id)
    state = ruleset.new_initial_state(1, record_events=False)
    assert state.health_fractions() == (1.0,) * len(ruleset.seat_teams)
    assert team_values(state) == (0.0,) * len(ruleset.seat_teams)
    rng = np.random.default_rng(0)
    while state.current_seat() is not None:
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    returns = tuple(state.returns())
    if any(returns):
        assert team_values(state) == returns
    else:  # a round limit reached: the draw is worth half the lead, so a search still prefers to be ahead
        assert team_values(state) == tuple(0.5 * lead for lead in health_leads(state))
    assert all(-1.0 <= value <= 1.0 for value in team_values(state))


def test_a_drawn_fight_is_worth_half_the_health_lead_and_a_won_one_its_returns():
    ruleset = _ruleset("encounter_duel_v0")
    rng = np.random.default_rng(3)
    outcomes = set()
    for seed in range(40):
        state = ruleset.new_initial_state(seed, record_events=False)
        while state.current_seat() is not None:
            legal = state.legal_actions()
            state.apply(legal[rng.integers(len(legal))])
        returns = tuple(state.returns())
        leads = health_leads(state)
        expected = returns if any(returns) else tuple(0.5 * lead for lead in leads)
        assert team_values(state) == expected
        outcomes.add("won" if any(returns) else "drawn, ahead" if any(leads) else "drawn, level")
        if {"won", "drawn, ahead"} <= outcomes:
            return
    raise AssertionError(f"40 random encounter fights gave only {outcomes}")


def test_tp_027_a_teammates_feint_is_hidden_from_its_own_side_too():
    """TP-027 in the skirmish: only the declarer sees its Feint; a teammate's search samples both readings."""
    ruleset = _ruleset("tempo_skirmish_v0")
    names = ruleset.action_names
    rng = np.random.default_rng(0)
    for seed in range(300):
        state = ruleset.new_initial_state(seed, record_events=False)
        for _ in range(200):
            if state.current_seat() is None:
                break
            legal = state.legal_actions()
            feints = [a for a in legal if names[a].startswith("proactive:feint:")]
            if state.decision_kind() == "act" and feints:
                declarer = state.current_seat()
                state.apply(feints[0])
                if state.current_seat() is None or state.declared < 0:
                    break
                teammate = next(seat for seat, team in enumerate(ruleset.seat_teams)
                                if team == ruleset.seat_teams[declarer] and seat != declarer)
                seen = set()
                for _ in range(40):
                    world = state.clone()
                    world.resample_hidden(teammate, rng)
                    seen.add(names[world.declared].split(":")[1])
                assert seen == {"feint", "melee_attack"}
                return
            closing = [a for a in legal if "close" in names[a]]
            state.apply(closing[0] if closing else legal[rng.integers(len(legal))])
    raise AssertionError("no skirmish seed reached a feint")


def test_a_search_agent_can_be_the_opponent_of_a_single_agent_learner():
    """Training against a search agent (a hunt's mixture may hold one): the wrapper hands it the fight's state."""
    from issoku.envs.single_agent import SingleAgentEnv

    env = SingleAgentEnv(tempo_duel_v0.env(), opponent=MCTS(seed=0, budget=TINY))
    observation, info = env.reset(seed=1)
    for _ in range(200):
        legal = np.flatnonzero(info["action_mask"])
        observation, reward, terminated, truncated, info = env.step(int(legal[0]))
        if terminated or truncated:
            break
    assert terminated or truncated


def test_issoku_view_hands_a_search_agent_the_traced_fight():
    from issoku.evaluation.games.viewing import trace_fight

    fight, title = trace_fight("tempo_duel_v0", 1, ["one_step", "random"], {})
    assert "one_step vs random" in title and len(fight.frames) > 1 and (fight.terminated or fight.truncated)


def test_halving_judges_as_many_root_actions_as_its_budget_allows_the_agents_choice_among_them():
    from issoku.agents.search.mcts import _candidates, root_width

    assert [root_width(s) for s in (2, 16, 50, 400)] == [2, 5, 12, 64]
    # An encounter attack and its raises: about 50 legal actions.
    ruleset = _ruleset("encounter_duel_v0")
    state = ruleset.new_initial_state(0, record_events=False)
    heuristic = make_policy("encounter_heuristic", seed=0, ruleset=ruleset)
    while len(state.legal_actions()) < 40:
        seat = state.current_seat()
        state.apply(heuristic(state.observation(seat), legal_mask(state.legal_actions(), len(ruleset.action_names))))
    seat, legal = state.current_seat(), state.legal_actions()
    hint = legal[-1]
    chosen = _candidates(state, seat, legal, hint, 50, np.random.default_rng(1))
    assert len(chosen) == 12 and hint in chosen and chosen == sorted(chosen) and set(chosen) <= set(legal)
    assert chosen == _candidates(state, seat, legal, hint, 50, np.random.default_rng(1))
    assert _candidates(state, seat, legal, hint, 400, np.random.default_rng(1)) == legal  # they fit 400 simulations
    statistics = search(state, seat, SearchBudget(simulations=20, rollout_depth=6), np.random.default_rng(0))
    assert len(statistics) == root_width(20) and sum(visits for visits, _ in statistics.values()) <= 21


@pytest.mark.parametrize("env_id", sorted(DUELS))
def test_one_step_plays_on_until_another_seat_has_answered(env_id: str) -> None:
    from issoku.agents.search.lookahead import _until_own_turn

    ruleset = _ruleset(env_id)
    rng = np.random.default_rng(0)
    for seed in range(5):
        state = ruleset.new_initial_state(seed, record_events=False)
        seat = state.current_seat()
        state.apply(state.legal_actions()[0])
        acted = []

        def reply(world, acting):
            acted.append(acting)
            legal = world.legal_actions()
            return legal[int(rng.integers(len(legal)))]

        _until_own_turn(state, seat, reply)
        assert state.current_seat() in (None, seat) or len(acted) == 30
        assert any(acting != seat for acting in acted) or state.current_seat() is None


@pytest.mark.parametrize("name", ["one_step", "mcts_small", "mcts_large"])
def test_a_search_rungs_code_fingerprint_covers_every_search_module(name: str) -> None:
    """Stored games are keyed by the factory's code fingerprint: an edit to the world sampling or the playouts must
    change it, or a rerun would reuse the old version's games."""
    from issoku.agents.registry import resolve_policy_factory
    from issoku.evaluation.games.policies import fingerprinted_files

    files = {path.rsplit("/", 1)[-1] for path in fingerprinted_files(resolve_policy_factory(name))}
    assert {"agents.py", "lookahead.py", "mcts.py", "playouts.py", "worlds.py"} <= files


class _Recorder:
    """A policy that plays the first legal action and counts the decisions it was asked, by seat to move."""

    def __init__(self) -> None:
        self.calls = 0

    def __call__(self, observation: np.ndarray, action_mask: np.ndarray) -> int:
        self.calls += 1
        return int(np.flatnonzero(action_mask)[0])


def test_modelled_opponents_play_the_drawn_member_for_the_other_side_only() -> None:
    from issoku.agents.search.opponents import FieldPolicies, ModelledOpponents

    ruleset = _ruleset("tempo_duel_v0")
    state = ruleset.new_initial_state(3, record_events=False)
    seat = state.current_seat()
    first, second = _Recorder(), _Recorder()
    draws = iter([0.1, 0.9])
    own_moves: list[int] = []
    chooser = ModelledOpponents(lambda world, s: own_moves.append(s) or world.legal_actions()[0],
                                FieldPolicies((first, second), (0.25, 0.75)), ruleset.seat_teams, seat,
                                lambda: next(draws))
    chooser.redraw()  # 0.1 < 0.25: the first member
    chooser(state, 1 - seat)
    chooser(state, seat)
    chooser.redraw()  # 0.9: the second
    chooser(state, 1 - seat)
    assert (first.calls, second.calls, own_moves) == (1, 1, [seat])


@pytest.mark.parametrize("env_id", ["tempo_duel_v0", "breath_skirmish_v0"])
def test_a_search_against_a_field_consults_it_only_for_the_other_side_and_decides_alike_for_a_seed(env_id: str) -> None:
    """The search's playouts meet the field's member where another side moves (a skirmish's teammates are its own
    side), and the whole decision is fixed by the seed."""
    from issoku.agents.search.opponents import OpponentField

    ruleset = _ruleset(env_id)
    state = ruleset.new_initial_state(3, record_events=False)
    seat = state.current_seat()
    recorders: list[_Recorder] = []

    def build(seed: int, built_for) -> _Recorder:
        assert built_for is ruleset
        recorders.append(_Recorder())
        return recorders[-1]

    field = OpponentField((build,), (1.0,))
    choices = []
    for _ in range(2):
        agent = MCTS(seed=7, budget=SearchBudget(simulations=12, rollout_depth=30), opponents=field)
        agent.watch(lambda: state)
        choices.append(agent(state.observation(seat), legal_mask(state.legal_actions(), len(ruleset.action_names))))
    assert choices[0] == choices[1] and len(recorders) == 2 and recorders[0].calls == recorders[1].calls > 0


def test_an_opponent_field_refuses_weights_that_are_no_mixture() -> None:
    from issoku.agents.search.opponents import OpponentField

    with pytest.raises(ValueError, match="one weight per member"):
        OpponentField((lambda seed, ruleset: None,), (0.5, 0.5))
    with pytest.raises(ValueError, match="positive sum"):
        OpponentField((lambda seed, ruleset: None,), (0.0,))

"""The tempo skirmish: the duel's rules with several fighters a side and the many-combatant defaults TP-G06
(initiative among many), TP-G07 (grid and threatened areas), TP-G08 (reactors, pairwise resolution), the
TP-G10 partner rule and TP-G13's feint hidden from every opponent."""

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.tempo import TempoSkirmish, TempoSkirmishConfig
from issoku.rules.tempo import grid
from issoku.rules.tempo.actions import BOUND, OFF_GUARD, ON_GUARD, PASS

SIZES = {
    "1v1": (("fencer",), ("knight",)),
    "2v2": (("fencer", "knight"), ("spearman", "archer")),
    "3v3": (("fencer", "knight", "brawler"), ("spearman", "archer", "knife_fighter")),
    "4v4": (("fencer", "knight", "spearman", "brawler"), ("archer", "crossbowman", "knife_fighter", "knight")),
    "1v3": (("spearman",), ("archer", "crossbowman", "brawler")),
}


def skirmish(sides, faces=None, **settings):
    ruleset = TempoSkirmish(TempoSkirmishConfig(sides=sides, **settings))
    if faces is None:
        return ruleset
    return ruleset.new_initial_state(dice=ScriptedDice(list(faces)))


def names(state):
    return [state.ruleset.action_names[a] for a in state.legal_actions()]


def play(state, *orders):
    for order in orders:
        state.apply(state.ruleset.table.codec.by_name(order))


def events(state, kind):
    return [event.to_dict() for event in state.events if event.kind == kind]


def random_play(ruleset, seed, check=None):
    state = ruleset.new_initial_state(seed)
    rng = np.random.default_rng(seed + 1)
    while state.current_seat() is not None:
        if check is not None:
            check(state)
        legal = state.legal_actions()
        state.apply(legal[rng.integers(len(legal))])
    return state


def test_tp_g06_initiative_among_many_by_total_then_athletics_then_a_seeded_draw():
    # Seats: fencer (athletics 2), knight (1) | spearman (2), archer (3). Totals 12, 20, 12, 12.
    state = skirmish(SIZES["2v2"], [10, 19, 10, 9, 2])
    # knight 20 first; of the three at 12 the archer's higher Athletics goes next; the fencer and the
    # spearman tie on both, and a d2 of 2 picks the second of them (the spearman).
    assert state.order == (1, 3, 2, 0)
    assert [e["actor"] for e in events(state, "initiative_coin")] == [2]
    assert events(state, "turn_order")[0]["order"] == (1, 3, 2, 0)
    assert state.current_seat() == 1


def test_tp_021_the_initiating_side_starts_on_guard_the_other_off_guard():
    state = skirmish(SIZES["2v2"], initiator=1).new_initial_state(3)
    assert state.status == [OFF_GUARD, OFF_GUARD, ON_GUARD, ON_GUARD]


def test_tp_g07_line_up_on_a_grid_with_chebyshev_distance():
    state = skirmish(SIZES["1v3"], start_distance=4).new_initial_state(0)
    assert state.pos == [(4, 6), (8, 4), (8, 6), (8, 8)]
    assert [state.distance_between(0, other) for other in (1, 2, 3)] == [4, 4, 4]
    assert state.distance_between(1, 3) == 4
    assert grid.chebyshev((0, 0), (3, -5)) == 5


def test_tp_g07_walk_stops_at_the_distance_asked_or_at_the_edge():
    assert grid.walk((0, 0), (4, 2), 1, 13) == (3, 2)          # diagonal steps, then straight
    assert grid.walk((3, 2), (4, 2), 4, 13) == (0, 2)          # straight away
    assert grid.walk((1, 0), (2, 1), 3, 13) == (0, 0)          # the corner stops it at distance 2
    assert grid.walk((5, 0), (5, 3), 5, 13) == (5, 0)          # backed against the edge: no farther square
    assert grid.step_away((0, 0), (1, 1), 1) == (0, 0)       # a one-square board: nowhere farther


def test_tp_g07_melee_targets_only_enemies_within_reach():
    # Fencer at (5, 6); the knights at (6, 5) and (6, 7) are both adjacent: both slots are legal targets.
    state = skirmish((("fencer",), ("knight", "knight")), [15, 3, 2], start_distance=1)
    legal = names(state)
    assert "proactive:melee_attack:enemy0" in legal and "proactive:melee_attack:enemy1" in legal
    assert "proactive:melee_attack:enemy2" not in legal             # an empty slot is never legal
    state = skirmish((("fencer",), ("knight", "knight")), [15, 3, 2], start_distance=3)
    assert not [name for name in names(state) if name.startswith("proactive:melee_attack")]


def test_tp_g08_an_attack_is_answered_only_by_its_target():
    state = skirmish((("fencer",), ("knight", "knight")), [15, 3, 2, 14, 5], start_distance=1)
    play(state, "proactive:melee_attack:enemy1")
    assert state.current_seat() == 2 and state.decision_kind() == "react"
    play(state, "pass")                                              # seat 1, not attacked, is never asked
    assert state.decision_kind() == "act" and state.current_seat() == 0
    assert [e["actor"] for e in events(state, "resolve")] == [0]


def test_tp_g08_multi_reactor_counter_fire_resolves_pairwise_on_the_actors_one_result():
    # Fencer (seat 0) moves on the archer (seat 1); archer and crossbowman (seat 2) both counter-fire.
    # Initiative 15+2, 3+3, 2+1: fencer, archer, crossbowman. Archer d20 14 -> 7, crossbowman 5 -> -2,
    # bow damage d8 5.
    state = skirmish((("fencer",), ("archer", "crossbowman")), [15, 3, 2, 14, 5, 5], start_distance=6)
    play(state, "proactive:move:close:enemy0")
    assert state.current_seat() == 1 and "react:counter_fire" in names(state)
    play(state, "react:counter_fire")
    assert state.current_seat() == 2 and "react:counter_fire" in names(state)
    play(state, "react:counter_fire")
    pairs = events(state, "resolve")
    assert [(p["reactor"], p["net"], p["reaction_outcome"]) for p in pairs] == [
        (1, -7, "critical_hit"), (2, 2, "miss")]
    outcome = events(state, "actor_outcome")[0]
    assert (outcome["actor"], outcome["net"], outcome["outcome"]) == (0, -7, "failure")  # the smallest net decides
    damage = events(state, "damage")
    assert [(d["actor"], d["target"], d["critical"]) for d in damage] == [(1, 0, True)]
    assert state.distance_between(0, 1) == 5          # a failed Move that was hit stops after one square
    assert not state.loaded[2]                        # the crossbow shot and must reload (TP-G04)


def test_tp_g08_only_the_approached_opponent_may_retreat():
    # Fencer against two spearmen (reach 2), four squares off: the move ends within both spears' reach.
    state = skirmish((("fencer",), ("spearman", "spearman")), [15, 3, 2], start_distance=4)
    play(state, "proactive:move:close:enemy1")
    assert state.current_seat() == 1
    assert "react:counter_attack" in names(state) and "react:retreat" not in names(state)
    play(state, "pass")
    assert state.current_seat() == 2 and "react:retreat" in names(state)


def test_tp_g10_a_bind_makes_partners_and_a_fallen_partner_frees_the_other():
    # Fencer, brawler | knight, knight. Initiative 15+2, 1+2, 1+1, 10+1: fencer, second knight, brawler, knight.
    # The fencer's attack (14 -> 7) meets the first knight's parry (15 -> 7): net 0, a bind (TP-T04).
    state = skirmish((("fencer", "brawler"), ("knight", "knight")), [15, 1, 1, 10, 14, 15, 10, 18, 5],
                     start_distance=1)
    assert state.order == (0, 3, 1, 2)
    play(state, "proactive:melee_attack:enemy0", "react:parry", "pass")
    assert state.status == [BOUND, ON_GUARD, BOUND, ON_GUARD] and state.partner == [2, -1, 0, -1]
    assert events(state, "statuses")[-1]["seats"] == (2, 0)
    play(state, "pass")                                        # the fencer ends its turn (stamina d20 10)
    assert state.current_seat() == 3
    play(state, "proactive:move:close:enemy0")                 # nobody can answer: the brawler has no weapon
    assert state.distance_between(3, 0) == 1
    state.hp[0] = 1
    play(state, "proactive:melee_attack:enemy0")               # a Bound fencer cannot parry: 18 -> 10, critical
    assert state.hp[0] <= 0 and not state.is_terminal()
    assert events(state, "statuses")[-1]["why"] == "partner_fell"
    assert state.status[2] == ON_GUARD and state.partner == [-1, -1, -1, -1]


@pytest.mark.parametrize("size", sorted(SIZES))
def test_tp_g14_a_side_loses_when_all_its_fighters_fall_and_the_fallen_never_decide(size):
    ruleset = skirmish(SIZES[size])

    def check(state):
        assert state.hp[state.current_seat()] > 0
        assert not state.is_terminal()

    for seed in range(8):
        state = random_play(ruleset, seed, check)
        returns = state.returns()
        for seat, side in enumerate(ruleset.seat_teams):
            assert returns[seat] == returns[ruleset.seat_teams.index(side)]
        if state.is_terminal():
            down = [all(state.hp[s] <= 0 for s, t in enumerate(ruleset.seat_teams) if t == side) for side in (0, 1)]
            assert any(down)
            if down[0] != down[1]:
                assert returns[0] == (-1.0 if down[0] else 1.0)


def _feint_pairs(ruleset, seed):
    """States just before a seat declares, where a feint is legal, from random play."""
    state = ruleset.new_initial_state(seed)
    rng = np.random.default_rng(seed)
    names_ = ruleset.action_names
    while state.current_seat() is not None:
        legal = state.legal_actions()
        feints = [a for a in legal if names_[a].startswith("proactive:feint")]
        if feints and rng.random() < 0.5:
            return state, feints[0]
        state.apply(legal[rng.integers(len(legal))])
    return None, None


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10_000), size=st.sampled_from(sorted(SIZES)))
def test_tp_g13_a_feint_changes_no_other_seats_observation(seed, size):
    """Declaring a feint or the Melee Attack it poses as must look the same to every other seat (opponents and,
    by our choice, allies), in observations, legal actions and who decides, until the paper is turned over."""
    ruleset = skirmish(SIZES[size], start_distance=1)
    state, feint = _feint_pairs(ruleset, seed)
    if state is None:
        return
    declarer = state.current_seat()
    attack = ruleset.table.codec.by_name(ruleset.action_names[feint].replace("feint", "melee_attack"))
    feinting, attacking = state.clone(), state.clone()
    feinting.apply(feint)
    attacking.apply(attack)
    rng = np.random.default_rng(seed)
    compared = 0
    while feinting.declared >= 0:                 # until the exchange resolves and the paper is turned over
        assert attacking.declared >= 0
        for seat in range(len(ruleset.fighters)):
            if seat != declarer:
                assert np.array_equal(feinting.observation(seat), attacking.observation(seat))
                compared += 1
        assert not np.array_equal(feinting.observation(declarer), attacking.observation(declarer))
        assert feinting.current_seat() == attacking.current_seat()
        assert feinting.decision_kind() == attacking.decision_kind()
        if feinting.current_seat() == declarer:   # the counter decision: the declarer's own, nothing more to hide
            break
        assert feinting.legal_actions() == attacking.legal_actions()
        choice = feinting.legal_actions()[rng.integers(len(feinting.legal_actions()))]
        feinting.apply(choice)
        attacking.apply(choice)
    assert compared or feinting.declared < 0


@pytest.mark.parametrize("size", sorted(SIZES))
def test_tp_g08_observations_share_one_shape_and_legal_targets_name_standing_enemies(size):
    ruleset = skirmish(SIZES[size])
    low, high = ruleset.observation_spec.bounds()
    assert low.shape == skirmish(SIZES["1v1"]).observation_spec.bounds()[0].shape
    assert len(ruleset.action_names) == len(skirmish(SIZES["4v4"]).action_names)

    def check(state):
        seat = state.current_seat()
        for other in range(len(ruleset.fighters)):
            obs = state.observation(other)
            assert ((obs >= low) & (obs <= high)).all()
        for a in state.legal_actions():
            slot = ruleset.table.target_of[a]
            if slot is not None:
                target = ruleset.enemies[seat][slot]
                assert state.hp[target] > 0
        assert state.legal_actions()[0] == PASS

    for seed in range(4):
        random_play(ruleset, seed, check)


def test_tp_g08_the_same_seed_gives_the_same_skirmish():
    ruleset = skirmish(SIZES["3v3"])
    first, second = random_play(ruleset, 5), random_play(ruleset, 5)
    assert first.events.to_jsonl() == second.events.to_jsonl()
    clone_check = ruleset.new_initial_state(9)
    assert clone_check.clone().observation(0).tolist() == clone_check.observation(0).tolist()

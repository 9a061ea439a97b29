"""Invariants of the zones over random legal 3v1 and 4v4 play (hypothesis)."""

from __future__ import annotations

import random
import subprocess
import sys

from hypothesis import given, settings
from hypothesis import strategies as st

from issoku.rules.breath.ruleset import BreathRuleset, FighterSpec
from issoku.rules.breath.zones import ADJACENT, CORE, DISTANCE, OUTSIDE, RANGED_REACH, ZONE_NAMES
from issoku.rules.kernel.protocol import IllegalActionError

from .helpers import skirmish

ARCHETYPES = ("kenshi", "ashigaru", "ronin", "shinobi", "mikkyo_monk", "wildman", "archer", "infiltrator")
RULESETS: dict[tuple, BreathRuleset] = {}


def rules_for(side_0: tuple[str, ...], side_1: tuple[str, ...]) -> BreathRuleset:
    key = (side_0, side_1)
    if key not in RULESETS:
        fighters = [FighterSpec(a, 0) for a in side_0] + [FighterSpec(a, 1) for a in side_1]
        RULESETS[key] = skirmish(*fighters, extra=True, round_limit=6)
    return RULESETS[key]


def team(size: int):
    return st.tuples(*[st.sampled_from(ARCHETYPES)] * size)


fights = st.one_of(st.tuples(team(3), team(1)), st.tuples(team(4), team(4)), st.tuples(team(1), team(3)))


def check_invariants(state, new_events) -> None:
    """What every step must keep: zones, the Core flag, reach of every attack, adjacency of every move."""
    zones = state.ext["zones"].zone
    for f in state.fighters:
        assert 0 <= zones[f.seat] < len(ZONE_NAMES)
        assert f.in_core == (zones[f.seat] == CORE)  # the engine's Core rules follow the zone
        assert 0 <= f.energy <= f.sheet.max_energy
    for event in new_events:
        if event.kind == "moved":
            origin, zone = ZONE_NAMES.index(event.data["origin"]), ZONE_NAMES.index(event.data["zone"])
            assert zone in ADJACENT[origin]
            assert (zone == OUTSIDE) == (event.data["maneuver"] == "enter_outside_zone")
            assert (zone == CORE) == (event.data["maneuver"] in ("free_core_entry", "force_core_breakthrough"))
        elif event.kind == "attack_check":  # no move happens within one step that attacks
            technique = state.ruleset.catalog.techniques[event.data["technique"]]
            here, there = zones[event.actor], zones[event.data["target"]]
            if technique.ranged:
                assert CORE not in (here, there) and DISTANCE[here][there] <= RANGED_REACH
            else:
                assert here == there
        elif event.kind == "energy_spent" and event.data["what"] in state.ruleset.catalog.maneuvers:
            table = state.ruleset.catalog.maneuvers[event.data["what"]].cost  # BR-067..076, + BR-057
            assert event.data["cost"] == table + sum(delta for _, delta in event.data["modifiers"])
            assert set(event.data["modifiers"]) <= {("outside_zone", 1)}


@settings(max_examples=25, deadline=None)
@given(fights, st.integers(0, 2**31 - 1))
def test_zone_invariants_over_random_legal_play(teams, seed):
    rules = rules_for(*teams)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    illegal_checked = False
    while not state.is_over():
        legal = state.legal_actions()
        assert legal, "the acting seat always has a legal action"
        if not illegal_checked:
            outside_mask = [a for a in range(len(rules.action_names)) if a not in legal]
            probe = state.clone()
            try:
                probe.apply(rng.choice(outside_mask))
            except IllegalActionError:
                illegal_checked = True
            else:
                raise AssertionError("a masked-out action was accepted")
        mark = len(state.events)
        state.apply(rng.choice(legal))
        check_invariants(state, state.events.since(mark))


@settings(max_examples=10, deadline=None)
@given(fights, st.integers(0, 2**31 - 1), st.integers(0, 60))
def test_a_clone_plays_on_exactly_like_the_original(teams, seed, split):
    rules = rules_for(*teams)
    state = rules.new_initial_state(seed)
    rng = random.Random(seed)
    for _ in range(split):
        if state.is_over():
            return
        state.apply(rng.choice(state.legal_actions()))
    copy = state.clone()
    for target in (state, copy):
        moves = random.Random(split)
        while not target.is_over():
            target.apply(moves.choice(target.legal_actions()))
    assert copy.events.to_jsonl() == state.events.to_jsonl()
    assert copy.ext["zones"].zone == state.ext["zones"].zone


PLAY_ONE = """
import random, sys
from issoku.envs import breath_skirmish_v0
sides = [["kenshi", "shinobi", "ronin", "ashigaru"], ["ronin", "mikkyo_monk", "wildman", "kenshi"]]
state = breath_skirmish_v0.make_ruleset(sides, round_limit=4).new_initial_state(11)
rng = random.Random(11)
while not state.is_over():
    state.apply(rng.choice(state.legal_actions()))
sys.stdout.write(state.events.to_jsonl())
"""


def test_the_event_log_is_byte_identical_in_fresh_processes():
    logs = [subprocess.run([sys.executable, "-c", PLAY_ONE], capture_output=True, text=True, check=True).stdout
            for _ in range(2)]
    assert logs[0] == logs[1] and '"moved"' in logs[0]

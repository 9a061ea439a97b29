"""A scripted 2v2 on the zones: a flank from the Outside Zone, a breakthrough into the Core, and the
reaction of the second fighter attacked; every step replays with exactly the expected events."""

from __future__ import annotations

import pytest

from issoku.rules.breath.ruleset import FighterSpec

from .helpers import play, scripted, skirmish, zone_of

# Side 0: kenshi (13 Energy), shinobi (14). Side 1: ronin (12), ashigaru (12).
FIGHTERS = (FighterSpec("kenshi", 0), FighterSpec("shinobi", 0), FighterSpec("ronin", 1), FighterSpec("ashigaru", 1))
DICE = [6, 4,   # shinobi's thrust on the ashigaru: 10 + 4 + 2 + 1 = 17 vs Defense 13
        3, 2,   # the ashigaru's improvised harry: 5 + 2 + 3 + 1 = 11, not enough
        6, 5,   # the kenshi forces the Core: 11 + Courage 2 = 13 ≥ 13
        5, 3,   # the ronin's cut on the kenshi in the Core: 8 + 2 + 3 = 13 vs Defense 11
        4, 4]   # the kenshi's improvised parry: 8 + 3 + 3 = 14 ≥ 13, blocked

# (who decides, action, the events that action adds: (rule, kind, actor, data that must match))
SCRIPT = [
    ("side_0_fighter_2", "enter_outside_zone", [
        ("BR-Z05", "zero_energy", 1, {"what": "enter_outside_zone", "used_this_round": 1}),
        ("BR-076", "moved", 1, {"origin": "side_a_front", "zone": "outside", "closed": False})]),
    ("side_0_fighter_2", "walk:enemy_front", [  # the flank: no Breakthrough into the held Front
        ("BR-067", "energy_spent", 1, {"what": "walk", "cost": 2, "after": 12, "modifiers": ()}),
        ("BR-Z03", "flank", 1, {"zone": "side_b_front"}),
        ("BR-067", "moved", 1, {"origin": "outside", "zone": "side_b_front", "closed": True})]),
    ("side_0_fighter_2", "attack:ninjato.straight_thrust:enemy1", [
        ("BR-045", "energy_spent", 1, {"cost": 2, "after": 10}),
        ("BR-G01", "attack_check", 1, {"target": 3, "dice": (6, 4), "total": 17, "defense": 13})]),
    ("side_1_fighter_2", "improvise:yari.harry", [
        ("BR-020", "energy_spent", 3, {"cost": 3, "after": 9}),
        ("BR-G03", "defense_roll", 3, {"total": 11, "blocked": False}),
        ("BR-G04", "hit", 1, {"target": 3, "wounds": 1, "after": 7})]),
    ("side_0_fighter_2", "end_breath", [
        ("BR-005", "breath_end", 1, {"spent": 4, "energy": 10}),
        ("BR-008", "breath_start", 0, {"count": 13, "limit": 6})]),
    ("side_0_fighter_1", "force_core_breakthrough", [
        ("BR-074", "energy_spent", 0, {"cost": 3, "after": 10}),
        ("BR-074", "courage_check", 0, {"dice": (6, 5), "total": 13, "target": 13, "success": True}),
        ("BR-074", "moved", 0, {"origin": "side_a_front", "zone": "core", "in_core": True})]),
    ("side_0_fighter_1", "end_breath", [
        ("BR-005", "breath_end", 0, {"spent": 3, "energy": 10}),
        ("BR-008", "breath_start", 2, {"count": 12, "limit": 5})]),  # tie at 12 within side 1: seat order
    ("side_1_fighter_1", "free_core_entry", [
        ("BR-073", "energy_spent", 2, {"cost": 2, "after": 10}),
        ("BR-073", "moved", 2, {"origin": "side_b_front", "zone": "core", "closed": True})]),
    ("side_1_fighter_1", "attack:nodachi.cut:enemy0", [
        ("BR-045", "energy_spent", 2, {"cost": 3, "modifiers": (("core_zone_long", 1),)}),  # BR-056
        ("BR-G01", "attack_check", 2, {"target": 0, "total": 13, "defense": 11})]),
    ("side_0_fighter_1", "improvise:uchigatana.parry", [  # the second fighter attacked answers
        ("BR-020", "energy_spent", 0, {"cost": 2, "after": 8}),
        ("BR-G03", "defense_roll", 0, {"dice": (4, 4), "total": 14, "blocked": True})]),
]


@pytest.mark.rule("BR-G15", "BR-Z03", "BR-074", "BR-076", "BR-056", "BR-G03")
def test_scripted_2v2_flank_core_breakthrough_and_second_reaction():
    rules = skirmish(*FIGHTERS)
    state = scripted(rules, DICE)
    for who, action, expected in SCRIPT:
        assert rules.seat_names[state.current_seat()] == who, action
        mark = len(state.events)
        play(state, action)
        got = state.events.since(mark)
        assert [(e.rule, e.kind, e.actor) for e in got] == [(r, k, a) for r, k, a, _ in expected], action
        for event, (_, _, _, data) in zip(got, expected):
            assert {key: event.data[key] for key in data} == data, (action, event.kind)
    assert [zone_of(state, seat) for seat in range(4)] == ["core", "side_b_front", "core", "side_b_front"]
    assert [f.in_core for f in state.fighters] == [True, False, True, False]
    assert state.fighters[3].wounds == 7 and state.fighters[0].wounds == 7  # only the ashigaru was hit
    assert rules.seat_names[state.current_seat()] == "side_1_fighter_1" and state.decision_kind() == "breath"


def test_scripted_2v2_replays_identically_from_a_clone():
    """The same script from a clone mid-way gives the same event log (clone carries zones and dice)."""
    rules = skirmish(*FIGHTERS)
    state = scripted(rules, DICE)
    for _, action, _ in SCRIPT[:4]:
        play(state, action)
    copy = state.clone()
    for target in (state, copy):
        for _, action, _ in SCRIPT[4:]:
            play(target, action)
    assert copy.events.to_jsonl() == state.events.to_jsonl()
    assert copy.ext["zones"].zone == state.ext["zones"].zone

"""Puppets, squads and scholar transfer (seed 002 Principle 2 and Rule 1 Exception 3, SP-G14): a puppet is an
individual unit moved by control actions; a squad is moved by squad orders on their own track; a scholar
gives Energy 1:1 to an ally that has Energy of its own."""

from __future__ import annotations

from pathlib import Path

import pytest

from issoku.rules.breath.ruleset import FighterSpec
from issoku.rules.kernel.content import DataError
from issoku.rules.spells.content import SCHOOLS_FILE, SPELLS_FILE, load_spell_content
from tests.spells.helpers import caster_rules, content_with, events, legal_names, play, scripted, spell_data

COMMANDER = """
[[caster]]
key = "onmyoji"
pc_dan = 3
skills = { sorcery = 3, barrier = 3, hardiness = 1 }
spells = ["fire_talisman", "paper_shield", "binding_charm", "paper_host", "thunder_seal", "kekkai", "breaking_seal",
          "straw_puppet", "sealing_wall", "guardian_spirit"]
transfer = true
"""
"""An onmyoji with Sorcery and Barrier Licensed who knows the squad and the puppet summons, and is a scholar."""


def fight(tmp_path: Path, *fighters: FighterSpec | str, faces: list[int]):
    return scripted(caster_rules(*fighters, content=content_with(tmp_path, COMMANDER)), faces)


def with_squad(tmp_path: Path, wits: int | None = None):
    """The commander summons its paper host (3-dan, 2+2 preparation) while the ronin stands; every die 9 after."""
    state = fight(tmp_path, FighterSpec("onmyoji", 0, wits=wits), "ronin", faces=[5, 5] + [9, 9] * 20)
    play(state, "cast:paper_host", "end_breath", "stand", "activate")
    return state


@pytest.mark.rule("BR-042", "BR-040", "SP-G14")
def test_br_042_squad_orders_are_a_separate_track_outside_the_zero_energy_cap(tmp_path):
    state = with_squad(tmp_path)
    summon = events(state, "unit_summoned")[0]
    assert (summon.rule, summon.data["unit"], summon.data["unit_energy"]) == ("BR-042", "squad", 0)
    assert "command" not in legal_names(state)  # a squad takes no control action
    play(state, "squad:volley_fire", "squad:volley_fire", "squad:shield_wall")
    assert [e.rule for e in events(state, "squad_order")] == ["BR-042"] * 3
    assert state.fighters[0].zero_energy_used == []  # three orders, none in the cap of two (BR-048)
    assert [e.data["hit"] for e in events(state, "unit_strike")] == [True, True]
    assert state.fighters[1].wounds == state.fighters[1].sheet.max_wounds - 2


@pytest.mark.rule("BR-077", "BR-A03")
def test_br_077_a_squad_order_costs_2_or_1_with_wisdom_2(tmp_path):
    for wits, cost in ((1, 2), (2, 1), (3, 1)):
        state = with_squad(tmp_path, wits)
        play(state, "squad:advance")
        paid = events(state, "energy_spent")[-1]
        assert (paid.rule, paid.data["cost"]) == ("BR-077", cost)


@pytest.mark.rule("BR-016", "BR-T05", "BR-011")
def test_br_t05_commander_breath_advance_2_plus_volley_fire_2_is_4(tmp_path):
    state = with_squad(tmp_path, wits=1)
    play(state, "end_breath", "stand")  # a fresh breath for the commander
    commander = state.fighters[0]
    assert commander.spent == 0
    play(state, "squad:advance", "squad:volley_fire")
    assert commander.spent == 4 and not events(state, "overload_check")
    strike = events(state, "unit_strike")[-1]
    assert strike.data["bonus"] == 1 + 1  # the host's bonus and the advance (SP-G14)


@pytest.mark.rule("BR-043", "BR-032", "BR-040")
def test_br_043_a_puppet_is_not_a_squad(tmp_path):
    state = fight(tmp_path, "onmyoji", "ronin", faces=[9, 9] * 20)
    play(state, "cast:straw_puppet")
    assert events(state, "unit_summoned")[0].data["unit"] == "puppet"
    assert not {name for name in legal_names(state) if name.startswith("squad:")}  # no squad order reaches it
    assert "command" in legal_names(state)
    play(state, "command")
    assert events(state, "unit_strike")[-1].data["unit"] == "straw_puppet"
    data = spell_data(state)
    assert data.squads[0] is None and [u.key for u in data.units[0]] == ["straw_puppet"]


@pytest.mark.rule("BR-043", "BR-042")
def test_br_043_squad_orders_move_the_squad_never_the_puppet(tmp_path):
    state = with_squad(tmp_path)
    play(state, "cast:straw_puppet", "squad:volley_fire")
    assert events(state, "unit_strike")[-1].data["unit"] == "paper_host"
    assert "cast:paper_host" not in legal_names(state)  # one squad a commander (SP-G14)


def team(tmp_path: Path):
    """The scholar-onmyoji and a kenshi against two ronin, no zones."""
    return fight(tmp_path, FighterSpec("onmyoji", 0), FighterSpec("kenshi", 0), FighterSpec("ronin", 1),
                 FighterSpec("ronin", 1), faces=[5, 5] * 40)


def to_scholars_breath(state) -> None:
    while state.current_seat() != 0:
        play(state, "stand")


@pytest.mark.rule("BR-031", "BR-044", "BR-G18")
def test_br_031_transfer_is_1_to_1_and_counts_in_the_givers_breath(tmp_path):
    state = team(tmp_path)
    to_scholars_breath(state)
    scholar, ally = state.fighters[0], state.fighters[1]
    total = scholar.energy + ally.energy
    assert "transfer:ally0" in legal_names(state)
    play(state, "transfer:ally0", "transfer:ally0")
    assert scholar.energy + ally.energy == total and scholar.spent == 2
    moved = events(state, "energy_transferred")
    assert [(e.rule, e.data["to"], e.data["amount"]) for e in moved] == [("BR-044", 1, 1)] * 2
    assert [e.rule for e in events(state, "energy_spent")][-2:] == ["BR-031", "BR-031"]


@pytest.mark.rule("BR-044", "BR-048")
def test_br_044_transfer_reaches_fighters_only_and_leaves_the_recipients_cap(tmp_path):
    state = team(tmp_path)
    to_scholars_breath(state)
    names = [n for n in state.ruleset.action_names if n.startswith("transfer:")]
    assert names == ["transfer:ally0"]  # allies by seat; a unit is never a fighter, so never a recipient
    ally = state.fighters[1]
    play(state, "transfer:ally0")
    assert ally.zero_energy_used == [] and state.zero_energy_allowed(ally, "a") and state.zero_energy_allowed(ally, "b")
    ally.zero_energy_used = ["a", "b"]
    assert not state.zero_energy_allowed(ally, "c")  # the received Energy did not raise the cap of two


@pytest.mark.rule("BR-044")
def test_br_044_no_transfer_to_a_fallen_ally(tmp_path):
    state = team(tmp_path)
    ally = state.fighters[1]
    ally.wounds = 0
    state.check_defeat(ally)
    to_scholars_breath(state)
    assert ally.defeated and "transfer:ally0" not in legal_names(state)


def test_no_transfer_or_squad_orders_in_a_duel_without_them(tmp_path):
    """Shipped casters are no scholars: the skirmish keeps no transfer order; a duel has no ally."""
    rules = caster_rules("onmyoji", "ronin", content=content_with(tmp_path, COMMANDER))
    assert not [n for n in rules.action_names if n.startswith("transfer:")]


@pytest.mark.rule("SP-G14")
def test_sp_g14_only_a_summon_names_a_unit(tmp_path):
    spells = tmp_path / "spells.toml"
    spells.write_text(SPELLS_FILE.read_text(encoding="utf-8").replace(
        'key = "fire_talisman"\nlist = "sorcery"\ndan = 1\neffect = "attack"\n',
        'key = "fire_talisman"\nlist = "sorcery"\ndan = 1\neffect = "attack"\nunit = "puppet"\n'), encoding="utf-8")
    with pytest.raises(DataError, match=r"spell\[0\]\.unit.*only a summon"):
        load_spell_content(spells, SCHOOLS_FILE)


@pytest.mark.rule("BR-046", "BR-T09", "BR-045")
def test_br_t09_the_retainer_command_discounts_squad_orders_never_a_katana_cut(tmp_path):
    content = content_with(tmp_path, COMMANDER.replace("transfer = true", "retainer_command = true"))
    commander = FighterSpec("onmyoji", 0, weapon="uchigatana", wits=1)  # squad orders at 2 (BR-A03)
    state = scripted(caster_rules(commander, "ronin", content=content), [5, 5] + [9, 9] * 20)
    play(state, "cast:paper_host", "end_breath", "stand", "activate", "end_breath", "stand")
    play(state, "squad:advance", "attack:uchigatana.horizontal_cut")
    order, cut = events(state, "energy_spent")[-2:]
    assert (order.data["cost"], order.data["modifiers"]) == (1, (("retainer_command", -1),))  # 2 − 1
    assert (cut.data["what"], cut.data["cost"], cut.data["modifiers"]) == ("uchigatana.horizontal_cut", 2, ())


@pytest.mark.rule("BR-031", "BR-042", "SP-G13")
def test_random_play_with_squads_puppets_transfer_and_reactions_keeps_the_rules(tmp_path):
    """Random legal play in a 2v2 of sheets that know every new piece: each fight ends, a clone taken at any
    decision (a pending reaction included) plays the same action, and every new order comes up."""
    import numpy as np

    from issoku.rules.breath.engine import BreathState
    from issoku.rules.spells.content import CASTERS_FILE

    text = CASTERS_FILE.read_text(encoding="utf-8")
    text = text.replace('"paper_shikigami"]', '"paper_shikigami"]\nstudied = ["counter_sign", "paper_host"]\n'
                        'transfer = true\nretainer_command = true')
    text = text.replace('"guardian_spirit"]', '"guardian_spirit"]\nstudied = ["mirror_ward", "straw_puppet"]')
    rules = caster_rules(FighterSpec("onmyoji", 0), FighterSpec("barrier_priest", 0), FighterSpec("onmyoji", 1),
                         FighterSpec("barrier_priest", 1), content=content_with(tmp_path, text))
    rng = np.random.default_rng(7)
    seen: set[str] = set()
    for _ in range(6):
        state = BreathState.initial(rules, int(rng.integers(1 << 30)))
        while not state.is_over():
            legal = state.legal_actions()
            action = legal[int(rng.integers(len(legal)))]
            seen.add(rules.action_names[action].split(":")[0])
            state.clone().apply(action)
            state.apply(action)
    assert {"squad", "transfer", "react", "no_reaction", "command"} <= seen

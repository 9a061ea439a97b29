"""A whole scripted Ma and Blade duel, checked line by line against the event log.

Kenshi (uchigatana, Finesse 3, no armor: Energy 13, Wounds 7, guard 8) against a ronin (nodachi,
Finesse 0, Wits 0: Energy 10, Wounds 8, guard 5), ikkiuchi at issoku itto. The duel shows a
contested half-step and the step-in cut it wins (MA-013, MA-016), guard shaving by a hit, a
Critical and a threatened location (MA-032, MA-035, MA-034), the ronin closing to tsubazeriai and
pushing out (MA-011, MA-026, MA-033), the guard break and its Critical window under [Direct 2]
(MA-037), lull recovery (MA-038), and a second break that ends the duel.
"""

import pytest

from issoku.rules.breath.engine import BreathState
from issoku.rules.breath.ruleset import BreathConfig, FighterSpec
from issoku.rules.kernel.dice import ScriptedDice
from issoku.rules.ma.duel import ma_duel

FIGHTERS = BreathConfig(fighters=(FighterSpec("kenshi", 0, armor="none"), FighterSpec("ronin", 1, finesse=0, wits=0)))

# (seat, decision kind, action, dice it rolls)
SCRIPT = [
    # Round 1, kenshi's first breath: a contested half-step, then the step-in cut.
    (0, "breath", "half_step:close", []),
    (1, "resist", "resist", [6, 6, 3, 4]),                       # 12 + 5 = 17 vs 7 + 2 = 9
    (0, "breath", "attack:uchigatana.horizontal_cut", [5, 4]),   # 9 + 6 = 15 vs Defense 10
    (1, "defend", "improvise:nodachi.parry", [2, 3]),            # 5 + 3 = 8: the cut goes in
    (0, "breath", "end_breath", []),
    # Kenshi acts again at 10 > 6: a Critical, then an arm cut that misses by 1 (threatened).
    (0, "breath", "attack:uchigatana.horizontal_cut", [7, 7]),
    (1, "defend", "take_hit", []),
    (0, "breath", "aim:uchigatana.horizontal_cut:arm", [1, 2]),
    (0, "breath", "end_breath", []),
    # The ronin closes twice unresisted into tsubazeriai and pushes out.
    (1, "breath", "half_step:close", []),
    (0, "resist", "yield", []),
    (1, "breath", "half_step:close", []),
    (0, "resist", "yield", []),
    (1, "breath", "push_out", [5, 5, 4, 4]),                     # 10 + 3 = 13 vs 8 + 2 = 10
    (1, "breath", "end_breath", []),
    # Close fighting: the uchigatana at −2 breaks the guard, then takes the Critical window.
    (0, "breath", "attack:uchigatana.horizontal_cut", [5, 3]),
    (0, "breath", "attack:uchigatana.horizontal_cut", [6, 4]),
    (0, "breath", "end_breath", []),
    (1, "breath", "stand", []),
    (0, "breath", "stand", []),
    # Round 2: the opening lasts; a hit breaks the recovered guard again, the window finishes it.
    (0, "breath", "attack:uchigatana.horizontal_cut", [3, 4]),
    (1, "defend", "take_hit", []),
    (0, "breath", "attack:uchigatana.horizontal_cut", [4, 3]),
    (1, "defend", "take_hit", []),
]

# (rule, kind, actor, fields that must match)
EXPECTED = [
    ("BR-G19", "fight_start", None, {}),
    ("BR-004", "round_start", None, {"round": 1, "energy": (13, 10)}),
    ("MA-008", "ma_start", None, {"rung": "issoku_itto"}),
    ("MA-031", "guard_max", 0, {"guard": 8}),
    ("MA-031", "guard_max", 1, {"guard": 5}),
    ("BR-008", "breath_start", 0, {"count": 13, "limit": 5}),
    ("MA-011", "energy_spent", 0, {"cost": 1, "after": 12}),
    ("MA-G01", "energy_spent", 1, {"cost": 1, "after": 9}),
    ("MA-013", "half_step_contest", 0, {"totals": (17, 9), "winner": 0}),
    ("MA-013", "half_step", 0, {"before": 1, "after": 2}),
    ("BR-045", "energy_spent", 0, {"cost": 2, "after": 10}),
    ("MA-016", "step_in_cut", 0, {"started": 1, "edge": 0}),
    ("BR-G01", "attack_check", 0, {"total": 15, "defense": 10, "direct": 0}),
    ("BR-020", "energy_spent", 1, {"cost": 3, "after": 6}),
    ("BR-G03", "defense_roll", 1, {"total": 8, "blocked": False}),
    ("BR-G04", "hit", 0, {"wounds": 1, "after": 7}),
    ("MA-032", "guard_loss", 1, {"before": 5, "after": 4}),
    ("BR-005", "breath_end", 0, {"spent": 3}),
    ("BR-008", "breath_start", 0, {"count": 10}),
    ("BR-045", "energy_spent", 0, {"after": 8}),
    ("BR-G01", "attack_check", 0, {"total": 20, "critical": True}),
    ("BR-G03", "take_hit", 1, {}),
    ("BR-G05", "hit", 0, {"wounds": 2, "after": 5}),
    ("MA-035", "guard_loss", 1, {"before": 4, "after": 2}),
    ("MA-041", "energy_spent", 0, {"cost": 3, "modifiers": (("hit_location", 1),)}),
    ("BR-G01", "attack_check", 0, {"total": 9, "defense": 10}),
    ("BR-G01", "miss", 0, {}),
    ("MA-034", "guard_loss", 1, {"before": 2, "after": 1}),
    ("BR-005", "breath_end", 0, {"spent": 5}),
    ("BR-008", "breath_start", 1, {"count": 6}),
    ("MA-011", "energy_spent", 1, {"cost": 1}),
    ("MA-010", "yield", 0, {}),
    ("MA-011", "half_step", 1, {"before": 2, "after": 3}),
    ("MA-011", "energy_spent", 1, {"cost": 1}),
    ("MA-010", "yield", 0, {}),
    ("MA-011", "half_step", 1, {"before": 3, "after": 4}),
    ("MA-G04", "energy_spent", 1, {"cost": 2, "after": 2}),
    ("MA-026", "push_out", 1, {"totals": (13, 10), "winner": 1, "before": 4, "after": 3}),
    ("MA-033", "guard_loss", 0, {"cause": "pushed", "before": 8, "after": 7}),
    ("BR-005", "breath_end", 1, {"spent": 4}),
    ("BR-008", "breath_start", 0, {"count": 5}),
    ("BR-045", "energy_spent", 0, {"after": 3}),
    ("BR-G01", "attack_check", 0, {"total": 10, "modifiers": (("finesse", 3), ("skill", 3), ("combo_fatigue", -2),
                                                             ("ma_range", -2))}),
    ("BR-G04", "hit", 0, {"wounds": 1, "after": 4}),
    ("MA-032", "guard_loss", 1, {"before": 1, "after": 0}),
    ("MA-037", "guard_break", 1, {"open_through_round": 2}),
    ("BR-045", "energy_spent", 0, {"after": 1}),
    ("BR-G01", "attack_check", 0, {"total": 10, "direct": 2, "critical": True}),
    ("BR-G05", "hit", 0, {"wounds": 2, "after": 2}),
    ("MA-037", "critical_window", 1, {"wounds": 2}),
    ("MA-035", "guard_loss", 1, {"before": 0, "after": 0}),
    ("BR-005", "breath_end", 0, {}),
    ("BR-008", "breath_start", 1, {"count": 2}),
    ("BR-G09", "stand", 1, {}),
    ("BR-005", "breath_end", 1, {}),
    ("BR-008", "breath_start", 0, {"count": 1}),
    ("BR-G09", "stand", 0, {}),
    ("BR-005", "breath_end", 0, {}),
    ("BR-006", "lull", None, {"round": 1}),
    ("MA-038", "guard_recovery", 0, {"before": 7, "after": 8}),
    ("MA-038", "guard_recovery", 1, {"before": 0, "after": 1}),
    ("BR-004", "round_start", None, {"round": 2}),
    ("BR-008", "breath_start", 0, {"count": 13}),
    ("BR-045", "energy_spent", 0, {"after": 11}),
    ("BR-G01", "attack_check", 0, {"total": 11, "direct": 2, "critical": False}),
    ("BR-G03", "take_hit", 1, {}),
    ("BR-G04", "hit", 0, {"wounds": 1, "after": 1}),
    ("MA-032", "guard_loss", 1, {"before": 1, "after": 0}),
    ("MA-037", "guard_break", 1, {"open_through_round": 3}),
    ("BR-045", "energy_spent", 0, {"after": 9}),
    ("BR-G01", "attack_check", 0, {"total": 11, "direct": 2, "critical": True}),
    ("BR-G03", "take_hit", 1, {}),
    ("BR-G05", "hit", 0, {"wounds": 2, "after": -1}),
    ("MA-037", "critical_window", 1, {}),
    ("MA-035", "guard_loss", 1, {"before": 0, "after": 0}),
    ("BR-G20", "defeated", 1, {}),
    ("BR-G20", "fight_end", None, {"winner_side": 0, "round": 2}),
]


def play_script():
    ruleset = ma_duel(breath=FIGHTERS)
    faces = [face for *_, dice in SCRIPT for face in dice]
    state = BreathState.initial(ruleset, 0, dice=ScriptedDice(faces))
    for step, (seat, kind, action, _) in enumerate(SCRIPT):
        assert (state.current_seat(), state.decision_kind()) == (seat, kind), f"step {step}: {action}"
        state.apply(ruleset.codec.by_name(action))
    return state


@pytest.mark.rule("MA-010", "MA-011", "MA-013", "MA-015", "MA-016", "MA-022", "MA-026", "MA-032", "MA-033",
                  "MA-034", "MA-035", "MA-037", "MA-038", "MA-041", "MA-G01", "MA-G05", "MA-G12")
def test_scripted_duel_event_log_line_by_line():
    state = play_script()
    assert state.is_terminal() and state.returns() == (1.0, -1.0)
    events = list(state.events)
    assert len(events) == len(EXPECTED)
    for line, (event, (rule, kind, actor, fields)) in enumerate(zip(events, EXPECTED)):
        assert (event.rule, event.kind, event.actor) == (rule, kind, actor), f"line {line}: {event.describe()}"
        for name, value in fields.items():
            assert event.data[name] == value, f"line {line} {name}: {event.describe()}"


@pytest.mark.rule("MA-015", "MA-G05")
def test_ma_015_the_seized_half_step_is_the_first_cut():
    """The winner of the contest cuts in the same breath, before the loser can do anything but defend."""
    state = play_script()
    kinds = [(e.rule, e.kind, e.actor) for e in state.events]
    won = kinds.index(("MA-013", "half_step", 0))
    assert kinds[won + 1:won + 4] == [("BR-045", "energy_spent", 0), ("MA-016", "step_in_cut", 0),
                                      ("BR-G01", "attack_check", 0)]

"""The encounter skirmish (N-v-M on the EN-G10 grid) on scripted dice: ties among many, the grid, targets,
Guard, Swap, Tactical Strike and the Tactics Pool, mooks, who Downed or Killed whom, fallen characters."""

import pytest

from issoku.rules.encounters import EncounterSkirmish, SkirmishConfig
from issoku.rules.encounters.skirmish_state import GUARD_BONUS, GUARD_MALUS, chebyshev
from issoku.rules.kernel.dice import ScriptedDice

TWO_V_TWO = (("kenshi", "yari_guard"), ("ono_brute", "tonfa_monk"))
IN_ORDER = [9, 9, 9, 1, 1,  8, 8, 1, 1,  5, 5, 1, 1,  1, 1, 1, 1, 1, 1]
"""Initiative faces putting the 2v2 in seat order: kenshi 5k3 27, yari 4k2 16, brute 4k2 10, monk 6k4 4."""


def skirmish(sides=TWO_V_TWO, faces=(), initiative=IN_ORDER, **settings):
    ruleset = EncounterSkirmish(SkirmishConfig(sides=sides, **settings))
    return ruleset.new_initial_state(dice=ScriptedDice(list(initiative) + list(faces)))


def names(state):
    return [state.ruleset.action_names[a] for a in state.legal_actions()]


def play(state, *decisions):
    for name in decisions:
        state.apply(state.ruleset.action_names.index(name))


def to_turn(state, stance="water"):
    """Opening stances (all ``stance``) and start-of-round Void Points passed, up to the first turn."""
    while state.decision_kind() in ("stance", "round_start"):
        play(state, f"stance:{stance}" if state.decision_kind() == "stance" else "pass")
    return state


def place(state, **squares):
    """Set up a position by hand (``seat0=(7, 5)``…) and ask the turn's legal actions again."""
    for seat, square in squares.items():
        state.positions[int(seat[4:])] = square
    state._legal = state._act_legal(state.actor())


def kinds(state, kind):
    return [event.to_dict() for event in state.events if event.kind == kind]


@pytest.mark.rule("EN-G10")
def test_en_g10_sides_start_in_columns_and_distance_is_chebyshev():
    state = skirmish()
    assert state.positions == [(4, 5), (4, 6), (8, 5), (8, 6)]
    assert kinds(state, "encounter_start")[0]["positions"] == ((4, 5), (4, 6), (8, 5), (8, 6))
    assert state.distance_between(0, 3) == 4 and chebyshev((0, 0), (1, 1)) == 1   # a diagonal is 5 ft
    assert state.ruleset.seat_names == ("side_0_fighter_1", "side_0_fighter_2", "side_1_fighter_1",
                                        "side_1_fighter_2")


@pytest.mark.rule("EN-003", "EN-005")
def test_en_003_three_tied_characters_are_ordered_by_the_dice_and_keep_it():
    # three bandits (3k2) all on 2 + 2 = 4 … then a d3 picks the first, a d2 the second
    state = skirmish((("bandit",), ("bandit", "bandit")), initiative=[2, 2, 1] * 3 + [3, 1])
    tie = kinds(state, "initiative_tie")[0]
    assert tie["value"] == 4 and tie["order"] == (2, 0, 1) and state.order == (2, 0, 1)
    assert [f.tie_seq for f in state.fighters] == [1, 2, 0]
    assert state.current_seat() == 1                                              # EN-005: reverse order


@pytest.mark.rule("EN-007", "EN-003")
def test_en_007_round_start_decisions_follow_the_tie_order_of_three():
    state = skirmish((("bandit",), ("bandit", "bandit")), initiative=[2, 2, 1] * 3 + [3, 1])
    while state.decision_kind() == "stance":
        play(state, "stance:water")
    asked = []
    while state.decision_kind() == "round_start":
        asked.append(state.current_seat())
        play(state, "pass")
    assert asked == [2, 0, 1] and state.actor() == 2


@pytest.mark.rule("EN-100", "EN-028", "EN-072", "EN-073")
def test_en_100_guard_raises_the_ward_and_lowers_the_guardian_until_its_next_turn():
    state = to_turn(skirmish())
    assert state.actor() == 0 and "guard:ally1" in names(state)
    before = (state.atn(0), state.atn(1))
    play(state, "guard:ally1")
    assert (state.atn(0), state.atn(1)) == (before[0] - GUARD_MALUS, before[1] + GUARD_BONUS)
    assert state.fighters[0].simple_actions == 1 and "guard:ally1" not in names(state)
    state.positions[1] = (4, 8)                                                   # the ward steps away
    assert (state.atn(0), state.atn(1)) == before
    state.positions[1] = (4, 6)
    for _ in range(4):
        play(state, "pass")                                                       # every turn of round 1
    to_turn(state)
    assert state.actor() == 0 and kinds(state, "guard_ends") and state.atn(1) == before[1]


@pytest.mark.rule("EN-100", "EN-063", "EN-062")
def test_en_100_no_guard_in_fire_stance_and_a_free_one_in_earth_stance():
    state = to_turn(skirmish(), stance="fire")
    assert not [n for n in names(state) if n.startswith("guard")]
    state = to_turn(skirmish(), stance="earth")
    play(state, "guard:ally1")
    assert state.fighters[0].simple_actions == 2 and kinds(state, "action")[-1]["speed"] == "free"


@pytest.mark.rule("EN-111", "EN-004")
def test_en_111_swap_exchanges_initiative_values_with_an_ally():
    state = skirmish()
    while state.decision_kind() == "stance":
        play(state, "stance:water")
    assert state.current_seat() == 0 and "void:swap:ally1" in names(state)
    play(state, "void:swap:ally1")
    assert (state.fighters[0].initiative, state.fighters[1].initiative) == (16, 27)
    assert state.fighters[0].void_points == 1 and "void:swap:ally1" not in names(state)
    to_turn(state)
    assert state.order[:2] == (1, 0) and state.actor() == 1


@pytest.mark.rule("EN-082", "EN-G09", "EN-G03")
def test_en_082_tactical_strike_feeds_the_pool_and_a_free_raise_costs_no_tn():
    # kenshi 8k3 on 10+9, 10+9, 9, five 1s = 47 against the brute's 25 + 10; damage 6k2 on 1s (0 past armour)
    faces = [10, 9, 10, 9, 9, 1, 1, 1, 1, 1] + [1] * 6
    # yari 8k3 (Yarijutsu 5, Agility 3) on 9, 9, 9 … = 27 against 25 with one Extra Damage raise paid by the pool
    faces += [9, 9, 9, 1, 1, 1, 1, 1] + [1] * 6
    state = to_turn(skirmish(faces=faces))
    place(state, seat0=(7, 5), seat1=(7, 6))
    assert "attack:tactical_strike:enemy0" in names(state) and "tactics:free_raise" not in names(state)
    play(state, "attack:tactical_strike:enemy0")
    assert state.tactics == [1, 0] and kinds(state, "tactics_pool")[0]["pool"] == 1
    play(state, "pass")
    assert state.actor() == 1 and "tactics:free_raise" in names(state)
    play(state, "tactics:free_raise", "attack:ed1:enemy0")
    roll = kinds(state, "attack_roll")[-1]
    assert state.tactics == [0, 0] and roll["raises"] == 1 and roll["tn"] == roll["atn"] == 25
    assert kinds(state, "hit")[-1]["tn"] == 25


@pytest.mark.rule("EN-066", "EN-G19")
def test_en_066_targets_are_enemies_in_reach_only():
    state = to_turn(skirmish())
    assert not [n for n in names(state) if n.startswith("attack")]                 # 20 ft from everyone
    place(state, seat0=(7, 5))                                                     # next to both enemies
    assert {n.rsplit(":", 1)[1] for n in names(state) if n.startswith("attack")} == {"enemy0", "enemy1"}
    place(state, seat0=(7, 3))                                                     # next to neither (2 squares)
    assert not [n for n in names(state) if n.startswith("attack")]
    play(state, "pass")
    place(state, seat1=(6, 7))                                                     # the yari reaches 10 ft
    assert state.actor() == 1
    assert {n.rsplit(":", 1)[1] for n in names(state) if n.startswith("attack")} == {"enemy0", "enemy1"}


@pytest.mark.rule("EN-101", "EN-103", "EN-G10")
def test_en_103_a_move_toward_an_enemy_stops_next_to_it():
    state = to_turn(skirmish())
    play(state, "simple_move:toward:enemy1")                                       # Water 2: up to 4 squares
    assert state.positions[0] == (7, 6) and state.distance_between(0, 3) == 1
    assert kinds(state, "move")[-1]["after"] == (7, 6) and state.fighters[0].moved == 3
    assert "free_move:toward:enemy1" not in names(state)


@pytest.mark.rule("EN-063", "EN-G10")
def test_en_063_fire_stance_cannot_step_away_from_an_adjacent_enemy():
    state = to_turn(skirmish(), stance="fire")
    place(state, seat0=(7, 5))
    assert not [n for n in names(state) if ":away:" in n]
    assert "free_move:away:enemy0" not in names(state)


@pytest.mark.rule("EN-056", "EN-057", "EN-058", "EN-059", "EN-060", "EN-T08", "EN-040")
def test_en_056_mooks_use_mook_thresholds_and_their_damage_never_explodes():
    # bandit 3k2 initiative on 9, 9, 1 = 18 (first), kenshi 5k3 on 1s = 3
    state = skirmish((("kenshi",), ("bandit",)), initiative=[1] * 5 + [9, 9, 1],
                     faces=[9, 9, 1, 1] + [10, 10, 1, 1])
    assert [r.threshold for r in state.fighters[1].ranks] == [9, 17, 25, 29]
    to_turn(state)
    state.fighters[0].stance = "fire"                                             # ATN 25 - 10 = 15
    place(state, seat1=(5, 6))
    assert state.actor() == 1
    play(state, "attack:enemy0")                        # wakizashi 4k2 (Samurai 2, Agility 2) on 9, 9 = 18
    damage = kinds(state, "damage_roll")[-1]
    assert damage["total"] == 20                                                   # 10 + 10, no re-rolls


@pytest.mark.rule("EN-054", "EN-055", "EN-T08", "EN-052", "EN-G18")
def test_en_054_who_downed_and_killed_whom_and_the_fallen_lose_their_turns():
    sides = (("kenshi",), ("bandit", "bandit", "bandit"))
    # kenshi first (27); the bandits 3k2 on 1, 1, 1 = 2 each; then kenshi's attack and damage
    faces = [9, 9, 9, 1, 1, 1, 1, 1] + [4, 3, 1, 1, 1, 1]
    state = skirmish(sides, initiative=[9, 9, 9, 1, 1] + [1] * 9 + [1, 1], faces=faces)
    to_turn(state)
    place(state, seat0=(7, 5))
    state.fighters[1].wounds = 20                                                  # Bloodied (17), not yet Out (25)
    assert state.distance_between(0, 1) == 1
    play(state, "attack:enemy0")
    assert state.decision_kind() == "endure" and state.current_seat() == 1
    play(state, "pass")                                                            # 27 wounds: Out, not Dead
    assert state.credits == [(0, 1, "downed")] and kinds(state, "downed")[0]["target"] == 1
    assert not state.is_terminal() and state.returns() == (0.0, 0.0, 0.0, 0.0)
    assert "attack:enemy0" not in names(state)                                     # no target once down
    play(state, "pass")
    assert state.actor() != 1                                                      # the Out bandit has no turn
    state.fighters[2].wounds = state.fighters[3].wounds = 29
    assert state.is_terminal() and state.returns() == (1.0, -1.0, -1.0, -1.0)


@pytest.mark.rule("EN-081", "EN-G10")
def test_en_081_a_push_moves_the_target_away_on_the_grid():
    # kenshi 8k3 on 10+9, 10+9, 9 = 47 against 25 + 10; Strength 3k3 on 9s = 27 beats the brute's 5k5 on 1s;
    # damage 6k2 on 1s (nothing past the heavy armour)
    faces = [10, 9, 10, 9, 9, 1, 1, 1, 1, 1] + [9, 9, 9] + [1] * 5 + [1] * 6
    state = to_turn(skirmish(faces=faces))
    place(state, seat0=(7, 5))
    play(state, "attack:push:enemy0")
    pushed = kinds(state, "pushed")[0]
    assert pushed["before"] == (8, 5) and pushed["after"] == (9, 4) == state.positions[2]   # the farthest square
    assert state.distance_between(0, 2) == 2 and pushed["distance"] == 10


MONK_KENSHI_V_BRUTE = (("tonfa_monk", "kenshi"), ("ono_brute",))
# monk 6k4 on 9, 9, 9, 9 = 36; kenshi 5k3 on 8, 8, 8 = 24; brute 4k2 on 1s = 2: the order is the seat order
THREE_IN_ORDER = [9, 9, 9, 9, 1, 1] + [8, 8, 8, 1, 1] + [1, 1, 1, 1]
# the monk's grapple test 9k4 (Jujutsu 5, Agility 4) on 9, 9 … = 20 against the brute's 15 without armour;
# the kenshi's 5k3 (Jujutsu 2, Agility 3) on 5, 5 … = 11 against the grappled brute's 5 without armour
GRAPPLE_AND_JOIN = [9, 9, 1, 1, 1, 1, 1, 1, 1] + [5, 5, 1, 1, 1]


def monk_and_kenshi_hold_the_brute(faces=()):
    state = to_turn(skirmish(MONK_KENSHI_V_BRUTE, initiative=THREE_IN_ORDER, faces=GRAPPLE_AND_JOIN + list(faces),
                             start_distance=1))
    assert state.positions == [(5, 5), (5, 6), (6, 6)] and state.actor() == 0
    play(state, "grapple:enemy0")
    assert state.hold_of(2).members == [2, 0] and state.atn(2) == 15                # EN-118: 5 + heavy armour
    assert set(names(state)) <= {"pass", "grapple:nevermind", "void:boost"}         # EN-085: grapple actions only
    play(state, "pass", "grapple:enemy0")
    assert state.hold_of(2).members == [2, 0, 1] and kinds(state, "joins_grapple")[0]["actor"] == 1
    return state


@pytest.mark.rule("EN-083", "EN-084", "EN-085", "EN-118", "EN-087", "EN-095", "EN-094", "EN-086", "EN-A09")
def test_en_084_three_in_one_grapple_a_contest_for_control_a_throw_and_the_last_one_out():
    # the contest at the brute's turn: brute 8k5 on 9s = 45, monk 7k2 on 1s = 2, kenshi 5k3 on 1s = 3
    state = monk_and_kenshi_hold_the_brute([9, 9, 9, 9, 9, 1, 1, 1] + [1] * 7 + [1] * 5)
    play(state, "pass")
    control = kinds(state, "grapple_control")[0]
    assert control["members"] == (2, 0, 1) and control["totals"] == (45, 2, 3) and state.hold_of(2).controller == 2
    assert {"grapple:hit:enemy0", "grapple:hit:enemy1", "grapple:throw:enemy0", "grapple:maintain"} <= set(names(state))
    assert not [n for n in names(state) if "drag" in n]                             # EN-096: three in the grapple
    play(state, "grapple:throw:enemy0")
    assert state.hold_of(0) is None and state.fighters[0].prone and state.distance_between(0, 2) > 1
    assert state.hold_of(2).members == [2, 1]
    play(state, "grapple:break")
    assert state.holds == [] and kinds(state, "grapple_ends")[-1]["rule"] == "EN-086"


@pytest.mark.rule("EN-099")
def test_en_099_nevermind_needs_every_other_participant():
    tie = [1] * 8 + [4, 1, 1, 1, 1, 1, 1] + [1] * 5                             # 5, 5 and 3: nobody controls
    state = monk_and_kenshi_hold_the_brute(tie)
    play(state, "pass")
    assert state.actor() == 2 and state.hold_of(2).controller is None
    play(state, "grapple:nevermind")
    assert state.decision_kind() == "nevermind" and state.current_seat() == 0
    play(state, "grapple:nevermind")
    assert state.current_seat() == 1
    play(state, "pass")                                                            # the kenshi holds on
    assert state.hold_of(2).members == [2, 0, 1] and state.actor() == 2 and kinds(state, "nevermind_declined")
    state = monk_and_kenshi_hold_the_brute(tie)
    play(state, "pass", "grapple:nevermind", "grapple:nevermind", "grapple:nevermind")
    assert state.holds == [] and kinds(state, "grapple_ends")[-1]["why"] == "nevermind"


@pytest.mark.rule("EN-096", "EN-087")
def test_en_096_the_controller_drags_its_one_partner():
    state = to_turn(skirmish(MONK_KENSHI_V_BRUTE, initiative=THREE_IN_ORDER, faces=GRAPPLE_AND_JOIN[:9],
                             start_distance=1))
    play(state, "grapple:enemy0")
    hold = state.hold_of(0)
    hold.controller, state.fighters[0].simple_actions = 0, 1                     # as if it had won the contest
    place(state, seat1=(0, 6))
    assert "grapple:drag:toward:ally1" in names(state)
    play(state, "grapple:drag:toward:ally1")                                     # Water 2: two squares
    assert state.positions[0] == (3, 6) and state.positions[2] == (4, 6)
    assert state.distance_between(0, 2) == 1 and kinds(state, "drag")[0]["partner"] == 2


@pytest.mark.rule("EN-052", "EN-086")
def test_en_052_a_fallen_participant_drops_out_of_the_grapple():
    state = monk_and_kenshi_hold_the_brute([1] * 8 + [1] * 5)
    state.fighters[0].wounds = 99
    play(state, "pass")                                                            # the brute's turn begins
    assert state.hold_of(2).members == [2, 1] and kinds(state, "leaves_grapple")[0]["why"] == "fallen"

"""Energy cost arithmetic: Rule 2's order, the floor, 1.5× improvisation, Combo Fatigue, the breath limit.

These are pure functions over plain numbers and named modifiers, so the worked examples (BR-T07..BR-T15)
test them directly and the engine, the zones of the skirmish and the Ma-and-Blade duel all price a
maneuver the same way. A modifier is ``(name, delta)``: penalties positive, bonuses negative.

The text's breath combinations are sums of the catalog's prices (``data/weapons.toml``, ``maneuvers.toml``):
BR-012 horizontal cut 2 + horizontal cut 2 + reserve parry 1 = 5 (uchigatana); BR-013 sprint 3 + ninjato
straight thrust 2 = 5; BR-015 kodachi flurry cut 1 × 3 + reserve emergency dodge 1 = 4; BR-017 zanbato demon
cleave 3 + rising cut 3 = 6, past the limit of 5: an overload.
"""

from __future__ import annotations

from collections.abc import Iterable

Modifier = tuple[str, int]

BASE_BREATH_LIMIT = 5
"""BR-008: the default consecutive-execution limit of one breath."""
OVERLOADED_LIMIT = 3
"""BR-026: after a successful overload check the next breath's limit is 3."""
OVERLOAD_TN = 11
"""BR-025: 2d10 + Physique − excess ≥ 11."""


def improvised_base(base: int) -> int:
    """BR-020 / BR-G07: 1.5 × base, rounded half up (1→2, 2→3, 3→5, 4→6)."""
    return (3 * base + 1) // 2


def strongest_per_name(modifiers: Iterable[Modifier]) -> list[Modifier]:
    """BR-036: same-name effects do not stack; only the most favourable (lowest) delta of each name counts.

    Different names stack. The order of first appearance is kept so the event log reads naturally.
    """
    best: dict[str, int] = {}
    for name, delta in modifiers:
        if name not in best or delta < best[name]:
            best[name] = delta
    return list(best.items())


def final_cost(base: int, modifiers: Iterable[Modifier] = (), *, improvised: bool = False,
               zero_energy: bool = False) -> tuple[int, list[Modifier]]:
    """The Energy a maneuver costs, with the modifiers that counted.

    Rule 2 (BR-045): the 1.5× of an improvised reaction raises the base first (BR-G07, BR-055), then all
    penalties and bonuses are summed, then the floor of 1 holds (BR-028). A 0-Energy([Kata]) maneuver
    (BR-030) costs 0 and takes no modifiers.
    """
    if zero_energy:
        return 0, []
    counted = strongest_per_name(modifiers)
    raw = (improvised_base(base) if improvised else base) + sum(delta for _, delta in counted)
    return max(1, raw), counted


def combo_fatigue(check_number: int, reduced: bool = False) -> int:
    """BR-G06 / BR-051: the Nth attack check of a round takes −step × (N − 3) from the 4th on.

    ``step`` is 2, or 1 under Rule 4 (a short weapon in the Core Zone); the reduction does not stack
    with itself (BR-054), so a boolean is all it takes.
    """
    if check_number < 4:
        return 0
    return -(1 if reduced else 2) * (check_number - 3)


def breath_limit(expansions: Iterable[Modifier]) -> int:
    """BR-008/BR-009/BR-064: 5 plus every differently named expansion; same-name expansions keep the largest.

    Speed license (+1) and Speed master (+2) share the name ``speed`` (BR-A02), so both give 7.
    """
    best: dict[str, int] = {}
    for name, bonus in expansions:
        best[name] = max(bonus, best.get(name, bonus))
    return BASE_BREATH_LIMIT + sum(best.values())


def speed_expansion(speed_skill: int) -> int:
    """BR-059/BR-060: Speed 3 (license) widens the breath by 1, Speed 4+ (master) by 2."""
    if speed_skill >= 4:
        return 2
    if speed_skill >= 3:
        return 1
    return 0


def overload_excess(spent: int, limit: int) -> int:
    """BR-024/BR-025: how far a breath's spending went past its limit (0 when it did not overload)."""
    return max(0, spent - limit)

"""Outcome tables (TP-015) and the Recover Stamina table (TP-048..TP-058).

Every 003 action reads a net result against rows of Difficulty Thresholds. A row's DT is either a
number or a value of the *target* ("Target: Combat Defence", "... (Armoured)", "Target: Grapple
Defence"); the outcome is the row with the highest DT that the net meets, and the "-" row is what a
net below every row gets. Outcomes are small ints so resolution can branch on them cheaply; each
table keeps its own names for the event log.
"""

from __future__ import annotations

from dataclasses import dataclass

# Outcome codes shared by every table (a Miss is the attack tables' Failure, a Hit their Success).
FAILURE = 0
SUCCESS = 1
CRITICAL = 2
BIND = 3

# What a row's DT is measured against: a fixed number, or one of the target's defence values.
FIXED = 0
COMBAT_DEFENCE = 1
COMBAT_DEFENCE_ARMOURED = 2
GRAPPLE_DEFENCE = 3


@dataclass(frozen=True, slots=True)
class OutcomeTable:
    """Rows ``(dt_kind, dt, outcome)`` in the text's ascending order, below every row: ``FAILURE``."""

    rows: tuple[tuple[int, int, int], ...]
    names: tuple[tuple[int, str], ...]

    def read(self, net: int, defences: tuple[int, int, int, int]) -> int:
        """The outcome code of a net result against a target's ``defences`` (indexed by dt_kind)."""
        outcome = FAILURE
        for dt_kind, dt, code in self.rows:
            if net >= (dt if dt_kind == FIXED else defences[dt_kind]):
                outcome = code
        return outcome

    def name(self, outcome: int) -> str:
        """The text's name of an outcome code in this table (``"critical_hit"``, ``"bind"``)."""
        for code, name in self.names:
            if code == outcome:
                return name
        raise KeyError(outcome)


def _fixed(*rows: tuple[int, int]) -> tuple[tuple[int, int, int], ...]:
    return tuple((FIXED, dt, code) for dt, code in rows)


# "- Failure / 0 Success": Move, Aim, Evade, Dodge, Struggle, Wind.
SUCCESS_AT_0 = OutcomeTable(_fixed((0, SUCCESS)), ((FAILURE, "failure"), (SUCCESS, "success")))
# "- Failure / 1 Success": Escape, Withdraw.
SUCCESS_AT_1 = OutcomeTable(_fixed((1, SUCCESS)), ((FAILURE, "failure"), (SUCCESS, "success")))
# "- Failure / 1 Success / 10 Critical Success": Combat Move, Retreat.
MOVEMENT = OutcomeTable(_fixed((1, SUCCESS), (10, CRITICAL)),
                        ((FAILURE, "failure"), (SUCCESS, "success"), (CRITICAL, "critical_success")))
# "- Failure / 8 Success": Disarm, Grapple.
SUCCESS_AT_8 = OutcomeTable(_fixed((8, SUCCESS)), ((FAILURE, "failure"), (SUCCESS, "success")))
# "- Failure / 0 Bind / 1 Success": Parry, CT Parry.
PARRY = OutcomeTable(_fixed((0, BIND), (1, SUCCESS)), ((FAILURE, "failure"), (BIND, "bind"), (SUCCESS, "success")))
# "- Miss / Combat Defence Hit / Combat Defence (Armoured) Critical Hit": every strike; the opposed net is
# compared with the target's Combat Defence, literally (TP-A08).
STRIKE = OutcomeTable(((COMBAT_DEFENCE, 0, SUCCESS), (COMBAT_DEFENCE_ARMOURED, 0, CRITICAL)),
                      ((FAILURE, "miss"), (SUCCESS, "hit"), (CRITICAL, "critical_hit")))
# Press reads the strike thresholds with Success / Critical Success names.
PRESS = OutcomeTable(STRIKE.rows, ((FAILURE, "failure"), (SUCCESS, "success"), (CRITICAL, "critical_success")))
# "- Failure / Grapple Defence Success": Pin.
PIN = OutcomeTable(((GRAPPLE_DEFENCE, 0, SUCCESS),), ((FAILURE, "failure"), (SUCCESS, "success")))
# "- Success": Ready.
ALWAYS = OutcomeTable(_fixed((-10**9, SUCCESS)), ((SUCCESS, "success"),))
# "- Miss": Feint.
FEINT = OutcomeTable((), ((FAILURE, "miss"),))

# Recover Stamina (TP-048..TP-058, TP-A04): (DT, AP regained, rule ID), ascending; below −13 regains 0 (TP-049).
RECOVER_ROWS: tuple[tuple[int, int, str], ...] = (
    (-13, 1, "TP-050"), (-9, 2, "TP-051"), (-8, 3, "TP-052"), (-6, 4, "TP-053"), (-4, 6, "TP-054"),
    (-3, 8, "TP-055"), (-2, 10, "TP-056"), (-1, 11, "TP-057"), (0, 12, "TP-058"),
)
_RECOVER_FLOOR = RECOVER_ROWS[0][0]
_RECOVER_CEILING = RECOVER_ROWS[-1][0]


def _recover_lookup() -> tuple[tuple[int, str], ...]:
    """AP regained and rule ID for every result from −14 to 0 (index = result + 14)."""
    table = []
    for result in range(_RECOVER_FLOOR - 1, _RECOVER_CEILING + 1):
        regained, rule = 0, "TP-049"
        for dt, ap, row_rule in RECOVER_ROWS:
            if result >= dt:
                regained, rule = ap, row_rule
        table.append((regained, rule))
    return tuple(table)


_RECOVER_LOOKUP = _recover_lookup()


def recovered_ap(result: int) -> tuple[int, str]:
    """AP regained by a Recover Stamina result, with the rule ID of the row it falls on."""
    if result >= _RECOVER_CEILING:
        return _RECOVER_LOOKUP[-1]
    if result < _RECOVER_FLOOR:
        return _RECOVER_LOOKUP[0]
    return _RECOVER_LOOKUP[result - _RECOVER_FLOOR + 1]

"""The guard track (警戒): the calm of the mind, shaved by small cuts and pressure (MA-030..MA-039).

A duelist rarely dies from one cut; the guard wears down until it breaks, and the broken instant is
where the real blade goes in. One :class:`GuardTrack` per duelist holds the value, the guard-break
status (MA-037 with MA-G12) and the streak of lost half-step contests (MA-036 with MA-G11). Every
change is emitted with its rule ID.
"""

from __future__ import annotations

from typing import Final

from mypy_extensions import mypyc_attr

from issoku.rules.kernel.events import EventLog

BASE_GUARD: Final = 5
"""Max guard = 5 + max(Finesse, Wits) (MA-031)."""
BREAK_DIRECT: Final = 2
"""Attacks against a broken guard are [Direct 2] (MA-037)."""
WINDOW_WOUNDS: Final = 2
"""The Critical window removes 2 Wounds, as a canon Critical (MA-037)."""

# The shaving table (MA-032, MA-033, MA-034, MA-035, MA-036) with the sizes MA-G08/MA-G09 fix where 000 gives a range.
FEINT_LANDS = ("MA-032", "feint_lands", 1)
PUSHED = ("MA-033", "pushed", 1)
EMPTY_HAND_LANDS = ("MA-033", "empty_hand", 2)
THREATENED = ("MA-034", "threatened", 1)
CRITICAL_ALLOWED = ("MA-035", "critical", 2)
HEAVY_HIT = ("MA-G09", "hit", 1)
HALF_STEP_STREAK = ("MA-036", "half_step_streak", 1)


def max_guard(finesse: int, wits: int, sheet_bonus: int = 0) -> int:
    """5 + the higher of Finesse and Wits, plus a Master's sheet modifier; no skill is added (MA-031)."""
    return BASE_GUARD + max(finesse, wits) + sheet_bonus


def lull_gain(finesse: int, wits: int) -> int:
    """Guard caught back at a lull: the higher of Finesse and Wits, at least 1 (MA-038)."""
    return max(1, finesse, wits)


def hit_shave(wounds_removed: int, critical: bool) -> tuple[str, str, int]:
    """The table row a landed hit shaves by (MA-G09): a Critical −2, any other hit −1."""
    if critical:
        return CRITICAL_ALLOWED
    return FEINT_LANDS if wounds_removed <= 1 else HEAVY_HIT


GUARD_SLOTS = ("maximum", "value", "recovery", "open_through_round", "window", "loss_streak", "severed_round")
"""The slots of :class:`GuardTrack`, which ``clone`` copies (a compiled class has no ``__slots__`` to read)."""


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class GuardTrack:
    """One duelist's guard, separate from Wounds (MA-030)."""

    __slots__ = GUARD_SLOTS

    def __init__(self, maximum: int, recovery: int) -> None:
        self.maximum = maximum
        self.value = maximum
        self.recovery = recovery
        self.open_through_round = -1
        self.window = False
        self.loss_streak = 0
        self.severed_round = -1

    @classmethod
    def for_duelist(cls, finesse: int, wits: int, sheet_bonus: int = 0) -> "GuardTrack":
        """A full guard for a duelist of these attributes."""
        return cls(max_guard(finesse, wits, sheet_bonus), lull_gain(finesse, wits))

    def is_open(self, round_no: int) -> bool:
        """Whether the guard-break opening lasts through ``round_no`` (MA-037, MA-G12)."""
        return round_no <= self.open_through_round

    def direct(self, round_no: int) -> int:
        """The [Direct N] every attack against this duelist gets: 2 while open, else 0."""
        return BREAK_DIRECT if self.is_open(round_no) else 0

    def shave(self, row: tuple[str, str, int], log: EventLog, seat: int, round_no: int) -> bool:
        """Lose guard by one row of the shaving table; returns True when this breaks the guard.

        Guard never goes below 0 (MA-G12). Reaching 0 from above opens the duelist from now to the end
        of the following round and grants the opponent one Critical window; a guard that recovered and is
        shaved to 0 again breaks again (MA-G28).
        """
        rule, cause, amount = row
        before = self.value
        self.value = max(0, before - amount)
        if log.enabled:  # the hottest event of the duel: skip building its data for a log that is off
            log.emit(rule, "guard_loss", seat, cause=cause, amount=amount, before=before, after=self.value)
        if before > 0 and self.value == 0:
            self.open_through_round = round_no + 1
            self.window = True
            log.emit("MA-037", "guard_break", seat, open_through_round=self.open_through_round)
            return True
        return False

    def take_window(self, log: EventLog, seat: int, round_no: int) -> bool:
        """Use up the Critical window on the first hit during the opening (MA-037, MA-G12)."""
        if not (self.window and self.is_open(round_no)):
            return False
        self.window = False
        log.emit("MA-037", "critical_window", seat, wounds=WINDOW_WOUNDS)
        return True

    def contest_outcome(self, won: bool | None, log: EventLog, seat: int, round_no: int) -> bool:
        """Track half-step contests: the 2nd and each further consecutive loss shaves 1 (MA-036, MA-G11).

        A win resets the streak; a tie (None) counts for neither side (MA-G02). Returns True on a break.
        """
        if won is None:
            return False
        if won:
            self.loss_streak = 0
            return False
        self.loss_streak += 1
        if self.loss_streak >= 2:
            return self.shave(HALF_STEP_STREAK, log, seat, round_no)
        return False

    def recover(self, amount: int, rule: str, cause: str, log: EventLog, seat: int) -> int:
        """Gain up to ``amount`` guard, never above the maximum; returns what was gained."""
        before = self.value
        self.value = min(self.maximum, before + amount)
        if log.enabled:
            log.emit(rule, "guard_recovery", seat, cause=cause, before=before, after=self.value)
        return self.value - before

    def lull(self, in_tsubazeriai: bool, log: EventLog, seat: int) -> int:
        """Catch one's breath at a lull (MA-038); nobody does inside a tsubazeriai (MA-G13)."""
        if in_tsubazeriai:
            log.emit("MA-G13", "guard_recovery", seat, cause="lull_in_tsubazeriai", before=self.value,
                     after=self.value)
            return 0
        return self.recover(self.recovery, "MA-038", "lull", log, seat)

    def sever(self, log: EventLog, seat: int, round_no: int) -> int:
        """+1 for opening the ma to far range by one's own move, at most once a round (MA-039, MA-G13)."""
        if self.severed_round == round_no:
            return 0
        self.severed_round = round_no
        return self.recover(1, "MA-039", "sever", log, seat)

    def clone(self) -> "GuardTrack":
        """An independent copy."""
        twin = GuardTrack.__new__(GuardTrack)
        for name in GUARD_SLOTS:
            setattr(twin, name, getattr(self, name))
        return twin

"""What each duelist sees of the duel: the ``ma_*`` observation fields and the rendering line.

Everything here is visible at the table (the distance, the other's composure, wounds, the score), so
both seats see the same values, ordered ego first. The rung is one field shared by both views: the
ladder is one value per duel (MA-010).
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter
from typing import TYPE_CHECKING, Final

from issoku.rules.kernel.encoding import FieldEncoding, field, flag, one_hot, per_slot, ratio, scaled
from issoku.rules.kernel.protocol import ObservationSpec
from issoku.rules.ma.ladder import RUNG_NAMES, Rung
from issoku.rules.ma.sparring import POINTS_TO_WIN

if TYPE_CHECKING:
    from issoku.rules.ma.duel import MaData

INJURY_FLAGS = ("wrist", "arm", "leg", "face", "bleeding", "disarmed")
"""The per-fighter injury flags of ``ma_injuries``, in order."""
INJURY_COUNT: Final = len(INJURY_FLAGS)
"""Final here and below: compiled, a Final is a C variable or constant, where any other module global is a dict
lookup on each read (the observation reads these on every step)."""
STREAK_SCALE: Final = 3.0
GAP_PER_RUNG = 3
"""Dashes between the two fighters per rung of ma left before tsubazeriai, in the rendering."""
injury_flags = attrgetter(*INJURY_FLAGS)
"""An ``Injuries``' flags as a tuple, in ``INJURY_FLAGS`` order."""


def observation_fields(n: int) -> tuple[tuple[str, int, float, float], ...]:
    """The shared rung, then per fighter (ego first) reach, guard, opening, window, injuries, points,
    loss streak, stage side; then the observer's own step-in and counterattack flags, whether the
    first contest is still to come, and the half-step waiting for a resist/yield answer (close, open)."""
    return (("ma_rung", len(Rung), 0.0, 1.0), ("ma_can_attack", n, 0.0, 1.0), ("ma_guard", n, 0.0, 1.0),
            ("ma_guard_open", n, 0.0, 1.0), ("ma_window", n, 0.0, 1.0),
            ("ma_injuries", n * len(INJURY_FLAGS), 0.0, 1.0), ("ma_points", n, 0.0, 1.0),
            ("ma_loss_streak", n, 0.0, 1.0), ("ma_stage_side", n, 0.0, 1.0),
            ("ma_step_in", 1, 0.0, 1.0), ("ma_counter_owed", 1, 0.0, 1.0), ("ma_first_contest", 1, 0.0, 1.0),
            ("ma_half_step_declared", 2, 0.0, 1.0))


def observation_encodings(slots: Sequence[str]) -> tuple[FieldEncoding, ...]:
    """What fills each of :func:`observation_fields`, in order; ``slots`` labels the fighter slots (ego first)."""
    return (
        field("the rung of the ladder (the ma) both fighters stand at", one_hot("rung", RUNG_NAMES, "the rung")),
        per_slot(flag("can_attack", "its weapon may make an ordinary attack at this rung"), "may attack here", slots),
        per_slot(ratio("guard", "[guard value, guard maximum]", clip=False), "guard against its maximum", slots),
        per_slot(flag("guard_open", "its guard is open this round"), "guard open", slots),
        per_slot(flag("window", "the opening is a window"), "an open guard's window", slots),
        field("injuries by location", *(flag(name, f"injured: {name}") for name in INJURY_FLAGS), slots=slots),
        per_slot(scaled("points", POINTS_TO_WIN, "sparring points scored"), "sparring points (0 outside sparring)",
                 slots),
        per_slot(scaled("loss_streak", STREAK_SCALE, "contests lost in a row"), "contests lost in a row", slots),
        per_slot(flag("stage_side", "the stage favours this fighter"), "the stage's favoured side", slots),
        field("the observer stepped in", flag("step_in", "the observer stepped in this breath")),
        field("the observer owes a counterattack", flag("counter_owed", "a counterattack is owed by the observer")),
        field("the first contest is still to come", flag("first_contest", "no contest yet")),
        field("a half-step waiting for a resist/yield answer (none otherwise)",
              one_hot("half_step", ("close", "open"), "its direction")),
    )


OFFSET_SLOTS = ("rung", "can_attack", "guard", "guard_open", "window", "injuries", "points", "loss_streak",
                "stage_side", "step_in", "counter_owed", "first_contest", "half_step_declared")
"""The slots of :class:`Offsets`, which ``__init__`` fills (a compiled class has no ``__slots__`` to read)."""


class Offsets:
    """Where each ``ma_*`` field starts in one ruleset's observation (looked up once, not per write)."""

    __slots__ = OFFSET_SLOTS
    rung: int
    can_attack: int
    guard: int
    guard_open: int
    window: int
    injuries: int
    points: int
    loss_streak: int
    stage_side: int
    step_in: int
    counter_owed: int
    first_contest: int
    half_step_declared: int

    def __init__(self, spec: ObservationSpec) -> None:
        for name in OFFSET_SLOTS:
            setattr(self, name, spec.slice("ma_" + name).start)


def render_line(data: "MaData", round_no: int, seat_names: Sequence[str] = ("player_0", "player_1")) -> str:
    """The duel's picture: a summary line, the ladder with both fighters, their guard bars, injuries
    and the stage. The summary reads ``  ma: near   guard 7/8 0/5!   points 1-2`` (``!``: an open
    guard); the ladder brackets the rung in play (a rung the stage removes is struck through with
    ``x``) and draws the two fighters as far apart as the ma: ``>--------<`` at far range down to
    ``>X<``, blades crossed, at tsubazeriai."""
    guards = " ".join(f"{g.value}/{g.maximum}{'!' if g.is_open(round_no) else ''}" for g in data.guards)
    summary = f"  ma: {RUNG_NAMES[data.ladder.rung]}   guard {guards}"
    if data.score is not None:
        summary += f"   points {data.score.points[0]}-{data.score.points[1]}"
    rungs = []
    for rung, name in enumerate(RUNG_NAMES):
        if rung < data.ladder.farthest:
            rungs.append(f"x{name}x")
        else:
            rungs.append(f"[{name.upper()}]" if rung == data.ladder.rung else name)
    gap = (Rung.TSUBAZERIAI - data.ladder.rung) * GAP_PER_RUNG
    lines = [summary, "  ladder  " + " - ".join(rungs),
             f"          {seat_names[0]} >{'-' * gap if gap else 'X'}< {seat_names[1]}"]
    for seat, guard in enumerate(data.guards):
        status = []
        if guard.is_open(round_no):
            status.append("OPEN (window)" if guard.window else "OPEN")
        if guard.loss_streak:
            status.append(f"lost {guard.loss_streak} contest{'s' if guard.loss_streak > 1 else ''} in a row")
        injuries = [flag for flag in INJURY_FLAGS if getattr(data.injuries[seat], flag)]
        if injuries:
            status.append("injured: " + ",".join(injuries))
        bar = "#" * guard.value + "." * (guard.maximum - guard.value)
        lines.append(f"  guard   {seat_names[seat]:<10} G[{bar}] {guard.value:>2}/{guard.maximum}  {'  '.join(status)}"
                     .rstrip())
    stage = data.stage.stage
    if stage is not None:
        favoured = f" (side: {seat_names[data.stage.side]})" if data.stage.side is not None else ""
        lines.append(f"  stage   {stage.name}{favoured}")
    return "\n".join(lines)

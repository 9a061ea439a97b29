"""How each observation field is made from game values, as data: the encoders read it and an export writes it out.

An :class:`~issoku.rules.kernel.protocol.ObservationSpec` names the slices of the flat vector; a
:class:`FieldEncoding` per field says what fills its slice, so a game in another language can rebuild the
observation from ``manifest.json`` alone (``docs/opponents.md``): the field's meaning, its slots in order (the
field repeats per slot: ``self``, then allies, then enemies), and per slot its :class:`Part` s in order, each one
game value and the rule that turns it into floats:

- ``scaled``: a number ``x`` becomes ``x / divisor``, clipped to ``[0, 1]`` when ``clip`` (negative counts read 0);
- ``ratio``: a pair ``[x, y]`` becomes ``x / y`` (0 where ``y`` is 0), clipped like ``scaled``;
- ``flag``: a truth value becomes 1.0 or 0.0;
- ``one_hot``: a category name (or none) becomes one 1.0 at its index among ``categories`` (all 0.0 for none).

Values are computed in float64 and rounded to float32 once, as the encoders store them. A position's game values
(``GameState.describe_observation``) map each field name to ``{part name: value}`` per slot (a list for a slotted
field); ``None`` in place of a field's or a slot's values means all zeros (nothing there: no attack incoming, an
empty padded slot). ``examples/exported_opponent.py`` holds the reference reading of these rules, as a port does it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

KINDS = ("scaled", "ratio", "flag", "one_hot")


@dataclass(frozen=True)
class Part:
    """One game value of a field and how it becomes floats (see the module docstring for each ``kind``)."""

    name: str
    kind: str
    meaning: str
    divisor: float = 1.0
    clip: bool = True
    categories: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        if self.kind not in KINDS:
            raise ValueError(f"observation part {self.name!r}: kind {self.kind!r} is not one of {KINDS}")
        if self.kind == "one_hot" and not self.categories:
            raise ValueError(f"observation part {self.name!r}: a one_hot part lists its categories")
        if self.kind == "scaled" and not self.divisor > 0:
            raise ValueError(f"observation part {self.name!r}: divisor must be > 0, not {self.divisor}")

    @property
    def width(self) -> int:
        """How many floats the part fills."""
        return len(self.categories) if self.kind == "one_hot" else 1

    def as_dict(self) -> dict[str, Any]:
        """The part as the manifest writes it (only the keys its kind uses)."""
        row: dict[str, Any] = {"name": self.name, "kind": self.kind, "meaning": self.meaning}
        if self.kind == "scaled":
            row["divisor"] = float(self.divisor)
        if self.kind in ("scaled", "ratio"):
            row["clip"] = [0.0, 1.0] if self.clip else None
        if self.kind == "one_hot":
            row["categories"] = list(self.categories)
        return row


def scaled(name: str, divisor: float, meaning: str, *, clip: bool = True) -> Part:
    """A number divided by ``divisor`` (clipped to [0, 1] unless ``clip`` is False)."""
    return Part(name, "scaled", meaning, divisor=float(divisor), clip=clip)


def ratio(name: str, meaning: str, *, clip: bool = True) -> Part:
    """A pair ``[x, y]`` read as ``x / y`` (0 where ``y`` is 0): a value against a limit of its own fighter."""
    return Part(name, "ratio", meaning, clip=clip)


def flag(name: str, meaning: str) -> Part:
    """A truth value as 1.0 / 0.0."""
    return Part(name, "flag", meaning)


def one_hot(name: str, categories: Sequence[str], meaning: str) -> Part:
    """A category (or none) as one 1.0 among ``len(categories)`` floats, in this order."""
    return Part(name, "one_hot", meaning, categories=tuple(categories))


@dataclass(frozen=True)
class FieldEncoding:
    """What fills one observation field: its meaning and its parts, repeated per slot when ``slots`` is given."""

    meaning: str
    parts: tuple[Part, ...]
    slots: tuple[str, ...] = ()

    @property
    def width(self) -> int:
        """The field's size: the parts' widths, times the slots."""
        return max(1, len(self.slots)) * sum(part.width for part in self.parts)

    def as_dict(self) -> dict[str, Any]:
        """The encoding as the manifest writes it."""
        return {"meaning": self.meaning, "slots": list(self.slots) or None,
                "parts": [part.as_dict() for part in self.parts]}


def field(meaning: str, *parts: Part, slots: Sequence[str] = ()) -> FieldEncoding:
    """A field of ``parts`` (in order), once or per slot of ``slots``."""
    return FieldEncoding(meaning, tuple(parts), tuple(slots))


def per_slot(part: Part, meaning: str, slots: Sequence[str]) -> FieldEncoding:
    """A field that holds one part per slot (per fighter, ego first)."""
    return FieldEncoding(meaning, (part,), tuple(slots))


def ego_slot_names(num_slots: int, ally_slots: int) -> tuple[str, ...]:
    """Slot labels of a per-fighter field: ``self``, ``ally_1``..., then ``enemy_0``... (ego order)."""
    return ("self", *(f"ally_{k}" for k in range(1, ally_slots + 1)),
            *(f"enemy_{k}" for k in range(num_slots - 1 - ally_slots)))


def decision_and_turn(decision_kinds: Sequence[str], first: str) -> tuple[FieldEncoding, FieldEncoding]:
    """A duel's ``decision`` field (the kind of decision asked of the observer, none while it is the opponent's) and
    ``turn`` field (it is the observer's turn; ``first``: what acting first means in this system)."""
    return (field("the decision asked of the observer (none while it is the opponent's)",
                  one_hot("decision", decision_kinds, "the kind of decision")),
            field("whose turn", flag("my_turn", "it is the observer's turn"), flag("first", first)))

"""The fields a designer's variant edited: the first suspects of ``issoku autobalance``.

A designer runs autobalance on a variant they just edited. As a bisect blames the most recent changes
first, the smallest patch that puts the balance back is most likely part of that edit undone: the
search's first stage (``edits``) walks only these fields, each back toward (and at most to) the value it
has in the rules the variant was made from. The variant folder alone says which fields those are:
every number whose value differs from the shipped data's (:func:`edited_fields`), a number the shipped
file leaves out compared at its schema value (a technique's ``check_bonus`` 0, a tempo action's AP: its
weapon's ``ap``), so walking it back to that value removes the edit's effect.
"""

from __future__ import annotations

from dataclasses import dataclass

from issoku.rules.variant import NumericField, Variant, numeric_fields


@dataclass(frozen=True)
class EditedField:
    """One number the variant edited: its ``file`` under ``rules/``, its ``address`` in the parsed file, and
    ``shipped``: its value in the rules the variant was made from (the schema's where that file leaves it out)."""

    file: str
    address: tuple[str | int, ...]
    shipped: int | float

    def describe(self) -> str:
        """``file: a.b.c (shipped value)`` for the report."""
        return f"{self.file}: {'.'.join(map(str, self.address))} (shipped {self.shipped})"


def edited_fields(variant: Variant, base: Variant | None = None) -> list[EditedField]:
    """Every number ``variant`` sets differently from ``base`` (default the shipped data), in file order.
    A number with no counterpart in ``base`` (an item the variant added) has no value to go back to: left out;
    so are edits that are not numbers (a renamed weapon, a whitelist)."""
    base = base or Variant()
    found = []
    for relative in sorted(set(variant.files) | set(base.files)):
        before = {number.address: number.value for number in numeric_fields(relative, base, defaults=True)}
        for number in numeric_fields(relative, variant, defaults=True):
            if number.address in before and before[number.address] != number.value:
                found.append(EditedField(relative, number.address, before[number.address]))
    return found


@dataclass(frozen=True)
class Edited:
    """The edited fields as a stage's content: :meth:`owns` keeps the numbers among them."""

    fields: tuple[EditedField, ...]

    def owns(self, number: NumericField) -> bool:
        """Whether ``number`` is one of the edited fields."""
        return any(number.file == edited.file and number.address == edited.address for edited in self.fields)

    def describe(self) -> str:
        """The fields with their shipped values (for the report)."""
        return "; ".join(edited.describe() for edited in self.fields)


__all__ = ["Edited", "EditedField", "edited_fields"]

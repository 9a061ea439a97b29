"""Which rules data a loadout owns: the locality prior of ``issoku autobalance``.

A designer fixing a loadout that misses its target edits that loadout's own content first (its fighter's
sheet, its weapon's techniques, the armour and stances it uses) before touching every other fighter. What
a loadout *owns* is read from the data alone, the same way for every ruleset:

* the **seeds** are the strings the loadout's env keywords give the seat that fields it (a list keyword
  with one entry per seat: ``fighters = ["ronin", "kenshi"]`` gives the ``nodachi`` seat ``"ronin"``);
* an **item** is an entry of a data file's top-level table (``[fighters.spearman]``: ``spearman``) or
  array (``[[weapon]] key = "nodachi"``: ``nodachi``);
* the loadout owns the items its seeds name (its **sheet**: the ``ronin`` archetype) and the items of the
  same ruleset (the same folder under ``rules/``) that a string of its sheet names (the ``ashigaru`` names
  ``weapon = "yari"``, ``armor = "medium"``, ``stances = ["spear_wall"]``): one hop, no further, because an
  item's own references point every way (a stance's weapon whitelist names four weapons; none of them is
  what a fighter of that stance carries).

A number is owned when it sits inside an owned item. Shared content (an armour several fighters wear) is
owned by each of them; a table no sheet names (the common maneuver costs) is owned by none.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from issoku.evaluation.games.tournament import Loadout
from issoku.rules.kernel.content import read_toml
from issoku.rules.variant import NumericField, Variant


@dataclass(frozen=True)
class Item:
    """One entry of a data file: its ``file`` under ``rules/``, its ``address`` (table key and entry name or
    array index, as :class:`~issoku.rules.variant.NumericField` addresses it), its name, its raw value."""

    file: str
    address: tuple[str | int, ...]
    name: str
    raw: Any


def items(variant: Variant, files: Iterable[str]) -> list[Item]:
    """Every top-level entry of ``files`` as ``variant`` sets them."""
    found = []
    for relative in files:
        for table, value in read_toml(variant.path(relative)).items():
            if isinstance(value, dict):
                found += [Item(relative, (table, name), name, inner) for name, inner in value.items()
                          if isinstance(inner, dict)]
            elif isinstance(value, list):
                found += [Item(relative, (table, index), str(entry.get("key", index)), entry)
                          for index, entry in enumerate(value) if isinstance(entry, dict)]
    return found


def strings(value: Any) -> Iterator[str]:
    """Every string value inside ``value`` (dict keys are field names, not references: left out)."""
    if isinstance(value, str):
        yield value
    elif isinstance(value, dict):
        for inner in value.values():
            yield from strings(inner)
    elif isinstance(value, (list, tuple)):
        for inner in value:
            yield from strings(inner)


def seat_seeds(loadouts: Sequence[Loadout], label: str) -> set[str]:
    """The strings the env keywords give every seat labelled ``label`` (its fighter's name)."""
    seeds: set[str] = set()
    for loadout in loadouts:
        for seat, seat_label in enumerate(loadout.seat_labels):
            if seat_label != label:
                continue
            for value in loadout.kwargs.values():
                if isinstance(value, (list, tuple)) and len(value) == len(loadout.seat_labels):
                    seeds.update(strings(value[seat]))
    return seeds


@dataclass(frozen=True)
class Ownership:
    """The items the ``labels`` loadouts reach, and the predicate :meth:`owns` on a number."""

    labels: tuple[str, ...]
    reached: tuple[Item, ...]

    def owns(self, number: NumericField) -> bool:
        """Whether ``number`` sits inside an item one of the loadouts reaches."""
        return any(number.file == item.file and number.address[:len(item.address)] == item.address
                   for item in self.reached)

    def describe(self) -> str:
        """The reached items as ``file: name, ...`` (for the report)."""
        by_file: dict[str, list[str]] = {}
        for item in self.reached:
            by_file.setdefault(item.file, []).append(item.name)
        return "; ".join(f"{file}: {', '.join(names)}" for file, names in sorted(by_file.items()))


def ownership(loadouts: Sequence[Loadout], labels: Sequence[str], variant: Variant,
              files: Iterable[str]) -> Ownership:
    """What the loadouts labelled ``labels`` own among the items of ``files`` (see the module docstring)."""
    every = items(variant, files)
    seeds = set().union(*(seat_seeds(loadouts, label) for label in labels))
    sheets = [item for item in every if item.name in seeds]
    systems = {item.file.split("/")[0] for item in sheets}
    named = {text for item in sheets for text in strings(item.raw)}
    reached = sheets + [item for item in every if item.name in named and item not in sheets
                        and item.file.split("/")[0] in systems]
    return Ownership(tuple(labels), tuple(sorted(reached, key=lambda item: (item.file, str(item.address)))))


__all__ = ["Item", "Ownership", "items", "ownership", "seat_seeds", "strings"]

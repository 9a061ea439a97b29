"""Values out of line with their peers: where a mistyped number of the rules data likely sits, without a diff.

A designer who typed ``cost = 20`` for ``2`` has no variant to diff against: the shipped data *is* the edit. What
gives the mistype away is its peers: the same field of every other entry of the same kind (every technique's
``cost``, every weapon's damage dice, every armour's ``rating``). Each number a data file sets
(:func:`issoku.rules.variant.numeric_fields`, dice pools as their rolled and kept halves) is put in its **peer
group**: the same file and the same path with the entry names and array positions left out
(``weapon.*.technique.*.cost``). A field's own keys stay (``skills.swordsmanship`` is compared with other
archetypes' swordsmanship only), so every group holds one field of one content type.

Each number is scored by its **robust z-score** against its group (Iglewicz and Hoaglin's modified z:
``0.6745 (x − median) / MAD``; where more than half the group shares one value, so that the MAD is 0,
``(x − median) / (1.2533 · mean absolute deviation)``, their fallback). Median and MAD are what a single wild
value cannot move, unlike a mean and a standard deviation. Groups of fewer than :data:`MIN_PEERS` numbers are not
scored: there is no "usual" to be out of line with. Ties in z are broken by the relative size of the gap
(``|x − median| / max(|median|, 1)``): a 20 among 2s before a 3 among 2s.

The table is a pointer for a human, not a verdict: a deliberately expensive technique is out of line too. It is
printed by ``issoku levers`` and ``issoku autobalance`` (and written into ``levers.md``), so a likely mistype is the
first thing read, beside the levers that play.
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from issoku.rules.kernel.content import read_toml
from issoku.rules.variant import NumericField, Variant, numeric_fields

MIN_PEERS = 5
"""The smallest peer group that is scored."""
TOP = 5
"""Rows the commands print."""
WILDCARD = "*"


@dataclass(frozen=True)
class Outlier:
    """One number against its peer group: ``z`` its robust z-score, ``gap`` its relative distance from the median."""

    number: NumericField
    name: str
    """The number as a designer finds it: ``breath/data/weapons.toml: nodachi / parry: cost``."""
    group: str
    """The peer group's path (``weapon.*.technique.*.cost``)."""
    peers: int
    median: float
    z: float
    gap: float

    def text(self) -> str:
        """``breath/data/weapons.toml: nodachi / parry: cost 20 (its 31 peers' median 2; robust z +41.2)``."""
        return (f"{self.name} {_shown(self.number.value)} (its {self.peers - 1} peers' median {_shown(self.median)}; "
                f"robust z {self.z:+.1f})")


def _shown(value: float) -> str:
    return f"{value:g}"


def named(raw: Any, number: NumericField) -> tuple[str, list[str]]:
    """The number's name as the variant report's diff names an edit (``nodachi / parry: cost``; a dice pool's half:
    ``ono: damage (kept dice)``) and its peer group's path: the address with every entry name and array position
    replaced by :data:`WILDCARD`."""
    path: list[str] = []
    pattern: list[str] = []
    inner = raw
    for step in number.address:
        entry = isinstance(inner, list) or (isinstance(inner, dict) and len(inner) > 1
                                              and all(isinstance(v, dict) for v in inner.values()))
        pattern.append(WILDCARD if entry else str(step))
        if isinstance(inner, list):
            inner = inner[int(step)]
            if isinstance(inner, dict) and path:  # an array of tables: the entry's key stands for the array's name
                path[-1] = str(inner.get("key", step))
            else:
                path.append(str(step))
        else:
            path.append(str(step))
            inner = inner.get(step) if isinstance(inner, dict) else None
    if isinstance(raw.get(number.address[0]), dict):
        path = path[1:]  # a top-level table ([weapons.ono]) is what the file is about, as in the diff
    if number.pool_part:
        path = [*path[:-2], f"{path[-2]} ({number.pool_part} dice)"]
    item, field = " / ".join(path[:-1]), path[-1]
    return f"{number.file}: {item}{': ' if item else ''}{field}", pattern


def field_name(raw: Any, number: NumericField) -> str:
    """The number's name as the variant report's diff names an edit (``breath/data/weapons.toml: nodachi / parry:
    cost``); ``raw``: its parsed file."""
    return named(raw, number)[0]


def robust_z(values: Sequence[float]) -> list[float]:
    """Each value's modified z-score against all of them (see the module docstring; 0 for a group all equal)."""
    median = statistics.median(values)
    deviations = [abs(v - median) for v in values]
    mad = statistics.median(deviations)
    if mad > 0:
        return [0.6745 * (v - median) / mad for v in values]
    mean_ad = sum(deviations) / len(values)
    return [(v - median) / (1.253314 * mean_ad) if mean_ad > 0 else 0.0 for v in values]


def out_of_line(files: Sequence[str], variant: Variant | None = None, least: int = MIN_PEERS) -> list[Outlier]:
    """Every number of ``files`` (as ``variant`` sets them, default the shipped data) scored against its peer group
    of at least ``least`` numbers, the most out of line first (biggest ``|z|``, then gap, then name)."""
    variant = variant or Variant()
    groups: dict[tuple[str, tuple[str, ...]], list[tuple[NumericField, str]]] = {}
    for relative in files:
        raw = read_toml(variant.path(relative))
        for number in numeric_fields(relative, variant):
            label, pattern = named(raw, number)
            groups.setdefault((relative, tuple(pattern)), []).append((number, label))
    found = []
    for (relative, group), members in groups.items():
        if len(members) < least:
            continue
        values = [float(number.value) for number, _ in members]
        median = statistics.median(values)
        for (number, label), z in zip(members, robust_z(values)):
            gap = abs(number.value - median) / max(abs(median), 1.0)
            found.append(Outlier(number, label, ".".join(group), len(members), median, z, gap))
    return sorted(found, key=lambda o: (-abs(o.z), -o.gap, o.name))


def peers_lines(outliers: Sequence[Outlier], top: int = TOP) -> list[str]:
    """The top ``top`` out-of-line values as lines (none when every number sits with its peers)."""
    shown = [o for o in outliers if o.z][:top]
    return [o.text() for o in shown]


def peers_section(outliers: Sequence[Outlier], top: int = 10) -> list[str]:
    """The Markdown section of ``levers.md`` and ``autobalance.md``: the top ``top`` rows as a table."""
    shown = [o for o in outliers if o.z][:top]
    lines = ["", "## Values out of line with their peers", "",
             f"Each number against the same field of every other entry of its kind (groups of at least {MIN_PEERS}; "
             "robust z-score: median and MAD, docs/balance.md). A likely mistype sits at the top; a deliberate "
             "outlier does too, so read it as a pointer.", ""]
    if not shown:
        return lines + ["Every number sits with its peers.", ""]
    lines += ["| value | its peers' median | peers | robust z | peer group |", "|---|---|---|---|---|"]
    lines += [f"| `{o.name} {_shown(o.number.value)}` | {_shown(o.median)} | {o.peers - 1} | {o.z:+.1f} | "
              f"`{o.group}` |" for o in shown]
    return lines + [""]


__all__ = ["MIN_PEERS", "Outlier", "TOP", "field_name", "named", "out_of_line", "peers_lines", "peers_section", "robust_z"]

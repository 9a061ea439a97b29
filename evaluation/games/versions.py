"""Rules versions in one match store: never pooled silently.

Two versions of the rules played into one store must not melt into one rating with falsely narrow
intervals. A record's rules version is the data its env loaded: the shipped data, or what its loadout's
``variant`` / ``data`` / ``terrain`` keywords named (:mod:`issoku.rules.variant`). The report gives
each version its own section (:func:`split_versions`); pooling them is an explicit option, stated in
the headlines. Data edited *in place* (the shipped files changed between runs into the same store)
leaves no keyword behind, but it leaves twins: the same scheduled game (loadout, keywords, policies,
seed) stored under two rules fingerprints. :func:`in_place_twins` counts them and the headlines warn.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from issoku.evaluation.games.records import DATA_KEYWORDS, MatchRecord, canonical_json

SHIPPED = ""
"""The version of games played on the shipped data."""


def rules_version(record: MatchRecord) -> str:
    """The data a record's env loaded: ``""`` for the shipped data, else e.g. ``variant=nodachi_parry``."""
    chosen = {key: record.loadout_kwargs[key] for key in DATA_KEYWORDS if record.loadout_kwargs.get(key) is not None}
    return ", ".join(f"{key}={_short(value)}" for key, value in sorted(chosen.items()))


def _short(value: object) -> str:
    values = value if isinstance(value, (list, tuple)) else [value]
    return "+".join(Path(str(v)).name for v in values)


def in_place_twins(records: Iterable[MatchRecord]) -> int:
    """How many scheduled games were stored under more than one rules fingerprint (data edited in place)."""
    fingerprints: dict[tuple, set[str]] = defaultdict(set)
    for record in records:
        identity = (record.loadout, canonical_json(dict(record.loadout_kwargs)), record.policies, record.seed)
        fingerprints[identity].add(record.rules_fingerprint)
    return sum(1 for found in fingerprints.values() if len(found) > 1)


@dataclass(frozen=True)
class VersionGroup:
    """The records of one rules version of one env (or of all, pooled), with what the headlines must say."""

    env_id: str
    version: str
    records: list[MatchRecord]
    warnings: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        """The env id, with the version when it is not the shipped data (file-name safe)."""
        return self.env_id if not self.version else f"{self.env_id}@{re.sub(r'[^A-Za-z0-9_.+=-]', '_', self.version)}"


def split_versions(env_id: str, records: Iterable[MatchRecord], pool: bool = False) -> list[VersionGroup]:
    """One group per rules version (shipped first), or one pooled group that says it pools."""
    by_version: dict[str, list[MatchRecord]] = defaultdict(list)
    for record in records:
        by_version[rules_version(record)].append(record)
    if pool and len(by_version) > 1:
        pooled = [r for version in sorted(by_version) for r in by_version[version]]
        named = ", ".join(version or "shipped" for version in sorted(by_version))
        groups = [VersionGroup(env_id, SHIPPED, pooled,
                               [f"{env_id}: {len(by_version)} rules versions POOLED on request ({named})."])]
    else:
        groups = [VersionGroup(env_id, version, by_version[version]) for version in sorted(by_version)]
    for group in groups:
        twins = in_place_twins(group.records)
        if twins:
            group.warnings.append(f"{group.label}: WARNING {twins} scheduled games were stored under more than one "
                                  "rules fingerprint (the data changed in place) and are pooled here; "
                                  "compare versions with --variant, or use a fresh --db.")
    return groups


__all__ = ["DATA_KEYWORDS", "SHIPPED", "VersionGroup", "in_place_twins", "rules_version", "split_versions"]

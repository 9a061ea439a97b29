"""Options of a Ma and Blade duel: how it began, what is at stake, the stage, the optional rules."""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from enum import Enum

from mypy_extensions import mypyc_attr

from issoku.rules.ma.ladder import DuelKind


class DuelMode(Enum):
    """What is at stake (MA-047, MA-048)."""

    SHINKEN_SHOBU = "shinken_shobu"
    """Real blades: Wounds and location injuries persist (MA-047)."""
    SPARRING = "sparring"
    """A match: valid strikes score points, the body stays unharmed (MA-048, MA-G14)."""


@mypyc_attr(native_class=False)  # a Python class when compiled: callers read its defaults as class attributes
@dataclass(frozen=True)
class MaDuelConfig:
    """The duel's own options; the fighters and the round limit are the breath engine's ``BreathConfig``."""

    kind: DuelKind = DuelKind.IKKIUCHI
    """Ikkiuchi starts at issoku itto, hatashiai at far range (MA-008, MA-009, MA-G22)."""
    mode: DuelMode = DuelMode.SHINKEN_SHOBU
    """Real blades or a sparring match."""
    hit_locations: bool = True
    """Offer hit-location attacks (MA-040; opt-in, on by default in shinken shobu). Never in sparring (MA-A05)."""
    stage: str | None = None
    """A terrain stage from ``terrain.toml`` (MA-049), or None for a bare duel."""
    stage_side: int | None = None
    """The seat a sided stage favours or blinds (high ground's upper side, the side facing the sunset);
    None draws it from the seed (MA-G21)."""
    step_in_edge: bool = False
    """+1 on a step-in cut whose half-step began at issoku itto (MA-016, MA-G05: off by default)."""
    long_weapon_opening: bool = False
    """The GM's "opening to swing": long swords and yari attack at −2 in close fighting instead of not at all (MA-024)."""

    @property
    def locations_offered(self) -> bool:
        """Whether location attacks exist in this duel at all."""
        return self.hit_locations and self.mode is DuelMode.SHINKEN_SHOBU

    def digest(self) -> str:
        """A short hash of the options, for the ruleset fingerprint."""
        blob = json.dumps(asdict(self), sort_keys=True, default=lambda value: value.value)
        return hashlib.sha256(blob.encode()).hexdigest()[:12]

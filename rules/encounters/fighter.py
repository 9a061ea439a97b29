"""One character in an encounter: the sheet it fights with and everything that changes during the fight.

The sheet (:class:`~issoku.rules.encounters.content.Archetype`) never changes; a :class:`Combatant`
holds the Wounds, initiative, stance, actions left this turn, Void Points, weapon in hand and statuses.
"""

from __future__ import annotations

from mypy_extensions import mypyc_attr

from issoku.rules.encounters import wounds as w
from issoku.rules.encounters.combat import WATER, Defence, stance_atn_bonus, stance_atn_malus, DEFLECT_BONUS
from issoku.rules.encounters.content import Archetype, Weapon

READY, HELD, GROUND = "ready", "held", "ground"
"""Where the character's own weapon is: readied in hand, held but not readied, or on the ground (EN-G13)."""
SIMPLE_ACTIONS_PER_TURN = 2   # EN-010


@mypyc_attr(allow_interpreted_subclasses=True)  # compiled: __new__ (clone) skips __init__, a call runs it
class Combatant:
    """The changing state of one character (see the module docstring)."""

    __slots__ = ("sheet", "ranks", "rings", "_rank_at", "unarmed", "wounds", "initiative", "tie_seq", "stance",
                 "began_in_void", "void_bonus_used", "void_points", "void_spent", "boost_armed", "simple_actions",
                 "free_used", "small_readies", "moved", "earth_bonus", "deflect", "prone", "maintain", "weapon_state",
                 "extra_attack_done", "stun_tn", "disarm_free_raise", "tactics_armed", "_atn_memo")

    def __init__(self, sheet: Archetype, unarmed: Weapon, atn_memo: dict | None = None) -> None:
        """``atn_memo``: a dict for :meth:`atn` to keep its results in, shared by every fight of this sheet
        (the ruleset keeps one per seat); a fresh one if none."""
        self.sheet = sheet
        self._atn_memo: dict[tuple, int] = {} if atn_memo is None else atn_memo
        self.ranks = w.thresholds(sheet.ring("earth"), sheet.mook)
        self.rings = {name: sheet.ring(name) for name in ("earth", "water", "fire", "air", "void")}
        healthy = w.rank(0, self.ranks)
        # (wounds, rank, able to act): read often (every legal-action scan asks who can act), changes rarely
        self._rank_at: tuple[int, w.Rank, bool] = (0, healthy, w.can_act(healthy))
        self.unarmed = unarmed
        self.wounds = 0
        self.initiative = 0
        self.tie_seq = 0
        self.stance = WATER
        self.began_in_void = False
        self.void_bonus_used = False
        self.void_points = sheet.void                       # EN-G07: the Void Ring, none recovered
        self.void_spent: set[str] = set()                   # EN-105: each effect once per round
        self.boost_armed = False
        self.simple_actions = 0
        self.free_used: set[str] = set()                    # EN-013: each Free Action once per turn
        self.small_readies = 0                              # EN-020: twice per turn
        self.moved = 0                                      # squares moved this round (EN-104)
        self.earth_bonus = 0                                # EN-062, until the next turn
        self.deflect = False                                # EN-108, until the end of the round
        self.prone = False                                  # EN-121
        self.maintain = False                               # EN-097
        self.weapon_state = READY
        self.extra_attack_done = False                      # EN-076: once per turn
        self.stun_tn: int | None = None                     # EN-113: the TN to shake Stun off; None: not stunned
        self.disarm_free_raise = 0                          # EN-091: own turn ends it still lasts (0: none)
        self.tactics_armed = False                          # EN-G09: a Free Raise from the pool for the next attack

    def clone(self) -> "Combatant":
        """An independent copy."""
        copy = Combatant.__new__(Combatant)
        # Field by field (compiled code copies these at C speed; a class compiled keeps no __slots__ to loop
        # over): the sheet-derived ones are shared, the two sets copied.
        copy.sheet = self.sheet
        copy.ranks = self.ranks
        copy.rings = self.rings
        copy._rank_at = self._rank_at
        copy.unarmed = self.unarmed
        copy.wounds = self.wounds
        copy.initiative = self.initiative
        copy.tie_seq = self.tie_seq
        copy.stance = self.stance
        copy.began_in_void = self.began_in_void
        copy.void_bonus_used = self.void_bonus_used
        copy.void_points = self.void_points
        copy.void_spent = set(self.void_spent)
        copy.boost_armed = self.boost_armed
        copy.simple_actions = self.simple_actions
        copy.free_used = set(self.free_used)
        copy.small_readies = self.small_readies
        copy.moved = self.moved
        copy.earth_bonus = self.earth_bonus
        copy.deflect = self.deflect
        copy.prone = self.prone
        copy.maintain = self.maintain
        copy.weapon_state = self.weapon_state
        copy.extra_attack_done = self.extra_attack_done
        copy.stun_tn = self.stun_tn
        copy.disarm_free_raise = self.disarm_free_raise
        copy.tactics_armed = self.tactics_armed
        copy._atn_memo = self._atn_memo
        return copy

    # -- derived numbers ----------------------------------------------------------------------------

    def trait(self, name: str) -> int:
        """A trait's value."""
        return self.sheet.traits[name]

    def ring(self, name: str) -> int:
        """A ring's value (EN-G05)."""
        return self.rings[name]

    @property
    def weapon(self) -> Weapon:
        """The weapon attacks use: the character's own when readied, bare hands otherwise."""
        return self.sheet.weapon if self.weapon_state == READY else self.unarmed

    @property
    def free_hand(self) -> bool:
        """EN-G13: a [Large] weapon in hand takes both hands; anything else leaves one free."""
        return self.weapon_state == GROUND or self.sheet.weapon.hands < 2

    def rank(self) -> w.Rank:
        """The current wound rank (EN-043)."""
        wounds, current, _ = self._rank_at
        if wounds != self.wounds:
            current = w.rank(self.wounds, self.ranks)
            self._rank_at = (self.wounds, current, w.can_act(current))
        return current

    def wound_penalty(self) -> int:
        """EN-043: the malus on every test and contest (none once Out or Dead: they act no more)."""
        return w.penalty(self.rank())

    def can_act(self) -> bool:
        """EN-052 / EN-053: not Out, not Dead (``w.can_act`` of :meth:`rank`, kept beside it)."""
        wounds, _, able = self._rank_at
        if wounds != self.wounds:
            self.rank()
            able = self._rank_at[2]
        return able

    def defence(self, grappled: bool) -> Defence:
        """The parts of this character's ATN now (EN-067..EN-073)."""
        return Defence(
            reflexes=self.trait("reflexes"), armour=self.sheet.armour.bonus,
            stance=stance_atn_bonus(self.stance, self.ring("air"), self.sheet.skill("defense"), self.earth_bonus),
            unignorable=DEFLECT_BONUS if self.deflect else 0, maluses=stance_atn_malus(self.stance),
            grappled=grappled, prone=self.prone)

    def atn(self, grappled: bool, melee: bool = True, ignore_armour: bool = False) -> int:
        """The Armor Target Number now: :meth:`defence`'s (EN-067), memoised on everything it reads that
        changes during a fight (the sheet's numbers never do)."""
        key = (self.stance, self.earth_bonus, self.deflect, self.prone, grappled, melee, ignore_armour)
        value = self._atn_memo.get(key)
        if value is None:
            value = self._atn_memo[key] = self.defence(grappled).atn(melee, ignore_armour)
        return value

    def move_cap(self) -> int:
        """EN-104: 20 × Water ft a round, in 5-ft squares."""
        return 4 * self.ring("water")

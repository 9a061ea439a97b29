"""The spell lists and the dans of seed 004, by name and number: what the content files are validated against
and what the character-build rules (:mod:`issoku.rules.spells.build`) count with, so both import them from here."""

LISTS = ("sorcery", "exorcism", "barrier", "prophecy")
"""The four spell lists, each opened by the skill of the same name at Licensed (SP-001, SP-002, SP-003, SP-004,
SP-005)."""
TATSUJIN = 10
"""Tatsujin, the rank past 9-dan, as a number: PC dan 10 and spell dan 10 (SP-015, SP-023, SP-034)."""
SPELL_DANS = (1, 3, 5, 7, 9, TATSUJIN)
"""The dans spells and slots exist at (SP-009; SP-G03: even PC dans use the row below)."""

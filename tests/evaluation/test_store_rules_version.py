"""A match store never passes games of older rules for today's: a ruleset's ``version`` is in its rules fingerprint,
the fingerprint in every match key, so after a bump (the encounter rulesets' version 1: EN-108, EN-113) the same
duels are played again beside the stored ones, not read back."""

import pytest

from issoku.envs import content
from issoku.evaluation.strength.head_to_head import head_to_head
from issoku.evaluation.games.store import MatchStore
from issoku.rules.encounters import EncounterDuel


@pytest.mark.rule("EN-108", "EN-113")
def test_a_version_bump_replays_the_stored_games_instead_of_reusing_them(tmp_path, monkeypatch):
    db = tmp_path / "m.sqlite"
    head_to_head("encounter_heuristic", "random", 4, env="encounter_duel_v0", db=db)
    head_to_head("encounter_heuristic", "random", 4, env="encounter_duel_v0", db=db)  # reused: nothing new
    with MatchStore(db) as store:
        assert store.count() == 4
        (before,) = {record.rules_fingerprint for record in store.records()}
    monkeypatch.setattr(EncounterDuel, "version", EncounterDuel.version + 1)
    content._cached_folder_ruleset.cache_clear()  # a ruleset built before the bump holds the old fingerprint
    head_to_head("encounter_heuristic", "random", 4, env="encounter_duel_v0", db=db)
    content._cached_folder_ruleset.cache_clear()
    with MatchStore(db) as store:
        fingerprints = [record.rules_fingerprint for record in store.records()]
    assert len(fingerprints) == 8 and fingerprints.count(before) == 4

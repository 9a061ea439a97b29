"""The shipped team studies (the tempo skirmish's, the breath skirmish's with casters) load, and each loadout
fields two valid sides."""

from pathlib import Path

import pytest

from issoku.envs import breath_skirmish_v0, tempo_skirmish_v0
from issoku.evaluation.commands import default_studies
from issoku.evaluation.config import load_study

FOLDER = Path(__file__).resolve().parents[2] / "evaluation" / "studies" / "teams"
TEAMS = sorted(FOLDER.glob("tempo_skirmish_v0_*.toml"))


@pytest.mark.parametrize("path", TEAMS, ids=[p.stem for p in TEAMS])
def test_a_team_study_pairs_every_composition_both_ways(path):
    study = load_study(path)
    size = int(path.stem[-1])
    loadouts = study.all_loadouts()
    assert study.env == "tempo_skirmish_v0" and len(loadouts) == 12
    for loadout in loadouts:
        sides = loadout.kwargs["sides"]
        assert [len(side) for side in sides] == [size, size]
        tempo_skirmish_v0.env(sides)        # every fighter exists in the data
    assert path not in default_studies()


def test_both_sizes_ship():
    assert [p.stem for p in TEAMS] == ["tempo_skirmish_v0_2v2", "tempo_skirmish_v0_3v3"]


def test_the_casters_skirmish_study_pairs_every_composition_both_ways():
    path = FOLDER / "breath_skirmish_v0_casters.toml"
    study = load_study(path)
    loadouts = study.all_loadouts()
    assert study.env == "breath_skirmish_v0" and len(loadouts) == 12 and path not in default_studies()
    for loadout in loadouts:
        sides = loadout.kwargs["sides"]
        assert [len(side) for side in sides] == [2, 2]
        breath_skirmish_v0.env(sides)
    assert sorted(p.name for p in FOLDER.glob("*.toml")) == ["breath_skirmish_v0_casters.toml",
                                                             *(p.name for p in TEAMS)]

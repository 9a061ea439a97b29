"""The shipped team studies of the skirmishes (tempo, encounter, and the breath skirmish's with casters) load, and
each loadout fields two valid sides."""

from pathlib import Path

import pytest

from issoku.envs.registry import make_env
from issoku.evaluation.games.studies import default_studies
from issoku.evaluation.games.config import load_study

FOLDER = Path(__file__).resolve().parents[2] / "evaluation" / "studies" / "teams"
TEAMS = sorted(FOLDER.glob("*_[0-9]v[0-9].toml"))


@pytest.mark.parametrize("path", TEAMS, ids=[p.stem for p in TEAMS])
def test_a_team_study_pairs_every_composition_both_ways(path):
    study = load_study(path)
    size = int(path.stem[-1])
    loadouts = study.all_loadouts()
    labels = len(study.loadout_grid.labels)
    assert path.stem.startswith(study.env) and len(loadouts) == labels * (labels - 1)
    for loadout in loadouts:
        sides = loadout.kwargs["sides"]
        assert [len(side) for side in sides] == [size, size]
        make_env(study.env, sides=sides)    # every fighter exists in the data
    assert path not in default_studies()


def test_both_sizes_ship_for_both_skirmishes():
    assert [p.stem for p in TEAMS] == ["encounter_skirmish_v0_2v2", "encounter_skirmish_v0_3v3",
                                       "tempo_skirmish_v0_2v2", "tempo_skirmish_v0_3v3"]


def test_the_casters_skirmish_study_pairs_every_composition_both_ways():
    path = FOLDER / "breath_skirmish_v0_casters.toml"
    study = load_study(path)
    loadouts = study.all_loadouts()
    assert study.env == "breath_skirmish_v0" and len(loadouts) == 12 and path not in default_studies()
    for loadout in loadouts:
        sides = loadout.kwargs["sides"]
        assert [len(side) for side in sides] == [2, 2]
        make_env(study.env, sides=sides)
    assert sorted(p.name for p in FOLDER.glob("*.toml")) == ["breath_skirmish_v0_casters.toml",
                                                             *(p.name for p in TEAMS)]

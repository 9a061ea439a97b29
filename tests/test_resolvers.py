"""One env resolver and one policy resolver for every command: they accept and refuse the same names."""

import pytest

from benchmarks.classic import allow_classic_import
from issoku.agents.registry import make_policy, resolve_policy_factory
from issoku.envs.registry import ImportRefusedError, UnknownNameError, resolve_env
from issoku.evaluation.games.config import StudyConfig, check_study_names
from issoku.evaluation.games.policies import resolve_policy
from issoku.training.make_env import make_aec_env
from issoku.training.opponents import scripted_policy

IMPORT_PATH = "issoku.agents.policy:RandomLegal"


def test_a_pettingzoo_classic_id_resolves_for_training_and_studies_alike():
    allow_classic_import()
    assert make_aec_env("connect_four_v3").metadata["name"] == "connect_four_v3"
    check_study_names(StudyConfig(env="connect_four_v3", policies=("random",)), "study")
    assert resolve_env("connect_four_v3") is resolve_env("connect_four_v3")


def test_an_import_path_resolves_as_a_policy_everywhere_unless_it_comes_from_a_file():
    assert type(make_policy(IMPORT_PATH, seed=0)).__name__ == "RandomLegal"
    assert type(scripted_policy(IMPORT_PATH, seed=0)).__name__ == "RandomLegal"
    assert resolve_policy(IMPORT_PATH).name == "RandomLegal"
    for refused in (lambda: resolve_policy_factory(IMPORT_PATH, allow_imports=False, where="f.toml"),
                    lambda: resolve_policy(IMPORT_PATH, allow_imports=False, where="f.toml"),
                    lambda: resolve_env("os:system", allow_imports=False, where="f.toml")):
        with pytest.raises(ImportRefusedError, match="f.toml: .*--allow-imports"):
            refused()


def test_an_unknown_name_is_unknown_to_every_resolver():
    with pytest.raises(UnknownNameError, match="unknown env id 'nowhere_v0'"):
        resolve_env("nowhere_v0")
    with pytest.raises(UnknownNameError, match="unknown policy 'nobody'"):
        make_policy("nobody")

"""The content keywords (``data``, ``variant``, ``terrain``) mean the same in every env (:mod:`issoku.envs.content`).

Every env and its ``make_ruleset`` take them; a copy of the shipped data is the shipped rules whether given as a
folder or a list; a variant moves the fingerprint of the env whose system it edits and of no other; ``data`` with
``variant`` is refused everywhere (the tempo envs used to accept the pair while the breath and encounter envs
refused it); a bad value is one line naming the env and the keyword.
"""

import importlib
import inspect
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from issoku.common.backend import SHIPPED_KWARGS
from issoku.envs.content import CONTENT_KEYWORDS, ContentOptionError
from issoku.envs.registry import ENV_FACTORIES, make_env
from issoku.evaluation.games.match import rules_fingerprint
from issoku.evaluation.games.records import DATA_KEYWORDS
from issoku.rules.variant import RULES_DIR

VARIANTS = Path(__file__).resolve().parents[1] / "data" / "variants"
SYSTEM = {"breath_duel_v0": "breath", "breath_skirmish_v0": "breath", "tempo_duel_v0": "tempo",
          "tempo_skirmish_v0": "tempo", "encounter_duel_v0": "encounters", "encounter_skirmish_v0": "encounters"}
EDIT = {"breath": "defence_nodachi_parry", "tempo": "armour_tempo_medium", "encounters": "encounter_armour_heavy_bonus"}
"""A variant per rules system that edits an item the env's default fighters carry."""
ENVS = sorted(SYSTEM)


def test_every_registered_env_is_covered_here():
    assert sorted(ENV_FACTORIES) == ENVS


def fingerprint(env_id: str, **kwargs) -> str:
    env = make_env(env_id, **kwargs)
    try:
        return rules_fingerprint(env)
    finally:
        env.close()


@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize("function", ["raw_env", "make_ruleset"])
def test_every_env_and_its_ruleset_factory_take_the_content_keywords_by_name(env_id, function):
    parameters = inspect.signature(getattr(importlib.import_module(f"issoku.envs.{env_id}"), function)).parameters
    for keyword in CONTENT_KEYWORDS:
        assert parameters[keyword].kind is inspect.Parameter.KEYWORD_ONLY, (env_id, function, keyword)
        assert parameters[keyword].default is None, (env_id, function, keyword)


def test_the_store_key_and_the_job_shipping_name_the_same_keywords():
    """Spelt again where importing the envs would cost (reading a store) or break the layers (``common``)."""
    assert DATA_KEYWORDS == SHIPPED_KWARGS == CONTENT_KEYWORDS == ("variant", "data", "terrain")


@pytest.mark.parametrize("env_id", ENVS)
def test_a_copy_of_the_shipped_data_is_the_shipped_rules_as_a_folder_or_a_list(env_id, tmp_path):
    copy = shutil.copytree(RULES_DIR / SYSTEM[env_id] / "data", tmp_path / "data")
    shipped = fingerprint(env_id)
    assert fingerprint(env_id, data=copy) == shipped
    assert fingerprint(env_id, data=[str(copy)]) == shipped


@pytest.mark.parametrize("env_id", ENVS)
def test_a_variant_moves_the_rules_of_its_own_system_only(env_id):
    shipped = fingerprint(env_id)
    for system, variant in EDIT.items():
        moved = fingerprint(env_id, variant=VARIANTS / variant) != shipped
        assert moved is (system == SYSTEM[env_id]), (env_id, variant)


@pytest.mark.parametrize("env_id", ENVS)
def test_data_with_a_variant_is_refused_in_every_env(env_id):
    """The drift this module ends: ``tempo_duel_v0.env(data=…, variant=…)`` was accepted (the variant laid over
    the data folder) while the breath and encounter envs refused the pair."""
    with pytest.raises(ContentOptionError, match=f"^{env_id}: data and variant given together"):
        make_env(env_id, data=RULES_DIR / SYSTEM[env_id] / "data", variant=VARIANTS / EDIT[SYSTEM[env_id]])


@pytest.mark.parametrize("env_id", [env_id for env_id in ENVS if env_id != "breath_duel_v0"])
def test_terrain_is_refused_by_rules_that_read_none(env_id):
    with pytest.raises(ContentOptionError, match=f"^{env_id}: terrain is read by the Ma duel only"):
        make_env(env_id, terrain=RULES_DIR / "ma" / "terrain.toml")


def test_the_ma_duel_reads_a_terrain_but_the_core_breath_fight_does_not():
    terrain = RULES_DIR / "ma" / "terrain.toml"
    assert fingerprint("breath_duel_v0", terrain=terrain) == fingerprint("breath_duel_v0")
    with pytest.raises(ContentOptionError, match="terrain is read by the Ma duel only"):
        make_env("breath_duel_v0", ma=False, terrain=terrain)
    with pytest.raises(ContentOptionError, match="terrain and variant given together"):
        make_env("breath_duel_v0", terrain=terrain, variant=VARIANTS / EDIT["breath"])


@pytest.mark.parametrize("env_id", ENVS)
@pytest.mark.parametrize(("kwargs", "keyword"), [({"data": 3}, "data"), ({"data": []}, "data"),
                                                 ({"variant": 3}, "variant")])
def test_a_bad_content_value_is_one_line_naming_the_env_and_the_keyword(env_id, kwargs, keyword):
    with pytest.raises(ContentOptionError) as error:
        make_env(env_id, **kwargs)
    message = str(error.value)
    assert message.startswith(f"{env_id}: {keyword} must be") and "\n" not in message


@pytest.mark.parametrize("env_id", ["tempo_duel_v0", "tempo_skirmish_v0", "encounter_duel_v0",
                                    "encounter_skirmish_v0"])
def test_rules_read_from_one_folder_refuse_two(env_id, tmp_path):
    folder = str(RULES_DIR / SYSTEM[env_id] / "data")
    with pytest.raises(ContentOptionError, match=f"^{env_id}: data must be one folder holding .*, not 2 paths"):
        make_env(env_id, data=[folder, folder])


@pytest.mark.parametrize("command", ["duel", "tempo-duel", "encounter-duel"])
def test_every_duel_command_takes_data_and_variant_as_the_envs_do(command):
    from issoku.cli import app

    system = {"duel": "breath", "tempo-duel": "tempo", "encounter-duel": "encounters"}[command]
    runner = CliRunner()
    played = runner.invoke(app, [command, "--variant", str(VARIANTS / EDIT[system])])
    assert played.exit_code == 0, played.output
    played = runner.invoke(app, [command, "--data", str(RULES_DIR / system / "data")])
    assert played.exit_code == 0, played.output
    refused = runner.invoke(app, [command, "--data", str(RULES_DIR / system / "data"),
                                  "--variant", str(VARIANTS / EDIT[system])])
    assert refused.exit_code == 2
    assert "data and variant given together" in refused.output and "Traceback" not in refused.output

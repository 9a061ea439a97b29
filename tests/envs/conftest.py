"""Shared fixtures for the env tests: the toy ruleset registered as an env id."""

import pytest

from issoku.envs import registry

TOY_ENV_ID = "toy_race_v1"


@pytest.fixture
def toy_env_id(monkeypatch):
    """``toy_race_v1`` in the env registry for the duration of one test."""
    monkeypatch.setitem(registry.ENV_FACTORIES, TOY_ENV_ID, "toy_ruleset:toy_env")
    return TOY_ENV_ID

"""Shared fixtures for the Ma and Blade tests."""

import pytest

from issoku.rules.kernel.events import EventLog
from issoku.rules.ma.content import default_content
from issoku.rules.ma.guard import GuardTrack


@pytest.fixture
def content():
    """The shipped duel content."""
    return default_content()


@pytest.fixture
def log():
    """A fresh event log."""
    return EventLog()


@pytest.fixture
def guards():
    """Two full guard tracks for Finesse 2, Wits 1: max 7, lull gain 2."""
    return (GuardTrack.for_duelist(2, 1), GuardTrack.for_duelist(2, 1))

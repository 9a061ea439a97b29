"""Golden files: a seeded playthrough's JSON-lines log diffed event by event against a file, digests of
every seat's observation and the legal actions over seeded random fights (for speed work on encoders), and
digests of play tied to the rules fingerprint (a behaviour change must move the fingerprint).

A diff means the rules' behaviour moved. When the move is meant, regenerate with
``ISSOKU_REGENERATE_GOLDEN=1 pytest <the test file>`` and review the diff like code.
"""

import hashlib
import json
import os
import random
from pathlib import Path

from issoku.rules.kernel.events import EventLog


def assert_matches_golden(path: Path, events: EventLog) -> None:
    """Fail at the first event that differs from ``path`` (or rewrite ``path`` when regenerating)."""
    if os.environ.get("ISSOKU_REGENERATE_GOLDEN"):
        path.write_text(events.to_jsonl())
    expected = path.read_text().splitlines()
    actual = events.to_jsonl().splitlines()
    for line, (want, got) in enumerate(zip(expected, actual), start=1):
        assert got == want, f"{path.name}: first difference at event {line}"
    assert len(actual) == len(expected), f"{path.name}: {len(actual)} events, golden has {len(expected)}"



def observation_digest(ruleset, fights: int) -> str:
    """sha256 over every decision of ``fights`` seeded random-legal fights of any kernel ruleset: every seat's
    observation (float32 bytes), then the legal actions."""
    sha = hashlib.sha256()
    rng = random.Random(1)
    seats = range(len(ruleset.seat_names))
    for seed in range(fights):
        state = ruleset.new_initial_state(seed, record_events=False)
        while True:
            for seat in seats:
                sha.update(state.observation(seat).tobytes())
            if state.current_seat() is None:
                break
            legal = state.legal_actions()
            sha.update(repr(legal).encode())
            state.apply(rng.choice(legal))
    return sha.hexdigest()


def assert_digest_matches_golden(path: Path, name: str, got: str) -> None:
    """``got`` equals the digest stored under ``name`` in the JSON file ``path`` (rewritten when regenerating)."""
    golden = json.loads(path.read_text()) if path.exists() else {}
    if os.environ.get("ISSOKU_REGENERATE_GOLDEN"):
        golden[name] = got
        path.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
    assert got == golden[name], f"{name}: observations or legal actions changed"


def play_digest(ruleset, fights: int) -> str:
    """sha256 over ``fights`` seeded random-legal fights of any kernel ruleset: at every decision the seats'
    health, the legal actions and the action taken, then each fight's returns. What the rules decide, without
    the observation's encoding (which the interface fingerprint covers) or the events' wording."""
    sha = hashlib.sha256()
    rng = random.Random(1)
    for seed in range(fights):
        state = ruleset.new_initial_state(seed, record_events=False)
        while state.current_seat() is not None:
            legal = state.legal_actions()
            action = rng.choice(legal)
            sha.update(repr((state.health_fractions(), legal, action)).encode())
            state.apply(action)
        sha.update(repr(state.returns()).encode())
    return sha.hexdigest()


def assert_play_matches_fingerprint(path: Path, name: str, ruleset, fights: int) -> None:
    """Seeded play of ``ruleset`` is what the JSON file ``path`` recorded under its rules fingerprint.

    Stores, reference suites and checkpoints take two rulesets with one fingerprint for the same rules, so play
    that moves under an unchanged fingerprint is refused, even when regenerating: bump the ruleset's
    ``version`` first. A new fingerprint (a version bump, other data) is recorded when regenerating."""
    got = {"rules_fingerprint": ruleset.fingerprint, "fights": fights, "digest": play_digest(ruleset, fights)}
    golden = json.loads(path.read_text()) if path.exists() else {}
    recorded = golden.get(name, {})
    moved_in_place = ({key: recorded.get(key) for key in ("rules_fingerprint", "fights")}
                      == {key: got[key] for key in ("rules_fingerprint", "fights")}
                      and recorded.get("digest") != got["digest"])
    assert not moved_in_place, (
        f"{name}: play changed under the same rules fingerprint {got['rules_fingerprint']}, so stored games, "
        f"reference suites and checkpoints of the old behaviour would pass for today's: bump "
        f"{type(ruleset).__name__}.version, then regenerate (ISSOKU_REGENERATE_GOLDEN=1)")
    if os.environ.get("ISSOKU_REGENERATE_GOLDEN"):
        golden[name] = got
        path.write_text(json.dumps(golden, indent=2, sort_keys=True) + "\n")
        recorded = got
    assert recorded == got, (f"{name}: recorded {recorded.get('fights')} fights under rules fingerprint "
                             f"{recorded.get('rules_fingerprint')}, this is {fights} under {got['rules_fingerprint']}; "
                             "regenerate with ISSOKU_REGENERATE_GOLDEN=1 and review")

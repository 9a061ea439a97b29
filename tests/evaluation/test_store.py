import sqlite3

import pytest

from issoku.evaluation.games.records import winner_of
from issoku.evaluation.games.store import MatchStore

from .factories import make_record


def test_round_trip_keeps_every_field(tmp_path):
    record = make_record(("alpha", "beta"), (1.0, -1.0), seed=7, labels=("katana", "yari"),
                         actions=(("attack:thrust", "end"), ("reserve:parry",)), first_seat=1, truncated=False)
    with MatchStore(tmp_path / "m.sqlite") as store:
        assert store.insert([record]) == 1
        assert list(store.records()) == [record]


def test_inserting_a_stored_key_again_adds_nothing(tmp_path):
    records = [make_record(("a", "b"), (1.0, -1.0), seed=s) for s in range(5)]
    with MatchStore(tmp_path / "m.sqlite") as store:
        assert store.insert(records[:3]) == 3
        assert store.insert(records) == 2
        assert store.count() == 5
        assert store.keys() == {r.key for r in records}
        rows = store._db.execute("SELECT COUNT(*) FROM seats").fetchone()[0]
    assert rows == 10


def test_a_failed_batch_leaves_nothing_behind(tmp_path):
    good = make_record(("a", "b"), (1.0, -1.0), seed=1)
    broken = make_record(("a", "b"), (1.0, -1.0), seed=2)
    object.__setattr__(broken, "actions", (("x",),))  # one seat's actions missing: the seat insert fails
    with MatchStore(tmp_path / "m.sqlite") as store:
        with pytest.raises(IndexError):
            store.insert([good, broken])
        assert store.count() == 0


def test_records_survive_reopening_and_filter_by_env_loadout_and_policies(tmp_path):
    path = tmp_path / "m.sqlite"
    with MatchStore(path) as store:
        store.insert([make_record(("a", "b"), (1.0, -1.0), loadout="x"),
                      make_record(("a", "c"), (0.0, 0.0), loadout="y"),
                      make_record(("a", "b"), (0.0, 0.0), env_id="other_v0")])
    with MatchStore(path) as store:
        assert store.count() == 3
        assert store.env_ids() == ["other_v0", "toy_v0"]
        assert [r.loadout for r in store.records(env_id="toy_v0", loadouts=["y"])] == ["y"]
        assert {r.policies for r in store.records(policies=["a", "b"])} == {("a", "b")}
        assert len(list(store.records(policies=["a", "b", "c"]))) == 3


def test_the_file_is_plain_sqlite_in_wal_mode(tmp_path):
    path = tmp_path / "m.sqlite"
    with MatchStore(path) as store:
        store.insert([make_record(("a", "b"), (1.0, -1.0))])
    db = sqlite3.connect(path)
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("SELECT policy FROM seats ORDER BY seat").fetchall() == [("a",), ("b",)]


def test_winner_is_the_strict_best_return_or_none_for_a_draw():
    assert winner_of((1.0, -1.0)) == 0
    assert winner_of((-1.0, 1.0)) == 1
    assert winner_of((0.0, 0.0)) is None


def test_a_record_built_without_seat_labels_is_stored_as_unlabelled(tmp_path):
    """A record made through the API with no ``seat_labels`` is stored with empty labels (read back as
    unlabelled), not refused with an IndexError halfway through the batch."""
    from dataclasses import replace
    unlabelled = replace(make_record(("a", "b"), (1.0, -1.0), seed=3, labels=("katana", "yari")), seat_labels=())
    with MatchStore(tmp_path / "m.sqlite") as store:
        assert store.insert([unlabelled]) == 1
        [stored] = store.records()
    assert [stored.label(seat) for seat in range(2)] == ["", ""]
    assert stored.winner == unlabelled.winner and stored.key == unlabelled.key

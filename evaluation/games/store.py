"""An embedded SQLite file holding every match a tournament played.

Why SQLite: one file a designer can copy, query with any SQL tool, and append to from an interrupted
run. Inserts are idempotent, keyed by :func:`~issoku.evaluation.games.records.match_key`, and each batch is
one transaction, so a tournament killed at any point leaves only whole matches behind, and rerunning
it stores each missing match exactly once. WAL journaling keeps readers (a report) from blocking the
writer (a tournament still running).

Tables: ``matches`` (one row per game) and ``seats`` (one row per seat of a game: agent, policy,
loadout label, return, and the action names and decision kinds of its decisions as JSON), and
``artifacts``: other computed results a report needs (a combo table), as JSON keyed by a digest of
everything they depend on, so a rerun or a report-only run reuses them.
"""

from __future__ import annotations

import fcntl
import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from pathlib import Path
from typing import IO

from issoku.evaluation.games.records import MatchRecord, canonical_json, canonical_order

SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    key TEXT PRIMARY KEY,
    env_id TEXT NOT NULL,
    rules_fingerprint TEXT NOT NULL,
    loadout TEXT NOT NULL,
    loadout_kwargs TEXT NOT NULL,
    seed INTEGER NOT NULL,
    winner INTEGER,
    first_seat INTEGER,
    length INTEGER NOT NULL,
    truncated INTEGER NOT NULL,
    stored_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE TABLE IF NOT EXISTS seats (
    match_key TEXT NOT NULL REFERENCES matches(key),
    seat INTEGER NOT NULL,
    agent TEXT NOT NULL,
    policy TEXT NOT NULL,
    label TEXT NOT NULL,
    return REAL NOT NULL,
    actions TEXT NOT NULL,
    kinds TEXT NOT NULL,
    PRIMARY KEY (match_key, seat)
);
CREATE TABLE IF NOT EXISTS artifacts (
    key TEXT PRIMARY KEY,
    env_id TEXT NOT NULL,
    kind TEXT NOT NULL,
    body TEXT NOT NULL,
    stored_at TEXT NOT NULL DEFAULT (datetime('now'))
);
CREATE INDEX IF NOT EXISTS matches_by_env ON matches(env_id, loadout);
CREATE INDEX IF NOT EXISTS seats_by_policy ON seats(policy);
"""


_SELECT_MATCHES = ("SELECT m.key, m.env_id, m.rules_fingerprint, m.loadout, m.loadout_kwargs, m.seed, m.winner,"
                   " m.first_seat, m.length, m.truncated, s.seat, s.agent, s.policy, s.label, s.return, s.actions,"
                   " s.kinds FROM matches m JOIN seats s ON s.match_key = m.key")
"""Every column a :class:`MatchRecord` is rebuilt from, one row per seat."""

BUSY_TIMEOUT_S = 600.0
"""How long a connection waits for another one's write to finish before SQLite reports the store locked."""


def expected_objects() -> dict[tuple[str, str], str]:
    """``(type, name) -> SQL`` (whitespace collapsed) of every table and index :data:`_SCHEMA` creates, as SQLite
    records them in ``sqlite_master``."""
    db = sqlite3.connect(":memory:")
    try:
        db.executescript(_SCHEMA)
        return {(kind, name): " ".join(sql.split()) for kind, name, sql in
                db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
    finally:
        db.close()


class StoreError(ValueError):
    """A store file that is not a usable match store (corrupt, foreign, another schema, read-only)."""


def _hold_lock(path: Path, on_wait: Callable[[str], None] | None) -> IO[bytes]:
    """An exclusive ``flock`` on ``path``; if another process holds it, say so through ``on_wait`` and wait.

    The lock lives as long as the returned file stays open, and the kernel drops it when the process
    dies (SIGKILL included), so a killed report never blocks the next.
    """
    handle = open(path, "ab")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        if on_wait is not None:
            on_wait(f"another run is playing into {path.with_suffix('')}; waiting for it to finish")
        fcntl.flock(handle, fcntl.LOCK_EX)
    return handle


class MatchStore:
    """The match database at ``path`` (created on first use). Use as a context manager or call :meth:`close`.

    ``exclusive``: hold the store's play lock (``<path>.lock``) while open, so two commands playing into
    one store run one after the other; the second then finds the first's games stored and plays none twice.
    """

    def __init__(self, path: str | Path, *, exclusive: bool = False,
                 on_wait: Callable[[str], None] | None = None) -> None:
        self.path = Path(path)
        self._lock: IO[bytes] | None = None
        if self.path.exists() and not self.path.is_file():
            raise StoreError(f"{self.path}: is not a file (a match store is one SQLite file)")
        self.path.parent.mkdir(parents=True, exist_ok=True)
        lock_path = self.path.with_name(self.path.name + ".lock")
        made_lock = exclusive and not lock_path.exists()
        if exclusive:
            self._lock = _hold_lock(lock_path, on_wait)
        try:
            self._db = sqlite3.connect(self.path, isolation_level=None, timeout=BUSY_TIMEOUT_S)
            tables = {name for (name,) in self._db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
            if tables and "meta" not in tables:
                raise StoreError(f"{self.path}: not an issoku match store (it holds tables {sorted(tables)}); "
                                 "left untouched")
            if tables:
                self._check_schema_version()  # another schema is refused before anything is changed
                self._check_objects()  # a trigger, view, extra table or altered table too
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute("PRAGMA foreign_keys=ON")
            self._db.executescript(_SCHEMA)
            self._check_schema_version()
        except (sqlite3.Error, ValueError) as error:
            if hasattr(self, "_db"):
                self._db.close()  # the last connection gone, SQLite removes the -wal and -shm files it opened
            self._release()
            if made_lock:
                lock_path.unlink(missing_ok=True)  # a refused file gets no lock file beside it
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"{self.path}: not a usable match store ({error})") from None

    def _check_objects(self) -> None:
        """Refuse a store holding anything but the schema's own tables and indexes, as :data:`_SCHEMA` defines them
        (a missing one is created): a trigger can rewrite every game a run stores (two made a fresh run headline
        "strongest policy random +182 Elo"), a view or a table of another shape can feed the report other rows."""
        found = {(kind, name): sql for kind, name, sql in
                 self._db.execute("SELECT type, name, sql FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'")}
        expected = expected_objects()
        odd = [f"{kind} {name!r}" + (" (not the schema's definition)" if (kind, name) in expected else "")
               for (kind, name), sql in sorted(found.items())
               if " ".join(str(sql).split()) != expected.get((kind, name))]
        if odd:
            raise StoreError(f"{self.path}: not a match store as issoku writes it: it holds {', '.join(odd)}; "
                             "left untouched (copy its games into a fresh store with SQL you have read)")

    def _check_schema_version(self) -> None:
        row = self._db.execute("SELECT value FROM meta WHERE name='schema_version'").fetchone()
        if row is None:
            self._db.execute("INSERT INTO meta VALUES ('schema_version', ?)", (str(SCHEMA_VERSION),))
        elif int(row[0]) != SCHEMA_VERSION:
            raise StoreError(f"{self.path}: match store schema {row[0]}, this issoku reads {SCHEMA_VERSION}")

    def __enter__(self) -> MatchStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Close the connection (everything inserted is already committed) and release the play lock."""
        self._db.close()
        self._release()

    def _release(self) -> None:
        if self._lock is not None:
            self._lock.close()  # closing the descriptor releases the flock
            self._lock = None

    def insert(self, records: Iterable[MatchRecord]) -> int:
        """Store ``records`` in one transaction, skipping keys already stored; returns how many were new."""
        added = 0
        self._db.execute("BEGIN IMMEDIATE")
        try:
            for record in records:
                cursor = self._db.execute(
                    "INSERT OR IGNORE INTO matches (key, env_id, rules_fingerprint, loadout, loadout_kwargs, seed,"
                    " winner, first_seat, length, truncated) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    (record.key, record.env_id, record.rules_fingerprint, record.loadout,
                     canonical_json(dict(record.loadout_kwargs)), record.seed, record.winner, record.first_seat,
                     record.length, int(record.truncated)))
                if cursor.rowcount == 0:
                    continue
                self._db.executemany(
                    "INSERT INTO seats (match_key, seat, agent, policy, label, return, actions, kinds)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [(record.key, seat, record.agents[seat], record.policies[seat], record.label(seat),
                      float(record.returns[seat]), json.dumps(list(record.actions[seat])),
                      json.dumps(list(record.kinds[seat])))
                     for seat in range(record.num_seats)])
                added += 1
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")
        return added

    def put_artifact(self, key: str, env_id: str, kind: str, body: str) -> None:
        """Store a computed result (JSON text) under ``key``; an existing key is kept as it is."""
        self._db.execute("INSERT OR IGNORE INTO artifacts (key, env_id, kind, body) VALUES (?, ?, ?, ?)",
                         (key, env_id, kind, body))

    def artifact(self, key: str) -> str | None:
        """The stored result under ``key``, or None."""
        row = self._db.execute("SELECT body FROM artifacts WHERE key=?", (key,)).fetchone()
        return row[0] if row else None

    def latest_artifacts(self, kind: str) -> dict[str, str]:
        """Per env id, the most recently stored result of ``kind``."""
        rows = self._db.execute("SELECT env_id, body FROM artifacts WHERE kind=? ORDER BY stored_at, rowid", (kind,))
        return dict(rows.fetchall())

    def keys(self) -> set[str]:
        """The keys of every stored match (what a resumed tournament skips)."""
        return {key for (key,) in self._db.execute("SELECT key FROM matches")}

    def count(self) -> int:
        """How many matches are stored."""
        return self._db.execute("SELECT COUNT(*) FROM matches").fetchone()[0]

    def env_ids(self) -> list[str]:
        """The env ids present, sorted."""
        return [env for (env,) in self._db.execute("SELECT DISTINCT env_id FROM matches ORDER BY env_id")]

    def record(self, key: str) -> MatchRecord | None:
        """The stored match with ``key`` (as ``issoku view --game`` names it), or None."""
        rows = self._db.execute(
            _SELECT_MATCHES + " WHERE m.key = ? ORDER BY s.seat", (key,)).fetchall()
        return _record_from_rows(rows) if rows else None

    def records(self, env_id: str | None = None, loadouts: Sequence[str] | None = None,
                policies: Sequence[str] | None = None) -> Iterator[MatchRecord]:
        """Stored matches in :func:`~issoku.evaluation.games.records.canonical_order`, optionally only one env, some
        loadouts, or games among some policies.

        Every analysis reads the store through here, so this is where the order is fixed: by what identifies a
        game, not by its key (which changes with an agent's code fingerprint and would reorder the bootstrap).
        """
        where, params = [], []
        if env_id is not None:
            where.append("m.env_id = ?")
            params.append(env_id)
        if loadouts is not None:
            where.append(f"m.loadout IN ({','.join('?' * len(loadouts))})")
            params.extend(loadouts)
        if policies is not None:
            where.append(f"NOT EXISTS (SELECT 1 FROM seats o WHERE o.match_key = m.key"
                         f" AND o.policy NOT IN ({','.join('?' * len(policies))}))")
            params.extend(policies)
        sql = (_SELECT_MATCHES
               + (" WHERE " + " AND ".join(where) if where else "") + " ORDER BY m.key, s.seat")  # groups seats
        found: list[MatchRecord] = []
        current: list[tuple] = []
        for row in self._db.execute(sql, params):
            if current and row[0] != current[0][0]:
                found.append(_record_from_rows(current))
                current = []
            current.append(row)
        if current:
            found.append(_record_from_rows(current))
        yield from sorted(found, key=canonical_order)


def _record_from_rows(rows: list[tuple]) -> MatchRecord:
    """Rebuild one record from its joined match/seat rows (one row per seat, in seat order)."""
    key, env_id, fingerprint, loadout, kwargs, seed, winner, first_seat, length, truncated = rows[0][:10]
    return MatchRecord(
        key=key, env_id=env_id, rules_fingerprint=fingerprint, loadout=loadout, loadout_kwargs=json.loads(kwargs),
        seat_labels=tuple(row[13] for row in rows), seed=seed, agents=tuple(row[11] for row in rows),
        policies=tuple(row[12] for row in rows), returns=tuple(row[14] for row in rows), winner=winner,
        first_seat=first_seat, length=length, truncated=bool(truncated),
        actions=tuple(tuple(json.loads(row[15])) for row in rows),
        kinds=tuple(tuple(json.loads(row[16])) for row in rows))

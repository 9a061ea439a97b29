"""The one bad-input policy, case by case: every bad input gets one line naming the file or option, the
field and why, exit status 2, and nothing is written.

To add a case, add a row to :data:`CASES`: an id, the command line (``{tmp}`` is the test's folder, the
working directory too), the files the case needs there (name -> text, bytes, or a function that writes
the file at the path it is given) and a piece of the expected message.
"""

from __future__ import annotations

import functools
import os
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from issoku.cli import app

SCENARIO = 'env = "breath_duel_v0"\nseed = 1\n'
STUDY = 'env = "breath_duel_v0"\npolicies = ["random", "breath_heuristic"]\ngames_per_pair = 2\n'
TRAIN = ["train", "--run-dir", "{tmp}/run", "--set", "progress_bar=false"]
ROOT = Path(__file__).resolve().parents[2]
FINETUNE = ["finetune-loadouts", "--study", str(ROOT / "evaluation/studies/2_breath_duel_v0_loadouts.toml"), "--from",
            "shipped:breath_duel_v0", "--out", "{tmp}/agents", "-j", "0"]
GRID = '[loadout_grid]\nseat_key = "fighters"\nlabels = ["kenshi", "ronin"]\n'
REPORT = ["balance-report", "--env", "tempo_duel_v0", "-p", "random", "-p", "tempo_heuristic", "--games", "2",
          "--db", "{tmp}/store/m.sqlite", "--out", "{tmp}/report", "-j", "0"]

HUNT = ["hunt", "-p", "random", "-p", "breath_heuristic", "--out", "{tmp}/h", "-j", "0", "-n", "2", "--steps", "64"]
TEMPO_STUDY = 'env = "tempo_duel_v0"\npolicies = ["random", "tempo_heuristic"]\ngames_per_pair = 2\n'


def _checkpoint(env_id: str) -> dict[str, Any]:
    """A shipped checkpoint's two files, for a case's ``files`` under a name: ``{**_checkpoint(env)}`` keyed later."""
    return {".zip": (ROOT / f"agents/shipped/{env_id}.zip").read_bytes(),
            ".json": (ROOT / f"agents/shipped/{env_id}.json").read_text()}


def _agents(**checkpoints: str) -> dict[str, Any]:
    """A per-loadout folder ``agents/``: ``label=env id`` of the shipped checkpoint copied as ``agents/<label>.zip``."""
    return {f"agents/{label}{suffix}": content for label, env_id in checkpoints.items()
            for suffix, content in _checkpoint(env_id).items()}


def _sqlite_file(kind: str):
    """A writer of a SQLite file of someone else's making (FOREIGN), or of an issoku store of another schema."""
    def write(path: Path) -> None:
        db = sqlite3.connect(path)
        if kind == "FOREIGN":
            db.execute("CREATE TABLE accounts (name TEXT)")
        else:
            db.execute("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT)")
            db.execute("INSERT INTO meta VALUES ('schema_version', '99')")
        db.commit()
        db.close()
    return write


def _store_naming(env_id: str):
    """A writer of a match store holding one game whose env id is ``env_id`` (key ``k``)."""
    def write(path: Path) -> None:
        from dataclasses import replace

        from issoku.evaluation.games.store import MatchStore
        from tests.evaluation.factories import make_record

        with MatchStore(path) as store:
            store.insert([replace(make_record(("a", "b"), (1.0, -1.0), env_id=env_id,
                                              labels=("x", "y")), key="k", loadout_kwargs={"command": "touch pwned"})])
    return write


DEEP_TOML = "x = " + "[" * 5000 + "]" * 5000 + "\n"
"""A TOML value nested 5,000 deep: a RecursionError in the parser (a traceback) before the nesting limit."""
DEEP_JSON = "[" * 100_000 + "]" * 100_000
STUDY_FILES = ["balance-report", "--study", "s.toml", "--db", "{tmp}/store/m.sqlite", "--out", "{tmp}/report", "-j", "0"]


def _zip_bomb(path: Path) -> None:
    """A checkpoint zip (the shipped breath agent's entries) whose ``data`` entry inflates to 20 MB (of spaces, then
    the real JSON): a few KB on disk."""
    import zipfile

    with zipfile.ZipFile(ROOT / "agents/shipped/breath_duel_v0.zip") as source, \
            zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as bomb:
        for entry in source.infolist():
            raw = source.read(entry)
            bomb.writestr(entry.filename, b" " * (20 << 20) + raw if entry.filename == "data" else raw)


def _tampered_store(sql: str):
    """A writer of an issoku match store (one game stored) to which ``sql`` then adds something of its own."""
    def write(path: Path) -> None:
        _store_naming("tempo_duel_v0")(path)
        db = sqlite3.connect(path)
        db.executescript(sql)
        db.commit()
        db.close()
    return write


RIGGED = ("CREATE TRIGGER rig AFTER INSERT ON seats WHEN NEW.policy = 'random' BEGIN "
          "UPDATE seats SET return = 1.0 WHERE rowid = NEW.rowid; END;")
"""The attack: a trigger that makes every game ``random`` plays a win (a fresh run headlined it +182 Elo)."""


@functools.lru_cache(maxsize=1)
def _export_files() -> dict[str, bytes]:
    """The files of an export of the shipped tempo agent (made once per test process)."""
    import tempfile

    from issoku.training.export import export_checkpoint

    folder = Path(tempfile.mkdtemp(prefix="issoku-export-"))
    export_checkpoint(ROOT / "agents/shipped/tempo_duel_v0.zip", folder, ablation_games=2)
    return {path.name: path.read_bytes() for path in folder.iterdir()}


def _tampered_export(model: str | None = None, onnx: bytes | None = None, drop: str = "",
                     declares: tuple[int, int] | None = None):
    """A writer of that export in the folder given, its manifest naming ``model``, declaring ``declares``
    (observation values, actions) and/or its ONNX file replaced by ``onnx`` (the manifest's digest updated to match,
    as a tamperer would)."""
    def write(path: Path) -> None:
        import hashlib
        import json

        path.mkdir()
        files = dict(_export_files())
        manifest = json.loads(files["manifest.json"])
        if onnx is not None:
            files["policy.onnx"] = onnx
            manifest["model_sha256"] = hashlib.sha256(onnx).hexdigest()
        if model is not None:
            manifest["model"] = model
        if declares is not None:
            manifest["observation"]["size"], manifest["action_names"] = declares[0], ["a"] * declares[1]
        manifest.pop(drop, None)
        files["manifest.json"] = json.dumps(manifest).encode()
        for name, content in files.items():
            (path / name).write_bytes(content)
    return write


def _onnx_graph(observation: int, actions: int, unused_floats: int = 0) -> bytes:
    """A valid ONNX graph under the export's calling convention whose probabilities are its action mask, reading
    ``observation`` values and naming ``actions`` actions, with ``unused_floats`` float32 weights it never uses."""
    import numpy as np
    from onnx import TensorProto, helper, numpy_helper

    inputs = [helper.make_tensor_value_info("observation", TensorProto.FLOAT, ["batch", observation]),
              helper.make_tensor_value_info("action_mask", TensorProto.FLOAT, ["batch", actions])]
    output = helper.make_tensor_value_info("probabilities", TensorProto.FLOAT, ["batch", actions])
    weights = [numpy_helper.from_array(np.zeros(unused_floats, np.float32), "unused")] if unused_floats else []
    graph = helper.make_graph([helper.make_node("Identity", ["action_mask"], ["probabilities"])], "g", inputs,
                              [output], initializer=weights)
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)], ir_version=8).SerializeToString()


def _mislabelled_checkpoint(suffix: str):
    """The tempo agent's network under the breath agent's metadata (a network that cannot read the env it names)."""
    source = {".zip": "tempo_duel_v0.zip", ".json": "breath_duel_v0.json"}[suffix]
    return (ROOT / "agents/shipped" / source).read_bytes()


def _many_weapons(count: int) -> str:
    """The shipped breath weapons file and ``count`` more weapons of three techniques each (six levers a weapon)."""
    extra = "".join(f'\n[[weapon]]\nkey = "extra_{chr(97 + n // 676)}{chr(97 + n // 26 % 26)}{chr(97 + n % 26)}"\n'
                    f'class = "standard"\nskill = "swordsmanship"\nideal_range = ["issoku_itto", "near"]\n'
                    'technique = [\n  { key = "cut", kind = "attack", cost = 2, source = "BR-G13" },\n'
                    '  { key = "thrust", kind = "attack", cost = 2, source = "BR-G13" },\n'
                    '  { key = "parry", kind = "defense", cost = 1, source = "BR-G13" },\n]\n' for n in range(count))
    return (ROOT / "rules/breath/data/weapons.toml").read_text() + extra


CASES: list[tuple[str, list[str], dict[str, Any], str]] = [
    # levers: at most MAX_LEVERS variant folders a run, refused before the first is written
    ("levers on a 200-weapon variant", ["levers", "--variant", "v", "--out", "{tmp}/lev", "--budget", "100"],
     {"v/breath/data/weapons.toml": _many_weapons(200)}, "levers (two per number of the data files the env reads), more than the 1,000"),

    # outputs that cannot be written: refused before the first game
    ("report --out unwritable", [*REPORT[:-4], "--out", "/proc/issoku-nowhere/report", "-j", "0"], {},
     "--out /proc/issoku-nowhere/report: cannot write in /proc"),
    ("view --out unwritable", ["view", "--env", "breath_duel_v0", "--out", "/proc/issoku-nowhere/f.html"], {},
     "--out /proc/issoku-nowhere/f.html: cannot write in /proc"),
    # a network that does not fit the env its metadata names: one line before play, not a matmul error
    ("evaluate mislabelled network", ["evaluate", "c.zip", "--duels", "2"],
     {"c.zip": _mislabelled_checkpoint(".zip"), "c.json": _mislabelled_checkpoint(".json")},
     "checkpoint c.zip: its network reads 82 observation values and names 31 actions; this env has 129 and 100"),
    ("export mislabelled network", ["export", "c.zip", "--out", "{tmp}/e"],
     {"c.zip": _mislabelled_checkpoint(".zip"), "c.json": _mislabelled_checkpoint(".json")},
     "its network reads 82 observation values"),
    ("report mislabelled network", ["balance-report", "--env", "breath_duel_v0", "-p", "c.zip", "-p", "random",
                                    "--games", "2", "--db", "{tmp}/store/m.sqlite", "--out", "{tmp}/report", "-j", "0"],
     {"c.zip": _mislabelled_checkpoint(".zip"), "c.json": _mislabelled_checkpoint(".json")},
     "its network reads 82 observation values"),
    ("play mislabelled network", ["play", "c.zip"],
     {"c.zip": _mislabelled_checkpoint(".zip"), "c.json": _mislabelled_checkpoint(".json")},
     "its network reads 82 observation values"),
    # exports: the manifest names a file in its own folder; the ONNX file must be a model
    ("export manifest model outside its folder", ["play", "e"], {"e": _tampered_export(model="../policy.onnx")},
     "model: '../policy.onnx' is not a file name in the export's folder"),
    ("export manifest without its training config", ["play", "e"], {"e": _tampered_export(drop="checkpoint")},
     "e/manifest.json: checkpoint.config: missing or not an object"),
    ("ladder file without rungs", ["play", "lad", "--rung", "1"], {"lad/ladder.json": "{}"},
     "lad/ladder.json: rungs: missing or not a list"),
    ("ladder folder without --rung", ["play", "lad"], {"lad/ladder.json": '{"rungs": []}'},
     "lad: a ladder folder (issoku ladder): name the rung to play, --rung 1"),
    ("ladder rung without a temperature", ["play", "lad", "--rung", "1"],
     {"lad/ladder.json": '{"rungs": [{"export": "e"}]}'}, "lad/ladder.json: rungs[0]: not a rung"),
    ("export of a 20 MB network", ["play", "e"], {"e": _tampered_export(onnx=_onnx_graph(82, 31, 5_000_000))},
     "policy.onnx: 20,000,"),
    ("export graph of other shapes", ["play", "e"], {"e": _tampered_export(onnx=_onnx_graph(5, 3))},
     "policy.onnx: observation: the graph's shape is ['batch', 5], the manifest declares [batch, 82]"),
    ("export declaring other sizes than its env", ["play", "e"],
     {"e": _tampered_export(onnx=_onnx_graph(5, 3), declares=(5, 3))},
     "its network reads 5 observation values and names 3 actions; this env has 82 and 31"),
    ("export corrupt ONNX", ["play", "e"], {"e": _tampered_export(onnx=b"\x08\x07garbage")},
     "policy.onnx: not a readable ONNX model"),

    # a received store: the schema's tables and indexes and nothing else (before anything is played into it)
    ("store with a trigger", REPORT, {"store/m.sqlite": _tampered_store(RIGGED)},
     "not a match store as issoku writes it: it holds trigger 'rig'"),
    ("store with a view", REPORT, {"store/m.sqlite": _tampered_store("CREATE VIEW v AS SELECT * FROM seats;")},
     "it holds view 'v'"),
    ("store with an extra table", REPORT, {"store/m.sqlite": _tampered_store("CREATE TABLE extra (x);")},
     "it holds table 'extra'"),
    ("store with an altered table", REPORT,
     {"store/m.sqlite": _tampered_store("DROP TABLE artifacts; CREATE TABLE artifacts (key, env_id, kind, body, "
                                        "stored_at, x DEFAULT 'rigged');")},
     "it holds table 'artifacts' (not the schema's definition)"),

    # data files within limits: size, UTF-8, nesting (checked before parsing goes deep)
    ("study nested 5,000 deep", STUDY_FILES, {"s.toml": STUDY + DEEP_TOML}, "s.toml: (file): nested more than 32 levels"),
    ("study nested 40 deep", STUDY_FILES, {"s.toml": STUDY + "x = " + "[" * 40 + "]" * 40 + "\n"},
     "s.toml: (file): nested more than 32 levels"),
    ("study of 2 MB", STUDY_FILES, {"s.toml": STUDY + "#" * (2 << 20) + "\n"},
     "s.toml: (file): more than the 1,048,576 bytes a data file may have"),
    ("study not UTF-8", STUDY_FILES, {"s.toml": STUDY.encode() + b"# \xff\xfe\n"}, "s.toml: (file): not UTF-8 text"),
    ("variant nested deeply", [*REPORT, "--variant", "v"], {"v/breath/data/weapons.toml": DEEP_TOML},
     "weapons.toml: (file): nested more than 32 levels"),
    # entry counts: a table or array of at most 1,000 entries (a variant of thousands of weapons fits in 1 MiB)
    ("variant of 1,200 more weapons", [*REPORT, "--variant", "v"], {"v/breath/data/weapons.toml": _many_weapons(1200)},
     "weapons.toml: weapon: 1,2"),
    ("variant weapon of 1,500 techniques", [*REPORT, "--variant", "v"],
     {"v/breath/data/weapons.toml": _many_weapons(0).replace(
         'technique = [\n', 'technique = [\n' + "".join(f'  {{ key = "c{n}", kind = "attack", cost = 2, source = "BR-G13" }},\n'
                                       for n in range(1500)), 1)},
     "weapons.toml: weapon[0].technique: 1,5"),
    ("study of 5,000 policies", STUDY_FILES, {"s.toml": STUDY.replace("policies = [", "policies = [" + "".join(f'"r{n}=random", ' for n in range(4998)))},
     "s.toml: policies: 5,000 entries, more than the 1,000"),
    ("train config of 2,000 opponents", [*TRAIN, "--config", "c.toml"],
     {"c.toml": "opponents = [" + '"random", ' * 2000 + "]\n"}, "c.toml: opponents: 2,000 entries, more than the 1,000"),
    ("train config nested deeply", [*TRAIN, "--config", "c.toml"], {"c.toml": DEEP_TOML},
     "c.toml: nested more than 32 levels deep"),
    ("checkpoint metadata nested deeply", ["evaluate", "c.zip", "--duels", "2"],
     {"c.zip": (ROOT / "agents/shipped/breath_duel_v0.zip").read_bytes(), "c.json": DEEP_JSON},
     "c.json: checkpoint metadata is nested more than 32 levels deep"),
    ("checkpoint data entry inflating to 20 MB", ["evaluate", "c.zip", "--duels", "2"],
     {"c.zip": _zip_bomb, "c.json": (ROOT / "agents/shipped/breath_duel_v0.json").read_text()},
     "c.zip: the 'data' entry inflates to 20,993,"),
    ("export manifest nested deeply", ["play", "e"], {"e/manifest.json": DEEP_JSON, "e/model.onnx": b""},
     "manifest.json: nested more than 32 levels deep"),
    # seeds: derived seeds must fit NumPy's seeding and SQLite (2^63 failed after the store was made)
    ("report --seed 2^63", [*REPORT, "--seed", str(2**63)], {}, "--seed must be at most 2,147,483,647"),
    ("hunt --seed 2^63", [*HUNT, "--seed", str(2**63)], {}, "--seed must be at most 2,147,483,647"),
    ("study base_seed 2^63", STUDY_FILES, {"s.toml": STUDY + f"base_seed = {2**63 - 1}\n"}, "base_seed"),
    ("train seed=2^40", [*TRAIN, "--set", f"seed={2**40}"], {}, "seed must be in [0, 2147483647]"),

    # numbers out of bounds
    ("report --batch-size -3", [*REPORT, "--batch-size", "-3"], {}, "--batch-size must be at least 1, not -3"),
    ("report --batch-size 0", [*REPORT, "--batch-size", "0"], {}, "--batch-size must be at least 1, not 0"),
    ("report --workers -1", [*REPORT, "--workers", "-1"], {}, "--workers must be at least 0, not -1"),
    ("report --bootstrap 0", [*REPORT, "--bootstrap", "0"], {}, "--bootstrap must be at least 1, not 0"),
    ("report --cross-budget -1", [*REPORT, "--cross-budget", "-1"], {}, "--cross-budget must be at least 0, not -1"),
    ("report --games 1e9", [*REPORT, "--games", "1000000000"], {}, "--games must be at most 10,000,000"),
    ("report --seed -1", [*REPORT, "--seed", "-1"], {}, "--seed must be at least 0"),
    ("report --delta 0", [*REPORT, "--sequential", "--delta", "0"], {}, "--delta: must be in (0, 0.5], not 0.0"),
    ("report --sequential --variant", [*REPORT, "--sequential", "--variant", "tests/data/variants/defence_nodachi_parry"],
     {}, "--sequential: not with --variant"),
    ("finetune-loadouts --steps 0", [*FINETUNE, "--steps", "0"], {}, "--steps must be at least 1, not 0"),
    ("finetune-loadouts no grid", [*FINETUNE, "--study", "s.toml"], {"s.toml": STUDY}, "s.toml: loadout_grid: the study has none"),
    ("finetune-loadouts --from missing", [*FINETUNE, "--from", "{tmp}/none.zip"], {}, "--from: no checkpoint file at"),
    ("finetune-loadouts --from another env", [*FINETUNE, "--from", "shipped:tempo_duel_v0"], {},
     "env_id: checkpoint"),
    ("report per_loadout missing label", ["balance-report", "--study", "s.toml", "--db", "{tmp}/store/m.sqlite", "--out",
                                          "{tmp}/report", "-j", "0"],
     {"s.toml": 'env = "breath_duel_v0"\npolicies = ["per_loadout:agents"]\n' + GRID,
      "agents/kenshi.zip": (ROOT / "agents/shipped/breath_duel_v0.zip").read_bytes(),
      "agents/kenshi.json": (ROOT / "agents/shipped/breath_duel_v0.json").read_text()},
     "no fine-tuned checkpoint agents/ronin.zip for loadout 'ronin'"),
    ("evaluate --duels 0", ["evaluate", "{tmp}/c.zip", "--duels", "0"], {}, "--duels must be at least 1, not 0"),
    ("head-to-head --duels 0", ["head-to-head", "--duels", "0"], {}, "--duels must be at least 1, not 0"),
    ("duel --seed -1", ["duel", "--seed", "-1"], {}, "--seed must be at least 0, not -1"),
    ("train --total-steps -5", [*TRAIN, "--total-steps", "-5"], {}, "total_steps must be at least 1, not -5"),
    ("train total_steps=1.9", [*TRAIN, "--set", "total_steps=1.9"], {}, "total_steps: expected int, got '1.9'"),
    ("train batch_size=0", [*TRAIN, "--set", "batch_size=0"], {}, "batch_size must be at least 2, not 0"),
    ("train n_envs=0", [*TRAIN, "--set", "n_envs=0"], {}, "n_envs must be in [1, 1024], not 0"),
    ("train env_kwargs=notjson", [*TRAIN, "--set", "env_kwargs=notjson"], {}, "env_kwargs: cannot read 'notjson'"),
    ("train net_arch=a,b", [*TRAIN, "--set", "net_arch=a,b"], {}, "net_arch: expected int, got 'a'"),
    ("train learning_rate=nan", [*TRAIN, "--set", "learning_rate=nan"], {}, "learning_rate: expected a finite number"),
    ("train matchups=dragon", [*TRAIN, "--set", "matchups=dragon,kenshi"], {}, "dragon"),
    ("head-to-head --workers -1", ["head-to-head", "--workers", "-1"], {}, "--workers must be at least 0, not -1"),
    ("head-to-head --env-kwargs notjson", ["head-to-head", "--env-kwargs", "notjson"], {}, "--env-kwargs 'notjson': not JSON"),
    ("benchmark --bootstrap 0", ["benchmark", "random", "--bootstrap", "0", "--db", "{tmp}/m.sqlite"], {},
     "--bootstrap must be at least 1, not 0"),
    ("study games_per_pair 1e9", ["balance-report", "--study", "{tmp}/t.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"t.toml": STUDY.replace("games_per_pair = 2", "games_per_pair = 1000000000")}, "games_per_pair"),
    ("train unknown field", [*TRAIN, "--set", "colour=red"], {}, "unknown config field(s) ['colour']"),
    ("train missing config file", ["train", "--config", "{tmp}/nope.toml"], {}, "config file '{tmp}/nope.toml' not found"),
    # names
    ("replay unknown fighter", ["replay", "{tmp}/s.toml"], {"s.toml": SCENARIO + "[env_kwargs]\nfighters = ['dragon', 'kenshi']\n"}, "dragon"),
    ("replay unknown weapon", ["replay", "{tmp}/s.toml"],
     {"s.toml": SCENARIO + "[env_kwargs]\nfighters = [{archetype = 'kenshi', weapon = 'laser'}, 'ronin']\n"}, "laser"),
    ("replay unknown stage", ["replay", "{tmp}/s.toml"], {"s.toml": SCENARIO + "[env_kwargs]\nstage = 'moon'\n"}, "moon"),
    ("replay unknown kind", ["replay", "{tmp}/s.toml"], {"s.toml": SCENARIO + "[env_kwargs]\nkind = 'brawl'\n"}, "brawl"),
    ("replay unknown env keyword", ["replay", "{tmp}/s.toml"], {"s.toml": SCENARIO + "[env_kwargs]\ncolour = 'red'\n"}, "unexpected keyword argument 'colour'"),
    ("replay round_limit 0", ["replay", "{tmp}/s.toml"], {"s.toml": SCENARIO + "[env_kwargs]\nround_limit = 0\n"}, "round_limit must be at least 1"),
    ("replay skirmish 5v1", ["replay", "{tmp}/s.toml"],
     {"s.toml": 'env = "breath_skirmish_v0"\nseed = 1\n[env_kwargs]\nsides = [["kenshi", "ronin", "shinobi", "ashigaru", "kenshi"], ["ronin"]]\n'},
     "side 0 must be a sequence of 1 to 4 fighters"),
    ("replay a directory", ["replay", "{tmp}/folder"], {"folder/x": ""}, "folder: Is a directory"),
    ("replay a binary file", ["replay", "{tmp}/s.toml"], {"s.toml": b"\x00\xff\xfe binary"}, "s.toml: (file): not UTF-8 text"),
    ("replay import path", ["replay", "{tmp}/s.toml"], {"s.toml": 'env = "os:system"\nseed = 1\n'}, "--allow-imports"),
    ("replay missing scenario", ["replay", "{tmp}/nope.toml"], {}, "replay {tmp}/nope.toml: SCENARIO: no such file"),
    ("view missing scenario", ["view", "{tmp}/nope.toml", "--out", "{tmp}/f.html"], {}, "SCENARIO {tmp}/nope.toml: no such file"),
    ("head-to-head Ma agent on tempo", ["head-to-head", "-a", "ma_heuristic", "--env", "tempo_duel_v0", "-n", "2"],
     {}, "'ma_heuristic' cannot play tempo_duel_v0 (ValueError: a breath agent"),
    ("head-to-head encounter agent on breath", ["head-to-head", "-a", "encounter_heuristic", "-n", "2"],
     {}, "'encounter_heuristic' cannot play breath_duel_v0 (ValueError: an encounter_duel_v0 agent"),
    ("study missing", ["balance-report", "--study", "{tmp}/nope.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"], {},
     "balance-report: {tmp}/nope.toml: no such file"),
    ("duel data missing", ["duel", "--data", "{tmp}/nope.toml"], {}, "duel: {tmp}/nope.toml: no such file"),
    ("benchmark unknown suite", ["benchmark", "random", "--suite", "nope", "--db", "{tmp}/m.sqlite"], {},
     "suite 'nope': no such file, nor a shipped suite (shipped: breath_duel_v0, encounter_duel_v0, tempo_duel_v0"),
    ("evaluate missing checkpoint", ["evaluate", "{tmp}/nope.zip"], {}, "evaluate: checkpoint {tmp}/nope.zip: no such file"),
    ("play missing checkpoint", ["play", "{tmp}/nope.zip"], {}, "play: checkpoint {tmp}/nope.zip: no such file"),
    ("head-to-head tempo agent on breath", ["head-to-head", "-a", "tempo_heuristic", "--env", "breath_duel_v0", "-n", "2"],
     {}, "'tempo_heuristic' cannot play breath_duel_v0 (ValueError: a tempo_duel_v0 agent"),
    ("tempo study names a Ma agent", ["balance-report", "--study", "{tmp}/t.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"t.toml": 'env = "tempo_duel_v0"\npolicies = ["random", "ma_heuristic"]\n'}, "'ma_heuristic' cannot play tempo_duel_v0"),
    ("study unknown restricted policy", ["balance-report", "--study", "{tmp}/t.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"t.toml": STUDY + "[restricted_play]\npolicy = 'nobody'\n"}, "restricted_play.policy"),
    ("study nonsense composition_kind", ["balance-report", "--study", "{tmp}/t.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"t.toml": STUDY + 'composition_kind = "nonsense"\n'}, "composition_kind 'nonsense' is not a decision kind"),
    ("study import path env", ["balance-report", "--study", "{tmp}/t.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"t.toml": 'env = "os:system"\npolicies = ["random"]\n'}, "--allow-imports"),
    ("study import path policy", ["balance-report", "--study", "{tmp}/t.toml", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"t.toml": 'env = "breath_duel_v0"\npolicies = ["random", "x=os:system"]\n'}, "--allow-imports"),
    ("train config import path", ["train", "--config", "{tmp}/c.toml", "--run-dir", "{tmp}/run"],
     {"c.toml": 'env_id = "os:system"\nenv_kwargs = { command = "touch pwned" }\n'}, "--allow-imports"),
    ("benchmark suite import path", ["benchmark", "random", "--suite", "{tmp}/s.toml", "--db", "{tmp}/m.sqlite"],
     {"s.toml": 'name = "x"\nversion = 1\nenv = "breath_duel_v0"\npolicies = ["random", "x=os:system"]\n'}, "--allow-imports"),
    # checkpoints
    ("evaluate empty zip", ["evaluate", "{tmp}/c.zip"], {"c.zip": b"", "c.json": '{"config": {}}'}, "not a readable zip"),
    ("evaluate truncated zip", ["evaluate", "{tmp}/c.zip"], {"c.zip": b"PK\x03\x04\x14\x00", "c.json": '{"config": {}}'},
     "not a readable zip"),
    ("evaluate without JSON", ["evaluate", "{tmp}/c.zip"], {"c.zip": b"PK"}, "checkpoint metadata not found"),
    ("play without JSON", ["play", "{tmp}/c.zip"], {"c.zip": b"PK"}, "checkpoint metadata not found"),
    ("evaluate metadata import path", ["evaluate", "{tmp}/c.zip"], {"c.zip": b"PK", "c.json": '{"config": {"env_id": "os:system"}}'},
     "--allow-imports"),
    # stores and outputs
    ("report corrupt store", ["balance-report", "--no-play", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"m.sqlite": b"this is not sqlite" * 100}, "not a usable match store"),
    ("report store of another schema", ["balance-report", "--no-play", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"m.sqlite": _sqlite_file("SCHEMA99")}, "match store schema 99, this issoku reads 1"),
    ("report foreign SQLite file", ["balance-report", "--no-play", "--db", "{tmp}/m.sqlite", "--out", "{tmp}/o"],
     {"m.sqlite": _sqlite_file("FOREIGN")}, "not an issoku match store (it holds tables ['accounts']); left untouched"),
    ("report store is a directory", ["balance-report", "--no-play", "--db", "{tmp}/m", "--out", "{tmp}/o"],
     {"m/x": ""}, "is not a file"),
    ("report --out is a file", [*REPORT, "--out", "{tmp}/o"], {"o": "a file"}, "--out {tmp}/o: is a file"),
    ("view a stored game with an import-path env", ["view", "--db", "{tmp}/m.sqlite", "--game", "k", "--out", "{tmp}/f.html"],
     {"m.sqlite": _store_naming("os:system")}, "env 'os:system' is an import path"),
    ("view a scenario with an import-path env", ["view", "{tmp}/s.toml", "--out", "{tmp}/f.html"],
     {"s.toml": 'env = "os:system"\nseed = 1\n'}, "--allow-imports"),
    ("evaluate --out under a file", ["evaluate", "{tmp}/c.zip", "--out", "{tmp}/f/r.json"], {"f": "a file"}, "is a file"),
    # per-loadout agents (per_loadout:DIR), refused before a game is played, whatever command fields them
    ("benchmark per_loadout on unlabelled seats", ["benchmark", "per_loadout:agents", "--db", "{tmp}/st/m.sqlite", "-j", "0"],
     _agents(kenshi="breath_duel_v0"), "per_loadout:agents plays only loadouts whose seats are labelled"),
    ("head-to-head per_loadout on unlabelled seats", ["head-to-head", "-a", "per_loadout:agents", "-n", "2", "--db",
                                                     "{tmp}/st/m.sqlite"],
     _agents(kenshi="breath_duel_v0"), "per_loadout:agents plays only loadouts whose seats are labelled"),
    ("hunt per_loadout on unlabelled seats", [*HUNT, "-p", "per_loadout:agents"], _agents(kenshi="breath_duel_v0"),
     "per_loadout:agents plays only loadouts whose seats are labelled"),
    ("hunt per_loadout missing folder", [*HUNT, "-p", "per_loadout:{tmp}/nowhere"], {},
     "--policy: no checkpoints in {tmp}/nowhere"),
    ("report per_loadout checkpoint of another env", ["balance-report", "--study", "s.toml", "--db", "{tmp}/st/m.sqlite",
                                                     "--out", "{tmp}/report", "-j", "0"],
     {"s.toml": 'env = "breath_duel_v0"\npolicies = ["per_loadout:agents"]\n' + GRID,
      **_agents(kenshi="breath_duel_v0", ronin="tempo_duel_v0")},
     "s.toml: checkpoint agents/ronin.zip was trained on a different env or rules data and cannot be used here: "
     "env_id: checkpoint agents/ronin.zip has 'tempo_duel_v0', this env has 'breath_duel_v0'; interface:"),
    ("report --variant per_loadout missing label", ["balance-report", "--study", "s.toml", "--variant",
                                                   str(ROOT / "tests/data/variants/defence_nodachi_parry"), "--db",
                                                   "{tmp}/st/m.sqlite", "--out", "{tmp}/report", "-j", "0"],
     {"s.toml": 'env = "breath_duel_v0"\npolicies = ["per_loadout:agents"]\n' + GRID, **_agents(kenshi="breath_duel_v0")},
     "s.toml: policies: 'agents' cannot play breath_duel_v0 (ValueError: no fine-tuned checkpoint agents/ronin.zip"),
    # a later study refused before the first study plays
    ("report later study's combo weapon", ["balance-report", "--study", "t1.toml", "--study", "t2.toml", "--db",
                                           "{tmp}/st/m.sqlite", "--out", "{tmp}/report", "-j", "0"],
     {"t1.toml": TEMPO_STUDY, "t2.toml": STUDY + '[combo_table]\nsamples = 2\nweapons = ["laser"]\n'},
     "t2.toml: combo_table.weapons: unknown weapon 'laser' of breath_duel_v0"),
    ("report later study's combo table on tempo", ["balance-report", "--study", "t1.toml", "--study", "t2.toml", "--db",
                                                   "{tmp}/st/m.sqlite", "--out", "{tmp}/report", "-j", "0"],
     {"t1.toml": STUDY, "t2.toml": TEMPO_STUDY + "[combo_table]\nsamples = 2\n"},
     "t2.toml: combo_table: tempo_duel_v0 has no weapon catalog"),
    ("report --variant later study's Ma agent on tempo",
     ["balance-report", "--study", "t1.toml", "--study", "t2.toml", "--variant",
      str(ROOT / "tests/data/variants/tempo_spear_counter_ap"), "--db", "{tmp}/st/m.sqlite", "--out", "{tmp}/report", "-j", "0"],
     {"t1.toml": TEMPO_STUDY, "t2.toml": TEMPO_STUDY.replace("tempo_heuristic", "ma_heuristic")},
     "t2.toml: policies: 'ma_heuristic' cannot play tempo_duel_v0"),
    ("levers study's Ma agent on tempo", ["levers", "--env", "tempo_duel_v0", "--study", "t.toml", "--out", "{tmp}/lv",
                                          "--budget", "10"],
     {"t.toml": TEMPO_STUDY.replace("tempo_heuristic", "ma_heuristic")}, "t.toml: policies: 'ma_heuristic' cannot play"),
    # the hunt: every option before its folder, store or TensorBoard log is written
    ("hunt --iterations 0", [*HUNT, "--iterations", "0"], {}, "--iterations must be at least 1, not 0"),
    ("hunt --steps 0", [*HUNT, "--steps", "0"], {}, "--steps must be at least 1, not 0"),
    ("hunt --games 0", [*HUNT, "--games", "0"], {}, "--games must be at least 1, not 0"),
    ("hunt --n-envs 0", [*HUNT, "--n-envs", "0"], {}, "--n-envs must be at least 1, not 0"),
    ("hunt --seed -1", [*HUNT, "--seed", "-1"], {}, "--seed must be at least 0, not -1"),
    ("hunt --workers -1", [*HUNT, "--workers", "-1"], {}, "--workers must be at least 0, not -1"),
    ("hunt --threshold nan", [*HUNT, "--threshold", "nan"], {}, "--threshold must be a finite number, not nan"),
    ("hunt --control without --variant", [*HUNT, "--control"], {}, "--control needs --variant"),
    ("hunt --out is a file", [*HUNT, "--out", "{tmp}/o"], {"o": "a file"}, "--out {tmp}/o: is a file"),
    ("hunt unknown policy", [*HUNT, "-p", "nobody"], {}, "unknown policy 'nobody'"),
    ("hunt unknown env", [*HUNT, "--env", "nope_v0"], {}, "unknown env id 'nope_v0'"),
    ("hunt breath agent on tempo", [*HUNT, "--env", "tempo_duel_v0"], {},
     "policies: 'breath_heuristic' cannot play tempo_duel_v0 (ValueError: a breath agent"),
    ("hunt unknown matchup", [*HUNT, "--matchup", "dragon"], {}, "unknown archetype 'dragon'"),
    ("hunt missing variant", [*HUNT, "--variant", "{tmp}/nowhere"], {}, "nowhere: (variant): not a folder"),
    ("hunt --warm-start not a checkpoint", [*HUNT, "--warm-start", "random"], {}, "--warm-start: checkpoint random: no such file"),
    # ladder and styles: a checkpoint of another env refused before anything is exported or stored
    ("ladder checkpoint of another env", ["ladder", "agents/kenshi.zip", "--out", "{tmp}/lad", "--db", "{tmp}/m.sqlite",
                                          "-j", "0"], _agents(kenshi="tempo_duel_v0"),
     "checkpoint agents/kenshi.zip was trained on a different env or rules data and cannot be used here: env_id:"),
    ("ladder --rungs 0", ["ladder", "agents/kenshi.zip", "--rungs", "0", "--out", "{tmp}/lad", "--db", "{tmp}/m.sqlite"],
     _agents(kenshi="breath_duel_v0"), "--rungs must be at least 1, not 0"),
    ("ladder --temperature -1", ["ladder", "agents/kenshi.zip", "-t", "-1", "--out", "{tmp}/lad", "--db", "{tmp}/m.sqlite"],
     _agents(kenshi="breath_duel_v0"), "--temperature must be at least 0.0, not -1.0"),
    ("styles missing checkpoint", ["styles", "{tmp}/nope.zip", "--out", "{tmp}/sty", "--db", "{tmp}/m.sqlite"], {},
     "checkpoint {tmp}/nope.zip: no such file"),
    ("styles checkpoint of another env", ["styles", "agents/kenshi.zip", "--out", "{tmp}/sty", "--db", "{tmp}/m.sqlite",
                                          "-j", "0"], _agents(kenshi="tempo_duel_v0"),
     "checkpoint agents/kenshi.zip was trained on a different env or rules data and cannot be used here: env_id:"),
    ("view --seed -1", ["view", "--env", "breath_duel_v0", "--seed", "-1", "--out", "{tmp}/f.html"], {},
     "--seed must be at least 0, not -1"),
    ("view a checkpoint of another env", ["view", "--env", "tempo_duel_v0", "-a", "shipped:breath_duel_v0", "--out",
                                          "{tmp}/f.html"], {}, "cannot be used here: env_id:"),
    ("view --report missing", ["view", "--env", "tempo_duel_v0", "--report", "{tmp}/nope.html", "--out", "{tmp}/f.html"],
     {}, "--report: no such file"),
    ("head-to-head --seed -1", ["head-to-head", "--seed", "-1", "-n", "2"], {}, "--seed must be at least 0, not -1"),
]


def _snapshot(folder: Path) -> dict[str, bytes]:
    return {str(p.relative_to(folder)): p.read_bytes() if p.is_file() else b"<dir>" for p in folder.rglob("*")}


@pytest.mark.parametrize("argv, files, expected", [case[1:] for case in CASES], ids=[case[0] for case in CASES])
def test_a_bad_input_gets_one_line_exit_2_and_nothing_is_written(tmp_path, monkeypatch, argv, files, expected):
    monkeypatch.chdir(tmp_path)
    for name, content in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if callable(content):
            content(path)
        else:
            path.write_bytes(content if isinstance(content, bytes) else content.encode())
    before = _snapshot(tmp_path)
    result = CliRunner().invoke(app, [arg.replace("{tmp}", str(tmp_path)) for arg in argv])
    output = result.output.strip()
    assert result.exit_code == 2, output
    assert len(output.splitlines()) == 1, output
    assert expected.replace("{tmp}", str(tmp_path)) in output, output
    after = _snapshot(tmp_path)
    assert after == before, f"written: {sorted(set(after) - set(before))}"
    assert not os.path.exists(tmp_path / "pwned")


def test_a_ladder_file_names_no_export_outside_its_folder(tmp_path):
    import json

    from issoku.agents.exported import ExportError, load_trained

    (tmp_path / "ladder.json").write_text(json.dumps({"rungs": [{"export": "../../elsewhere", "temperature": 0}]}))
    with pytest.raises(ExportError, match="export '../../elsewhere' is outside the ladder folder"):
        load_trained(tmp_path, rung=1)

"""Limits on what a file can make issoku do: variant folders hold their own files, lever folder names stay short."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from issoku.evaluation.design.levers import SLUG_CHARS, _slug
from issoku.rules.kernel.content import MAX_ENTRIES, MAX_NESTING, DataError, TooManyEntries, check_entries, nesting_depth
from issoku.rules.variant import Variant


def test_a_symbolic_link_in_a_variant_folder_is_refused(tmp_path):
    """A variant's ``weapons.toml`` linking to a file elsewhere was followed (read, and shown in the report's diff)."""
    folder = tmp_path / "v" / "breath" / "data"
    folder.mkdir(parents=True)
    secret = tmp_path / "elsewhere.toml"
    secret.write_text('[[weapon]]\nkey = "secret"\n')
    (folder / "weapons.toml").symlink_to(secret)
    with pytest.raises(DataError, match="a symbolic link"):
        Variant(tmp_path / "v")


def test_a_linked_folder_in_a_variant_is_refused(tmp_path):
    (tmp_path / "v").mkdir()
    (tmp_path / "v" / "breath").symlink_to(tmp_path, target_is_directory=True)
    with pytest.raises(DataError, match="a symbolic link"):
        Variant(tmp_path / "v")


def test_a_long_data_key_makes_a_short_lever_folder_name_still_unique():
    """A key of 300 characters failed on the file system (names of at most 255 bytes) after 75 folders were written."""
    long = SimpleNamespace(file="breath/data/weapons.toml", item="w" * 300, field="cost")
    other = SimpleNamespace(file="breath/data/weapons.toml", item="w" * 299 + "x", field="cost")
    assert len(_slug(long, "_down")) <= SLUG_CHARS and _slug(long, "_down") != _slug(other, "_down")
    assert _slug(SimpleNamespace(file="breath/data/weapons.toml", item="nodachi", field="cost"), "_up") == \
        "breath_weapons_nodachi_cost_up"  # short names as before


def test_nesting_is_counted_without_recursion():
    deep: list = []
    for _ in range(100_000):
        deep = [deep]
    assert nesting_depth(deep) == 100_001 > MAX_NESTING
    assert nesting_depth({"a": [1, {"b": 2}]}) == 3 and nesting_depth(5) == 0


def test_the_entry_limit_names_the_table_or_array_that_breaks_it():
    """A 1 MiB file holds tens of thousands of entries; the first table or array over the limit is named."""
    check_entries({"weapon": [{"technique": list(range(MAX_ENTRIES))}]})  # at the limit: kept
    with pytest.raises(TooManyEntries, match="1,001 entries") as raised:
        check_entries({"weapon": [{"technique": []}, {"technique": list(range(MAX_ENTRIES + 1))}]})
    assert raised.value.field == "weapon[1].technique"
    with pytest.raises(TooManyEntries) as raised:
        check_entries({f"k{n}": n for n in range(MAX_ENTRIES + 1)})
    assert raised.value.field == "(top level)"

"""The content cache (``issoku.rules.kernel.content.ContentCache``): a lever sweep builds hundreds of rulesets over
the same files, so their content is loaded once per set of bytes; a rewrite is read again, a failure never kept."""

import os
import shutil

import pytest

from issoku.rules.breath.content import DATA_DIR, load_catalog
from issoku.rules.kernel.content import ContentCache, DataError


def test_the_same_bytes_load_once_and_a_rewrite_of_the_same_size_and_time_loads_again(tmp_path):
    path = tmp_path / "n.txt"
    path.write_text("cost = 2")
    loads = []
    cache = ContentCache(lambda paths: loads.append(paths) or paths[0].read_text())
    assert cache([path]) == cache([path]) == "cost = 2" and len(loads) == 1
    stamp = path.stat()
    path.write_text("cost = 1")  # same size, and the same modification time below: only the bytes tell
    os.utime(path, ns=(stamp.st_atime_ns, stamp.st_mtime_ns))
    assert cache([path]) == "cost = 1" and len(loads) == 2


def test_a_failed_load_is_not_kept_and_the_oldest_set_goes_first(tmp_path):
    calls = []

    def load(paths):
        calls.append(paths)
        if paths[0].read_text() == "bad":
            raise DataError(paths[0], [("cost", "bad")])
        return paths[0].read_text()

    cache = ContentCache(load, size=2)
    bad, a, b, c = (tmp_path / name for name in ("bad", "a", "b", "c"))
    for path in (bad, a, b, c):
        path.write_text(path.name)
    for _ in range(2):
        with pytest.raises(DataError):
            cache([bad])
    assert len(calls) == 2  # raised both times, by the loader
    cache([a]), cache([b]), cache([c])  # a is dropped: two sets kept
    calls.clear()
    cache([c]), cache([b]), cache([a])
    assert calls == [(a,)]
    with pytest.raises(FileNotFoundError):  # unreadable: handed to the loader, which says why
        cache([tmp_path / "missing"])
    assert calls[-1] == (tmp_path / "missing",)


def test_an_edited_weapons_file_reaches_the_catalog_at_once(tmp_path):
    data = tmp_path / "data"
    shutil.copytree(DATA_DIR, data)
    before = load_catalog(data)
    assert load_catalog(data) is before  # the same bytes: the same frozen catalog
    weapons = data / "weapons.toml"
    text = weapons.read_text()
    edited = text.replace('key = "parry", kind = "defense", cost = 2', 'key = "parry", kind = "defense", cost = 1', 1)
    assert edited != text
    weapons.write_text(edited)
    after = load_catalog(data)
    assert after is not before and after.digest != before.digest
    changed = [key for key, technique in after.techniques.items() if technique.cost != before.techniques[key].cost]
    assert len(changed) == 1 and after.techniques[changed[0]].cost == 1

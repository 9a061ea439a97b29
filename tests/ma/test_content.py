"""The ideal-range and terrain data files validate and fail loudly (MA-017..021, MA-049)."""

import pytest

from issoku.rules.kernel import DataError
from issoku.rules.ma.content import DEFAULT_RANGES, DEFAULT_TERRAIN, load_content


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.rule("MA-017")
def test_unknown_weapon_is_a_key_error_not_a_default(content):
    with pytest.raises(KeyError, match="no ideal range"):
        content.reach("halberd")


@pytest.mark.rule("MA-017", "MA-022")
def test_ranges_file_rejects_bad_rungs_reversed_spans_and_duplicates(tmp_path):
    bad_rung = _write(tmp_path, "r1.toml", '[family.a]\nrule="MA-017"\nideal_far="farther"\nideal_near="near"\n'
                                          'weapons=["x"]\n')
    with pytest.raises(DataError, match="family.a.ideal_far"):
        load_content(bad_rung, DEFAULT_TERRAIN)
    reversed_span = _write(tmp_path, "r2.toml", '[family.a]\nrule="MA-017"\nideal_far="near"\nideal_near="far"\n'
                                               'weapons=["x"]\n')
    with pytest.raises(DataError, match="ideal_far must not be closer"):
        load_content(reversed_span, DEFAULT_TERRAIN)
    twice = _write(tmp_path, "r3.toml", '[family.a]\nrule="MA-017"\nideal_far="far"\nideal_near="near"\n'
                                       'weapons=["x"]\n[family.b]\nrule="MA-018"\nideal_far="far"\n'
                                       'ideal_near="far"\nweapons=["x"]\n')
    with pytest.raises(DataError, match="'x' is in both"):
        load_content(twice, DEFAULT_TERRAIN)


@pytest.mark.rule("MA-049")
def test_ma_049_a_stage_imports_exactly_one_effect(tmp_path):
    two = _write(tmp_path, "t.toml", '[stage.mud]\nrule="MA-050"\ndescription="mud"\ninitiator_contest=-1\n'
                                    'glare_checks=-1\n')
    with pytest.raises(DataError, match="exactly one terrain effect"):
        load_content(DEFAULT_RANGES, two)
    none = _write(tmp_path, "t2.toml", '[stage.plain]\nrule="MA-050"\ndescription="plain"\n')
    with pytest.raises(DataError, match="exactly one terrain effect"):
        load_content(DEFAULT_RANGES, none)
    typo = _write(tmp_path, "t3.toml", '[stage.mud]\nrule="MA-050"\ndescription="mud"\ninitator_contest=-1\n')
    with pytest.raises(DataError, match="stage.mud.initator_contest"):
        load_content(DEFAULT_RANGES, typo)


def test_shipped_content_has_a_stable_digest():
    assert load_content().digest == load_content().digest and len(load_content().digest) == 16

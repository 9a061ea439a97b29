"""The terrain data file validates and fails loudly (MA-049)."""

import pytest

from issoku.rules.kernel import DataError
from issoku.rules.ma.content import load_content


def _write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text)
    return path


@pytest.mark.rule("MA-049")
def test_ma_049_a_stage_imports_exactly_one_effect(tmp_path):
    two = _write(tmp_path, "t.toml", '[stage.mud]\nrule="MA-050"\ndescription="mud"\ninitiator_contest=-1\n'
                                    'glare_checks=-1\n')
    with pytest.raises(DataError, match="exactly one terrain effect"):
        load_content(two)
    none = _write(tmp_path, "t2.toml", '[stage.plain]\nrule="MA-050"\ndescription="plain"\n')
    with pytest.raises(DataError, match="exactly one terrain effect"):
        load_content(none)
    typo = _write(tmp_path, "t3.toml", '[stage.mud]\nrule="MA-050"\ndescription="mud"\ninitator_contest=-1\n')
    with pytest.raises(DataError, match="stage.mud.initator_contest"):
        load_content(typo)


def test_shipped_content_has_a_stable_digest():
    assert load_content().digest == load_content().digest and len(load_content().digest) == 16

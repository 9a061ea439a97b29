"""The cross-play that ends a DISAGREE line: the disputed loadout on both sides, one field's agents against the
other's, says which field is stronger and which reading to trust."""

from issoku.evaluation.games.studies import default_studies
from issoku.evaluation.games.config import load_study
from issoku.evaluation.reports.cross_play import CrossPlay, CrossPlayer, Side
from issoku.evaluation.reports.fields import field_headlines, field_rankings
from issoku.evaluation.games.store import MatchStore

from tests.evaluation.test_loadout_fields import ORDER, games

SCRIPTED = Side("scripted", ("ma_heuristic",), "above the field")
SEARCH = Side("search", ("mcts_small",), "below the field")


def test_the_clause_names_the_stronger_field_and_the_reading_to_trust_or_says_neither_is():
    stronger = CrossPlay("unarmed", SCRIPTED, SEARCH, 0.25, 0.12, 0.45, 24)
    assert stronger.stronger == SEARCH
    assert stronger.text() == ("Cross-play, unarmed on both sides: the scripted field (ma_heuristic) scores 25% "
                               "[12%, 45%] against the search field (mcts_small) over 24 games: the search field is "
                               "stronger, so trust its reading (unarmed below the field).")
    assert CrossPlay("unarmed", SCRIPTED, SEARCH, 0.80, 0.6, 0.92, 24).stronger == SCRIPTED
    level = CrossPlay("unarmed", SCRIPTED, SEARCH, 0.54, 0.35, 0.72, 24)
    assert level.stronger is None and level.text().endswith(
        "over 24 games: neither field is the stronger within these games, so act on neither reading until more games "
        "(`--cross-budget`) or a stronger field settle it.")
    assert CrossPlay("unarmed", SCRIPTED, SEARCH, why="no budget").text() == "Cross-play not run (no budget)."


def test_each_disagree_line_ends_with_the_cross_play_of_its_loadout_and_the_disputes_share_one_call():
    scripted = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)
    flipped = games("tuned", lambda a, b: 0.9 if ORDER[a] < ORDER[b] else 0.1)
    calls = []

    def cross(env, disputes):
        calls.append((env, disputes))
        return [f"[cross {label}: {first.field} {first.verdict} / {second.field} {second.verdict}]"
                for label, first, second in disputes]

    lines = [line for line in field_headlines("toy_v0", field_rankings(scripted + flipped, bootstrap=50), cross)
             if "DISAGREE" in line]
    assert len(calls) == 1 and [label for label, _, _ in calls[0][1]] == ["unarmed", "staff"]
    assert calls[0][1][0][1] == Side("scripted", ("random",), "above the field")
    assert lines[0].endswith("below the field). [cross unarmed: scripted above the field / learned below the field]")


def test_the_cross_play_plays_the_loadout_against_itself_field_against_field_within_its_budget(tmp_path):
    studies = [load_study(path) for path in default_studies()]
    learned = Side("learned", ("learned",), "below the field")
    with MatchStore(tmp_path / "edits.sqlite") as store:
        player = CrossPlayer(studies, store, budget=9)
        found = player.play("breath_duel_v0", "uchigatana", SCRIPTED, learned, 9)
        assert found.games == 8 and found.score is not None and store.count() == 8  # whole pairs, within 9
        assert {record.loadout for record in store.records()} == {"uchigatana-vs-uchigatana"}
        assert player.clauses("breath_duel_v0", [("uchigatana", SCRIPTED, learned)])[0] == found.text()
        assert store.count() == 8  # the same seeds: stored, nothing played again
        assert player.play("breath_duel_v0", "uchigatana", SCRIPTED, learned, 1).why.startswith("the 9-game budget")
        assert player.play("breath_duel_v0", "lance", SCRIPTED, learned, 8).why == (
            "no study of breath_duel_v0 has a loadout grid fielding lance")
        assert player.play("breath_duel_v0", "yari", SCRIPTED, Side("learned", ("tuned",), ""), 8).why == (
            "no study of breath_duel_v0 fields tuned")


def test_the_written_report_ends_its_disagree_lines_with_the_cross_play(tmp_path):
    from issoku.evaluation.reports.report import read_headlines, write_report

    scripted = games("random", lambda a, b: 0.9 if ORDER[a] > ORDER[b] else 0.1)
    flipped = games("tuned", lambda a, b: 0.9 if ORDER[a] < ORDER[b] else 0.1)
    with MatchStore(tmp_path / "m.sqlite") as store:
        store.insert(scripted + flipped)
        report = write_report(store, tmp_path / "out", bootstrap=20, progress=False, html=False,
                              cross=lambda env, disputes: [f"Cross-play of {label}." for label, _, _ in disputes])
    lines = [line for line in read_headlines(report) if "DISAGREE" in line]
    assert [line.rsplit(". ", 1)[1] for line in lines] == ["Cross-play of unarmed.", "Cross-play of staff."]

"""report.html without a browser: which games a headline links (pure functions over records), the page rendered
from report.md (escaped, tables marked), and the replay pages written beside it (bounded, stale ones removed).
The page in a real browser: tests/evaluation/test_report_browser.py."""

from dataclasses import replace
from pathlib import Path

from issoku.envs.registry import make_env
from issoku.evaluation.games.config import LoadoutGrid, StudyConfig, build_tournament
from issoku.evaluation.reports.example_games import Example, combo_games, decided_games, lopsided_wins
from issoku.evaluation.reports.html_report import render_report_html
from issoku.evaluation.stats.metrics import CompositionSpec
from issoku.evaluation.stats.pairings import by_label, by_policy
from issoku.evaluation.reports.report import read_headlines, write_report
from issoku.evaluation.design.restricted import RestrictionResult
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import PolicySpec, Tournament, run_tournament
from issoku.evaluation.games.viewing import GameLink, write_replays
from issoku.common.outcomes import wilson
from tests.evaluation.factories import make_record


def _game(policies, returns, seed, length=1, labels=("", ""), actions=None, kinds=None):
    actions = actions or (("x",) * length, ())
    return make_record(policies, returns, seed=seed, labels=labels, actions=actions, kinds=kinds)


def test_a_sides_most_lopsided_games_are_its_quickest_wins_one_per_opponent_first():
    won = (1.0, -1.0)
    records = [_game(("a", "b"), won, 1, length=9), _game(("a", "b"), won, 2, length=3),
               _game(("a", "c"), won, 3, length=5), _game(("b", "a"), (-1.0, 1.0), 4, length=4),
               _game(("a", "b"), (-1.0, 1.0), 5, length=1),  # a lost
               _game(("a", "a"), won, 6, length=1)]           # a mirror tells nothing
    picked = lopsided_wins(records, by_policy, "a", top=3)
    assert [r.record.seed for r in picked] == [2, 3, 4]  # b (3), c (5), then b again (4) before b's 9
    labelled = [_game(("p", "p"), (-1.0, 1.0), 7, length=2, labels=("yari", "ninjato"))]
    assert [e.record for e in lopsided_wins(labelled, by_label, "ninjato")] == labelled and lopsided_wins(labelled, by_label, "yari") == []


def test_a_combos_games_are_those_whose_breaths_played_it_winners_first():
    spec = CompositionSpec("breath", ("end_breath",))
    breath = ("attack:ninjato.thrust", "attack:ninjato.cut", "end_breath")

    def fight(seed, returns, actions):
        return _game(("p", "q"), returns, seed, actions=(actions, ("parry",)),
                     kinds=(("breath",) * len(actions), ("defend",)))

    records = [fight(1, (-1.0, 1.0), breath), fight(2, (1.0, -1.0), breath + ("attack:ninjato.cut",)),
               fight(3, (1.0, -1.0), ("attack:ninjato.cut", "end_breath"))]
    found = combo_games(records, spec, ("ninjato.cut", "ninjato.thrust"))
    assert [(e.record.seed, e.seat, e.decision) for e in found] == [(2, 0, 0), (1, 0, 0)]  # at the breath's start


def test_the_games_a_restriction_decided_are_losses_where_the_base_played_the_move():
    base, restricted = "h", "h -feint"
    records = [_game((restricted, base), (-1.0, 1.0), 1, actions=(("cut",), ("cut", "cut"))),
               _game((base, restricted), (1.0, -1.0), 2, actions=(("cut", "feint", "cut", "cut"), ("cut",))),
               _game((restricted, base), (1.0, -1.0), 3, actions=(("cut",), ("feint",))),  # restricted side won
               _game((base, "other"), (1.0, -1.0), 4, actions=(("feint",), ("cut",)))]
    result = RestrictionResult(base, ("feint",), wilson(1, 3))
    assert [(e.record.seed, e.seat, e.decision) for e in decided_games(records, result)] == [(2, 0, 1), (1, None, None)]
    combo = RestrictionResult(base, ("cut", "feint"), wilson(1, 3))
    renamed = [replace(r, policies=tuple("h -cut>feint" if p == restricted else p for p in r.policies))
               for r in records]
    assert [(e.record.seed, e.decision) for e in decided_games(renamed, combo)] == [(2, 1), (1, None)]  # 1: no cut>feint
    assert decided_games(records, combo) == []  # those games restricted another move


def test_the_page_keeps_names_as_text_marks_tables_and_links_headlines_only():
    crafted = "<img src=x onerror=alert(1)>"
    markdown = "\n".join([
        "# issoku balance report", "", "## Headlines", "",
        f"- duel: strongest policy **{crafted}**.", "- duel: first mover's score 50%.", "",
        "## duel", "", f"- duel: strongest policy **{crafted}**.", "",
        "| | a | b |", "|---|---|---|", "| **a** | — | 0.70 [0.6, 0.8] |", "",
        "| rank | policy |", "|---|---|", "| 1 | a |", "", "![ratings](duel_ratings.png)", ""])
    games = {f"duel: strongest policy **{crafted}**.": [GameLink("a vs b", "games/abc.html"),
                                                         GameLink("c vs d", None, "unknown env id")]}
    page = render_report_html(markdown, games, {f"duel: strongest policy **{crafted}**.": "its quickest wins"})
    assert "<img src=x" not in page and "&lt;img src=x onerror=alert(1)&gt;" in page
    assert page.count('href="games/abc.html"') == 1  # in the headlines, not in the section that repeats the line
    assert "its quickest wins: " in page and "c vs d (no replay: unknown env id)" in page
    assert '<table class="matrix">' in page and '<table class="plain">' in page
    assert '<img src="duel_ratings.png"' in page and "http" not in page


def test_the_report_writes_its_html_and_the_replays_of_its_headlines_and_nothing_stale(tmp_path):
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import import_object

    factory = lambda **kwargs: make_env("tempo_duel_v0", **kwargs)  # noqa: E731
    policies = tuple(PolicySpec(name, import_object(POLICY_FACTORIES[name])) for name in ("random", "tempo_heuristic"))
    stale = tmp_path / "out" / "games" / "0123abcd.html"
    stale.parent.mkdir(parents=True)
    stale.write_text("an earlier report's replay")
    keep = tmp_path / "out" / "games" / "notes.txt"
    keep.write_text("not ours")
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(Tournament(factory, policies, games_per_pair=6), store, workers=0, progress=False)
        grid = StudyConfig(env="tempo_duel_v0", policies=("tempo_heuristic",), mirrors=True, games_per_pair=20,
                           loadout_grid=LoadoutGrid(seat_key="fighters", seat_template="{label}",
                                                    labels=("knight", "brawler")))
        run_tournament(build_tournament(grid), store, workers=0, progress=False)
        # enough games that loadout a's wins are a headline (one whose corrected interval excludes zero)
        store.insert([make_record(("p", "p"), (1.0, -1.0) if s % 2 == 0 else (-1.0, 1.0), seed=s,
                                  labels=("a", "b") if s % 2 == 0 else ("b", "a"), env_id="toy_v0")
                      for s in range(40)])
        report = write_report(store, tmp_path / "out", bootstrap=10, progress=False)
    page = report.with_name("report.html").read_text()
    replays = sorted(p.name for p in (tmp_path / "out" / "games").glob("*.html"))
    assert replays and not stale.exists() and keep.exists()
    assert all(f'href="games/{name}"' in page for name in replays)
    assert "no replay: unknown env id 'toy_v0'" in page
    for line in read_headlines(report):
        assert line.split(" (")[0] in page.replace("<strong>", "").replace("</strong>", "")


def test_replays_are_bounded_and_one_page_serves_every_headline_that_links_it(tmp_path):
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import import_object

    factory = lambda **kwargs: make_env("tempo_duel_v0", **kwargs)  # noqa: E731
    policy = (PolicySpec("random", import_object(POLICY_FACTORIES["random"])),
              PolicySpec("random2", import_object(POLICY_FACTORIES["random"])))
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(Tournament(factory, policy, games_per_pair=4), store, workers=0, progress=False)
        records = list(store.records())
    links = write_replays({"one": [Example(r) for r in records[:3]], "two": [Example(r) for r in records[1:]]},
                          tmp_path / "games", limit=2, report=tmp_path / "report.html")
    assert [link.href for link in links["one"]][:2] == [f"games/{r.key}.html" for r in records[:2]]
    assert links["two"][0] == links["one"][1] and links["two"][-1].href is None
    assert "over the report's 2 replays" in links["two"][-1].why
    assert len(list(Path(tmp_path / "games").glob("*.html"))) == 2
    page = (tmp_path / links["one"][0].href).read_text()
    assert '"report":"../report.html"' in page  # each replay links back to the report that links it


def test_a_crafted_game_key_never_names_a_file_outside_the_replays_folder(tmp_path):
    from issoku.agents.registry import POLICY_FACTORIES
    from issoku.envs.registry import import_object

    factory = lambda **kwargs: make_env("tempo_duel_v0", **kwargs)  # noqa: E731
    random = import_object(POLICY_FACTORIES["random"])
    with MatchStore(tmp_path / "m.sqlite") as store:
        run_tournament(Tournament(factory, (PolicySpec("r1", random), PolicySpec("r2", random)), games_per_pair=1),
                       store, workers=0, progress=False)
        record = next(store.records())
    crafted = replace(record, key="../../escaped")
    links = write_replays({"x": [Example(crafted)]}, tmp_path / "out" / "games")
    written = [p.relative_to(tmp_path) for p in tmp_path.rglob("*.html")]
    assert len(written) == 1 and written[0].parts[:2] == ("out", "games") and ".." not in links["x"][0].href

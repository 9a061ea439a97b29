"""The edit to try: a concrete data edit, verified on fresh seeds, that ends every rules headline.

A headline that says "ono against the field: +32 pts" tells a designer what is wrong, not what to do. This module
searches the headline's own content for the one-step edit that brings the loadout back toward an even score, and
verifies it on seeds the search never played, within a stated game budget (a restriction's headline and the first
mover's: see below):

1. **Scope**: the numbers (dice pools ``XkY`` as their rolled and kept halves, :mod:`issoku.rules.variant`) of the
   content the headline names in its ``data:`` list, then of the content the loadout owns
   (:mod:`issoku.evaluation.design.locality`: its fighter's sheet, weapon, armour, stances), among the data files its env
   reads. Each number gives two candidates, one step down and one up (:func:`issoku.evaluation.design.levers.make_levers`);
   those the data schema refuses are dropped.
2. **Screen**: the base rules and every candidate play the loadout's games against every other loadout of its
   study (scripted agents only: they are cheap and their play is the rules', not a checkpoint's) at
   :data:`SCREEN_GAMES` per pairing on the seeds from ``base_seed +`` :data:`SCREEN_SEED_OFFSET`, paired game by
   game. A candidate whose games were all played exactly as the base's touched nothing any agent did (inert) and
   is dropped. Of the rest, the one to verify is the one whose screened score (the headline's score plus the
   candidate's paired move) lands closest to even (:func:`balancing_edit`), the smaller move on a tie; the clause
   says whether the screen put it within the balanced band (an even score ± the report's balance threshold). Why
   not the smallest edit that reaches the band: a screen of two games a pairing measures a move to about ±6 to ±9
   points (one standard error, the median of the shipped rules' unarmed, staff and ono searches), wider than the
   band, so the smallest edit in it is the one the screen's noise put at the band's near edge. For the same reason
   the screen's closest is chosen with a second look: the :data:`FINALISTS` candidates it puts closest to even,
   and the base, play a second screen on other fresh seeds (``base_seed +`` :data:`RESCREEN_SEED_OFFSET`), and the
   one that second screen puts closest to even is verified. Picking the closest of many noisy moves favours the
   ones whose noise ran toward even (the staff's 33 % edited to a screened 50 % that played 69 % on fresh games);
   the second screen's moves carry no such selection.
3. **Verify**: that candidate and the base play again on fresh seeds (``base_seed +``
   :data:`VERIFY_SEED_OFFSET`), at what :data:`VERIFY_SHARE` of the budget buys per pairing (at least
   ``verify_games``). The edit is *verified* when the paired move of the
   loadout's score has a 95 % interval that excludes zero in the balancing direction. The clause says where the
   edited score landed on the fresh games: within the band, short of it, or wholly past it on the other side of
   even (*with care*: it overshoots).

A **restriction headline** ("learned leans on half_step:close") is searched the same way (a :class:`Probe` says
what plays and which figure is read): its scope is the restricted actions' content, its games the battery's own
policy restricted as the battery restricted it against itself, unrestricted, in the battery's loadouts
(:data:`RESTRICTED_SCREEN_GAMES` a candidate on the screen: one pairing, so two games would measure nothing), and
the figure the restricted policy's score, brought toward even. A restricted action with no data number (a rule
such as ``yield``) says so. The **first mover**'s edge is settled before the first decision by the initiative
rules: no data item of the play carries it, so its clause says no number is in scope, and nothing is played.

A **combo headline** (a composition buying several times the median Wounds per Energy) has no games to play: its
figure is the engine's expectation against a fixed defender (:mod:`issoku.evaluation.design.combos`). Its candidates are
the numbers of the combo's own techniques, each one step in the direction that makes the technique cheaper to
answer (:data:`WEAKER`: a cost up, a damage, check bonus or [Direct] down), at most :data:`COMBO_CANDIDATES`; each
recomputes the weapon's cells under the edit on a fresh seed, as does the base, and the one that brings the
combo's multiple of the median closest to 1 is *verified* when its band (±1.96 standard errors, 0 when exact) lies
wholly below the base's. The weapon's cells are kept in the edits' store, so a rerun computes nothing.

The **budget** counts scheduled games (base and candidates, both screens and the verification): the verification's
and the second screen's are set aside first; the screen takes candidates in scope order while their games fit. Every game goes into a match store beside the
report's (:func:`edits_store`), keyed by the rules' content, so a rerun plays nothing (the candidates' variant
folders sit under the report's ``edits/`` folder). ``balance-report --edit-budget`` sets it per headline (0: no search).
"""

from __future__ import annotations

import hashlib
import math
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path

from issoku.envs.registry import resolve_env
from issoku.evaluation.design.combos import ATTACK_PREFIX, ComboCell, ComboJob, ComboTable, combo_job
from issoku.evaluation.games.config import ComboTableConfig, StudyConfig, build_tournament
from issoku.evaluation.games.match import rules_fingerprint
from issoku.evaluation.reports.findings import SCRIPTED, Finding, agent_kind, agent_kinds
from issoku.evaluation.design.levers import Lever, make_levers, read_files
from issoku.evaluation.design.locality import ownership
from issoku.evaluation.design.peers import field_name
from issoku.evaluation.games.records import MatchRecord, canonical_json
from issoku.evaluation.games.studies import restricted_action_names
from issoku.evaluation.design.restricted import restricted_tournament, restriction_name
from issoku.evaluation.reports.rule_trail import words
from issoku.evaluation.stats.paired import PairedDifference
from issoku.evaluation.games.store import MatchStore
from issoku.evaluation.games.tournament import Loadout, MatchSpec, Tournament, run_tournament, schedule
from issoku.evaluation.design.variants import changed_twins, paired_shifts, with_variant
from issoku.rules.kernel.content import DataError, read_toml
from issoku.rules.variant import NumericField, Variant, data_diff, numeric_fields, write_override
from issoku.common.backend import Workers
from issoku.common.outcomes import wilson

COMBO_EDIT = "combo_edit"
"""The artifact kind of a weapon's combo cells under an edit, in the edits' store."""
EDIT_BUDGET = 1_500
"""Default games per headline (``balance-report --edit-budget``): the whole search, screen and verification."""
SCREEN_GAMES = 2
"""Games per pairing of the screen (one with each seat order)."""
VERIFY_GAMES = 10
"""Least games per pairing of the verification, per version (base and edit)."""
VERIFY_SHARE = 0.5
"""The share of the budget the verification takes (base and edit together; even games per pairing)."""
RESTRICTED_SCREEN_GAMES = 20
"""Games per pairing of a restriction's screen: its battery is one pairing (restricted against unrestricted) in
few loadouts, so two games would measure nothing."""
FINALISTS = 3
"""Candidates the first screen puts closest to even that play the second screen."""
SCREEN_SEED_OFFSET = 2_000_000
RESCREEN_SEED_OFFSET = 2_500_000
VERIFY_SEED_OFFSET = 3_000_000
"""The screens' and the verification's seeds start this far above the study's: ranges the report never played."""


@dataclass(frozen=True)
class Suggestion:
    """The outcome of one headline's search: the best candidate (None: none screened) and its fresh-seed figures."""

    label: str
    candidates: int
    """Candidates screened (those the data refuses left out)."""
    spent: int
    """Scheduled games of the search, screen and verification."""
    budget: int
    change: str = ""
    fresh: PairedDifference | None = None
    """The loadout's score, base → edit, on the verification's fresh seeds (paired)."""
    low: float = 0.0
    high: float = 1.0
    """The edited score's 95 % Wilson interval on the fresh seeds."""
    toward: int = -1
    """The direction that balances: -1 (the loadout is above an even score), +1 (below)."""
    why: str = ""
    """Why no candidate was screened (no number in scope, no scripted agent...)."""
    band: float = 0.05
    """The balanced band: an even score ± this (the report's balance threshold)."""
    reached: bool = False
    """The second screen put the chosen edit within the band, not only closest to it."""
    agents: str = "scripted agents"
    """Who played the search's games, as the clause names them."""

    @property
    def verified(self) -> bool:
        """The fresh paired move's interval excludes zero in the balancing direction."""
        r = self.fresh
        return r is not None and (r.high < 0 if self.toward < 0 else r.low > 0)

    @property
    def overshoots(self) -> bool:
        """The edited score's whole interval lies past the band on the other side of even: the edit overcorrects."""
        return self.verified and (self.high < 0.5 - self.band if self.toward < 0 else self.low > 0.5 + self.band)

    def landing(self) -> str:
        """Where the edited score's fresh interval lies against the band: within it, short of it, or neither."""
        if self.low >= 0.5 - self.band and self.high <= 0.5 + self.band:
            return "within"
        short = self.low > 0.5 + self.band if self.toward < 0 else self.high < 0.5 - self.band
        return "short" if short else ""

    def text(self) -> str:
        """The clause ending the headline: the edit and its fresh-seed figures, or that none was verified."""
        scope = (f"{self.candidates} edit{'s' * (self.candidates != 1)} of its content screened, "
                 f"{self.spent:,} of a {self.budget:,}-game budget, {self.agents}")
        if self.fresh is None:
            return f"no edit found within a {self.budget:,}-game budget ({self.why or scope})"
        r = self.fresh
        figures = (f"{self.label} {r.base:.0%} → {r.variant:.0%} [{self.low:.0%}, {self.high:.0%}] on {r.n:,} "
                   f"fresh games")
        band = f"±{100 * self.band:g} pts of even"
        chosen = (f"the screened edit closest to even, within {band} on a second screen" if self.reached
                  else f"none came within {band} on a second screen: the closest")
        if self.overshoots:
            return (f"try `{self.change}` with care: {figures}, past even (it overshoots: a smaller step or another "
                    f"field; {chosen}; {scope})")
        if self.verified:
            landed = {"within": f", within {band}", "short": f", still short of {band}"}.get(self.landing(), "")
            return f"try `{self.change}`: {figures}{landed} ({chosen}; {scope})"
        return (f"no edit verified within a {self.budget:,}-game budget (best screened: `{self.change}`: {figures}, "
                f"move {100 * r.delta:+.1f} pts [{100 * r.low:+.1f}, {100 * r.high:+.1f}], not significant; {scope})")


def in_scope(numbers: Sequence[NumericField], names: dict[NumericField, str], data: Sequence[str],
             owns: Callable[[NumericField], bool]) -> list[NumericField]:
    """The numbers a headline's search edits, in order: those inside a content item of ``data`` (``technique:
    unarmed.strike``: every token of ``unarmed.strike`` in the number's name), then those ``owns`` keeps."""
    wanted = [words(item.split(":", 1)[-1]) for item in data]
    named = [n for n in numbers if any(tokens and tokens <= words(names[n]) for tokens in wanted)]
    return named + [n for n in numbers if n not in named and owns(n)]


def _figure(records_base: Sequence, records_edit: Sequence, env_id: str, figure: str) -> PairedDifference | None:
    found = [s for s in paired_shifts(env_id, records_base, records_edit) if s.figure == figure]
    return found[0].result if found else None


COMBO_CANDIDATES = 4
"""Edits of a combo's techniques computed at most (each recomputes the weapon's cells, about 2 s on the breath duel)."""
WEAKER = {"cost": 1}
"""The step that makes a technique weaker, per field (any other field: one down)."""


@dataclass(frozen=True)
class ComboEdit:
    """One combo headline's outcome: the edit (none: none gained), the multiple of the median before and after on the
    fresh seed, each with its band."""

    combo: str
    candidates: int
    change: str = ""
    before: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    after: tuple[float, float, float] = (math.nan, math.nan, math.nan)
    why: str = ""

    @property
    def verified(self) -> bool:
        """The edited multiple's band lies wholly below the base's (on the same fresh seed)."""
        return bool(self.change) and self.after[2] < self.before[1]

    def text(self) -> str:
        """The clause ending the combo headline."""
        scope = f"{self.candidates} edit{'s' * (self.candidates != 1)} of its techniques computed on a fresh seed"
        if not self.change:
            return f"no edit found ({self.why or scope})"
        figures = (f"{self.before[0]:.2f}× → {self.after[0]:.2f}× the median [{self.after[1]:.2f}, "
                   f"{self.after[2]:.2f}]")
        if self.verified:
            return f"try `{self.change}`: {figures} ({scope})"
        return f"no edit verified (best: `{self.change}`: {figures}, within the base's band; {scope})"


def _band(cell: ComboCell, median: float) -> tuple[float, float, float]:
    spread = 0.0 if cell.exact else 1.96 * cell.wounds_se
    return (cell.wounds_per_energy / median, (cell.wounds - spread) / cell.energy / median,
            (cell.wounds + spread) / cell.energy / median)


class Suggester:
    """Searches each loadout headline's content for a verified edit (see the module docstring); one per report."""

    def __init__(self, studies: Sequence[StudyConfig], store: MatchStore, out: Path, budget: int = EDIT_BUDGET,
                 workers: Workers = 0, verify_games: int = VERIFY_GAMES,
                 combo_tables: Mapping[str, ComboTable] | None = None, band: float = 0.05) -> None:
        self.combo_tables = dict(combo_tables or {})
        self.band = band
        self.studies = list(studies)
        self.store = store
        self.out = Path(out)
        self.budget = budget
        self.workers = workers
        self.verify_games = verify_games

    def clause(self, finding: Finding, data: Sequence[str]) -> str:
        """The headline's closing clause: a verified edit of its own content, or why none was found, for a
        loadout, a combo, a restriction and the first mover ("" for a budget 0)."""
        if self.budget <= 0 or not finding.about:
            return ""
        kind = finding.about[0]
        if kind == "first":
            return first_mover_clause(self.budget, data)
        if finding.kind == "ratio":
            attacks = tuple(sorted(a.removeprefix(ATTACK_PREFIX) for a in finding.about[1:]
                                   if a.startswith(ATTACK_PREFIX)))
            if finding.env not in self.combo_tables or not attacks:
                return ComboEdit(finding.subject.replace("**", ""), 0, why="no combo table of its techniques").text()
            return self.combo(finding.env, attacks, data).text()
        score = finding.effect + 0.5
        if kind == "loadout":
            return self.search(finding.env, finding.about[1], data, -1 if finding.effect > 0 else 1, score).text()
        if kind == "actions" and finding.players:  # a restriction: its effect is the drop, ½ − the restricted score
            restricted = 0.5 - finding.effect
            return self.restriction(finding.env, finding.players[0], finding.about[1:], data,
                                    1 if restricted < 0.5 else -1, restricted).text()
        return ""

    def _weapon_cells(self, env: str, weapon: str, folder: Path | None, config: ComboTableConfig,
                      seed: int) -> list[ComboCell]:
        """The weapon's combo cells under ``folder``'s rules (None: the base), from the edits' store or computed."""
        kwargs = {"variant": str(folder)} if folder is not None else {}
        factory = resolve_env(env)
        probe = factory(**kwargs)
        try:
            fingerprint = rules_fingerprint(probe)
        finally:
            probe.close()
        key = hashlib.sha256(canonical_json({"env": env, "rules": fingerprint, "weapon": weapon, "seed": seed,
                                             "table": config.model_dump()}).encode()).hexdigest()
        stored = self.store.artifact(key)
        if stored is None:
            cells = combo_job(ComboJob(factory, kwargs, weapon, config.samples, config.exact_dice, seed))
            stored = ComboTable(tuple(cells)).to_json()
            self.store.put_artifact(key, env, COMBO_EDIT, stored)
        return list(ComboTable.from_json(stored).cells)

    def combo(self, env: str, attacks: tuple[str, ...], data: Sequence[str]) -> ComboEdit:
        """Weaken the combo's techniques one step at a time (module docstring) and recompute its weapon's cells."""
        table = self.combo_tables[env]
        weapon = attacks[0].split(".", 1)[0]
        name = f"{weapon}: " + " + ".join(key.split(".", 1)[1] for key in attacks)
        config = next((study.combo_table for study in self.studies if study.env == env and study.combo_table), None)
        if config is None:
            return ComboEdit(name, 0, why=f"no study of {env} computes a combo table")
        files = read_files(self._any_tournament(env))
        numbers = [n for f in files for n in _with_defaults(f)]
        raws = {file: read_toml(Variant().path(file)) for file in files}
        names = {n: field_name(raws[n.file], n) for n in numbers}
        scope = in_scope(numbers, names, [f"technique:{key}" for key in dict.fromkeys(attacks)], lambda n: False)
        steps = [(n, n.value + WEAKER.get(str(n.address[-1]), -1)) for n in scope][:COMBO_CANDIDATES]
        seed = self._seed(env) + VERIFY_SEED_OFFSET
        others = [cell for cell in table.cells if cell.weapon != weapon]

        def multiple(cells: Sequence[ComboCell]) -> tuple[float, float, float] | None:
            ranked = ComboTable(tuple([*others, *cells])).suspicious()
            found = [(cell, ratio) for cell, ratio in ranked if tuple(sorted(cell.composition)) == attacks
                     and not cell.aim]
            if not found:
                return None
            cell, ratio = found[0]
            return _band(cell, cell.wounds_per_energy / ratio)

        before = multiple(self._weapon_cells(env, weapon, None, config, seed))
        if before is None:
            return ComboEdit(name, 0, why="the combo is not in its weapon's recomputed cells")
        tried: list[tuple[float, str, tuple[float, float, float]]] = []
        for number, value in steps:
            folder = self.out / "edits" / _slug(env) / _slug(name) / _slug(f"{names[number]}_{value}")
            try:
                change = data_diff(Variant(), write_override(folder, number, value)).pop()
                Variant(folder).validate()
            except (DataError, IndexError):
                continue  # a step the data refuses is no candidate
            after = multiple(self._weapon_cells(env, weapon, folder, config, seed))
            if after is not None:
                tried.append((abs(after[0] - 1.0), str(change), after))
        if not tried:
            return ComboEdit(name, 0, why="no number of its techniques takes a step the data allows")
        _, best, after = min(tried, key=lambda item: (item[0], item[1]))
        return ComboEdit(name, len(tried), best, before, after)

    def _seed(self, env: str) -> int:
        return next((study.base_seed for study in self.studies if study.env == env), 0)

    def _any_tournament(self, env: str) -> Tournament:
        return build_tournament(next(study for study in self.studies if study.env == env))

    def _tournament(self, env: str, label: str) -> tuple[Tournament, StudyConfig] | None:
        """The first study of ``env`` fielding ``label``, with its scripted policies only."""
        for study in self.studies:
            if study.env != env:
                continue
            tournament = build_tournament(study)
            if not any(label in loadout.seat_labels for loadout in tournament.loadouts):
                continue
            scripted = tuple(p for p in tournament.policies if agent_kind(p.name) == SCRIPTED)
            if scripted:
                return replace(tournament, policies=scripted, pairings=None), study
        return None

    def _play(self, tournament: Tournament, todo: Sequence[tuple[Loadout, MatchSpec]], folder: Path | None) -> list:
        """Play (resuming) the games of ``todo`` under the rules ``folder`` (None: the base) and read them back."""
        version = with_variant(tournament, folder)
        wanted = {(loadout.name, spec.seed, spec.policies) for loadout, spec in todo}
        scheduled = [(loadout, spec) for loadout, spec in schedule(version)
                     if (loadout.name, spec.seed, spec.policies) in wanted]
        run_tournament(version, self.store, workers=self.workers, progress=False, scheduled=scheduled)
        return [record for record in (self.store.record(spec.key) for _, spec in scheduled) if record is not None]

    def search(self, env: str, label: str, data: Sequence[str], toward: int, score: float | None = None) -> Suggestion:
        """Screen and verify the edits of ``label``'s content in ``env`` (``toward``: the balancing direction;
        ``score``: the loadout's score in the report, which the screen's paired moves start from)."""
        found = self._tournament(env, label)
        if found is None:
            return Suggestion(label, 0, 0, self.budget, why=f"no study fields {label} with a scripted agent",
                              band=self.band)
        tournament, study = found
        files = read_files(tournament)
        owned = ownership(tournament.loadouts, [label], Variant(), files)
        probe = Probe(label, f"loadout {label}: score", tournament, partial(_meets, label=label), SCREEN_GAMES,
                      lambda record: [record.score(seat) for seat in (0, 1) if record.seat_labels[seat] == label])
        return self._search(env, probe, study.base_seed, data, owned.owns, toward, score)

    def restriction(self, env: str, base: str, banned: Sequence[str], data: Sequence[str], toward: int,
                    score: float | None = None) -> Suggestion:
        """Screen and verify the edits of a restriction's content: the restricted ``base`` against itself, as the
        battery played it (its policy, its loadouts), the restricted score brought toward even (``toward``)."""
        name = restriction_name(base, banned)
        study = next((s for s in self.studies if s.env == env and s.restricted_play is not None), None)
        if study is None:
            return Suggestion(name, 0, 0, self.budget, why=f"no study of {env} plays a restricted-play battery",
                              band=self.band)
        played = build_tournament(study)
        spec = {p.name: p for p in played.policies}.get(base)
        actions, loadouts = restricted_action_names(study, played)
        if spec is None or any(action not in actions for action in banned):
            return Suggestion(name, 0, 0, self.budget, why=f"the battery of {env} does not field {name}",
                              band=self.band)
        tournament = restricted_tournament(spec, [tuple(banned)], actions, played.env_factory, loadouts, 2)
        probe = Probe(name, f"policy {name}: score", tournament, lambda loadout, spec: True, RESTRICTED_SCREEN_GAMES,
                      lambda record: [record.score(seat) for seat in (0, 1) if record.policies[seat] == name],
                      agent_kinds([base]) + " agents")
        return self._search(env, probe, study.base_seed, data, lambda number: False, toward, score)

    def _screen(self, tournament: Tournament, todo: Sequence[tuple[Loadout, MatchSpec]], levers: Sequence[Lever],
                figure: str, keep_inert: bool = False) -> list[tuple[PairedDifference, Lever]]:
        """Each lever's paired move of ``figure`` against the base on ``todo``'s games; a lever whose games were
        all played exactly as the base's (inert: no agent's decision reached it) is left out unless ``keep_inert``
        (a finalist already showed it matters: on other seeds a move of 0 is its measurement)."""
        base = self._play(tournament, todo, None)
        moves: list[tuple[PairedDifference, Lever]] = []
        for lever in levers:
            edited = self._play(tournament, todo, lever.folder)
            move = _figure(base, edited, base[0].env_id, figure) if base else None
            if move is not None and (keep_inert or changed_twins(base, edited)):
                moves.append((move, lever))
        return moves

    def _search(self, env: str, probe: Probe, seed: int, data: Sequence[str], owns: Callable[[NumericField], bool],
                toward: int, score: float | None) -> Suggestion:
        """Screen the one-step edits of the numbers in scope (``data``'s, then those ``owns`` keeps) on the probe's
        games, keep those that changed a decision, screen the ones it puts closest to even again on other seeds, and
        verify the one the second screen puts closest to even on fresh seeds, all within the budget."""
        def none(why: str, spent: int = 0) -> Suggestion:
            return Suggestion(probe.name, 0, spent, self.budget, why=why, band=self.band, agents=probe.agents)

        files = read_files(probe.tournament)
        numbers = [n for f in files for n in numeric_fields(f)]
        names = {n: field_name(read_toml(Variant().path(n.file)), n) for n in numbers}
        scope = in_scope(numbers, names, data, owns)
        if not scope:
            named = ", ".join(f"`{item}`" for item in data) or "its data"
            return none(f"no number of {named} is in the files its env reads: the rules it rests on set it")
        base_screen, screen_todo = probe.games(probe.screen_games, seed + SCREEN_SEED_OFFSET)
        pairings = len(screen_todo) // probe.screen_games
        per_pairing = max(self.verify_games, int(self.budget * VERIFY_SHARE) // (2 * max(pairings, 1)) // 2 * 2)
        base_verify, verify_todo = probe.games(per_pairing, seed + VERIFY_SEED_OFFSET)
        second = (FINALISTS + 1) * len(screen_todo)  # the finalists' and the base's second screen, set aside
        reserved = 2 * len(verify_todo) + len(screen_todo) + second  # with the verification and the base's screen
        left = self.budget - reserved
        if left < len(screen_todo):
            return none(f"the verification and the screens' base games alone take {reserved:,} games")
        wanted = set(scope)
        levers = make_levers(self.out / "edits" / _slug(env) / _slug(probe.name), 1, files,
                             keep=lambda n: n in wanted)
        levers = [lever for lever in levers if lever.status == "played"]
        order = {n: i for i, n in enumerate(scope)}
        levers.sort(key=lambda lever: order.get(lever.number, len(order)))
        levers = levers[:left // len(screen_todo)]
        spent = 2 * len(verify_todo) + len(screen_todo) * (len(levers) + 1)
        moves = self._screen(base_screen, screen_todo, levers, probe.figure)
        if not moves:
            return none(f"none of the {len(levers)} edits screened changed a decision of any game", spent)
        finalists = [lever for _, lever in closest_edits(moves, score, FINALISTS)]
        base_second, second_todo = probe.games(probe.screen_games, seed + RESCREEN_SEED_OFFSET)
        spent += len(second_todo) * (len(finalists) + 1)
        second_moves = self._screen(base_second, second_todo, finalists, probe.figure, keep_inert=True)
        best, reached = balancing_edit(second_moves or moves, score, self.band)
        fresh_base = self._play(base_verify, verify_todo, None)
        fresh_edit = self._play(base_verify, verify_todo, best.folder)
        move = _figure(fresh_base, fresh_edit, fresh_base[0].env_id, probe.figure)
        scores = [value for record in fresh_edit for value in probe.score(record)]
        interval = wilson(sum(scores), len(scores))
        return Suggestion(probe.name, len(levers), spent, self.budget, str(best.change), move, interval.low,
                          interval.high, toward, band=self.band, reached=reached, agents=probe.agents)


@dataclass(frozen=True)
class Probe:
    """What one headline's search plays and reads: the games (a tournament, the scheduled games that count) and the
    figure of :func:`~issoku.evaluation.design.variants.paired_shifts` that measures the headline."""

    name: str
    """What the clause names (a loadout, a restricted policy)."""
    figure: str
    tournament: Tournament
    counts: Callable[[Loadout, MatchSpec], bool]
    """Which scheduled games of the tournament the search plays."""
    screen_games: int
    """Games per pairing of the screen."""
    score: Callable[[MatchRecord], list[float]]
    """The headline side's score(s) in one game."""
    agents: str = "scripted agents"

    def games(self, games: int, seed: int) -> tuple[Tournament, list[tuple[Loadout, MatchSpec]]]:
        """The tournament at ``games`` per pairing from ``seed``, and its scheduled games that count."""
        sized = replace(self.tournament, games_per_pair=games, base_seed=seed)
        return sized, [(loadout, spec) for loadout, spec in schedule(sized) if self.counts(loadout, spec)]


def balancing_edit(moves: Sequence[tuple[PairedDifference, Lever]], score: float | None,
                   band: float) -> tuple[Lever, bool]:
    """The edit to verify, and whether the screen put it within ``band`` of even: the one whose screened score
    (``score``, the headline's, plus the edit's paired move; the screen's own base score without one) ends closest to
    even, the smaller move on a tie (so an edit that overshoots past even never beats one that balances as well)."""
    move, lever = closest_edits(moves, score, 1)[0]
    return lever, abs(_after(move, score) - 0.5) <= band


def closest_edits(moves: Sequence[tuple[PairedDifference, Lever]], score: float | None,
                  count: int) -> list[tuple[PairedDifference, Lever]]:
    """The ``count`` screened edits whose score after the move ends closest to even, the smaller move first on a
    tie (:func:`balancing_edit`'s order)."""
    return sorted(moves, key=lambda item: (round(abs(_after(item[0], score) - 0.5), 9), abs(item[0].delta),
                                           item[1].name))[:count]


def _after(move: PairedDifference, score: float | None) -> float:
    """The headline's score (the screen's own base score without one) plus the edit's paired move."""
    return (move.base if score is None else score) + move.delta


def first_mover_clause(budget: int, data: Sequence[str]) -> str:
    """The first mover's closing clause. Its edge is settled before the first decision, by the initiative rules
    the headline rests on: no data item of the play carries it (``data`` is empty for the opening), so no number is
    in a search's scope and nothing is played; the clause says so in the words of every other search that found
    nothing."""
    why = ("no number of its data is in scope: the edge is settled by the initiative rules it rests on, a rules "
           "choice, not a data field" if not data else "no search of its data is defined")
    return Suggestion("the first mover", 0, 0, budget, why=why).text()


def _with_defaults(relative: str) -> list[NumericField]:
    """Every number of the file, with those it leaves at their schema value where the schema is known."""
    try:
        return numeric_fields(relative, defaults=True)
    except KeyError:  # a file without a lever schema (the spells' data): the numbers it sets
        return numeric_fields(relative)


def edits_store(db: Path) -> Path:
    """The match store of the edits' games, beside the report's (``matches.sqlite``: ``matches.edits.sqlite``).
    Why not the report's own: the report analyses every game its store holds, and the base rules' screen and
    verification games would join its sections (and every candidate's rules version get one of its own)."""
    db = Path(db)
    return db.with_name(f"{db.stem}.edits{db.suffix or '.sqlite'}")


def _meets(loadout: Loadout, spec: MatchSpec, label: str) -> bool:
    labels = loadout.seat_labels
    return label in labels and len(set(labels)) > 1


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9_.-]+", "_", text).strip("._") or "x"


__all__ = ["COMBO_CANDIDATES", "ComboEdit", "WEAKER", "EDIT_BUDGET", "edits_store", "first_mover_clause", "Probe",
           "RESTRICTED_SCREEN_GAMES", "RESCREEN_SEED_OFFSET", "SCREEN_GAMES", "SCREEN_SEED_OFFSET", "balancing_edit",
           "closest_edits", "FINALISTS", "Suggester",
           "Suggestion", "VERIFY_GAMES", "VERIFY_SHARE", "VERIFY_SEED_OFFSET", "in_scope"]

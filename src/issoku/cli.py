"""The ``issoku`` command: one entry point, each subcommand owned by the layer that does the work.

Subcommands import their layer lazily so that ``issoku --help`` stays fast and a layer's heavy
dependencies (torch) load only when used.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, Optional

import typer

from issoku.common.inputs import MAX_SEED
from issoku.rules.encounters.ruleset import EncounterConfig
from issoku.rules.tempo.ruleset import TempoConfig
from issoku.training.config import TrainConfig

if TYPE_CHECKING:
    from issoku.evaluation.games.config import StudyConfig

TRAIN_DEFAULTS = TrainConfig()  # what train does with an option left out; stdlib-only, so --help stays fast
BACKEND = typer.Option("local", "--backend", help="Where the jobs run: local (this machine's process pool, the default) or ray (a Ray cluster; pip install 'issoku[ray]'; docs/scale.md).")
RAY_ADDRESS = typer.Option(None, "--ray-address", help="With --backend ray: the cluster's address (ray start --head prints it); default: RAY_ADDRESS, else a Ray instance started on this machine.")

app = typer.Typer(help="issoku: a reinforcement-learning lab for tabletop combat rules.", no_args_is_help=True,
                  add_completion=False)


@app.command()
def version() -> None:
    """Print the issoku version."""
    from issoku import __version__

    typer.echo(__version__)


DATA_HELP = ("Rules data file or folder replacing the shipped data (repeatable; the tempo and encounter rules read one "
             "folder); default: the shipped data.")
VARIANT_HELP = ("A rules variant folder (edited files at their paths under rules/) laid over the shipped data; not with "
                "--data. Default: none (the shipped rules).")
"""The duel commands' content options: the keywords every env takes (:mod:`issoku.envs.content`)."""


@app.command()
def duel(
    seed: int = typer.Option(7, help="Seed of the fight's dice (the same seed gives the same fight)."),
    fighter_a: str = typer.Option("kenshi", "--a", help="Archetype of side 0 (see rules/breath/data/archetypes.toml)."),
    fighter_b: str = typer.Option("ronin", "--b", help="Archetype of side 1."),
    weapon_a: str = typer.Option(None, help="Another weapon for side 0 (e.g. zanbato, yari, tanto); default: the archetype's own."),
    weapon_b: str = typer.Option(None, help="Another weapon for side 1; default: the archetype's own."),
    agent_a: str = typer.Option("heuristic", help="Scripted agent of side 0: aggressive, defensive, heuristic "
                                "(with --ma also distance_keeper), or any registered policy name."),
    agent_b: str = typer.Option("aggressive", help="Scripted agent of side 1."),
    data: list[str] = typer.Option(None, help=DATA_HELP),
    variant: Path = typer.Option(None, help=VARIANT_HELP),
    json_lines: bool = typer.Option(False, "--json", help="Print the event log as JSON lines."),
    ma: bool = typer.Option(False, "--ma", help="Fight a Ma and Blade duel (seed 000): distance, guard, hit locations."),
    kind: str = typer.Option("ikkiuchi", help="With --ma: ikkiuchi (starts at issoku itto) or hatashiai (far range)."),
    stage: str = typer.Option(None, help="With --ma: terrain stage (sandbar, narrow_path, high_ground, backlight); default: none (open ground)."),
    sparring: bool = typer.Option(False, help="With --ma: a sparring match (points, no wounds)."),
) -> None:
    """Play one seeded breath duel (or, with --ma, a Ma and Blade duel) between two scripted fighters and
    print its event log."""
    from issoku.envs import breath_duel_v0

    def ruleset() -> Any:
        fighters = [{"archetype": fighter_a, "weapon": weapon_a}, {"archetype": fighter_b, "weapon": weapon_b}]
        duel_options: dict[str, Any] = (dict(kind=kind, mode="sparring" if sparring else "shinken_shobu", stage=stage)
                                        if ma else {})
        return breath_duel_v0.make_ruleset([{k: v for k, v in f.items() if v is not None} for f in fighters], ma=ma,
                                           data=data or None, variant=variant, **duel_options)

    _play_duel("duel", ruleset, (agent_a, agent_b), ("ma_" if ma else "breath_",), seed, json_lines,
               lambda built: [sheet.name for sheet in built.sheets])


@app.command("tempo-duel")
def tempo_duel(
    seed: int = typer.Option(7, help="Seed of the duel's dice (the same seed gives the same duel)."),
    fighter_a: str = typer.Option(TempoConfig.fighters[0], "--a", help="Fighter of seat 0 (see rules/tempo/data/fighters.toml)."),
    fighter_b: str = typer.Option(TempoConfig.fighters[1], "--b", help="Fighter of seat 1."),
    agent_a: str = typer.Option("heuristic", help="Scripted agent of seat 0: always_parry, feint_counter, heuristic."),
    agent_b: str = typer.Option("always_parry", help="Scripted agent of seat 1."),
    start_distance: int = typer.Option(TempoConfig.start_distance, help="Squares between the fighters at the start (TP-G07)."),
    initiator: int = typer.Option(None, help="Seat that started the fight (TP-021): the other starts Off Guard; default: none (a formal duel, both On Guard)."),
    data: list[str] = typer.Option(None, help=DATA_HELP),
    variant: Path = typer.Option(None, help=VARIANT_HELP),
    json_lines: bool = typer.Option(False, "--json", help="Print the event log as JSON lines."),
) -> None:
    """Play one seeded tempo duel (003) between two scripted fighters and print its event log."""
    from issoku.envs import tempo_duel_v0

    _play_duel("tempo-duel", lambda: tempo_duel_v0.make_ruleset(
        TempoConfig((fighter_a, fighter_b), initiator, start_distance), data=data or None, variant=variant),
               (agent_a, agent_b), ("tempo_",), seed, json_lines, lambda built: list(built.fighters))


@app.command("encounter-duel")
def encounter_duel(
    seed: int = typer.Option(7, help="Seed of the encounter's dice (the same seed gives the same fight)."),
    fighter_a: str = typer.Option(EncounterConfig.fighters[0], "--a", help="Archetype of seat 0 (see rules/encounters/data/archetypes.toml)."),
    fighter_b: str = typer.Option(EncounterConfig.fighters[1], "--b", help="Archetype of seat 1."),
    agent_a: str = typer.Option("heuristic", help="Scripted agent of seat 0: aggressive, defensive, heuristic, random."),
    agent_b: str = typer.Option("aggressive", help="Scripted agent of seat 1."),
    start_distance: int = typer.Option(EncounterConfig.start_distance, help="Squares of 5 ft between the fighters at the start (EN-G10)."),
    data: list[str] = typer.Option(None, help=DATA_HELP),
    variant: Path = typer.Option(None, help=VARIANT_HELP),
    json_lines: bool = typer.Option(False, "--json", help="Print the event log as JSON lines."),
) -> None:
    """Play one seeded encounter duel (001) between two scripted fighters and print its event log."""
    from issoku.envs import encounter_duel_v0

    _play_duel("encounter-duel", lambda: encounter_duel_v0.make_ruleset(
        EncounterConfig((fighter_a, fighter_b), start_distance), data=data or None, variant=variant),
        (agent_a, agent_b), ("encounter_",), seed, json_lines, lambda built: list(built.fighters))


def _play_duel(command: str, make_ruleset: Callable[[], Any], agents: Sequence[str], prefixes: Sequence[str],
               seed: int, json_lines: bool, fighter_names: Callable[[Any], list[str]]) -> None:
    """The duel commands' one way: the ruleset from its env's ``make_ruleset``, the agents from the registry (a
    short name is the ruleset's own scripted agent: ``heuristic`` is ``ma_heuristic`` with --ma), one seeded
    fight played at engine level and printed."""
    from issoku.agents.play import play_fight
    from issoku.agents.registry import POLICY_FACTORIES, make_policy
    from issoku.common.inputs import BadInput, bounded, one_line_errors

    def registered(agent: str) -> str:
        for name in (*(prefix + agent for prefix in prefixes), agent):
            if name in POLICY_FACTORIES:
                return name
        own = sorted(name.removeprefix(prefix) for name in POLICY_FACTORIES for prefix in prefixes
                     if name.startswith(prefix))
        raise BadInput(f"unknown agent {agent!r}; choose from {', '.join(own)} or any registered policy "
                       f"({', '.join(POLICY_FACTORIES)})")

    with one_line_errors(command):
        bounded("--seed", seed, 0, MAX_SEED)
        policy_names = [registered(agent) for agent in agents]
        ruleset = make_ruleset()
        policies = [make_policy(name, seed=seed + seat, ruleset=ruleset) for seat, name in enumerate(policy_names)]
    state = play_fight(ruleset.new_initial_state(seed), policies)
    names = [f"{seat}({fighter},{agent})" for seat, fighter, agent in
             zip(ruleset.seat_names, fighter_names(ruleset), agents)]
    returns = state.returns()
    _print_fight(state, names, json_lines,
                 "a draw" if returns[0] == returns[1] else f"{names[0 if returns[0] > 0 else 1]} wins")


def _print_fight(state: Any, names: list[str], json_lines: bool, verdict: str) -> None:
    """A played fight for a person (every event, the final position, the verdict) or as JSON lines."""
    if json_lines:
        typer.echo(state.events.to_jsonl(), nl=False)
        return
    for event in state.events:
        typer.echo(event.describe(names))
    typer.echo("")
    typer.echo(state.render_text())
    typer.echo(verdict)


@app.command()
def replay(
    scenario: Optional[Path] = typer.Argument(None, help="A scenario TOML file (format: docs/envs.md), or a shipped one by name (breath_duel/closing_the_ma; --list names them)."),
    json_lines: bool = typer.Option(False, "--json", help="Print canonical JSON lines instead of text."),
    list_shipped: bool = typer.Option(False, "--list", help="Name the shipped scenarios and stop."),
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
) -> None:
    """Play a scenario and print its event log, rule by rule; a fight that breaks the file's expected events
    or final decision is printed, then the first difference (exit status 1)."""
    from issoku.envs.replay import format_jsonl, format_text
    from issoku.envs.scenario import ScenarioMismatch, check_scenario_file, shipped_scenario, shipped_scenario_names
    from issoku.evaluation.games.viewing import play_scenario
    from issoku.common.inputs import one_line_errors

    if list_shipped:
        typer.echo("\n".join(shipped_scenario_names()))
        return
    if scenario is None:
        typer.echo("replay: name a SCENARIO file or a shipped scenario (--list names them)", err=True)
        raise typer.Exit(2)
    mismatch = None
    scenario = shipped_scenario(scenario)
    with one_line_errors(f"replay {scenario}", also=(TypeError,)):  # TypeError: an env keyword the env lacks
        check_scenario_file(scenario, "SCENARIO")
        try:
            played = play_scenario(scenario, allow_imports=allow_imports)
        except ScenarioMismatch as error:
            played, mismatch = error.replay, error
    typer.echo(format_jsonl(played) if json_lines else format_text(played), nl=False)
    if mismatch is not None:
        typer.echo(f"replay {scenario}: {mismatch}", err=True)
        raise typer.Exit(1)


@app.command()
def view(
    scenario: Optional[Path] = typer.Argument(None, help="A scenario TOML file (or use --env/--seed, or --db/--game)."),
    env: Optional[str] = typer.Option(None, "--env", help="Env id of a seeded fight between --agent policies."),
    seed: int = typer.Option(0, "--seed", help="With --env: the fight's seed."),
    agent: list[str] = typer.Option(None, "--agent", "-a", help="With --env: a policy per seat, in seat order (the last one plays the remaining seats; default random): a registered policy, a checkpoint .zip or shipped:<env>, as in head-to-head."),
    env_kwargs: str = typer.Option("{}", "--env-kwargs", help='With --env: env keyword arguments as JSON, e.g. \'{"kind": "hatashiai"}\'.'),
    db: Optional[Path] = typer.Option(None, "--db", help="A match store (issoku balance-report's runs/balance/matches.sqlite)."),
    game: Optional[str] = typer.Option(None, "--game", help="With --db: the key of the stored game to show."),
    out: Path = typer.Option(Path("runs/view/fight.html"), "--out", help="The HTML file to write."),
    report: Optional[Path] = typer.Option(None, "--report", help="A report the page links back to (its report.html), by a path relative to the page; default: no link."),
) -> None:
    """Write a fight as one self-contained HTML page that steps through it decision by decision
    (position, legal actions, events with their rules, what each seat sees, a timeline of guard, Energy and
    wounds; autoplay)."""

    from issoku.envs.registry import UnknownNameError
    from issoku.envs.scenario import ScenarioError, check_scenario_file, shipped_scenario
    from issoku.envs.trace import TraceError
    from issoku.envs.viewer import write_html
    from issoku.evaluation.games.viewing import trace_fight, trace_scenario, trace_stored
    from issoku.common.inputs import bounded, check_input_file, check_output_file
    from issoku.rules.kernel.content import DataError

    sources = [name for name, given in (("SCENARIO", scenario), ("--env", env), ("--db/--game", db or game)) if given]
    try:
        bounded("--seed", seed, 0, MAX_SEED)
        if len(sources) != 1:
            raise ValueError("name one fight: a SCENARIO file, or --env (with --seed, --agent), or --db with --game")
        check_output_file("--out", out)  # a folder, or a place that cannot be written: before the fight is traced
        if report is not None:
            check_input_file(report, "--report")
        if scenario is not None:
            scenario = shipped_scenario(scenario)
            check_scenario_file(scenario, f"SCENARIO {scenario}")
            fight, title = trace_scenario(scenario)
        elif env is not None:
            fight, title = trace_fight(env, seed, agent or ["random"], _env_kwargs(env_kwargs))
        else:
            if db is None or game is None:
                raise ValueError("--db and --game go together")
            fight, title = trace_stored(db, game)
    except (DataError, ScenarioError, UnknownNameError, TraceError, ValueError, KeyError, TypeError) as error:
        typer.echo(f"view: {' '.join(str(error).split())}", err=True)
        raise typer.Exit(2) from None
    written = write_html(fight, out, title=title, report=report)
    typer.echo(f"{written}: {len(fight.frames) - 1} decisions of {fight.env} (open it in a browser; arrow keys step, "
               "Space plays)")


@app.command()
def train(
    env: Optional[str] = typer.Option(None, help=f"Env id: an issoku env, a PettingZoo classic id, or module:factory; default: {TRAIN_DEFAULTS.env_id} (or the --config file's, or the resumed run's)."),
    total_steps: Optional[int] = typer.Option(None, help=f"Learner steps in total (including those before a resume); default: {TRAIN_DEFAULTS.total_steps:,} (or the --config file's, or the resumed run's)."),
    seed: Optional[int] = typer.Option(None, help=f"Run seed (network, fights, seats, opponents); default: {TRAIN_DEFAULTS.seed} (or the --config file's)."),
    run_dir: Optional[str] = typer.Option(None, help="Run directory; default: runs/<env>-seed<seed>."),
    resume: bool = typer.Option(False, "--resume", help="Continue the run in --run-dir from its newest checkpoint."),
    config: Optional[str] = typer.Option(None, "--config", help="A TOML file of config fields, or a shipped config's name (reference_breath_duel); default: none (the built-in defaults)."),
    set_: list[str] = typer.Option([], "--set", help="Any other config field, as key=value (repeatable); see issoku.training.config; default: none (each field's default)."),
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
) -> None:
    """Train an agent by MaskablePPO self-play against a PFSP opponent pool (checkpoints, TensorBoard, resume)."""
    from issoku.training.selfplay import cli_train

    given = {"env_id": env, "total_steps": total_steps, "seed": seed, "run_dir": run_dir}
    cli_train({key: value for key, value in given.items() if value is not None}, set_, resume=resume,
              config_file=config, allow_imports=allow_imports)


@app.command()
def play(
    checkpoint: str = typer.Argument(..., help="A checkpoint .zip written by issoku train, or a folder written by issoku export; with --env, a registered agent (mcts_large, ma_heuristic)."),
    env: Optional[str] = typer.Option(None, "--env", help="Play a registered agent (the argument) on this env id instead of a checkpoint; default: none (the argument is a checkpoint)."),
    seat: Optional[int] = typer.Option(None, help="Your seat index (default: drawn from the seed)."),
    seed: int = typer.Option(0, help="Fight seed."),
    rung: Optional[int] = typer.Option(None, "--rung", min=1, help="With a ladder folder (issoku ladder): the rung to play, 1 = weakest; no default (a ladder folder needs it)."),
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
) -> None:
    """Duel an agent (a trained checkpoint, or with --env a registered one such as mcts_large) in the terminal,
    choosing your moves from a numbered menu of legal actions."""
    from issoku.training.play import play_in_terminal

    play_in_terminal(checkpoint, seat=seat, seed=seed, rung=rung, allow_imports=allow_imports, env_id=env)


@app.command()
def export(
    checkpoint: str = typer.Argument(..., help="A checkpoint .zip written by issoku train (its .json beside it)."),
    out: Path = typer.Option(..., "--out", help="Folder to write policy.onnx and manifest.json into."),
) -> None:
    """Export a trained agent as an opponent a game can embed: an ONNX graph (observation + action mask in,
    masked action probabilities out) and a JSON manifest (docs/opponents.md)."""
    from issoku.training.export import describe, export_checkpoint

    try:
        manifest = export_checkpoint(checkpoint, out)
    except (ValueError, FileNotFoundError) as error:  # CheckpointMismatchError, ConfigError, missing metadata
        typer.echo(f"export: {error}", err=True)
        raise typer.Exit(2) from None
    typer.echo(f"exported {describe(manifest)}")


@app.command()
def ladder(
    checkpoints: list[str] = typer.Argument(..., help="Checkpoint .zip files: snapshots of one run, weakest to strongest or in any order."),
    out: Path = typer.Option(..., "--out", help="Folder for the exports (snapshots/<name>/) and ladder.json."),
    suite: str = typer.Option("breath_duel_v0", "--suite", help="The benchmark suite whose Elo scale rates the rungs."),
    rungs: int = typer.Option(5, "--rungs", help="How many rungs to keep, spread from weakest to strongest."),
    temperature: list[float] = typer.Option([0.0, 1.0, 2.0, 4.0], "--temperature", "-t", help="Sampling temperatures to try per snapshot (0: argmax play); repeat."),
    target: Optional[float] = typer.Option(None, "--target", help="Print the rung closest to this many Elo over --over; default: none (no rung picked)."),
    over: str = typer.Option("random", "--over", help="With --target: the suite reference the target is relative to."),
    db: Path = typer.Option(Path("runs/ladder/matches.sqlite"), "--db", help="Match store (resumed if it exists)."),
    pair_games: Optional[int] = typer.Option(None, "--pair-games", help="Games each adjacent pair of rungs plays against each other (seats swapped); default: the suite's games per reference."),
    workers: Optional[int] = typer.Option(None, "--workers", "-j", help="Worker processes (0: play in this process; default: one per CPU)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
) -> None:
    """Build a difficulty ladder: each snapshot x temperature exported and rated on a suite's Elo scale; keep
    the rungs that spread most evenly, play each adjacent pair of rungs, rate the rungs on all their games, check
    the ratings predict the pairs held out and measure intransitivity; write it all to ladder.json
    (docs/opponents.md)."""
    from issoku.evaluation.strength.reference_suite import load_suite
    from issoku.evaluation.strength.ladder import (closest_rung, export_snapshots, format_ladder, pick_rungs, play_rung_pairs,
                                          rate_candidates, write_ladder)
    from issoku.evaluation.games.store import MatchStore
    from issoku.common.backend import make_backend

    from issoku.evaluation.games.preflight import check_checkpoints_fit_suite
    from issoku.common.inputs import bounded, check_output_dir, one_line_errors

    with one_line_errors("ladder"):  # DataError, CheckpointMismatchError, ExportError, a missing file
        bounded("--rungs", rungs, 1, 50)
        for value in temperature:
            bounded("--temperature", value, 0.0, 100.0)
        bounded("--workers", workers, 0, 256)
        bounded("--pair-games", pair_games, 1, 100_000)
        spec = load_suite(suite)
        if target is not None and over not in spec.reference_elo:
            raise ValueError(f"--over {over!r}: not a reference of suite {spec.name} "
                             f"(choose from {', '.join(spec.reference_elo)})")
        check_output_dir("--out", out)
        check_checkpoints_fit_suite(checkpoints, spec)  # before an export or the store is written
        folders = export_snapshots(checkpoints, out)
        with MatchStore(db, exclusive=True) as store:
            backend_workers = make_backend(backend, workers, ray_address)
            candidates = rate_candidates(folders, sorted(set(temperature)), spec, store, workers=backend_workers,
                                         root=out)
            check = play_rung_pairs(pick_rungs(candidates, rungs), spec, store, root=out, games_per_pair=pair_games,
                                    workers=backend_workers)
    chosen = check.rungs
    typer.echo(format_ladder(spec, check))
    typer.echo(f"ladder: {write_ladder(out, spec, check, candidates)}")
    if target is not None:
        wanted = spec.reference_elo[over] + target
        rung = closest_rung(chosen, wanted)
        if not chosen[0].low <= wanted <= chosen[-1].high:
            typer.echo(f"no rung reaches {target:+g} Elo over {over}: the ladder spans {chosen[0].elo - spec.reference_elo[over]:+.0f} "
                       f"to {chosen[-1].elo - spec.reference_elo[over]:+.0f} (train longer, or add stronger/weaker snapshots)")
        typer.echo(f"closest to {target:+g} Elo over {over}: {rung.name} at {rung.elo - spec.reference_elo[over]:+.0f} "
                   f"[{rung.low - spec.reference_elo[over]:+.0f}, {rung.high - spec.reference_elo[over]:+.0f}] over {over} "
                   f"(issoku play {out} --rung {chosen.index(rung) + 1})")


@app.command()
def styles(
    checkpoints: list[str] = typer.Argument(..., help="Checkpoint .zip files: the neutral agent first, then styled ones (issoku train --set style=...)."),
    out: Path = typer.Option(Path("runs/styles"), "--out", help="Folder for the exports (snapshots/<name>/)."),
    suite: str = typer.Option("breath_duel_v0", "--suite", help="The benchmark suite whose games measure strength and action shares."),
    db: Path = typer.Option(Path("runs/styles/matches.sqlite"), "--db", help="Match store (resumed if it exists)."),
    workers: Optional[int] = typer.Option(None, "--workers", "-j", help="Worker processes (0: play in this process; default: one per CPU)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
) -> None:
    """Measure play styles: each agent's strength on a suite's Elo scale (plain game, argmax play) and its action
    shares against the first (neutral) agent, as a Markdown table (docs/opponents.md)."""
    from issoku.evaluation.strength.reference_suite import load_suite
    from issoku.evaluation.games.store import MatchStore
    from issoku.evaluation.strength.styles import format_profiles, profile_styles
    from issoku.common.backend import make_backend

    from issoku.evaluation.games.preflight import check_checkpoints_fit_suite
    from issoku.common.inputs import bounded, check_output_dir, one_line_errors

    with one_line_errors("styles"):  # DataError, CheckpointMismatchError, ExportError, a missing file
        bounded("--workers", workers, 0, 256)
        spec = load_suite(suite)
        check_output_dir("--out", out)
        check_checkpoints_fit_suite(checkpoints, spec)  # before an export or the store is written
        with MatchStore(db, exclusive=True) as store:
            profiles = profile_styles(checkpoints, spec, store, out, workers=make_backend(backend, workers, ray_address))
    typer.echo(format_profiles(profiles))


@app.command()
def evaluate(
    checkpoint: str = typer.Argument(..., help="A checkpoint .zip written by issoku train."),
    opponent: str = typer.Option("random", help="Scripted agent: a registry name (ma_heuristic) or package.module:Factory."),
    duels: int = typer.Option(1000, help="Seeded duels; each fight seed is played twice, seats swapped."),
    seed: Optional[int] = typer.Option(None, help="Base fight seed; default: 20000003 (issoku.evaluation.strength.checkpoint_duels.DEFAULT_SEED)."),
    out: Optional[Path] = typer.Option(None, help="Also write the result, per seat and per matchup, to this JSON file; default: none (print only)."),
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
    workers: int = typer.Option(0, "--workers", "-j", help="Worker processes, each playing a slice of the duels (0: play in this process, the default)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
) -> None:
    """Duel a trained checkpoint against a scripted agent: win rate with a 95 % Wilson interval."""
    import json

    from issoku.agents.ablation import Ablation
    from issoku.evaluation.strength.checkpoint_duels import DEFAULT_SEED, duel_checkpoint
    from issoku.common.inputs import MAX_GAMES, bounded, check_output_file, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("evaluate"):
        bounded("--duels", duels, 1, MAX_GAMES)
        bounded("--seed", seed, 0, MAX_SEED)
        bounded("--workers", workers, 0, 1024)
        check_output_file("--out", out)
        result = duel_checkpoint(checkpoint, opponent, duels, DEFAULT_SEED if seed is None else seed,
                                 allow_imports=allow_imports, workers=make_backend(backend, workers, ray_address))
    typer.echo(f"{checkpoint} ({result['steps']} steps) vs {opponent}: won {result['wins']}/{result['duels']} "
               f"({result['win_rate']:.1%}, 95% CI {result['win_rate_low']:.1%}-{result['win_rate_high']:.1%}), "
               f"drew {result['draws']}, lost {result['losses']}")
    for seat, tally in result["by_seat"].items():
        typer.echo(f"  as seat {seat}: won {tally['wins']}/{tally['duels']} ({tally['win_rate']:.1%})")
    typer.echo(f"  {Ablation.from_dict(result['ablation']).describe()}")
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text(json.dumps(result, indent=2) + "\n")


@app.command("balance-report")
def balance_report(
    study: list[Path] = typer.Option(None, "--study", help="A study TOML file (docs/balance.md); repeat. Default, with no --env either: the shipped studies (both duels, policies, loadouts, combo table, restricted play)."),
    env: str = typer.Option(None, "--env", help="Env id or package.module:factory, for one ad-hoc study of that env (or to override the studies'); default: the studies' own (breath_duel_v0 for an ad-hoc study)."),
    policy: list[str] = typer.Option(None, "--policy", "-p", help="Policy name or name=package.module:factory; repeat. Default: every registered agent."),
    games: int = typer.Option(None, "--games", "-n", help="Games per pair and loadout (seats swap every other game); default: the study's games_per_pair (20 for an ad-hoc study)."),
    seed: int = typer.Option(None, "--seed", help="Base seed of the games; default: the study's base_seed (0 for an ad-hoc study)."),
    mirrors: bool = typer.Option(None, "--mirrors/--no-mirrors", help="Also play each policy against itself; default: the study's mirrors (off for an ad-hoc study)."),
    db: Path = typer.Option(Path("runs/balance/matches.sqlite"), "--db", help="Match store (resumed if it exists)."),
    out: Path = typer.Option(Path("runs/balance/report"), "--out", help="Folder for report.md and the plots."),
    workers: int = typer.Option(None, "--workers", "-j", help="Worker processes (0: play in this process; default: one per CPU)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
    batch_size: int = typer.Option(16, "--batch-size", help="Games per job."),
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap resamples for the rating intervals."),
    play: bool = typer.Option(True, "--play/--no-play", help="Play the studies first, or only report on the store."),
    composition_kind: str = typer.Option(None, help="Decision kind whose runs form compositions (breath_duel_v0: breath); default: the study's."),
    composition_end: list[str] = typer.Option(None, help="Action closing a composition (e.g. end_breath); repeat; default: the study's."),
    variant: Path = typer.Option(None, "--variant", help="A rules variant folder (edited files at their paths under rules/): play each touched study under both versions, report what moved. Default: none (the plain report)."),
    base: Path = typer.Option(None, "--base", help="With --variant: compare against this variant folder instead of the shipped rules (the default)."),
    pool_versions: bool = typer.Option(False, "--pool-versions", help="Mix the rules versions the store holds into one section (the headlines say so)."),
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
    balance_threshold: float = typer.Option(0.05, "--balance-threshold", help="Verdicts: an effect (points of score away from an even 0.5) whose whole corrected interval lies within ± this is balanced, wholly beyond it imbalanced, else undetermined; default 0.05."),
    severe_threshold: float = typer.Option(0.15, "--severe-threshold", help="Severity: an effect at least this large (points of score) is severe, from --balance-threshold moderate; default 0.15."),
    combo_threshold: float = typer.Option(1.5, "--combo-threshold", help="A combo buying at least this multiple of the median composition's Wounds per Energy is imbalanced; default 1.5."),
    combo_severe: float = typer.Option(2.5, "--combo-severe", help="...and severe from this multiple; default 2.5."),
    sequential: bool = typer.Option(False, "--sequential", help="Play each matchup cell (policy against policy, loadout against loadout) in rounds of seat-swapped pairs only until its GSPRT decides (imbalanced, or balanced within +-delta); --games stays the cap. Says first how many games a cell expects to need. Default: off (every scheduled game)."),
    settle_budget: int = typer.Option(2000, "--settle-budget", help="With --variant: games (both versions counted) each study may play past its schedule, only in the loadouts the edit touches, until their sequential tests decide; the report says what more the rest would need. 0: the fixed schedule only. Default 2000."),
    edit_budget: int = typer.Option(1500, "--edit-budget", help="Games each loadout headline may spend searching its own content for a one-step data edit that brings the loadout toward an even score, verified on fresh seeds (scripted agents; cached in the store, so a rerun plays nothing); 0: no search. Default 1500."),
    cross_budget: int = typer.Option(40, "--cross-budget", help="Games each env section may spend on the cross-play of its DISAGREE lines (the disputed loadout on both sides, one field's agents against the other's) to say which field is stronger and which reading to trust (cached in the store, so a rerun plays nothing); 0: none. Default 40."),
    delta: float = typer.Option(None, "--delta", help="The sequential tests' delta (points of score away from an even 0.5) in (0, 0.5]; default: --balance-threshold (0.05 when that is 0). The report's sequential verdicts use it with or without --sequential."),
) -> None:
    """Play seeded tournaments into the match store, then write the balance report (Markdown and PNG plots).

    With no arguments: the default report on both duels (a few minutes on two cores).
    """
    from issoku.evaluation.reports.commands import balance_report as run_balance_report
    from issoku.evaluation.games.studies import default_studies, study_from_options
    from issoku.evaluation.reports.findings import Thresholds
    from issoku.evaluation.stats.metrics import CompositionSpec

    from issoku.common.inputs import MAX_GAMES, bounded, check_output_dir, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("balance-report", also=(TypeError,)):  # TypeError: a loadout keyword the env lacks
        bounded("--games", games, 1, MAX_GAMES)
        bounded("--seed", seed, 0, MAX_SEED)
        bounded("--workers", workers, 0, 1024)
        bounded("--batch-size", batch_size, 1, MAX_GAMES)
        bounded("--bootstrap", bootstrap, 1, MAX_GAMES)
        bounded("--edit-budget", edit_budget, 0, MAX_GAMES)
        bounded("--settle-budget", settle_budget, 0, MAX_GAMES)
        bounded("--cross-budget", cross_budget, 0, MAX_GAMES)
        check_output_dir("--out", out)
        if not 0 <= balance_threshold <= severe_threshold <= 0.5 or not 1 <= combo_threshold <= combo_severe:
            raise ValueError("thresholds: need 0 <= --balance-threshold <= --severe-threshold <= 0.5 and "
                             "1 <= --combo-threshold <= --combo-severe")
        from issoku.evaluation.stats.sequential import SequentialTest

        if delta is not None and not 0 < delta <= 0.5:
            raise ValueError(f"--delta: must be in (0, 0.5], not {delta}")
        test = SequentialTest(delta if delta is not None else balance_threshold or SequentialTest().delta)
        thresholds = Thresholds(balance_threshold, severe_threshold, combo_threshold, combo_severe, test)
        if variant is not None or base is not None:
            from issoku.evaluation.design.variants import variant_command

            if sequential:
                raise ValueError("--sequential: not with --variant (a variant is played on the fixed schedule; its "
                                 "report gives each figure's sequential verdict anyway)")

            raise typer.Exit(variant_command(study, env, policy, games, seed, mirrors, db, out,
                                             make_backend(backend, workers, ray_address), batch_size,
                                             variant, base, allow_imports, thresholds, settle_budget))
        files = list(study or ()) or ([] if env else default_studies())
        studies = ([study_from_options(file, env, policy, games, seed, mirrors, allow_imports=allow_imports)
                    for file in files]
                   or [study_from_options(None, env, policy, games, seed, mirrors)]) if play else []
        composition = CompositionSpec(composition_kind, tuple(composition_end or ())) if composition_kind else None
        runs, report = run_balance_report(studies, db, out, workers=make_backend(backend, workers, ray_address),
                                          batch_size=batch_size,
                                          bootstrap=bootstrap, composition=composition, pool_versions=pool_versions,
                                          thresholds=thresholds, sequential=sequential,
                                          sources=[str(file) for file in files], edit_budget=edit_budget,
                                          cross_budget=cross_budget)
    for run in runs:
        restricted = f"; restricted play: {run.restricted.played} games played" if run.restricted else ""
        skipped = f", {run.tournament.skipped} left unplayed (their cells decided)" if run.tournament.skipped else ""
        typer.echo(f"{run.env}: {run.tournament.played} games played, {run.tournament.already_stored} already "
                   f"stored, {run.tournament.scheduled} in the study{skipped}{restricted}")
    from issoku.evaluation.reports.report import read_headlines

    for line in read_headlines(report):
        typer.echo(f"  {line}")
    typer.echo(f"report: {report}")
    typer.echo(f"html: {report.with_suffix('.html')}")


@app.command()
def hunt(
    env: str = typer.Option("breath_duel_v0", "--env", help="A two-seat env id (breath_duel_v0, tempo_duel_v0, a 2-side skirmish) or package.module:factory."),
    policy: list[str] = typer.Option(None, "--policy", "-p", help="Starting population (registry name or checkpoint .zip); repeat. Default: the env's shipped policy study."),
    iterations: int = typer.Option(3, help="PSRO iterations at most."),
    steps: int = typer.Option(20_000, help="Learner steps per best response."),
    games: int = typer.Option(40, "--games", "-n", help="Games per pair (payoff matrix and gain)."),
    threshold: float = typer.Option(0.05, help="Stop once the gain's 95 % upper bound is below this (return units)."),
    seed: int = typer.Option(0, help="Seed of games and training."),
    warm_start: str = typer.Option("", help="Checkpoint every best response starts from (same rules and interface), or shipped:<env> for the shipped one."),
    matchup: list[str] = typer.Option(None, "--matchup", help="Fighter name for randomized training loadouts; repeat. Default: none (the env's own fighters, fixed)."),
    variant: Path = typer.Option(None, "--variant", help="A rules variant folder (edited files at their paths under rules/) to hunt on. Default: none (the shipped rules)."),
    control: bool = typer.Option(False, "--control", help="With --variant: also train each best response on the shipped rules (a measurement, never in the population) and attribute findings to the edit only where the variant's best response plays them more."),
    oracle: str = typer.Option("ppo", "--oracle", help="How each best response is found: ppo (a learner trained against the mixture) or search (MCTS whose playouts meet the mixture; no training, --steps unused)."),
    search_simulations: int = typer.Option(200, "--search-simulations", help="With --oracle search: simulations a decision."),
    workers: int = typer.Option(2, "--workers", "-j", help="Tournament worker processes (0: play in this process)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
    n_envs: int = typer.Option(8, "--n-envs", help="Training envs of each best response."),
    subprocess_envs: bool = typer.Option(False, "--subprocess-envs", help="One process per training env (SubprocVecEnv); slower than one process on a loaded 2-core machine (docs/benchmarks.md)."),
    out: Path = typer.Option(None, "--out", help="Hunt folder (resumed if it exists; default runs/hunt/<env>)."),
) -> None:
    """PSRO: best responses (learned, or searched with --oracle search) against the Nash mixture of the field, until none gains (resumable)."""
    from issoku.evaluation.strength.hunt import HuntConfig, cli_hunt, default_population
    from issoku.evaluation.games.policies import expand_shipped
    from issoku.evaluation.strength.hunt_preflight import check_hunt
    from issoku.common.inputs import one_line_errors

    with one_line_errors("hunt", also=(TypeError,)):  # TypeError: an env keyword the env lacks
        population = tuple(map(expand_shipped, policy or ())) or default_population(env)
        warm_start = expand_shipped(warm_start).partition("=")[2] or warm_start
        if variant is not None:
            from issoku.rules.variant import Variant

            Variant(variant).validate()
        config = HuntConfig(env_id=env, population=population, out=str(out or Path("runs/hunt") / env),
                            iterations=iterations, steps=steps, games_per_pair=games, threshold=threshold, seed=seed,
                            warm_start=warm_start, matchups=tuple(matchup or ()), variant=str(variant or ""),
                            control=control, workers=workers, n_envs=n_envs, subprocess_envs=subprocess_envs,
                            oracle=oracle, search_simulations=search_simulations)
        check_hunt(config)  # before the hunt's folder is made
    cli_hunt(config, backend, ray_address)


@app.command("finetune-loadouts")
def finetune_loadouts(
    study: Path = typer.Option(..., "--study", help="A study TOML file with a loadout_grid (docs/balance.md): one agent is fine-tuned per label of its grid."),
    source: str = typer.Option(..., "--from", help="The general agent to start from: a checkpoint .zip written by issoku train, or shipped:<env> for the shipped one."),
    steps: int = typer.Option(20_000, help="Learner decisions of fine-tuning per loadout."),
    seed: int = typer.Option(0, help="Seed of the first label's fine-tuning (label i trains with seed + i)."),
    out: Path = typer.Option(..., "--out", help="Folder for <label>.zip and its metadata; labels already written there are reused (a killed run resumes). A study fields them as per_loadout:<folder>."),
    workers: int = typer.Option(None, "--workers", "-j", help="Worker processes, one loadout each (0: in this process; default: one per CPU)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
) -> None:
    """A loadout study's learned field: the general agent fine-tuned once per loadout of the study's grid."""
    from issoku.evaluation.strength.loadout_agents import finetune_loadouts as run_finetune_loadouts
    from issoku.evaluation.strength.loadout_agents import plan_loadout_agents
    from issoku.common.inputs import MAX_GAMES, bounded, check_output_dir, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("finetune-loadouts", also=(TypeError,)):  # TypeError: a grid keyword the env lacks
        bounded("--steps", steps, 1, MAX_GAMES)
        bounded("--seed", seed, 0, MAX_SEED)
        bounded("--workers", workers, 0, 1024)
        check_output_dir("--out", out)
        jobs = plan_loadout_agents(study, source, steps, seed, out, allow_imports=allow_imports)
        paths = run_finetune_loadouts(jobs, make_backend(backend, workers, ray_address))
    for path in paths:
        typer.echo(path)
    typer.echo(f"field them with: policies = [\"per_loadout:{out}\"]")


def _env_kwargs(text: str) -> dict[str, Any]:
    """``--env-kwargs``: a JSON object, else one line saying why."""
    import json

    try:
        kwargs = json.loads(text)
    except ValueError as error:
        raise ValueError(f"--env-kwargs {text!r}: not JSON ({error})") from None
    if not isinstance(kwargs, dict):
        raise ValueError(f"--env-kwargs must be a JSON object, not {text!r}")
    return kwargs


def _levers_study(env: str, study: Path | None, seed: int | None, workers: int, out: Path,
                  files: Sequence[str] | None) -> "StudyConfig":
    """The study ``levers`` and ``autobalance`` play (``--study`` or the env's shipped loadouts study, ``--seed``
    its base seed), after checking the options they share; a bad one raises the one-line error."""
    from issoku.evaluation.games.studies import check_studies_play, study_from_options
    from issoku.evaluation.design.levers import loadouts_study
    from issoku.common.inputs import bounded, check_output_dir
    from issoku.rules.variant import shipped_files

    bounded("--seed", seed, 0, MAX_SEED)
    bounded("--workers", workers, 0, 1024)
    check_output_dir("--out", out)
    unknown = sorted(set(files or ()) - set(shipped_files()))
    if unknown:
        raise ValueError(f"--file {unknown[0]}: no shipped data file (known: {', '.join(shipped_files())})")
    chosen = study_from_options(study, env, None, None, seed) if study else loadouts_study(env)
    check_studies_play([chosen], [str(study or "")])  # a study that cannot play is refused before a lever is written
    return chosen.model_copy(update={"base_seed": seed}) if seed is not None else chosen


def _echo_outliers(study: "StudyConfig", variant: Path | None, files: Sequence[str] | None) -> None:
    """Print the values out of line with their peers in the data the study's env reads (a likely mistype first)."""
    from issoku.evaluation.design.levers import study_outliers
    from issoku.evaluation.design.peers import peers_lines

    lines = peers_lines(study_outliers(study, variant, files or None))
    typer.echo("values out of line with their peers (robust z against the same field of its kind):"
               if lines else "values out of line with their peers: none (every number sits with its peers)")
    for line in lines:
        typer.echo(f"  {line}")


@app.command()
def levers(
    env: str = typer.Option("breath_duel_v0", "--env", help="Env whose rules data to nudge (breath_duel_v0, tempo_duel_v0, encounter_duel_v0: the duels that load a rules variant)."),
    budget: int = typer.Option(20_000, "--budget", help="Games to spend, base and levers both counted (the first round plays every lever at least 2 games per pairing whatever the budget)."),
    seed: int = typer.Option(None, "--seed", help="Base seed of the games; default: the study's base_seed."),
    step: int = typer.Option(1, "--step", help="How far each number is nudged, down and up."),
    study: Path = typer.Option(None, "--study", help="A study TOML file to play; default: the env's shipped loadouts study."),
    file: list[str] = typer.Option(None, "--file", help="Only the numbers of this data file (path under rules/, e.g. tempo/data/armour.toml); repeat. Default: every shipped data file the env reads."),
    out: Path = typer.Option(Path("runs/levers"), "--out", help="Folder for levers.csv, levers.md and the levers' variant folders."),
    db: Path = typer.Option(None, "--db", help="Match store (resumed if it exists); default <out>/matches.sqlite."),
    workers: int = typer.Option(0, "--workers", "-j", help="Worker processes per tournament (0: play in this process, the default: a lever's round is short)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
    variant: Path = typer.Option(None, "--variant", help="A rules variant folder as the base: its levers are nudges of its data (default: the shipped rules)."),
    defaults: bool = typer.Option(False, "--defaults", help="Also nudge the optional numbers a file leaves out, from their schema value (a technique's check_bonus 0, a tempo action's AP: its weapon's ap); the lever adds the field."),
    screen_games: int = typer.Option(2, "--screen-games", help="Games per pairing of the first round, which plays every lever (even, at least 2); more lets small effects survive the screen."),
    rank: str = typer.Option("effect", "--rank", help="What the halving ranks by: effect (the biggest move) or z (that move over its standard error: noise on few games does not win)."),
    focus: list[str] = typer.Option(None, "--focus", help="Rank and halve by this loadout's score (repeat: the biggest move among them); every own lever of it (its weapon's, archetype's, armour's, stance's numbers) plays every round, and the per-loadout tables are then only theirs. Default: the field's figures, a table for every loadout."),
    loadout_top: int = typer.Option(3, "--loadout-top", help="Each per-loadout table's top levers (and top own levers) the halving keeps alive to its last round (0: the field's halving alone decides, and --focus keeps no own lever alive either)."),
) -> None:
    """One-at-a-time sensitivity: each number of the rules data ±step, paired against the base, ranked by its balance effect, with a table per loadout."""
    from issoku.evaluation.design.levers import loadout_table, ranking, run_levers
    from issoku.common.inputs import MAX_GAMES, bounded, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("levers", also=(TypeError,)):
        bounded("--budget", budget, 1, MAX_GAMES)
        bounded("--step", step, 1)
        bounded("--loadout-top", loadout_top, 0, 100)
        chosen = _levers_study(env, study, seed, workers, out, file)
        ranked, rounds = run_levers(chosen, budget, out, db or out / "matches.sqlite", step=step,
                                    files=file or None, workers=make_backend(backend, workers, ray_address),
                                    progress=True, variant=variant, defaults=defaults, order=ranking(rank, focus or ()),
                                    screen_games=screen_games, tables=focus or None, loadout_top=loadout_top,
                                    rank=rank, keep_own=(focus or []) if loadout_top else ())
    for row in ranked[:5]:
        if row.shifts:
            typer.echo(f"  {row.name}: effect {row.effect:.3f}, z {row.z:.2f} (round {row.round}, {row.games_per_pair} games per pairing)")
    for name in focus or sorted({name for lever in ranked for name in lever.own}):
        leaders = [lever.name for lever in loadout_table(ranked, name, rank, own=True)[:3]]
        typer.echo(f"  {name}'s own top levers: {'; '.join(leaders) or '(none played)'}")
    _echo_outliers(chosen, variant, file)
    typer.echo(f"csv: {out / 'levers.csv'}")
    typer.echo(f"summary: {out / 'levers.md'}")


@app.command()
def autobalance(
    target: Path = typer.Option(..., "--target", help="Targets TOML file: loadout_elo_within = 75, first_mover = [0.45, 0.55] (docs/balance.md#autobalance)."),
    env: str = typer.Option("breath_duel_v0", "--env", help="Env whose rules to patch (breath_duel_v0, tempo_duel_v0, encounter_duel_v0: the duels that load a rules variant)."),
    variant: Path = typer.Option(None, "--variant", help="A rules variant folder to patch (default: the shipped rules)."),
    budget: int = typer.Option(20_000, "--budget", help="Games to spend: every measured version, the levers' rankings and the verification (scheduled games counted)."),
    games: int = typer.Option(20, "--games", "-n", help="Games per pairing of each measured version in the search."),
    verify_games: int = typer.Option(40, "--verify-games", help="Games per pairing of the verifying run (fresh seeds)."),
    max_fields: int = typer.Option(2, "--max-fields", help="Fields a patch may touch at most."),
    seed: int = typer.Option(None, "--seed", help="Base seed of the search's games (the verification's start 1 000 000 above); default: the study's base_seed."),
    study: Path = typer.Option(None, "--study", help="A study TOML file to play; default: the env's shipped loadouts study."),
    file: list[str] = typer.Option(None, "--file", help="Only levers of this data file (path under rules/); repeat. Default: every data file the env reads."),
    out: Path = typer.Option(Path("runs/autobalance"), "--out", help="Folder for patch/, autobalance.md, autobalance.csv, the levers' rankings and the trials."),
    db: Path = typer.Option(None, "--db", help="Match store (resumed if it exists); default <out>/matches.sqlite."),
    workers: int = typer.Option(0, "--workers", "-j", help="Worker processes per tournament (0: play in this process)."),
    screen_games: int = typer.Option(8, "--screen-games", help="Games per pairing of the local stage's screen (the levers of the content the loadouts missing their targets own; even, at least 2); the wide stage screens at what its budget share buys, 2 to this."),
) -> None:
    """The smallest data patch meeting balance targets: your variant's own edits walked back first, then the missing loadouts' own levers, smallest steps first, verified on fresh seeds."""
    from issoku.evaluation.design.autobalance import autobalance as search, figure_text, load_targets, stage_text, verdict
    from issoku.common.inputs import MAX_GAMES, BadInput, bounded, one_line_errors

    with one_line_errors("autobalance", also=(TypeError,)):
        targets = load_targets(target)
        bounded("--budget", budget, 1, MAX_GAMES)
        bounded("--games", games, 2, MAX_GAMES)
        bounded("--verify-games", verify_games, 2, MAX_GAMES)
        bounded("--max-fields", max_fields, 1, 10)
        bounded("--screen-games", screen_games, 2, MAX_GAMES)
        if screen_games % 2:
            raise BadInput(f"--screen-games must be even (each seat order once per pair of games), not {screen_games}")
        chosen = _levers_study(env, study, seed, workers, out, file)
        outcome = search(chosen, targets, out, db or out / "matches.sqlite", budget, variant=variant, games=games,
                         verify_games=verify_games, max_fields=max_fields, files=file or None, workers=workers,
                         progress=True, targets_file=target, screen_games=screen_games)
    typer.echo(f"targets: {targets.describe()}")
    typer.echo(outcome.edits_note)
    typer.echo(f"patch: {outcome.patch or '(none: the base rules are kept)'}"
               + (f", found by the {stage_text(outcome.best.stage)}" if outcome.changes else ""))
    for change in outcome.changes:
        typer.echo(f"  {change}")
    typer.echo(f"verifying run (fresh seeds, {outcome.verified.figures.games} games):")
    for name, (value, low, high) in outcome.verified.figures.values().items():
        band = outcome.verified.bands.get(name)
        wanted = f" (target [{band[0]:.1%}, {band[1]:.1%}])" if band else ""
        typer.echo(f"  {name}: {figure_text(name, value, low, high)}{wanted}")
    typer.echo(f"verdict: {verdict(outcome)}")
    _echo_outliers(chosen, variant, file)
    typer.echo(f"report: {out / 'autobalance.md'}")


@app.command("benchmark")
def benchmark(
    candidate: str = typer.Argument(None, help="A checkpoint .zip, a registered policy, or package.module:attribute (a factory or a plain callable), optionally as name=package.module:attribute; needed unless --calibrate."),
    suite: str = typer.Option("breath_duel_v0", "--suite", help="A shipped suite name or a suite TOML file."),
    db: Path = typer.Option(Path("runs/benchmark/matches.sqlite"), "--db", help="Match store (resumed if it exists)."),
    workers: int = typer.Option(None, "--workers", "-j", help="Worker processes (0: play in this process; default: one per CPU)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
    bootstrap: int = typer.Option(1000, "--bootstrap", help="Bootstrap resamples for the rating interval."),
    calibrate: bool = typer.Option(False, "--calibrate", help="Play the references' round robin and print their ratings (for the suite file)."),
    allow_imports: bool = typer.Option(False, "--allow-imports", help="Let files (studies, suites, configs, checkpoint metadata, scenarios) name package.module:attribute import paths, which run code: only for files you trust."),
) -> None:
    """Score a policy on a fixed, versioned reference suite: win rates with intervals, a rating on the suite's scale."""
    from issoku.evaluation.games.preflight import check_tournament_plays
    from issoku.evaluation.strength.reference_suite import (benchmark_tournament, format_result, load_suite, run_benchmark,
                                                   run_calibration)
    from issoku.evaluation.games.policies import resolve_policy
    from issoku.evaluation.games.store import MatchStore

    from issoku.common.inputs import MAX_GAMES, bounded, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("benchmark", also=(ImportError,)):
        bounded("--workers", workers, 0, 1024)
        bounded("--bootstrap", bootstrap, 1, MAX_GAMES)
        spec = load_suite(suite, allow_imports=allow_imports)
        if not calibrate:
            if candidate is None:
                raise ValueError("name a candidate policy (or --calibrate)")
            candidate_spec = resolve_policy(candidate)
            check_tournament_plays(benchmark_tournament(spec, candidate_spec), spec.env,  # before the store is made
                                   allow_imports=allow_imports)
        runner = make_backend(backend, workers, ray_address)
        with MatchStore(db, exclusive=True) as store:
            if calibrate:
                ratings, fingerprints, rules = run_calibration(spec, store, workers=runner)
                typer.echo(f'rules_fingerprint = "{rules}"\n')
                typer.echo("[reference_elo]\n" + "\n".join(f"{name} = {elo}" for name, elo in ratings.items()))
                typer.echo("\n[reference_fingerprints]\n"
                           + "\n".join(f'{name} = "{fp}"' for name, fp in fingerprints.items()))
                return
            result = run_benchmark(spec, candidate_spec, store, workers=runner, bootstrap=bootstrap)
    typer.echo(format_result(result))


@app.command("head-to-head")
def head_to_head(
    agent: str = typer.Option("ma_heuristic", "--agent", "-a", help="Policy name (issoku.agents.registry) or name=package.module:factory."),
    opponent: str = typer.Option("random", "--opponent", "-o", help="The opponent's policy, named the same way."),
    duels: int = typer.Option(500, "--duels", "-n", help="Duels in all; odd ones swap the seats."),
    env: str = typer.Option("breath_duel_v0", "--env", help="Env id or package.module:factory."),
    env_kwargs: str = typer.Option("{}", "--env-kwargs", help='Env keyword arguments as JSON, e.g. \'{"kind": "hatashiai"}\'.'),
    seed: int = typer.Option(0, "--seed", help="Seed of the first pair of duels (then seed+1, ...)."),
    workers: int = typer.Option(0, "--workers", "-j", help="Worker processes (0: play in this process; default: one per CPU)."),
    backend: str = BACKEND,
    ray_address: Optional[str] = RAY_ADDRESS,
    db: Optional[Path] = typer.Option(None, "--db", help="Keep the duels in this match store (a rerun plays nothing again); default: none (kept in memory)."),
) -> None:
    """Win, draw and loss of one agent against another over seeded duels, with 95 % intervals."""

    from issoku.evaluation.strength.head_to_head import IN_MEMORY
    from issoku.evaluation.strength.head_to_head import head_to_head as play_head_to_head

    from issoku.common.inputs import MAX_GAMES, bounded, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("head-to-head", also=(TypeError,)):  # TypeError: an env keyword the env lacks
        bounded("--duels", duels, 1, MAX_GAMES)
        bounded("--seed", seed, 0, MAX_SEED)
        bounded("--workers", workers, 0, 1024)
        result = play_head_to_head(agent, opponent, duels, env=env, env_kwargs=_env_kwargs(env_kwargs),
                                   base_seed=seed, workers=make_backend(backend, workers, ray_address), db=db or IN_MEMORY,
                                   progress=True)
    typer.echo(result.summary())


@app.command("skill-ladder")
def skill_ladder(
    env: str = typer.Option("breath_duel_v0", "--env", help="Env id."),
    env_kwargs: str = typer.Option("{}", "--env-kwargs", help='Env keyword arguments as JSON, e.g. \'{"fighters": ["kenshi", "kenshi"]}\' (a mirror match: skill without the loadouts\' edge).'),
    rungs: str = typer.Option("random,one_step,mcts_small,mcts_large", "--rungs", help="Agents, weakest first, comma-separated: each adjacent pair is played."),
    references: Optional[str] = typer.Option(None, "--references", help="Agents the top rung plays, comma-separated (default: the env's strongest scripted agent and its shipped learned one)."),
    duels: int = typer.Option(100, "--duels", "-n", help="Duels per pair; odd ones swap the seats."),
    workers: int = typer.Option(0, "--workers", "-j", help="Worker processes (0: play in this process)."),
    out: Optional[Path] = typer.Option(None, "--out", help="Also write the table to this Markdown file, with the date, machine and command at its head; default: print only."),
    db: Optional[Path] = typer.Option(None, "--db", help="Keep the duels in this match store (a rerun plays nothing again); default: none (kept in memory)."),
) -> None:
    """Measure an env's skill ladder: each adjacent pair of agents, and the top one against reference agents, as
    seeded head-to-heads with 95 % intervals (docs/agents.md)."""
    import shlex
    import sys

    from issoku.evaluation.strength.head_to_head import IN_MEMORY
    from issoku.evaluation.strength.skill_ladder import measure, results_header, table
    from issoku.common.inputs import MAX_GAMES, bounded, check_output_file, one_line_errors
    from issoku.common.backend import make_backend

    with one_line_errors("skill-ladder", also=(TypeError,)):  # TypeError: an env keyword the env lacks
        bounded("--duels", duels, 1, MAX_GAMES)
        check_output_file("--out", out)
        bounded("--workers", workers, 0, 1024)
        names = tuple(name.strip() for name in rungs.split(",") if name.strip())
        chosen = None if references is None else tuple(n.strip() for n in references.split(",") if n.strip())
        kwargs = _env_kwargs(env_kwargs)
        steps = measure(env, names, chosen, duels, workers=make_backend("local", workers, None),
                        db=db or IN_MEMORY, progress=True, env_kwargs=kwargs)
    text = table(env, steps, kwargs)
    typer.echo(text)
    if out is not None:
        with one_line_errors("skill-ladder"):
            out.parent.mkdir(parents=True, exist_ok=True)
            command = "issoku " + shlex.join(sys.argv[1:])  # quoted as typed: --env-kwargs is JSON
            out.write_text(results_header(command) + "\n" + text + "\n", encoding="utf-8")


def main() -> None:
    """Entry point for ``python -m issoku``."""
    app()

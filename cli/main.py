"""The `simcore` command line: parses arguments, calls simcore, prints. No game logic here."""
from __future__ import annotations

import json
import os
import signal
import threading
from contextlib import contextmanager

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, ProgressColumn, TextColumn, TimeElapsedColumn, TimeRemainingColumn
from rich.table import Table
from rich.text import Text

import simcore
from simcore import cluster, registry, results, runner, stats
from simcore.players import SEARCH as SEARCH_POLICIES, help_lines as search_policy_help, parameter_lines, parameters
from simcore.contract import GameSpec, UserError
from cli.errors import INTERRUPTED, TERMINATED, OneLineErrors



class SimcoreGroup(OneLineErrors, click.Group):
    """The `simcore` command group: one-line errors (cli/errors.py), and the help for a bare
    `simcore`."""

    def parse_args(self, ctx, args):
        if not args:   # bare `simcore`: the help, not click's help-shaped usage error
            click.echo(ctx.get_help())
            ctx.exit(0)
        return super().parse_args(ctx, args)


@click.group(cls=SimcoreGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="simcore", prog_name="simcore", message="%(prog)s %(version)s")
def main():
    """Fast Monte Carlo simulation of modern board games."""


# ---- games -----------------------------------------------------------------------------

@main.command("games")
@click.option("--json", "as_json", is_flag=True, help="One JSON list instead of text.")
def list_games(as_json):
    """Every game: id, name, player counts, policies, score categories, data provenance."""
    described = [describe_game(spec) for spec in registry.games().values()]
    if as_json:
        click.echo(json.dumps(described))
        return
    # one block per game rather than a table: the provenance list is long and must stay readable
    for g in described:
        with_params = "".join(f"              {line}\n" for line in parameter_lines(registry.get(g["id"])))
        click.echo(f"{g['id']}: {g['name']}\n"
                   f"  players     {g['min_players']}-{g['max_players']} (default {g['default_players']})\n"
                   f"  policies    {', '.join(g['policies'])}\n"
                   f"{with_params}"
                   f"  categories  {', '.join(g['categories'])}\n"
                   f"  component data")
        width = max(map(len, g["provenance"]), default=0)
        for part, source in g["provenance"].items():
            click.echo(f"    {part:<{width}}  {source}")
        click.echo()


def describe_game(spec: GameSpec) -> dict:
    return {"id": spec.id, "name": spec.name, "min_players": spec.min_players, "max_players": spec.max_players,
            "default_players": spec.default_players,
            "policies": list(spec.policies) + (list(SEARCH_POLICIES) if spec.searchable else []),
            **({"search_policies": search_policy_help(spec)} if spec.searchable else {}),
            "parameters": parameters(spec),
            "categories": list(spec.categories), "provenance": spec.provenance(spec.load_data(None))}


# ---- simulate / run --------------------------------------------------------------------

@main.command()
@click.argument("game")
@click.option("-p", "--players", type=int, help="Number of players (default: the game's usual count).")
@click.option("-n", "--games", type=int, default=runner.DEFAULT_GAMES, show_default=True)
@click.option("--policy", "policies", multiple=True, help="Once for every seat, or once per seat in order.")
@click.option("--rotate-seats", is_flag=True, help="Move the policy assignment one seat per game.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--workers", type=int, help="Threads (default: all cores).")
@click.option("-o", "--out", help="Write every (game, seat) row to PATH.parquet or PATH.csv.")
@click.option("--data", help="Component data file to use instead of the game's own.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar or messages on stderr.")
@click.option("--chunk-size", type=int, help="Games per chunk (does not change any result).")
@click.option("--scheduler", metavar="tcp://HOST:PORT", help="Play the chunks on the Dask cluster of this scheduler.")
@click.option("--cluster", "local_cluster", metavar="local:N", help="Play the chunks on a Dask LocalCluster of N workers.")
@click.option("--resume", is_flag=True, help="Keep the games already in --out; play only the missing ones.")
@click.option("--force", is_flag=True, help="Replace --out (and a --report) if it exists.")
@click.option("--report", "report_dir", metavar="DIR", help="Write the analysis report of the run to DIR (as analyze).")
@click.option("--report-format", type=click.Choice(["md", "html"]), default="md", show_default=True)
def simulate(game, players, games, policies, rotate_seats, seed, workers, out, data, as_json, quiet, chunk_size,
             scheduler, local_cluster, resume, force, report_dir, report_format):
    """Play GAME many times and summarise win rates and scores per seat."""
    if resume and not (out or report_dir):
        raise UserError("--resume needs --out: the results file to resume")
    if resume and force:
        raise UserError("give --resume (continue the file) or --force (replace it), not both")
    if report_dir:
        from simcore import report     # matplotlib and statsmodels load only for a report
        # a resumed run's report is redrawn from all its games; otherwise an old report stays
        report.check_folder(report_dir, force or resume)
    if report_dir and not out:
        os.makedirs(report_dir, exist_ok=True)
        out = os.path.join(report_dir, "results.parquet")      # the report reads the run's rows from here
    simulate_run(game, players, games, policies, rotate_seats, seed, workers, out, data, as_json, quiet,
                 chunk_size, scheduler, local_cluster, resume, force)
    if report_dir:
        for path in report.write_report([out], report_dir, report_format, force=force or resume):
            if not quiet:
                click.echo(f"wrote {path}", err=True)


def simulate_run(game, players, games, policies, rotate_seats, seed, workers, out, data, as_json, quiet, chunk_size,
                 scheduler, local_cluster, resume, force=False):
    on_cluster = bool(scheduler or local_cluster)
    if on_cluster:
        if scheduler and local_cluster:
            raise UserError("give --scheduler or --cluster, not both")
        if workers is not None:
            raise UserError("--workers sets local threads; a cluster plays on its own workers (--cluster local:N)")
        if local_cluster:
            cluster.parse_local(local_cluster)
        else:
            cluster.check_address(scheduler)
    plan = runner.plan(game, players=players, games=games, seed=seed, policies=policies or None,
                       rotate_seats=rotate_seats, workers=workers, data=data, chunk_size=chunk_size)
    if on_cluster and out:
        results.check_output(out)
        # a file that does not fit fails before a cluster starts, and a complete one needs none
        if os.path.exists(out) and not (resume or force):
            runner.refuse_overwrite(out)
        if resume and os.path.exists(out) and runner.games_held(plan, out, plan.spec.data_id(plan.data),
                                                                trim=True) == games:
            on_cluster = False
    if not on_cluster:
        run_and_report(plan, out, as_json, quiet, resume=resume, force=force)
        return
    with cluster.connect(scheduler, local_cluster) as player:
        run_and_report(player.fit(plan, chunk_size), out, as_json, quiet, resume=resume, player=player, force=force)


@main.command("run")
@click.argument("scenario")
@click.option("-o", "--out", help="Results file, overriding the scenario's `out`.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar or messages on stderr.")
@click.option("--resume", is_flag=True, help="Keep the games already in the results file; play only the missing ones.")
@click.option("--force", is_flag=True, help="Replace the results file if it exists.")
def run_scenario(scenario, out, as_json, quiet, resume, force):
    """Run the experiment described by a SCENARIO.toml file (see scenarios/)."""
    settings = runner.read_scenario(scenario)
    out = out or settings.pop("out", None)
    settings.pop("out", None)
    if resume and not out:
        raise UserError("--resume needs a results file: the scenario's `out` or -o")
    if resume and force:
        raise UserError("give --resume (continue the file) or --force (replace it), not both")
    run_and_report(runner.plan(**settings), out, as_json, quiet, resume=resume, force=force)


def run_and_report(plan: runner.Plan, out: str | None, as_json: bool, quiet: bool, resume: bool = False,
                   player=None, force: bool = False) -> None:
    player = player or runner.LocalPlayer()
    if out:
        results.check_output(out)   # before the progress bar starts, so a mistake stays one line
        if os.path.exists(out) and not (resume or force):
            runner.refuse_overwrite(out)
    try:
        outcome = run_with_progress(plan, out, quiet, resume, player, force)
    except runner.Interrupted as stop:
        # the file is closed and holds every finished chunk; the process still lets the worker
        # threads finish the chunks they are playing (a SIGKILL then loses nothing more)
        click.echo(interrupted_message(stop), err=True)
        click.get_current_context().exit(TERMINATED if stop.signal == signal.SIGTERM else INTERRUPTED)
    summary = outcome.summary()
    if as_json:
        click.echo(json.dumps(summary))
    else:
        speed = f"{stats.speed_text(outcome.games_per_second)} on {player.describe(plan)}"
        print_summary(summary, "seat", caption=speed)
        if len(summary["policies"]) > 1:
            print_summary(summary, "policy")
            print_summary(summary, "policy_seat")
    if out and not quiet:
        if outcome.start:
            click.echo(f"resumed {out}: it held {outcome.start} games, played {outcome.played} more, "
                       f"it holds {outcome.games}", err=True)
        else:
            click.echo(f"wrote {outcome.games} games to {out}", err=True)


def run_with_progress(plan: runner.Plan, out: str | None, quiet: bool, resume: bool = False,
                      player=None, force: bool = False) -> runner.Outcome:
    with progress_bar(plan, quiet) as progress:
        return runner.run(plan, out=out, progress=progress, resume=resume, player=player, force=force)


@contextmanager
def progress_bar(plan: runner.Plan, quiet: bool, doing: str = "", console: Console | None = None):
    """A progress bar over the plan's games on stderr; yields the runner's progress callback.

    Until the first games start the line says the kernels are loading; if that takes longer than
    a cache load (COMPILING_AFTER seconds) it says they are compiling, how long that takes once per
    install, and the elapsed time ticks on — a first run is never a frozen line."""
    name = f"{doing} {plan.spec.id} {plan.players}p".strip()
    columns = (TextColumn("{task.description}"), WhilePlaying(BarColumn()), WhilePlaying(MofNCompleteColumn()),
               WhilePlaying(TextColumn("games")), TimeElapsedColumn(), WhilePlaying(TimeRemainingColumn()))
    with Progress(*columns, console=console or Console(stderr=True), disable=quiet) as bar:
        task = bar.add_task(f"{name}: loading kernels", total=plan.games, started_games=False)
        lock = threading.Lock()         # the timer's thread and the run's must not cross

        def say_compiling():
            with lock:
                if not bar.tasks[task].fields["started_games"]:
                    bar.update(task, description=compiling_text(plan))

        def progress(done):
            with lock:
                bar.update(task, completed=done, description=name, started_games=True)
        compiling = threading.Timer(COMPILING_AFTER, say_compiling)
        compiling.daemon = True
        compiling.start()
        try:
            yield progress
        finally:
            compiling.cancel()


COMPILING_AFTER = 2.0     # seconds: loading cached kernels takes well under this


def compiling_text(plan: runner.Plan) -> str:
    """'compiling Notre Dame, once per install: about 100 s' (fits 80 columns with the timer)."""
    return f"compiling {plan.spec.name}, once per install: about {plan.spec.compile_seconds} s"


class WhilePlaying(ProgressColumn):
    """A column (the bar, the game count, the time left) shown once games are being played:
    while kernels load there is nothing to count yet."""

    def __init__(self, column: ProgressColumn):
        super().__init__()
        self.column = column

    def render(self, task):
        return self.column.render(task) if task.fields.get("started_games") else Text("")


def interrupted_message(stop: runner.Interrupted) -> str:
    said = "interrupted" if stop.signal == signal.SIGINT else "stopped by SIGTERM"
    if stop.out is None:
        return f"{said} after {stop.games} games (no output file)"
    held = f" (0..{stop.games - 1})" if stop.games else ""
    return f"{said}: {stop.out} holds {stop.games} games{held}"


# ---- check -----------------------------------------------------------------------------

@main.command("check")
@click.argument("game")
@click.option("-p", "--players", type=int, help="Number of players (default: the game's usual count).")
@click.option("-n", "--games", type=int, default=runner.DEFAULT_GAMES, show_default=True)
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--data", help="Component data file to check instead of the game's own.")
@click.option("--policy", "policies", multiple=True, help="As for simulate.")
@click.option("--rotate-seats", is_flag=True, help="As for simulate.")
@click.option("--workers", type=int, help="Threads (default: all cores).")
@click.option("--json", "as_json", is_flag=True, help="Print the result as one JSON object.")
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
def check(game, players, games, seed, data, policies, rotate_seats, workers, as_json, quiet):
    """Play GAME with the engine's invariant checker on after every step; exit 1 if one broke.

    The checker verifies what must always hold (cards, tiles, cubes, followers and coins
    conserved, values in bounds, each score the sum of its categories, ...): how to check a
    transcribed data file (--data) and to soak the engines."""
    plan = runner.plan(game, players=players, games=games, seed=seed, policies=policies or None,
                       rotate_seats=rotate_seats, workers=workers, data=data)
    with progress_bar(plan, quiet, "checking") as progress:
        outcome = runner.check(plan, progress)
    first = outcome.first
    if as_json:
        click.echo(json.dumps({
            "game": plan.spec.id, "players": plan.players, "games": outcome.games,
            "violations": outcome.violations,
            "first_violation": None if first is None else {
                "game_index": first.game_index, "step": first.step, "unit": plan.spec.check_step, "code": first.code,
                "what": first.what, "replay": runner.replay_command(plan, first.game_index)}}))
    else:
        lineup = ", ".join(plan.policies) if len(set(plan.policies)) > 1 else plan.policies[0]
        click.echo(f"checked {outcome.games:,} games of {plan.spec.id}, {plan.players} players, seed {plan.seed}, "
                   f"{lineup}{' (rotated)' if plan.rotate_seats else ''}, data {plan.spec.data_id(plan.data)}: "
                   f"{outcome.violations:,} with a broken invariant")
        if first is not None:
            click.echo(f"first: game {first.game_index}, {plan.spec.check_step} {first.step}: "
                       f"invariant {first.code}, {first.what}")
            click.echo(f"replay it: {runner.replay_command(plan, first.game_index)}")
    click.get_current_context().exit(1 if outcome.violations else 0)


# ---- stats -----------------------------------------------------------------------------

@main.command("stats")
@click.argument("path")
@click.option("--by", type=click.Choice(["seat", "policy", "policy-seat"]), default="seat", show_default=True,
              help="One row per seat, per policy, or per policy in each seat.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as one JSON object.")
def stats_command(path, by, as_json):
    """The summary table of a results file (.parquet or .csv), read chunk by chunk."""
    tally = stats.Tally()
    for frame in results.read_chunks(path):
        tally.add(frame)
    summary = tally.summary()
    if as_json:
        click.echo(json.dumps(summary))
    else:
        print_summary(summary, by.replace("-", "_"))


def print_summary(summary: dict, by: str, caption: str | None = None) -> None:
    """The per-seat or per-policy table of a summary: win rate and mean score with their 95%
    intervals; per seat, a second table of the mean points of every score category (two narrow
    tables stay readable in 80 columns, where one wide one would be cut)."""
    rows = {"seat": summary["seats"], "policy": summary["policies"], "policy_seat": summary["policy_seats"]}[by]
    keys = {"seat": ["seat"], "policy": [], "policy_seat": []}[by]
    title = f"{summary['game']} · {summary['players']} players · {summary['games']:,} games · seed {summary['seed']}"
    if by == "policy_seat":
        title = "each policy in each seat"
    outcomes = new_table(keys + ["policy"] + (["seat", "games"] if by == "policy_seat" else [])
                         + ["win rate", "95% CI", "mean score", "95% CI"], title, caption)
    for row in rows:
        outcomes.add_row(*[str(row[k]) for k in keys], row["policy"],
                         *([str(row["seat"]), f"{row['games']:,}"] if by == "policy_seat" else []),
                         f"{row['win_rate']:.1%}",
                         format_interval([100 * x for x in row["win_ci"]], "{:.1f}") + "%",
                         f"{row['mean_score']:.2f}", format_interval(row["score_ci"], "{:.2f}"))
    Console().print(outcomes)
    if by == "seat":
        # categories down, seats across: a game's many categories never push the table past 80 columns
        points = new_table(["category"] + [f"seat {row['seat']}" for row in rows], "mean points per category")
        for category in rows[0]["points"]:
            points.add_row(category, *(f"{row['points'][category]:.2f}" for row in rows))
        Console().print(points)


def new_table(columns: list[str], title: str, caption: str | None = None) -> Table:
    table = Table(title=title, caption=caption)
    for column in columns:
        # numbers never wrap; a long policy list (rotated seats) takes the line breaks instead
        left = column in ("policy", "category")
        table.add_column(column, justify="left" if left else "right", no_wrap=column != "policy",
                         min_width=6 if column == "policy" else None)
    return table


def format_interval(ci: list, number: str) -> str:
    return "n/a" if ci[0] is None else f"{number.format(ci[0])}–{number.format(ci[1])}"


# ---- replay ----------------------------------------------------------------------------

@main.command()
@click.argument("game")
@click.option("-p", "--players", type=int, help="Number of players (default: the game's usual count).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--index", type=int, default=0, show_default=True, help="Which game of the seed (row game_index).")
@click.option("--policy", "policies", multiple=True, help="As for simulate.")
@click.option("--rotate-seats", is_flag=True, help="As for simulate.")
@click.option("--data", help="Component data file to use instead of the game's own.")
@click.option("--image", help="Also draw the game's final state to this PNG file.")
@click.option("--image-every", "image_every", type=int, metavar="N",
              help="With --image: also draw the game every N turns (Carcassonne, Principato) or rounds "
                   "(Notre Dame, Strasbourg) to FILE-turnNNN.png / FILE-roundNNN.png.")
def replay(game, players, seed, index, policies, rotate_seats, data, image, image_every):
    """Play one game and print every move in words and the final score breakdown."""
    if image_every is not None:           # before the replay is printed
        if not image:
            raise UserError("--image-every needs --image: the PNG file of the final state")
        if image_every < 1:
            raise UserError(f"--image-every must be at least 1, got {image_every}")
    for line in simcore.replay(game, players=players, seed=seed, index=index, policies=policies or None,
                               data=data, rotate_seats=rotate_seats):
        click.echo(line)
    if image:
        paths = simcore.draw(game, image, players=players, seed=seed, index=index, policies=policies or None,
                             data=data, rotate_seats=rotate_seats, every=image_every)
        for path in paths[:-1]:
            click.echo(f"drew the game in progress to {path}", err=True)
        click.echo(f"drew the final state to {image}", err=True)


# ---- bench -----------------------------------------------------------------------------

@main.command()
@click.argument("game_ids", metavar="[GAME]...", nargs=-1)
@click.option("-p", "--players", "player_counts", type=int, multiple=True,
              help="Player count (repeatable; default: each game's usual count).")
@click.option("--games", type=int, default=20_000, show_default=True)
@click.option("--workers", type=int, help="The 'all cores' worker count (default: all cores).")
@click.option("--policy", default=runner.DEFAULT_POLICY, show_default=True, help="Policy of every seat.")
@click.option("--json", "as_json", is_flag=True, help="One JSON object per line.")
def bench(game_ids, player_counts, games, workers, policy, as_json):
    """Games per second on 1 worker and on all cores, and compile time, per game and player count."""
    worker_counts = sorted({1, workers or os.cpu_count() or 1})
    table = new_table(["game", "players", "workers", "games", "seconds", "games/s", "compile s"],
                      title=f"simcore bench · {policy} players")
    for game in game_ids or list(registry.games()):
        for players in player_counts or [registry.get(game).default_players]:
            for record in runner.measure_speed(game, players, games, worker_counts, policy):
                if as_json:
                    click.echo(json.dumps(record))
                else:
                    table.add_row(record["game"], str(record["players"]), str(record["workers"]),
                                  f"{record['games']:,}", f"{record['seconds']:.2f}",
                                  stats.speed_text(record["games_per_second"], unit=""),
                                  f"{record['compile_seconds']:.2f}")
    if not as_json:
        Console().print(table)


# ---- commands in their own modules -----------------------------------------------------

from cli.analyze import analyze  # noqa: E402  (after main: the commands join its group)
from cli.sweep import sweep  # noqa: E402
from cli.tournament import tournament  # noqa: E402
from cli.tune import tune  # noqa: E402

main.add_command(analyze)
main.add_command(sweep)
main.add_command(tournament)
main.add_command(tune)

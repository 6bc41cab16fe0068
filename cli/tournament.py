"""`simcore tournament`: every policy meets the others on common seeds (simcore.tournament).

Registered on the `simcore` group by cli/main.py; run on its own it keeps the group's contract
(one line `error: ...` and status 2 for a user mistake)."""
from __future__ import annotations

import json
import signal

import click
from rich.console import Console
from rich.table import Table

from simcore import cluster
from simcore import tournament as tournaments
from cli.errors import INTERRUPTED, TERMINATED, OneLineCommand
from cli.progress import counting
from simcore.contract import UserError


@click.command("tournament", cls=OneLineCommand)
@click.argument("game")
@click.option("-p", "--players", type=int, help="Number of players (default: the game's usual count).")
@click.option("--policy", "policies", multiple=True, metavar="[LABEL=]POLICY",
              help="A strategy of the tournament (repeat, at least two), e.g. farmer=greedy:fields=3.")
@click.option("-n", "--games", type=int, default=1000, show_default=True,
              help="Games per match (rounded up to a multiple of the player count: seats rotate).")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of every match (common seeds).")
@click.option("--data", help="Component data file instead of the game's own.")
@click.option("--out", help="Output folder (default: tournament-GAME).")
@click.option("--workers", type=int, help="Threads (default: all cores).")
@click.option("--scheduler", metavar="tcp://HOST:PORT", help="Play the matches on the Dask cluster of this scheduler.")
@click.option("--cluster", "local_cluster", metavar="local:N", help="Play the matches on a Dask LocalCluster of N workers.")
@click.option("--resume", is_flag=True, help="Continue the tournament the output folder holds.")
@click.option("--force", is_flag=True, help="Replace the tournament the output folder holds.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print the ranking as one JSON object.")
def tournament(game, players, policies, games, seed, data, out, workers, scheduler, local_cluster, resume, force,
               quiet, as_json):
    """Every policy meets the others: for 2 players every pair, for more every P-subset (every
    multiset with fewer policies than seats), N games each with rotated seats, all on the same
    seeds. Prints one ranking (openskill rating with its interval, win rate, mean score) and the
    head-to-head matrix; the output folder holds every match's results and the report."""
    tp = tournaments.plan(game, policies, players=players, games=games, seed=seed, workers=workers, data=data,
                          out=out)
    say = None if quiet else (lambda line: click.echo(line, err=True))
    if scheduler and local_cluster:
        raise UserError("give --scheduler or --cluster, not both")
    if (scheduler or local_cluster) and workers is not None:
        raise UserError("--workers sets local threads; a cluster plays on its own workers (--cluster local:N)")
    try:
        with counting("games", quiet, tp.games * len(tp.matches)) as games_done:
            if scheduler or local_cluster:
                with cluster.connect(scheduler, local_cluster) as player:
                    outcome = tournaments.run(tp, progress=say, force=force, resume=resume, player=player,
                                              games_done=games_done)
            else:
                outcome = tournaments.run(tp, progress=say, force=force, resume=resume, games_done=games_done)
    except tournaments.Interrupted as stop:
        said = "interrupted" if stop.signal == signal.SIGINT else "stopped by SIGTERM"
        click.echo(f"{said}: match {stop.match.index} ({stop.match.label}): {stop.out} holds {stop.games} games; "
                   f"the matches before it are complete; --resume plays the rest", err=True)
        click.get_current_context().exit(TERMINATED if stop.signal == signal.SIGTERM else INTERRUPTED)
    if as_json:
        click.echo(json.dumps(outcome.ranking))
        return
    print_ranking(outcome.ranking)
    if say:
        say(f"wrote {len(tp.matches)} matches' results, tournament.md and tournament.json to {tp.out}")


def print_ranking(ranking: dict) -> None:
    console = Console()
    title = (f"{ranking['game']} · {ranking['players']} players · {ranking['matches']} matches · "
             f"{ranking['games']:,} games · seed {ranking['seed']}")
    for heading, (header, rows) in ((title, tournaments.ranking_rows(ranking)),
                                    ("head to head: share of common games where the row ranked above the column",
                                     tournaments.head_to_head_rows(ranking))):
        table = Table(title=heading)
        for column in header:
            left = column in ("policy", "row ranks above column")
            # numbers never wrap; long policy names take the line breaks instead
            table.add_column(column, justify="left" if left else "right", no_wrap=not left,
                             min_width=14 if left else None, overflow="fold")
        for row in rows:
            table.add_row(*row)
        console.print(table)
    console.print("rating: openskill Plackett-Luce from every game's ranks; 95% CI: mu ± 1.96 sigma", highlight=False)

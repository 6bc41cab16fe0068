"""`simcore tune`: search a policy's parameters for the values that win most (simcore.tune).

Registered on the `simcore` group by cli/main.py; run on its own it keeps the group's contract
(one line `error: ...` and status 2 for a user mistake)."""
from __future__ import annotations

import json
import signal

import click
from rich.console import Console
from rich.table import Table

from simcore import tune as tuning
from cli.errors import INTERRUPTED, TERMINATED, OneLineCommand
from cli.progress import counting


@click.command("tune", cls=OneLineCommand)
@click.argument("game")
@click.option("-p", "--players", type=int, help="Number of players (default: the game's usual count).")
@click.option("--policy", "base", required=True, metavar="BASE",
              help="The policy to tune, with any parameters held fixed (greedy, mcts:iters=50, ...).")
@click.option("--space", "space", multiple=True, metavar="NAME=LO:HI",
              help="A parameter of BASE and the range to search (repeat for more).")
@click.option("--against", "against", multiple=True, metavar="POLICY",
              help="The opponents: once for every other seat, or once per other seat.")
@click.option("--trials", type=int, default=50, show_default=True, help="Parameter sets to try.")
@click.option("-n", "--games", type=int, default=1000, show_default=True,
              help="Games per trial (the same seeds for every trial; rounded up to a multiple of the player count).")
@click.option("--held-out", "held_out", type=int,
              help="Games of the held-out measurement of the best and the baseline (default: as -n).")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the trials' games (and of the sampler); the held-out games use seed + 1.")
@click.option("--data", help="Component data file instead of the game's own.")
@click.option("--out", help="Output folder (default: tune-GAME).")
@click.option("--workers", type=int, help="Threads (default: all cores).")
@click.option("--resume", is_flag=True, help="Continue the study the output folder holds, up to --trials trials.")
@click.option("--force", is_flag=True, help="Replace the study the output folder holds.")
@click.option("--quiet", is_flag=True, help="No progress bar on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print the outcome as one JSON object.")
def tune(game, players, base, space, against, trials, games, held_out, seed, data, out, workers, resume, force,
         quiet, as_json):
    """Search BASE's parameters (Optuna, TPE) for the values that win most against the --against
    opponents, seats rotated, every trial on the same games; then measure the best and BASE at
    its defaults on held-out games (seed + 1) with a 95% Wilson interval."""
    tp = tuning.plan(game, base, space, against, players=players, trials=trials, games=games, held_out=held_out,
                     seed=seed, workers=workers, data=data, out=out)
    try:
        with counting("trials", quiet) as progress:
            outcome = tuning.run(tp, resume=resume, force=force, progress=progress)
    except KeyboardInterrupt as stop:
        terminated = getattr(stop, "signal", signal.SIGINT) == signal.SIGTERM
        click.echo(f"{'stopped by SIGTERM' if terminated else 'interrupted'}: the study in {tp.out} keeps its "
                   f"finished trials; --resume continues it", err=True)
        click.get_current_context().exit(TERMINATED if terminated else INTERRUPTED)
    if as_json:
        click.echo(json.dumps(outcome))
        return
    print_outcome(outcome)
    if not quiet:
        click.echo(f"wrote study.db, trials.csv, tune.json and the plots to {tp.out}", err=True)


def print_outcome(outcome: dict) -> None:
    held = outcome["best"]["held_out"]
    table = Table(title=f"{outcome['game']} · {outcome['players']} players · {outcome['trials']} trials of "
                        f"{outcome['games_per_trial']:,} games · held out: {held['games']:,} games, seed {held['seed']}",
                  caption="against " + ", ".join(outcome["against"]))
    for column in ("", "policy", "win rate", "95% CI", "mean score"):
        table.add_column(column, justify="left" if column in ("", "policy") else "right", no_wrap=column != "policy",
                         overflow="fold")
    for what, row in (("best", outcome["best"]), ("baseline", outcome["baseline"])):
        h = row["held_out"]
        table.add_row(what, row["policy"], f"{100 * h['win_rate']:.1f}%",
                      f"{100 * h['win_ci'][0]:.1f}–{100 * h['win_ci'][1]:.1f}%", f"{h['mean_score']:.2f}")
    Console().print(table)

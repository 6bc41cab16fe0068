"""`simcore sweep`: the same games under a grid of data-file and rule variants (simcore.sweep).

Registered on the `simcore` group by cli/main.py (main.add_command(sweep)). Run on its own (as
the tests do through click's CliRunner) it keeps the group's contract: a user mistake is one
line `error: ...` on stderr and exit status 2."""
from __future__ import annotations

import json
import signal

import click
from rich.console import Console
from rich.table import Table

from simcore import runner
from simcore import sweep as sweeps
from cli.errors import INTERRUPTED, TERMINATED, OneLineCommand

EPILOG = """\b
PATH: dot-separated keys into the data file; a list item by its id,
name, kind or effect, or by index: tiles.D.count, buildings.inn.value
(= buildings.tiles.INN.value), rules.FM_LIMIT, options.pair_cap,
year_decks.1.3.copies.
VALUES: JSON, split on the commas outside brackets and quotes; a bare
word is a string: 3,4,5  true,false  null,3  floor,ceil
'options.villa_table=[0,2,5,8],[0,2,5,9]' (quote brackets in the shell).
"""


@click.command("sweep", cls=OneLineCommand, epilog=EPILOG)
@click.argument("game")
@click.option("--param", "params", multiple=True, metavar="PATH=V1,V2,...",
              help="A data-file value and the values to try (repeat for a grid; at least one).")
@click.option("-n", "--games", type=int, default=runner.DEFAULT_GAMES, show_default=True, help="Games per variant.")
@click.option("-p", "--players", type=int, help="Number of players (default: the game's usual count).")
@click.option("--policy", "policies", multiple=True, help="Once for every seat, or once per seat in order.")
@click.option("--rotate-seats", is_flag=True, help="Move the policy assignment one seat per game.")
@click.option("--seed", type=int, default=0, show_default=True, help="The seed of every variant.")
@click.option("--data", help="Component data file to vary instead of the game's own.")
@click.option("--out", help="Output folder (default: sweep-GAME).")
@click.option("--workers", type=int, help="Threads (default: all cores).")
@click.option("--force", is_flag=True, help="Replace the sweep the output folder holds.")
@click.option("--resume", is_flag=True, help="Continue the sweep the output folder holds: keep the games its "
                                               "variants' results files hold, play the rest.")
@click.option("--quiet", is_flag=True, help="No progress lines on stderr.")
@click.option("--json", "as_json", is_flag=True, help="Print the sweep and its summary rows as one JSON object.")
def sweep(game, params, games, players, policies, rotate_seats, seed, data, out, workers, force, resume, quiet,
          as_json):
    """Play GAME's games 0..N-1 under every combination of --param values, with the same seeds
    for every variant, and show how win shares, scores and points by category move. An output
    folder that already holds a sweep is an error unless --force or --resume."""
    plan = sweeps.plan(game, params, players=players, games=games, seed=seed, policies=policies or None,
                       rotate_seats=rotate_seats, workers=workers, data=data, out=out)
    say = None if quiet else (lambda line: click.echo(line, err=True))
    try:
        outcome = sweeps.run(plan, progress=say, force=force, resume=resume)
    except sweeps.Interrupted as stop:
        held = f" (0..{stop.games - 1})" if stop.games else ""
        said = "interrupted" if stop.signal == signal.SIGINT else "stopped by SIGTERM"
        click.echo(f"{said}: variant {stop.variant.index} ({stop.variant.label}): {stop.out} holds "
                   f"{stop.games} games{held}; the variants before it are complete; --resume plays the rest",
                   err=True)
        click.get_current_context().exit(TERMINATED if stop.signal == signal.SIGTERM else INTERRUPTED)
    if as_json:
        click.echo(json.dumps(outcome.as_json()))
    else:
        print_tables(outcome)
    if not quiet:
        click.echo(f"wrote {len(plan.variants)} variants, summary.csv, summary.md and sweep.json to {plan.out}",
                   err=True)


def print_tables(outcome: sweeps.Outcome) -> None:
    p = outcome.sweep.plan
    title = f"{p.spec.id} · {p.players} players · {p.games:,} games per variant · seed {p.seed}"
    baseline = outcome.sweep.baseline
    caption = f"Δ: paired difference to the baseline, variant {baseline.index} (same seeds), ± half its 95% CI"
    console = Console()
    for v in outcome.sweep.variants:
        console.print(f"variant {v.index}: {v.label}{' (baseline)' if v.index == baseline.index else ''}", highlight=False,
                      soft_wrap=True)
    console.print(outcome.sweep.baseline_note(), highlight=False, soft_wrap=True)
    for header, rows, heading, note in [(*sweeps.outcome_rows(outcome.table), title, caption),
                                        (*sweeps.points_rows(outcome.table, deltas_only=True), "mean points per category", None)]:
        table = Table(title=heading, caption=note)
        for column in header:
            # numbers never wrap; a long policy list (rotated seats) takes the line breaks instead
            table.add_column(column, justify="left" if column in sweeps.TEXT_COLUMNS else "right",
                             no_wrap=column != "policy", min_width=6 if column == "policy" else None)
        for row in rows:
            table.add_row(*map(str, row))
        console.print(table)

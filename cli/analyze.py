"""`simcore analyze RESULTS... [--out DIR] [--format md|html] [--force]`: a report on results files.

The command is registered on the `simcore` group (cli.main) by main.add_command(analyze); a
UserError raised here becomes the group's one line `error: ...` and exit status 2."""
from __future__ import annotations

import click

from simcore import report


@click.command("analyze")
@click.argument("results_paths", metavar="RESULTS...", nargs=-1, required=True)
@click.option("--out", "out_dir", metavar="DIR", default="report", show_default=True,
              help="Folder for the report and its PNG plots (created if missing).")
@click.option("--format", "fmt", type=click.Choice(report.FORMATS), default="md", show_default=True,
              help="report.md with the plots linked, or report.html with them embedded.")
@click.option("--force", is_flag=True, help="Replace the report DIR already holds (else that is an error).")
def analyze(results_paths, out_dir, fmt, force):
    """A report on one or more results files: seat advantage, strategies, scores, game length.

    Files of the same game, player count, component data and lineup (the seats' policies) are
    pooled; any others get a section each, and lineups of one game side by side get a "Seat
    advantage by lineup" table. The files are read chunk by chunk, so their size does not matter.
    Prints the paths written, the report first."""
    for path in report.write_report(list(results_paths), out_dir, fmt, force=force):
        click.echo(path)

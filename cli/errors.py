"""How every command ends on a user mistake: one line `error: ...` on stderr and exit status 2
(scripts depend on it), also for click's own multi-line usage errors; Ctrl-C ends with 130,
SIGTERM during a run with 143."""
import sys

import click

from simcore.contract import UserError

INTERRUPTED = 130   # the shell's status for a command ended by SIGINT
TERMINATED = 143    # ... and by SIGTERM


def fail(message: str):
    click.echo("error: " + " ".join(message.split()), err=True)
    sys.exit(2)


class OneLineErrors:
    """Mixed into a click Group or Command: its main() turns every mistake into one line."""

    def main(self, *args, **kwargs):
        kwargs["standalone_mode"] = False
        try:
            status = super().main(*args, **kwargs)
        except UserError as e:
            fail(str(e))
        except click.ClickException as e:
            fail(e.format_message())
        except click.Abort:
            click.echo("interrupted", err=True)
            sys.exit(INTERRUPTED)
        sys.exit(status or 0)


class OneLineCommand(OneLineErrors, click.Command):
    """A command that keeps the one-line errors when it is run on its own (tests, scripts)."""

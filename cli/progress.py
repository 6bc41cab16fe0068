"""A progress bar that counts (trials, games) on stderr, for the commands that run many runs."""
from __future__ import annotations

from contextlib import contextmanager

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn


@contextmanager
def counting(what: str, quiet: bool, total: int | None = None):
    """Yields count(done, total=None) updating a bar of `what` on stderr, or None when quiet."""
    if quiet:
        yield None
        return
    bar = Progress(TextColumn(what), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), TimeRemainingColumn(),
                   console=Console(stderr=True), transient=True)
    with bar:
        task = bar.add_task(what, total=total)

        def count(done: int, total: int | None = None):
            bar.update(task, completed=done, **({"total": total} if total is not None else {}))
        yield count

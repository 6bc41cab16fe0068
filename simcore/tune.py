"""`simcore tune`: the values of a policy's parameters that win most against given opponents.

Optuna searches the space (TPE, seeded with the run's seed, so a tuning run is repeatable). Every
trial plays the same games: seed S, games 0..N-1, the tuned policy in every seat in turn (seats
rotated), the opponents in the others — common random numbers, so two trials differ by their
parameters and not by their luck. The objective is the tuned policy's mean win share (ties
split). The best trial's figure is biased upwards (the winner's curse: it won the comparison
partly by luck on those seeds), so the best parameters and BASE at its own defaults (the
baseline) are then measured again on games the search never saw: seed S + 1 (HELD_OUT_SEED_STEP),
games 0..H-1, with a Wilson interval of the win rate.

The output folder holds the Optuna study (study.db, SQLite: --resume continues it up to the
asked number of trials), every trial as a row of trials.csv, tune.json, and two plots:
history.png (the optimisation history) and importance.png (parameter importance, with two
parameters or more).
"""
from __future__ import annotations

import json
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from simcore import registry, runner, stats
from simcore.contract import GameSpec, UserError
from simcore.players import canonical, lineup as make_lineup, params_of, parse, split_label

TUNED = "tuned"                      # the tuned policy's label in every trial's games
HELD_OUT_SEED_STEP = 1               # held-out games: seed S + 1, never played while tuning
STUDY = "tune"


@dataclass(frozen=True)
class Dimension:
    key: str
    kind: type                       # int or float
    low: float
    high: float


@dataclass(frozen=True)
class TunePlan:
    spec: GameSpec
    players: int
    base: str                        # BASE, canonical (its own fixed parameters kept)
    space: tuple[Dimension, ...]
    against: tuple[str, ...]         # one per other seat
    trials: int
    games: int                       # per trial, a multiple of players
    held_out: int                    # games of each held-out measurement
    seed: int
    workers: int | None
    data: str | None
    out: str

    def policy(self, values: dict) -> str:
        """BASE with these values of the tuned parameters, canonical and without a label."""
        base, params = parse(self.spec, self.base)
        params.update(values)
        shown = ",".join(f"{k}={v}" for k, v in params.items())
        return canonical(self.spec, base + (":" + shown if shown else ""))

    def measure(self, policy: str, seed: int, games: int) -> dict:
        """The games of `policy` (labelled TUNED) against the opponents, seats rotated: its
        seat-games, win rate, win share and mean score with their 95% intervals (stats.rate_fields)."""
        plan = runner.plan(self.spec.id, players=self.players, games=games, seed=seed,
                           policies=[f"{TUNED}={policy}", *self.against], rotate_seats=True,
                           workers=self.workers, data=self.data)
        return {"seed": seed, **stats.rate_fields(runner.run(plan).tally.by_policy().loc[TUNED])}


def parse_space(spec: GameSpec, base: str, text: str) -> Dimension:
    """NAME=LO:HI for a numeric parameter of BASE, inside the parameter's own range."""
    key, eq, span = text.partition("=")
    lo, colon, hi = span.partition(":")
    if not eq or not colon:
        raise UserError(f"--space {text}: give NAME=LO:HI, e.g. cities=0:3")
    known = {p.key: p for p in params_of(spec, base)}
    if key not in known:
        raise UserError(f"--space {text}: {base} has no parameter '{key}'"
                        + (f" (known: {', '.join(known)})" if known else " (it takes no parameters)"))
    p = known[key]
    if p.kind is str:
        raise UserError(f"--space {text}: {key} is one of {', '.join(p.choices)}, not a number to tune")
    low, high = p.parse(base, lo.strip()), p.parse(base, hi.strip())
    if not low < high:
        raise UserError(f"--space {text}: LO must be below HI")
    return Dimension(key, p.kind, low, high)


def plan(game: str, base: str, space: Iterable[str], against: Iterable[str], players: int | None = None,
         trials: int = 50, games: int = 1000, held_out: int | None = None, seed: int = 0,
         workers: int | None = None, data: str | None = None, out: str | None = None) -> TunePlan:
    """Checks the request (UserError naming the problem)."""
    spec = registry.get(game)
    check = runner.plan(game, players=players, games=1, seed=seed, workers=workers, data=data)
    if split_label(base)[0] is not None:
        raise UserError(f"--policy {base}: the tuned policy takes no label (its games call it '{TUNED}')")
    base = canonical(spec, base)
    dims = tuple(parse_space(spec, parse(spec, base)[0], s) for s in space)
    if not dims:
        raise UserError("give the parameters to tune: --space NAME=LO:HI (at least one)")
    if len({d.key for d in dims}) < len(dims):
        raise UserError("each parameter may be given one --space")
    fixed = set(parse(spec, base)[1])
    for d in dims:
        if d.key in fixed:
            raise UserError(f"--space {d.key}: the parameter is fixed in --policy {base}")
    against = [canonical(spec, a) for a in against]
    if not against:
        raise UserError("give the opponents: --against POLICY (once for all other seats, or once per seat)")
    if any(split_label(a)[0] == TUNED for a in against):
        raise UserError(f"the label '{TUNED}' names the tuned policy: label the opponents otherwise")
    others = check.players - 1
    if len(against) == 1:
        against = against * others
    if len(against) != others:
        raise UserError(f"{len(against)} opponents given for {others} other seats: give one, or one per seat")
    for name, value in (("trials", trials), ("games", games)):
        if value < 1:
            raise UserError(f"{name} must be at least 1, not {value}")
    games = -(-games // check.players) * check.players
    held_out = games if held_out is None else -(-held_out // check.players) * check.players
    if held_out < 1:
        raise UserError(f"held-out games must be at least 1, not {held_out}")
    if seed + HELD_OUT_SEED_STEP > runner.MAX_SEED:
        raise UserError(f"seed must be below {runner.MAX_SEED}: the held-out games use seed + 1")
    make_lineup(spec, [f"{TUNED}={base}", *dict.fromkeys(against)])   # a trial's names are told apart
    return TunePlan(spec, check.players, base, dims, tuple(against), trials, games, held_out, seed, workers, data,
                    out or f"tune-{spec.id}")


def study(tp: TunePlan, resume: bool, force: bool):
    """The Optuna study in the output folder: new, or continued with resume."""
    import optuna
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    if resume and force:
        raise UserError("give --resume (continue the study) or --force (replace it), not both")
    if os.path.exists(tp.out) and not os.path.isdir(tp.out):
        raise UserError(f"output folder {tp.out} is a file")
    path = os.path.join(tp.out, "study.db")
    if os.path.exists(path):
        if force:
            os.remove(path)
        elif not resume:
            raise UserError(f"{tp.out} already holds a tuning study: give --resume to continue it or --force to "
                            f"replace it")
    os.makedirs(tp.out, exist_ok=True)
    return optuna.create_study(study_name=STUDY, storage=f"sqlite:///{path}", direction="maximize",
                               sampler=optuna.samplers.TPESampler(seed=tp.seed), load_if_exists=True)


def suggest(trial, d: Dimension):
    """The trial's value of d; a number to 4 significant digits, as the policy's name shows it
    (the name is the policy played, so the value reported is the value played)."""
    if d.kind is int:
        return trial.suggest_int(d.key, int(d.low), int(d.high))
    return float(f"{trial.suggest_float(d.key, d.low, d.high):.4g}")


def completed(s) -> list:
    import optuna
    return [t for t in s.trials if t.state == optuna.trial.TrialState.COMPLETE]


def run(tp: TunePlan, resume: bool = False, force: bool = False,
        progress: Callable[[int, int], None] | None = None) -> dict:
    """Runs the trials still missing (progress(done, total) after each), measures the best and
    the baseline on the held-out seed, writes the folder's files; returns tune.json's object."""
    s = study(tp, resume, force)
    if s.user_attrs and s.user_attrs.get("plan") != describe(tp):
        raise UserError(f"{tp.out} holds the study of another tuning run ({s.user_attrs['plan']}): give --force "
                        f"to replace it")
    s.set_user_attr("plan", describe(tp))

    def objective(trial):
        values = {d.key: suggest(trial, d) for d in tp.space}
        policy = tp.policy(values)
        trial.set_user_attr("policy", policy)
        trial.set_user_attr("params", values)
        return tp.measure(policy, tp.seed, tp.games)["win_share"]

    while len(completed(s)) < tp.trials:
        if progress:
            progress(len(completed(s)), tp.trials)
        s.optimize(objective, n_trials=1)
    if progress:
        progress(tp.trials, tp.trials)
    best = s.best_trial
    held_seed = tp.seed + HELD_OUT_SEED_STEP
    outcome = {"game": tp.spec.id, "players": tp.players, "trials": len(completed(s)),
               "games_per_trial": tp.games, "seed": tp.seed, "space": {d.key: [d.low, d.high] for d in tp.space},
               "against": list(tp.against),
               "best": {"policy": best.user_attrs["policy"], "params": best.user_attrs["params"],
                        "tuning_win_share": best.value,
                        "held_out": tp.measure(best.user_attrs["policy"], held_seed, tp.held_out)},
               "baseline": {"policy": tp.base, "held_out": tp.measure(tp.base, held_seed, tp.held_out)}}
    write_files(tp, s, outcome)
    return outcome


def describe(tp: TunePlan) -> str:
    """What a study is of, kept in it so that --resume continues only the same tuning run."""
    space = " ".join(f"{d.key}={d.low:g}:{d.high:g}" for d in tp.space)
    return (f"{tp.spec.id} -p {tp.players} --policy {tp.base} {space} against {', '.join(tp.against)} "
            f"-n {tp.games} --seed {tp.seed}")


def write_files(tp: TunePlan, s, outcome: dict) -> None:
    """trials.csv, tune.json and the plots."""
    import warnings

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from optuna.exceptions import ExperimentalWarning
    from optuna.visualization import matplotlib as plots

    s.trials_dataframe().to_csv(os.path.join(tp.out, "trials.csv"), index=False)
    with open(os.path.join(tp.out, "tune.json"), "w") as f:
        json.dump(outcome, f, indent=1)
    figures = [("history.png", plots.plot_optimization_history)]
    if len(tp.space) > 1:
        figures.append(("importance.png", plots.plot_param_importances))
    for name, plot in figures:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", ExperimentalWarning)    # the plots' interface may change: ours is fixed
            warnings.simplefilter("ignore", UserWarning)            # importance from a few trials: said in the plot
            ax = plot(s)
        ax.figure.set_size_inches(8, 5)
        ax.figure.tight_layout()
        ax.figure.savefig(os.path.join(tp.out, name), dpi=100)
        plt.close(ax.figure)

"""`simcore analyze` / simcore.report: every number of the report checked against the results file,
computed here again with pandas and scipy's distributions only; the PNGs; the CLI's error lines.

Two small fixed Strasbourg runs (3 players, 300 games, seed 7): every seat random (ties and
tie-breaks happen: fractional win shares) and greedy vs random with rotated seats; three Notre Dame
runs (2 players, 200 games) for lineups: all random (seeds 1 and 2) and all greedy (seed 1)."""
import base64
import math
import os
import struct
import types

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy.stats import chi2, chi2_contingency, t as t_distribution

import dice_game
import simcore
from cli.analyze import analyze
from cli.main import SimcoreGroup
from simcore import report, runner, stats
from simcore.contract import BatchResult, UserError
from cli_tool import assert_one_error_line

GAMES, SEED = 300, 7
TAG = f"({GAMES} games, seed {SEED})"


def number(x):
    """The report's way to print a number: an integer as such, anything else with 2 decimals."""
    return f"{round(float(x)):,}" if float(x) == round(float(x)) else f"{x:,.2f}"


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    folder = tmp_path_factory.mktemp("runs")
    paths = {"random": str(folder / "random.parquet"), "rotated": str(folder / "rotated.csv"),
             "four": str(folder / "four.parquet")}
    simcore.simulate("strasbourg", players=3, games=GAMES, seed=SEED, workers=2, out=paths["random"])
    simcore.simulate("strasbourg", players=3, games=GAMES, seed=SEED, policies=["greedy", "random", "random"],
                     rotate_seats=True, workers=2, out=paths["rotated"])
    simcore.simulate("strasbourg", players=4, games=40, seed=3, workers=2, out=paths["four"])
    return paths


@pytest.fixture(scope="module")
def random_report(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("random_report")
    written = report.write_report([runs["random"]], str(out), "md")
    with open(written[0], encoding="utf-8") as fh:
        return types.SimpleNamespace(df=simcore.results.read(runs["random"]), written=written, out=out, md=fh.read())


@pytest.fixture(scope="module")
def rotated_report(runs, tmp_path_factory):
    out = tmp_path_factory.mktemp("rotated_report")
    written = report.write_report([runs["rotated"]], str(out), "html")
    with open(written[0], encoding="utf-8") as fh:
        return types.SimpleNamespace(df=simcore.results.read(runs["rotated"]), written=written, out=out, html=fh.read())


def test_seat_shares_with_goodman_intervals_plain_lines_and_chi_square(random_report):
    df, md = random_report.df, random_report.md
    wins = df.groupby("seat")["win_share"].sum()
    assert wins.sum() == pytest.approx(GAMES) and (wins % 1 != 0).any()   # ties share a game: fractional counts
    # Goodman (1965): chi2_1 quantile at 1 - alpha/k, closed form
    c = chi2.ppf(1 - 0.05 / 3, 1)
    p = wins / GAMES
    root = np.sqrt(c * c + 4 * GAMES * p * c * (1 - p))
    lo, hi = (2 * GAMES * p + c - root) / (2 * (c + GAMES)), (2 * GAMES * p + c + root) / (2 * (c + GAMES))
    table = report.seat_advantage(df)["table"]
    np.testing.assert_allclose(table["win_share"], p, rtol=1e-12)
    np.testing.assert_allclose(table["lo"], lo, rtol=1e-12)
    np.testing.assert_allclose(table["hi"], hi, rtol=1e-12)
    for seat in range(3):
        assert (f"seat {seat} wins {100 * p[seat]:.1f}% [{100 * lo[seat]:.1f}, {100 * hi[seat]:.1f}] "
                f"vs 33.3% expected {TAG}") in md
    statistic = ((wins - GAMES / 3) ** 2 / (GAMES / 3)).sum()
    assert f"χ² = {statistic:.2f}, df = 2, p = {chi2.sf(statistic, 2):.3g}" in md
    assert report.seat_advantage(df)["p"] == pytest.approx(chi2.sf(statistic, 2), rel=1e-9)


def test_plain_line_says_25_percent_for_four_players(runs, tmp_path):
    written = report.write_report([runs["four"]], str(tmp_path), "md")
    with open(written[0], encoding="utf-8") as fh:
        text = fh.read()
    assert "vs 25% expected (40 games, seed 3)" in text


def test_score_quantiles_category_means_margin_and_ties(random_report):
    df, md = random_report.df, random_report.md
    for seat, scores in df.groupby("seat")["score"]:
        q = scores.quantile([0.05, 0.25, 0.5, 0.75, 0.95])
        cells = [seat, "random", GAMES, scores.mean(), scores.std(), scores.min(), *q, scores.max()]
        assert "| " + " | ".join(c if isinstance(c, str) else number(c) for c in cells) + " |" in md
    city = df.groupby("seat")["pts_city"].mean()
    assert report.points_by_category(df, "seat")["city"].tolist() == pytest.approx(city.tolist(), rel=1e-12)
    points = df.groupby("seat")[[c for c in df.columns if c.startswith("pts_")] + ["score"]].mean()
    for seat, means in points.iterrows():
        assert "| " + " | ".join([str(seat)] + [number(m) for m in means]) + " |" in md
    games = df.sort_values(["game_index", "score"], ascending=[True, False]).groupby("game_index")["score"]
    margin = games.nth(0).to_numpy() - games.nth(1).to_numpy()
    assert report.margins(df)["summary"]["mean"] == pytest.approx(margin.mean(), rel=1e-12)
    assert f"| margin | {number(margin.mean())} | {number(margin.std(ddof=1))} | {number(margin.min())} |" in md
    ties = (df.groupby("game_index")["win"].sum() > 1).mean()
    assert 0 < ties < 1
    assert f"Ties: {100 * ties:.1f}% of games were won by more than one seat" in md


def test_game_and_seat_columns(random_report):
    df, md = random_report.df, random_report.md
    seat_columns, game_columns = report.counter_columns(df)
    assert game_columns == ["start_player", "final_start_player"] and "city_members" in seat_columns
    start = df[df["seat"] == 0]["start_player"]
    assert f"| start_player | {number(start.mean())} | {number(start.std())} |" in md
    members = df.groupby("seat")["city_members"].mean()
    assert "| city_members | " + " | ".join(number(m) for m in members) + " |" in md


def test_head_to_head_and_bradley_terry_rating(rotated_report):
    df, text = rotated_report.df, rotated_report.html
    pairs = df.merge(df, on="game_index")
    greedy_random = pairs[(pairs.policy_x == "greedy") & (pairs.policy_y == "random")]
    won = ((greedy_random.rank_x < greedy_random.rank_y) + 0.5 * (greedy_random.rank_x == greedy_random.rank_y)).sum()
    h2h = report.head_to_head(df)
    assert h2h["pairs"].loc["greedy", "random"] == len(greedy_random) == 2 * GAMES
    assert h2h["games"].loc["greedy", "random"] == GAMES
    assert h2h["share"].loc["greedy", "random"] == pytest.approx(won / (2 * GAMES), rel=1e-12)
    assert h2h["share"].loc["random", "greedy"] == pytest.approx(1 - won / (2 * GAMES), rel=1e-12)
    assert f"<td>greedy</td><td>—</td><td>{100 * won / (2 * GAMES):.1f}%</td>" in text
    # two policies: θ_greedy − θ_random = log(wins / losses), with half a win each way if one side never won
    lost = 2 * GAMES - won
    pad = 0.5 if min(won, lost) == 0 else 0
    theta = math.log((won + pad) / (lost + pad)) / 2
    rating = report.bradley_terry(h2h["wins"])
    assert rating["strength"]["greedy"] == pytest.approx(theta, rel=1e-9)
    assert rating["regularised"] == (pad > 0)
    assert f"<td>greedy</td><td>{theta:+.3f}</td>" in text and "Bradley–Terry" in text and "choix" in text
    assert "equally often (rotated seats)" in text
    rates = df.groupby("policy")["win"].mean()
    assert f"<td>greedy</td><td>{GAMES}</td><td>{GAMES}</td><td>{100 * rates['greedy']:.1f}%</td>" in text


def test_bradley_terry_solves_the_likelihood_equations():
    wins = pd.DataFrame([[0, 7, 9], [3, 0, 6], [1, 4, 0]], index=list("abc"), columns=list("abc"), dtype=float)
    rating = report.bradley_terry(wins)
    theta = rating["strength"].to_numpy()
    assert not rating["regularised"] and theta.mean() == pytest.approx(0, abs=1e-12)
    w = wins.to_numpy()
    p = 1 / (1 + np.exp(theta[None, :] - theta[:, None]))   # P(i beats j)
    np.fill_diagonal(p, 0)
    np.testing.assert_allclose(((w + w.T) * p).sum(axis=1), w.sum(axis=1), rtol=1e-9)
    assert list(rating["strength"].sort_values(ascending=False).index) == ["a", "b", "c"]
    unbeaten = report.bradley_terry(pd.DataFrame([[0, 5], [0, 0]], index=list("ab"), columns=list("ab"), dtype=float))
    assert unbeaten["regularised"] and unbeaten["strength"]["a"] == pytest.approx(math.log(5.5 / 0.5) / 2)


def png_size(path):
    with open(path, "rb") as fh:
        head = fh.read(24)
    assert head[:8] == b"\x89PNG\r\n\x1a\n" and head[12:16] == b"IHDR"
    return struct.unpack(">II", head[16:24])


def test_pngs_are_linked_from_md_and_embedded_in_html(random_report, rotated_report):
    for written, out in [(random_report.written, random_report.out), (rotated_report.written, rotated_report.out)]:
        pngs = written[1:]
        assert sorted(p.rsplit("-", 1)[1] for p in pngs) == ["points.png", "scores.png", "win_share.png"]
        for path in pngs:
            width, height = png_size(path)
            assert width > 200 and height > 200
            assert str(out) in path
    for path in random_report.written[1:]:
        assert f"]({path.rsplit('/', 1)[1]})" in random_report.md
    for path in rotated_report.written[1:]:
        with open(path, "rb") as fh:
            assert f'src="data:image/png;base64,{base64.b64encode(fh.read()).decode()}"' in rotated_report.html


def test_every_table_and_line_names_its_games_and_seed(random_report):
    blocks = [b for b in random_report.md.split("\n\n") if b.strip()]
    numbered = [b for b in blocks if any(ch.isdigit() for ch in b) and not b.startswith(("#", "Files:", "![", "Method:"))]
    tables = [b for b in blocks if b.startswith("**")]
    assert len(tables) >= 10
    for block in tables + [b for b in numbered if not b.startswith("|")]:
        assert TAG in block or "(N games, seed S)" in block, block


def test_other_games_and_other_lineups_get_their_own_section(runs, tmp_path):
    written = report.write_report([runs["random"], runs["rotated"], runs["four"]], str(tmp_path), "md")
    with open(written[0], encoding="utf-8") as fh:
        text = fh.read()
    assert "## strasbourg · 3 players · data strasbourg-p0-v1 · lineup greedy, random ×2 (300 games, seed 7)" in text
    assert "## strasbourg · 3 players · data strasbourg-p0-v1 · lineup random ×3 (300 games, seed 7)" in text
    assert "## strasbourg · 4 players · data strasbourg-p0-v1 · lineup random ×4 (40 games, seed 3)" in text
    assert "## Seat advantage by lineup" in text and "| random ×4 |" not in text   # one lineup of 4 players
    assert sum(p.startswith(str(tmp_path / "strasbourg-3p-greedy-randomx2-")) for p in written) == 3
    assert sum(p.startswith(str(tmp_path / "strasbourg-3p-randomx3-")) for p in written) == 3
    assert sum(p.startswith(str(tmp_path / "strasbourg-4p-")) for p in written) == 3


def test_the_same_games_pooled_twice_are_flagged(runs, tmp_path):
    written = report.write_report([runs["four"], runs["random"], runs["random"]], str(tmp_path), "md")
    with open(written[0], encoding="utf-8") as fh:
        text = fh.read()
    assert f"Note: `{runs['random']}` and `{runs['random']}` hold the same games" in text
    assert "(600 games, seed 7)" in text


# ---- chunk by chunk: the same numbers whatever the chunks -----------------------------------

def test_whole_games_hands_a_game_cut_by_a_chunk_boundary_to_the_next_chunk():
    frame = pd.DataFrame({"players": np.int8(3), "seat": np.tile(np.arange(3, dtype=np.int8), 4),
                          "game_index": np.repeat(np.arange(4), 3)})
    whole = list(report.whole_games([frame.iloc[0:5], frame.iloc[5:7], frame.iloc[7:12]]))
    assert [c["game_index"].unique().tolist() for c in whole] == [[0], [1], [2, 3]]
    # a file that ends inside a game: its last rows come out as they are, and are refused
    assert [len(c) for c in report.whole_games([frame.iloc[:11]])] == [9, 2]


def test_a_file_that_ends_inside_a_game_is_a_user_error(random_report):
    cut = random_report.df.iloc[:-1]
    with pytest.raises(UserError, match=r"results file cut.csv: not one row per seat 0..2 of every game"):
        report.group_sources([report.Source("cut.csv", lambda: [cut])])


def test_chunks_cut_inside_games_give_the_same_numbers(random_report):
    df = random_report.df
    whole = report.Group.of(df)
    # 3 players, chunks of 100 rows: most chunks end inside a game
    groups = report.group_sources([report.Source("chunked", lambda: [df.iloc[i:i + 100] for i in range(0, len(df), 100)])])
    assert [(g.games, g.lineup, g.sources) for g in groups] == [(GAMES, "random ×3", {0: "chunked"})]
    chunked = groups[0]
    pd.testing.assert_frame_equal(report.seat_advantage(chunked)["table"], report.seat_advantage(whole)["table"])
    for by in ["seat", "policy"]:
        pd.testing.assert_frame_equal(report.score_distribution(chunked, by), report.score_distribution(whole, by))
        pd.testing.assert_frame_equal(report.points_by_category(chunked, by), report.points_by_category(whole, by))
        pd.testing.assert_frame_equal(report.seat_counters(chunked, by), report.seat_counters(whole, by))
    pd.testing.assert_series_equal(report.margins(chunked)["summary"], report.margins(whole)["summary"])
    pd.testing.assert_frame_equal(report.game_counters(chunked), report.game_counters(whole))


def test_a_csv_read_in_blocks_that_end_inside_games_gives_the_same_report(runs, rotated_report, tmp_path, monkeypatch):
    monkeypatch.setattr(simcore.results, "CSV_READ_ROWS", 100)    # 900 rows of 3-player games: 9 blocks
    assert [len(chunk) for chunk in simcore.results.read_chunks(runs["rotated"])] == [100] * 9
    written = report.write_report([runs["rotated"]], str(tmp_path), "html")
    with open(written[0], encoding="utf-8") as fh:
        assert fh.read() == rotated_report.html      # every number, and the PNGs embedded in it


def test_distribution_from_counts_is_exactly_pandas():
    rng = np.random.default_rng(5)
    for n in [1, 2, 3, 10, 299, 1000]:
        values = pd.Series(rng.integers(-20, 60, n))
        got = report.distribution(values.value_counts())
        assert [got[f"q{round(100 * q)}"] for q in report.QUANTILES] == values.quantile(list(report.QUANTILES)).tolist()
        assert (got["mean"], got["min"], got["max"]) == (values.mean(), values.min(), values.max())
        if n > 1:
            assert got["sd"] == pytest.approx(values.std(), rel=1e-14)
        else:
            assert np.isnan(got["sd"])


# ---- lineups: the seats' policies of a game ------------------------------------------------
# Notre Dame, 2 players, 200 games: every seat random (seeds 1 and 2) and every seat greedy (seed 1)

@pytest.fixture(scope="module")
def lineups(tmp_path_factory):
    folder = tmp_path_factory.mktemp("lineups")
    paths = {name: str(folder / f"{name}.parquet") for name in ["random", "greedy", "random2"]}
    simcore.simulate("notre-dame", players=2, games=200, seed=1, out=paths["random"])
    simcore.simulate("notre-dame", players=2, games=200, seed=1, policies=["greedy"], out=paths["greedy"])
    simcore.simulate("notre-dame", players=2, games=200, seed=2, out=paths["random2"])
    return types.SimpleNamespace(paths=paths, frames={name: simcore.results.read(path) for name, path in paths.items()})


def goodman(wins, games):
    """Goodman's (1965) simultaneous 95% intervals in closed form: chi2_1 quantile at 1 - alpha/k."""
    c = chi2.ppf(1 - 0.05 / len(wins), 1)
    p = wins / games
    root = np.sqrt(c * c + 4 * games * p * c * (1 - p))
    return (2 * games * p + c - root) / (2 * (c + games)), (2 * games * p + c + root) / (2 * (c + games))


def lineup_row(df, tag):
    """The report's row of df's lineup in "Seat advantage by lineup", recomputed with pandas and scipy."""
    games = df["game_index"].nunique()
    wins = df.groupby("seat")["win_share"].sum()
    lo, hi = goodman(wins, games)
    statistic = ((wins - games / 2) ** 2 / (games / 2)).sum()
    cells = [f"{100 * w / games:.1f}% [{100 * lo[s]:.1f}, {100 * hi[s]:.1f}]" for s, w in wins.items()]
    return cells, f"{chi2.sf(statistic, 1):.3g}", tag


def test_lineup_text_and_game_lineups():
    assert report.lineup_text(["mcts", "greedy", "greedy"]) == "greedy ×2, mcts"
    assert report.lineup_text(["mcts:iters=400"] * 4) == "mcts:iters=400 ×4"
    frame = pd.DataFrame({"players": np.int8(3), "policy": ["b", "a", "a", "a", "b", "a", "c", "c", "c", "a", "a", "b"]})
    index, texts = report.game_lineups(frame)
    assert texts == ["a ×2, b", "c ×3"] and index.tolist() == [0, 0, 1, 0]


def test_runs_with_other_lineups_get_two_sections_and_the_comparison(lineups, tmp_path):
    random, greedy = lineups.frames["random"], lineups.frames["greedy"]
    assert set(random["policy"]) == {"random"} and set(greedy["policy"]) == {"greedy"} and len(greedy) == 400
    written = report.write_report([lineups.paths["greedy"], lineups.paths["random"]], str(tmp_path / "md"), "md")
    with open(written[0], encoding="utf-8") as fh:
        md = fh.read()
    data = random["data"].iloc[0]
    sections = [line for line in md.splitlines() if line.startswith("## ")]
    assert sections == ["## Seat advantage by lineup",
                        f"## notre-dame · 2 players · data {data} · lineup greedy ×2 (200 games, seed 1)",
                        f"## notre-dame · 2 players · data {data} · lineup random ×2 (200 games, seed 1)"]
    assert md.index("## Seat advantage by lineup") < md.index("### Seat advantage")
    assert "| lineup | seat 0 | seat 1 | p | games |" in md
    html_written = report.write_report([lineups.paths["greedy"], lineups.paths["random"]], str(tmp_path / "html"), "html")
    with open(html_written[0], encoding="utf-8") as fh:
        text = fh.read()
    assert "<h2>Seat advantage by lineup</h2>" in text
    for df, lineup in [(greedy, "greedy ×2"), (random, "random ×2")]:
        cells, p, tag = lineup_row(df, "(200 games, seed 1)")
        assert f"| {lineup} | {cells[0]} | {cells[1]} | {p} | {tag} |" in md
        assert f"<tr><td>{lineup}</td><td>{cells[0]}</td><td>{cells[1]}</td><td>{p}</td><td>{tag}</td></tr>" in text
        line = f"{lineup}: seat 0 wins {cells[0]}, seat 1 wins {cells[1]} vs 50% expected; chi-square p = {p} {tag}"
        assert line in md and f"<p>{line}</p>" in text
        # the section of the lineup holds its own games alone
        assert f"seat 0 wins {cells[0]} vs 50% expected {tag}" in md
    assert sorted(p.rsplit("/", 1)[1] for p in written[1:]) == sorted(
        f"notre-dame-2p-{lineup}-{name}.png" for lineup in ["greedyx2", "randomx2"] for name in ["win_share", "scores", "points"])


def test_one_file_with_two_lineups_is_split(lineups):
    both = pd.concat([lineups.frames["random"], lineups.frames["greedy"]], ignore_index=True)
    groups = report.group_frames([("both.parquet", both)])
    assert [(g.lineup, g.games, g.sources) for g in groups] == [("greedy ×2", 200, {0: "both.parquet"}),
                                                                ("random ×2", 200, {0: "both.parquet"})]
    assert [len(family) for family in report.lineup_families(groups)] == [2]
    for group, name in zip(groups, ["greedy", "random"]):
        expected = report.seat_advantage(lineups.frames[name])
        pd.testing.assert_frame_equal(report.seat_advantage(group)["table"], expected["table"])


def test_runs_with_the_same_lineup_still_pool(lineups, tmp_path):
    written = report.write_report([lineups.paths["random"], lineups.paths["random2"]], str(tmp_path), "md")
    with open(written[0], encoding="utf-8") as fh:
        md = fh.read()
    pooled = pd.concat([lineups.frames["random"], lineups.frames["random2"]])
    data = pooled["data"].iloc[0]
    assert [line for line in md.splitlines() if line.startswith("## ")] == [
        f"## notre-dame · 2 players · data {data} · lineup random ×2 (400 games, seeds 1, 2)"]
    assert "Seat advantage by lineup" not in md and "hold the same games" not in md
    wins = pooled.groupby("seat")["win_share"].sum()
    lo, hi = goodman(wins, 400)
    for seat in range(2):
        assert (f"seat {seat} wins {100 * wins[seat] / 400:.1f}% [{100 * lo[seat]:.1f}, {100 * hi[seat]:.1f}] "
                "vs 50% expected (400 games, seeds 1, 2)") in md
    assert [p.rsplit("/", 1)[1] for p in written[1:]] == [f"notre-dame-2p-{name}.png" for name in ["win_share", "scores", "points"]]


# ---- the command line ------------------------------------------------------------------

def simcore_cli(*args):
    """`simcore analyze ...` through the CLI's own group (cli.main registers the command there)."""
    result = CliRunner().invoke(SimcoreGroup(name="simcore", commands={"analyze": analyze}), ["analyze", *map(str, args)])
    return types.SimpleNamespace(returncode=result.exit_code, stdout=result.stdout, stderr=result.stderr)


def test_analyze_prints_the_paths_written(runs, tmp_path):
    p = simcore_cli(runs["four"], "--out", tmp_path / "r", "--format", "html")
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0] == str(tmp_path / "r" / "report.html") and len(lines) == 4


@pytest.mark.parametrize("case, needle", [
    ("missing", "does not exist"),
    ("not_results", "is not a simcore results table"),
    ("empty", "is empty"),
    ("header_only", "holds no games"),
    ("txt", "unknown extension"),
    ("pdf", "'pdf' is not one of"),
    ("none", "Missing argument"),
])
def test_analyze_mistakes_are_one_error_line(runs, tmp_path, case, needle):
    (tmp_path / "other.csv").write_text("name,value\na,1\n")
    (tmp_path / "empty.parquet").write_bytes(b"")
    simcore.results.read(runs["four"]).iloc[:0].to_csv(tmp_path / "header.csv", index=False)
    args = {"missing": [tmp_path / "nope.parquet"], "not_results": [tmp_path / "other.csv"],
            "empty": [tmp_path / "empty.parquet"], "header_only": [tmp_path / "header.csv"],
            "txt": [tmp_path / "r.txt"], "pdf": [runs["four"], "--format", "pdf"], "none": []}[case]
    p = simcore_cli(*args, "--out", tmp_path / "out")
    assert_one_error_line(p, needle)


def test_analyze_refuses_a_folder_holding_a_report_unless_force(runs, tmp_path):
    out = tmp_path / "r"
    assert simcore_cli(runs["four"], "--out", out).returncode == 0
    p = simcore_cli(runs["four"], "--out", out, "--format", "html")
    assert_one_error_line(p, f"error: report folder {out} already holds a report (report.md, 3 plots): "
                             "give --force to replace it")
    assert not (out / "report.html").exists()
    p = simcore_cli(runs["four"], "--out", out, "--format", "html", "--force")
    assert p.returncode == 0, p.stderr
    assert (out / "report.html").exists() and not (out / "report.md").exists()


def test_force_replaces_the_whole_report_and_nothing_else(runs, tmp_path):
    out = tmp_path / "rep"
    first = report.write_report([runs["four"]], str(out), "md")
    (out / "notes.txt").write_text("mine")
    with pytest.raises(UserError) as caught:
        report.write_report([runs["random"]], str(out), "md")
    assert str(caught.value) == f"report folder {out} already holds a report (report.md, 3 plots): give --force to replace it"
    assert sorted(os.listdir(out)) == sorted([os.path.basename(p) for p in first] + ["notes.txt"])
    written = report.write_report([runs["random"]], str(out), "md", force=True)
    # the 4-player plots of the old report are gone with it; the user's file stays
    assert sorted(os.listdir(out)) == sorted([os.path.basename(p) for p in written] + ["notes.txt"])
    assert all("strasbourg-3p-" in p for p in written[1:])


def test_write_report_rejects_an_unknown_format_before_reading(tmp_path):
    with pytest.raises(UserError, match="unknown report format 'pdf'"):
        report.write_report([str(tmp_path / "nope.parquet")], str(tmp_path), "pdf")


def test_an_out_folder_that_is_a_file_is_a_user_error(runs, tmp_path):
    (tmp_path / "taken").write_text("")
    with pytest.raises(UserError, match="report folder"):
        report.write_report([runs["four"]], str(tmp_path / "taken"), "md")


# ---- mixed lineups: each policy in each seat -----------------------------------------------
# the dice toy game (tests/dice_game.py: greedy rolls two dice, random one, an exact six earns 3):
# 3 seats, greedy + random ×2 with rotated seats, 3,000 games of seed 11

MIXED_TAG = "(3,000 games, seed 11)"


def dice_frame(lineup, games, seed, rotate=True, pts=None):
    """Results rows of the dice game (or of the points pts[game, seat, category] given) for a lineup."""
    seat_policies = runner.assign_seats(np.asarray(lineup, np.int8), 0, games, rotate)
    batch = dice_game.play_batch(None, len(lineup), seat_policies, seed, 0) if pts is None else \
        BatchResult(np.asarray(pts, np.int32), np.ones((games, 1), np.int32))
    return simcore.results.chunk_frame(dice_game.DICE, "standard-dice", len(lineup), seed, 0, seat_policies, batch)


@pytest.fixture(scope="module")
def mixed(tmp_path_factory):
    df = dice_frame([dice_game.GREEDY, dice_game.RANDOM, dice_game.RANDOM], 3000, 11)
    out = tmp_path_factory.mktemp("mixed")
    written = report.report_frames([("mixed.parquet", df)], str(out), "md")
    with open(written[0], encoding="utf-8") as fh:
        return types.SimpleNamespace(df=df, written=written, md=fh.read())


def test_each_policy_in_each_seat_is_the_table_of_stats(mixed):
    df, md = mixed.df, mixed.md
    table = report.policy_seat_rates(df)
    expected = stats.Tally.of(df).by_policy_seat()
    assert table.index.tolist() == [("greedy", 0), ("greedy", 1), ("greedy", 2), ("random", 0), ("random", 1), ("random", 2)]
    assert table["n"].tolist() == [1000, 1000, 1000, 2000, 2000, 2000]
    columns = ["n", "win_rate", "win_lo", "win_hi", "win_share", "mean_score", "score_lo", "score_hi"]
    pd.testing.assert_frame_equal(table[columns], expected[columns], check_exact=False, rtol=1e-12,
                                  check_index_type=False)
    # every cell of the report's table, recomputed from the rows with pandas and scipy
    for (policy, seat), rows in df.groupby(["policy", "seat"]):
        n, won, score = len(rows), rows["win"].sum(), rows["score"]
        lo, hi = stats.wilson_interval(won, n)
        half = t_distribution.ppf(0.975, n - 1) * score.std() / math.sqrt(n)
        cells = [policy, str(seat), f"{n:,}", f"{100 * (won / n):.1f}%", f"[{100 * lo:.1f}, {100 * hi:.1f}]",
                 number(score.mean()), f"[{number(score.mean() - half)}, {number(score.mean() + half)}]"]
        assert "| " + " | ".join(cells) + " |" in md
    assert f"**Each policy in each seat: seat-games, win rate (ties count as wins) with its 95% Wilson interval, " \
           f"mean score with its 95% Student-t interval {MIXED_TAG}**" in md
    assert f"Every seat held each policy equally often (rotated seats)" in md


def test_a_policy_in_one_seat_a_game_gets_pearsons_chi_square(mixed):
    df, md = mixed.df, mixed.md
    greedy = df[df["policy"] == "greedy"].groupby("seat")["win"].agg(["sum", "count"])
    pearson = chi2_contingency(np.c_[greedy["sum"], greedy["count"] - greedy["sum"]], correction=False)
    test = report.policy_seat_advantage(df)
    assert test.loc["greedy", ["seats", "seat_games", "wins", "dof"]].tolist() == [3, 3000, greedy["sum"].sum(), 2]
    assert test.loc["greedy", "chi2"] == pytest.approx(pearson.statistic, rel=1e-9)
    assert test.loc["greedy", "p"] == pytest.approx(pearson.pvalue, rel=1e-9)
    verdict = "its win rate differs between seats" if pearson.pvalue < 0.05 else \
        "no evidence that its win rate differs between seats"
    assert f"| greedy | 3 | 3,000 | {pearson.statistic:.2f} | 2 | {pearson.pvalue:.3g} | {verdict} |" in md
    assert f"Seat advantage of each policy on its own: chi-square test of equal win rates across the seats it " \
           f"played, 5% level {MIXED_TAG}" in md


def test_a_policy_in_two_seats_of_a_game_counts_their_within_game_covariance(mixed):
    """random holds two seats of every game: the covariance of its seats' win rates, computed
    here from the rows (games × seats), has the within-game term, and the statistic is its Wald form."""
    df = mixed.df
    random = df[df["policy"] == "random"].astype({"win": float})
    won = random.pivot(index="game_index", columns="seat", values="win")      # NaN where greedy sat
    n, wins = won.count().to_numpy(), won.sum().to_numpy()
    rate = wins.sum() / n.sum()
    centred = (won - rate).fillna(0).to_numpy()
    covariance = centred.T @ centred / np.outer(n, n)
    np.fill_diagonal(covariance, rate * (1 - rate) / n)
    assert (covariance[~np.eye(3, dtype=bool)] != 0).all()       # the two random seats of a game are not independent
    difference = wins[1:] / n[1:] - wins[0] / n[0]
    spread = covariance[1:, 1:] - covariance[1:, :1] - covariance[:1, 1:] + covariance[0, 0]
    statistic = difference @ np.linalg.solve(spread, difference)
    test = report.policy_seat_advantage(df)
    assert test.loc["random", "chi2"] == pytest.approx(statistic, rel=1e-9)
    assert test.loc["random", "p"] == pytest.approx(chi2.sf(statistic, 2), rel=1e-9)
    naive = chi2_contingency(np.c_[wins, n - wins], correction=False).statistic
    assert test.loc["random", "chi2"] != pytest.approx(naive, rel=1e-3)


def test_the_seat_test_of_a_policy_keeps_its_level_where_pearsons_does_not():
    """4 seats, one winner drawn uniformly: no seat helps anyone. A policy holding 3 seats of every
    game (rotated) is tested 2,000 times: the test rejects at 5% about 5% of the time; Pearson's
    test on the same counts, blind to the within-game covariance, about 9%."""
    rng = np.random.default_rng(3)
    games, repeats = 400, 2000
    held = np.array([[(s + i) % 4 != 0 for s in range(4)] for i in range(games)], float)   # seats of the policy
    winner = rng.integers(0, 4, (repeats, games))
    x = (winner[:, :, None] == np.arange(4)) * held                                   # its wins, per seat
    n = held.sum(axis=0)
    games_both = held.T @ held
    np.fill_diagonal(games_both, 0)
    rejected = naive = 0
    for won in x:
        wins = won.sum(axis=0)
        wins_both, both_won = won.T @ held, won.T @ won
        np.fill_diagonal(wins_both, 0)
        np.fill_diagonal(both_won, 0)
        rejected += report.equal_rates_test(n, wins, games_both, wins_both, both_won)[1] < 0.05
        naive += chi2_contingency(np.c_[wins, n - wins], correction=False).pvalue < 0.05
    assert 0.035 < rejected / repeats < 0.065
    assert naive / repeats > 0.075


def test_nothing_to_test_is_said_so():
    never = dice_frame([dice_game.GREEDY, dice_game.RANDOM], 40, 1, rotate=False)      # one seat each
    test = report.policy_seat_advantage(never)
    assert test["why_not"].tolist() == ["one seat", "one seat"] and test["p"].isna().all()
    # seat 0 wins every game: greedy (rotated) wins in seat 0 only, 20 wins in 40 seat-games
    pts = np.zeros((40, 2, 2), np.int32)
    pts[:, 0, 0] = 5
    rotated = dice_frame([dice_game.GREEDY, dice_game.RANDOM], 40, 1, pts=pts)
    assert report.policy_seat_advantage(rotated).loc["greedy", "why_not"] == ""
    few = report.policy_seat_advantage(rotated.iloc[:16])           # 8 games: 4 wins and losses expected a seat
    assert few["why_not"].tolist() == ["few", "few"]


def test_a_p_value_below_1e_300_reads_p_less_than(tmp_path):
    pts = np.zeros((3000, 3, 2), np.int32)
    pts[:, 0, 0] = 5                                   # seat 0 wins every game: chi-square 6,000, p underflows
    df = dice_frame([dice_game.RANDOM] * 3, 3000, 2, pts=pts)
    assert report.seat_advantage(df)["p"] == 0
    written = report.report_frames([("all-seat-0.parquet", df)], str(tmp_path), "md")
    with open(written[0], encoding="utf-8") as fh:
        md = fh.read()
    assert "χ² = 6000.00, df = 2, p < 1e-300 — the seats' shares differ" in md and "p = <" not in md
    assert (report._p_is(0.0), report._p_is(0.01234), report._p_is(float("nan"))) == ("p < 1e-300", "p = 0.0123", "p = n/a")


# ---- plots: integer bins, titles inside the figure -------------------------------------------

def test_score_bins_hold_whole_scores_halfway_between_integers():
    for low, high in [(0, 28), (-12, 79), (-3, 200), (37, 37), (5, 64), (5, 65)]:
        edges = report.score_bins(low, high)
        widths = np.diff(edges)
        assert (edges % 1 == 0.5).all() and (widths == widths[0]).all() and widths[0] % 1 == 0
        assert len(widths) <= report.MAX_BINS and edges[0] < low and edges[-1] > high
        assert edges[0] + 0.5 == widths[0] * math.floor(low / widths[0])     # starts at a multiple of the width
        assert widths[0] == max(1, math.ceil((high - low + 1) / report.MAX_BINS))
    assert report.score_bins(-12, 79).tolist()[:3] == [-12.5, -10.5, -8.5]    # 92 scores: bins of 2


def step_patches(ax):
    from matplotlib.patches import StepPatch
    return [p for p in ax.patches if isinstance(p, StepPatch)]


def test_histograms_of_a_wide_score_range_have_integer_bins(tmp_path):
    pts = np.zeros((500, 2, 2), np.int32)
    pts[:, :, 0] = np.random.default_rng(4).integers(-20, 130, (500, 2))       # 150 scores: bins of 3
    df = dice_frame([dice_game.RANDOM] * 2, 500, 2, pts=pts)
    figure = report.plot_score_histograms(df, str(tmp_path / "scores.png"), "dice 2p")
    edges = report.score_bins(int(df["score"].min()), int(df["score"].max()))
    assert np.diff(edges)[0] == 3
    for seat, ax in enumerate(figure.axes[:2]):
        (patch,) = step_patches(ax)
        values, got_edges, _ = patch.get_data()
        np.testing.assert_array_equal(got_edges, edges)
        np.testing.assert_array_equal(values, np.histogram(df[df["seat"] == seat]["score"], bins=edges)[0])


def test_histograms_of_a_mixed_lineup_split_every_seat_by_policy(mixed, tmp_path):
    df = mixed.df
    figure = report.plot_score_histograms(df, str(tmp_path / "scores.png"), "dice 3p")
    edges = report.score_bins(int(df["score"].min()), int(df["score"].max()))
    for seat, ax in enumerate(figure.axes[:3]):
        patches = step_patches(ax)
        assert [p.get_label() for p in patches] == ["greedy", "random"]
        for patch, policy in zip(patches, ["greedy", "random"]):
            values, got_edges, _ = patch.get_data()
            scores = df[(df["seat"] == seat) & (df["policy"] == policy)]["score"]
            np.testing.assert_allclose(values, np.histogram(scores, bins=edges)[0] / len(scores), rtol=1e-12)
        assert ax.get_ylabel() == "share of its games"
    assert "score per seat, by policy" in figure.get_suptitle()


def drawn_outside(figure) -> bool:
    """Whether anything drawn in the figure (titles, labels, ticks, legends) reaches past its edges,
    as matplotlib measures it (inches; 0.01 inch to spare)."""
    drawn = figure.get_tightbbox(figure.canvas.get_renderer())
    width, height = figure.get_size_inches()
    return drawn.x0 < -0.01 or drawn.y0 < -0.01 or drawn.x1 > width + 0.01 or drawn.y1 > height + 0.01


def test_every_plot_title_fits_inside_its_figure(mixed, tmp_path):
    group = report.Group.of(mixed.df)
    title = "strasbourg 4p, greedy, mcts:iters=400, random ×2 (10,000,000 games, seeds 1, 2, 3, 4, 5)"
    single = report.points_by_category(group, "seat").drop(columns="score")
    figures = [report.plot_points(single, None, str(tmp_path / "points1.png"), title),
               report.plot_points(single, report.points_by_category(group, "policy").drop(columns="score"),
                                  str(tmp_path / "points2.png"), title),
               report.plot_win_share(report.seat_advantage(group), str(tmp_path / "win.png"), title),
               report.plot_score_histograms(group, str(tmp_path / "scores.png"), title)]
    for figure in figures:
        assert not drawn_outside(figure), figure.get_suptitle()
        assert "points by category" in figure.get_suptitle() or "win share" in figure.get_suptitle() \
            or "score per seat" in figure.get_suptitle()
    assert "\n" in figures[0].get_suptitle()         # the long title was broken, not cut

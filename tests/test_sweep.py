"""simcore sweep: parameter paths into the four games' data files, value syntax, a sweep's
common random numbers (the same games in every variant), its summary against the results files
it wrote, and the command line's one-line errors."""
import json
import os

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from scipy import stats as scipy_stats

import simcore
from cli.sweep import sweep as sweep_command
from simcore import registry, results, stats, sweep
from simcore.datafile import read_json
from simcore.boardgames.carcassonne import components
from simcore.contract import UserError

OUTCOME_COLUMNS = ["score", "rank", "win", "win_share"]


def shipped(game):
    spec = registry.get(game)
    doc = read_json(spec.load_data(None).path, "data file")
    return doc, sweep.rule_section(spec, doc)


def resolved(game, path):
    doc, rules = shipped(game)
    return sweep.resolve(doc, path, rules)


def cli(*args):
    return CliRunner().invoke(sweep_command, [str(a) for a in args])


def assert_one_error_line(result, needle):
    assert result.exit_code == 2, result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), result.stderr
    assert needle in lines[0], lines[0]
    assert result.stdout == ""


# ---- paths ------------------------------------------------------------------------------

@pytest.mark.parametrize("game, path, keys, canonical, value", [
    # a list item by id, by index, case-insensitively; the two name the same value
    ("carcassonne", "tiles.D.count", ("tiles", 3, "count"), "tiles.D.count", 4),
    ("carcassonne", "tiles.3.count", ("tiles", 3, "count"), "tiles.D.count", 4),
    ("carcassonne-ark", "tiles.ark-01.count", ("tiles", 0, "count"), "tiles.ARK-01.count", 1),
    # a rule switch the shipped tile file leaves out: addressed at the loader's default
    ("carcassonne", "rules.START_PLAYER", ("rules", "START_PLAYER"), "rules.START_PLAYER", 0),
    ("strasbourg", "buildings.tiles.INN.value", ("buildings", "tiles", 0, "value"), "buildings.tiles.INN.value", 4),
    # the spelling: an object stepped through to the one item of its lists named so
    ("strasbourg", "buildings.inn.value", ("buildings", "tiles", 0, "value"), "buildings.tiles.INN.value", 4),
    ("strasbourg", "tasks.cards.TK-01/WELL.prestige", ("tasks", "cards", 1, "prestige"),
     "tasks.cards.TK-01/WELL.prestige", 3),
    ("strasbourg", "rules.FM_LIMIT", ("rules", "FM_LIMIT"), "rules.FM_LIMIT", None),
    ("strasbourg", "goods.tiles.SMITHS.0", ("goods", "tiles", "SMITHS", 0), "goods.tiles.SMITHS.0", 5),
    # an item by its effect; a key with a dot in it is matched whole
    ("notre-dame", "persons.HOUSEKEEPER.rats", ("persons", 0, "rats"), "persons.B1.rats", 3),
    ("notre-dame", "rules.F_START_GOLD", ("rules", "F_START_GOLD"), "rules.F_START_GOLD", 3),
    ("notre-dame", "notre_dame.provenance.payout_by_players.2",
     ("notre_dame", "provenance", "payout_by_players.2"), "notre_dame.provenance.payout_by_players.2", "rulebook"),
    ("principato", "options.pair_cap", ("options", "pair_cap"), "options.pair_cap", 3),
    ("principato", "options.villa_table", ("options", "villa_table"), "options.villa_table", [0, 2, 5, 9]),
    ("principato", "goal_cards.G2.VILLA.table", ("goal_cards", "G2", 2, "table"), "goal_cards.G2.VILLA.table",
     [0, 2, 5, 9]),
    ("principato", "start_cards.S2.FARM.exchange", ("start_cards", "S2", 2, "exchange"),
     "start_cards.S2.FARM.exchange", False),
    ("principato", "year_decks.1.5.copies", ("year_decks", "1", 5, "copies"), "year_decks.1.5.copies", 2),
])
def test_a_path_names_one_value_of_the_games_data_file(game, path, keys, canonical, value):
    assert resolved(game, path) == (keys, canonical, value)


@pytest.mark.parametrize("game, path, message", [
    ("principato", "optons.pair_cap",
     ("sweep path 'optons.pair_cap': no key 'optons' in the file's top level (keys: format, data_set_id, name, "
     "source, reconstructed, notes, provenance, display_size, supply, storage, start_holdings, "
     "military_vp_by_rank, strength, effects, start_cards, year_decks, scoring_cards, culture_tokens, "
     "goal_cards, options)")),
    ("carcassonne", "tiles.Z.count",
     ("sweep path 'tiles.Z.count': no item 'Z' in tiles (items: A, B, C, D, E, F, G, H, I, J, K, L, M, N, O, P, "
     "Q, R, S, T, U, V, W, X or an index 0..23)")),
    ("carcassonne", "tiles.D.cnt",
     ("sweep path 'tiles.D.cnt': no key 'cnt' in tiles.D (keys: id, count, is_start, edges, temple, monastery, "
     "city_segments, road_segments, field_segments, provenance, note)")),
    ("strasbourg", "rules.FM_LIMT",
     ("sweep path 'rules.FM_LIMT': no key 'FM_LIMT' in rules (keys: CHAPEL_ADJACENCY, MASTER_PARTS_OPTIONAL, "
     "ALLOW_DOMINATED_RETURN, ALLOW_DOMINATED_PRIVILEGE, PLANNING_MODE, CITY_WALL, FM_LIMIT, "
     "SCREEN_HIDES_RESOURCES)")),
    ("principato", "year_decks.1.HARVEST.copies",
     "sweep path 'year_decks.1.HARVEST.copies': 3 items of year_decks.1 are named 'HARVEST': give an index 0..28"),
    ("principato", "year_decks.1.29.copies", ("sweep path 'year_decks.1.29.copies': no item '29' in year_decks.1 "
                                             "(items: an index 0..28)")),
    ("notre-dame", "rules.F_START_GOLD.low",
     "sweep path 'rules.F_START_GOLD.low': rules.F_START_GOLD is a number (3), not an object or a list"),
    ("strasbourg", "buildings..value", "sweep path 'buildings..value': empty key (keys are separated by single dots)"),
])
def test_a_bad_path_is_one_line_naming_the_path_and_what_that_level_holds(game, path, message):
    with pytest.raises(UserError) as caught:
        resolved(game, path)
    assert str(caught.value) == message


def test_a_rule_switch_the_file_leaves_out_is_written_into_the_variant_only():
    doc, rules = shipped("carcassonne")
    assert "rules" not in doc
    keys, _, _ = sweep.resolve(doc, "rules.START_PLAYER", rules)
    variant = json.loads(json.dumps(doc))
    sweep.assign(variant, keys, 1, rules)
    assert variant["rules"] == {"START_PLAYER": 1} and "rules" not in doc
    assert components.from_document(variant, "base").rules["START_PLAYER"] == 1


# ---- values -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, pieces", [
    ("options.pair_cap=3,1", ["3", "1"]),
    ("options.villa_table=[0,2,5,8],[0,2,5,9]", ["[0,2,5,8]", "[0,2,5,9]"]),
    ('x={"a": [1, 2]}, "b,c" ,null', ['{"a": [1, 2]}', '"b,c"', "null"]),
    ("rules.STREET_GRAPH=core,inner_outer", ["core", "inner_outer"]),
])
def test_values_split_on_the_commas_outside_brackets_and_quotes(text, pieces):
    assert sweep.split_param(text)[1] == pieces


@pytest.mark.parametrize("text, value", [
    ("3", 3), ("2.5", 2.5), ("true", True), ("null", None), ('"x y"', "x y"), ("[0,2,5,8]", [0, 2, 5, 8]),
    ("floor", "floor"), ("TK-01/INN", "TK-01/INN"),   # a bare word is the string it spells
])
def test_a_value_is_json_or_a_bare_word(text, value):
    assert sweep.parse_value(text, "p") == value


@pytest.mark.parametrize("text", ["[0,2", "1.2.3", "{a: 1}", "'x'", "3 4"])
def test_a_value_that_is_neither_is_one_line(text):
    with pytest.raises(UserError) as caught:
        sweep.parse_value(text, "p")
    assert str(caught.value).startswith(f"sweep parameter p: value {text} is not JSON")


@pytest.mark.parametrize("texts, message", [
    ([], "no sweep parameter: give at least one --param PATH=V1,V2,..."),
    (["options.pair_cap"], "sweep parameter 'options.pair_cap' must be PATH=V1,V2,..."),
    (["options.pair_cap="], "sweep parameter 'options.pair_cap=': no values after '='"),
    (["options.pair_cap=1,,2"], "sweep parameter 'options.pair_cap=1,,2': an empty value"),
    (["options.pair_cap=true"], ("sweep parameter options.pair_cap=true: options.pair_cap holds a number (3), "
                                "not true or false")),
    (["options.pair_cap=2,2"], "sweep parameter options.pair_cap: value 2 is given twice"),
    (["options.pair_cap=2", "OPTIONS.PAIR_CAP=1"], ("sweep parameters options.pair_cap and options.pair_cap "
                                                   "address the same value")),
    (["options.villa_table=[0,2,5,8]", "options.villa_table.3=9"], "overlap"),
])
def test_parameter_mistakes_are_one_line(texts, message):
    doc, rules = shipped("principato")
    with pytest.raises(UserError) as caught:
        sweep.parse_params(texts, doc, rules)
    assert message in str(caught.value)


def test_the_grid_is_the_product_of_the_values_first_parameter_slowest():
    doc, rules = shipped("principato")
    params = sweep.parse_params(["options.pair_cap=3,1", "options.villa_table=[0,2,5,9],[0,2,5,8]",
                                 "options.stronghold_rounding=floor,ceil"], doc, rules)
    variants = sweep.grid(params)
    assert [v.values for v in variants[:3]] == [(3, [0, 2, 5, 9], "floor"), (3, [0, 2, 5, 9], "ceil"),
                                                (3, [0, 2, 5, 8], "floor")]
    assert len(variants) == 8 and variants[-1].values == (1, [0, 2, 5, 8], "ceil")
    assert variants[1].label == 'options.pair_cap=3, options.villa_table=[0,2,5,9], options.stronghold_rounding="ceil"'
    assert variants[1].stem == "01-options.pair_cap=3_options.villa_table=0-2-5-9_options.stronghold_rounding=ceil"


# ---- the baseline -----------------------------------------------------------------------

@pytest.mark.parametrize("texts, index, reasons", [
    # the shipped value is among those given: it is the baseline, wherever it stands
    (["tiles.D.count=2,4,6"], 1, ["tiles.D.count=4: the shipped value"]),
    (["tiles.D.count=6,2,4.0"], 2, ["tiles.D.count=4.0: the shipped value"]),      # 4.0 is the number 4
    # it is not: the first value given, and the outputs say the shipped one is missing
    (["tiles.D.count=2,6"], 0, ["tiles.D.count=2: the first value given, the shipped value 4 is not among them"]),
    # a grid: every parameter at its own baseline value; a switch the file leaves out holds its default
    (["tiles.D.count=6,4", "rules.START_PLAYER=1,0,2"], 1 * 3 + 1,
     ["tiles.D.count=4: the shipped value", "rules.START_PLAYER=0: the shipped value"]),
    (["rules.START_PLAYER=1,2", "tiles.D.count=2,4"], 1,
     ["rules.START_PLAYER=1: the first value given, the shipped value 0 is not among them",
      "tiles.D.count=4: the shipped value"]),
])
def test_the_baseline_is_the_shipped_value_when_it_is_given(texts, index, reasons):
    doc, rules = shipped("carcassonne")
    params = sweep.parse_params(texts, doc, rules)
    assert sweep.baseline(params) == index
    assert sweep.baseline_reasons(params) == reasons
    variant = sweep.grid(params)[index]
    assert [v for v in variant.values] == [p.values[p.baseline_index()] for p in params]


def test_a_null_switch_and_a_users_data_file_name_their_baseline(tmp_path):
    p = sweep.plan("strasbourg", ["rules.FM_LIMIT=6,null"], players=3, games=10, out=str(tmp_path / "o"))
    assert p.baseline.index == 1 and p.baseline_note() == "baseline: variant 1, rules.FM_LIMIT=null: the shipped value"
    doc, _ = shipped("strasbourg")
    doc["buildings"]["tiles"][0]["value"] = 7
    mine = tmp_path / "mine.json"
    mine.write_text(json.dumps(doc))
    p = sweep.plan("strasbourg", ["buildings.inn.value=4,9"], players=3, games=10, data=str(mine),
                   out=str(tmp_path / "o"))
    assert p.baseline.index == 0
    assert p.baseline_note() == ("baseline: variant 0, buildings.tiles.INN.value=4: the first value given, "
                                 "the value in mine.json 7 is not among them")


def test_the_differences_are_to_the_shipped_value_and_the_games_stay_the_same(tmp_path):
    """The inn's values given as 9,4: the shipped 4 (variant 1) is the baseline; the results files
    are those of the sweep 4,9 (common random numbers, whatever the order), and every Δ is the
    difference to variant 1."""
    runs = {}
    for values in ("4,9", "9,4"):
        out = str(tmp_path / values.replace(",", "-"))
        p = sweep.plan("strasbourg", [f"buildings.inn.value={values}"], players=3, games=200, seed=5, workers=2,
                       out=out)
        runs[values] = (p, sweep.run(p))
    p, outcome = runs["9,4"]
    assert p.baseline.index == 1
    paths = [p.results_path(v) for v in p.variants]
    assert [os.path.basename(x) for x in paths] == ["00-buildings.tiles.INN.value=9.parquet",
                                                    "01-buildings.tiles.INN.value=4.parquet"]
    forward = runs["4,9"][0]
    nine, four = results.read(paths[0]), results.read(paths[1])
    for mine, theirs in ((nine, forward.results_path(forward.variants[1])),
                         (four, forward.results_path(forward.variants[0]))):
        pd.testing.assert_frame_equal(mine.drop(columns="data"), results.read(theirs).drop(columns="data"))
    table = outcome.table
    assert table["baseline"].tolist() == [False] * 3 + [True] * 3
    base = table[table["variant"] == 1]
    assert (base["d_score"] == 0).all() and (base["d_pts_buildings"] == 0).all()
    lost = (nine["pts_buildings"] - four["pts_buildings"]).groupby(nine["seat"]).mean()
    np.testing.assert_allclose(table[table["variant"] == 0]["d_pts_buildings"], lost.to_numpy())
    assert (lost > 0).all()
    # the same differences as the sweep 4,9 measured the other way round
    reverse = runs["4,9"][1].table
    np.testing.assert_allclose(table[table["variant"] == 0]["d_score"].to_numpy(),
                               reverse[reverse["variant"] == 1]["d_score"].to_numpy())
    # every output names the baseline and why
    note = "baseline: variant 1, buildings.tiles.INN.value=4: the shipped value"
    summary = json.load(open(os.path.join(p.out, "sweep.json"), encoding="utf-8"))
    assert summary["baseline"] == {"variant": 1, "label": "buildings.tiles.INN.value=4", "note": note}
    assert [v["baseline"] for v in summary["variants"]] == [False, True]
    assert summary["params"][0]["held"] == 4 and summary["params"][0]["baseline_value"] == 4
    assert summary["params"][0]["baseline_reason"] == "buildings.tiles.INN.value=4: the shipped value"
    md = open(os.path.join(p.out, "summary.md"), encoding="utf-8").read()
    assert "Baseline: variant 1, buildings.tiles.INN.value=4: the shipped value." in md
    assert "- variant 1: buildings.tiles.INN.value=4 (baseline)" in md
    assert "| seat | category | v1 | v0 |" in md
    assert summary_csv(p.out)["baseline"].tolist() == table["baseline"].tolist()
    header, rows = sweep.outcome_rows(table)
    assert header[3] == "Δ share pp" and [row[3] == "baseline" for row in rows] == [False] * 3 + [True] * 3


def test_the_command_prints_the_baseline(tmp_path):
    result = cli("strasbourg", "--param", "buildings.inn.value=9,4", "-n", 30, "-p", 3, "--seed", 5,
                 "--out", tmp_path / "o", "--quiet")
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert lines[:3] == ["variant 0: buildings.tiles.INN.value=9", "variant 1: buildings.tiles.INN.value=4 (baseline)",
                         "baseline: variant 1, buildings.tiles.INN.value=4: the shipped value"]
    assert "Δ: paired difference to the baseline, variant 1" in " ".join(result.stdout.split())


# ---- sweeps -----------------------------------------------------------------------------

def expected_rows(paths):
    """The summary rows recomputed from the results files: per (seat, policy) means, and the
    Student-t interval of the per-game differences to the first file, paired by game index."""
    base = results.read(paths[0])
    rows = {}
    for k, path in enumerate(paths):
        df = results.read(path)
        assert (df[["game_index", "seat", "policy"]] == base[["game_index", "seat", "policy"]]).all().all()
        for (seat, policy), group in df.groupby(["seat", "policy"]):
            d = group["score"] - base.loc[group.index, "score"]
            half = scipy_stats.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))
            rows[(k, str(seat), policy)] = {
                "games": len(group), "win_rate": group["win"].mean(), "win_share": group["win_share"].mean(),
                "mean_score": group["score"].mean(), "d_score": d.mean(),
                "d_score_lo": d.mean() - half, "d_score_hi": d.mean() + half,
                "d_win_share": (group["win_share"] - base.loc[group.index, "win_share"]).mean(),
                **{c: group[c].mean() for c in df.columns if c.startswith("pts_")},
                **{"d_" + c: (group[c] - base.loc[group.index, c]).mean() for c in df.columns if c.startswith("pts_")},
            }
    return rows


def assert_summary_matches_the_files(out, paths):
    table = pd.read_csv(os.path.join(out, "summary.csv"), dtype={"seat": str})
    expected = expected_rows(paths)
    per_seat = table[table["seat"] != "all"]
    assert len(per_seat) == len(expected)
    for _, row in per_seat.iterrows():
        want = expected[(row["variant"], row["seat"], row["policy"])]
        for column, value in want.items():
            if np.isnan(value):
                assert np.isnan(row[column]), column
            else:
                assert row[column] == pytest.approx(value, abs=1e-9), column
    return table


def test_a_sweep_plays_the_same_games_in_every_variant(tmp_path):
    out = str(tmp_path / "inn")
    p = sweep.plan("strasbourg", ["buildings.inn.value=4,9"], players=3, games=300, seed=5, workers=2, out=out)
    outcome = sweep.run(p)
    paths = [p.results_path(v) for v in p.variants]
    assert [os.path.basename(x) for x in paths] == ["00-buildings.tiles.INN.value=4.parquet",
                                                    "01-buildings.tiles.INN.value=9.parquet"]
    first, second = results.read(paths[0]), results.read(paths[1])
    # variant 0 is the shipped data: row for row the plain run of the same seed, under its own data label
    plain = simcore.simulate("strasbourg", players=3, games=300, seed=5, workers=1)
    pd.testing.assert_frame_equal(first.drop(columns="data"), plain.drop(columns="data"))
    assert set(first["data"]) == {"strasbourg-p0-v1 + buildings.tiles.INN.value=4"}
    assert set(second["data"]) == {"strasbourg-p0-v1 + buildings.tiles.INN.value=9"}
    # random players never read a building's value, so the inn's value changes its points and
    # nothing else: same start player, same moves, same counters in every game
    unchanged = [c for c in first.columns if c not in OUTCOME_COLUMNS + ["pts_buildings", "data"]]
    pd.testing.assert_frame_equal(first[unchanged], second[unchanged])
    gained = second["pts_buildings"] - first["pts_buildings"]
    assert (gained % 5 == 0).all() and (gained >= 0).all() and (gained > 0).sum() > 50
    assert (second["score"] - first["score"]).equals(gained.astype("int32"))
    # the variants' data files are what their games used
    with open(p.data_path(p.variants[1]), encoding="utf-8") as fh:
        assert json.load(fh)["buildings"]["tiles"][0]["value"] == 9
    table = assert_summary_matches_the_files(out, paths)
    assert table.equals(pd.read_csv(os.path.join(out, "summary.csv"), dtype={"seat": str}))
    assert outcome.table["d_pts_buildings"].iloc[3:].gt(0).all()
    assert (outcome.table["d_pts_council"] == 0).all()   # paired: no noise where nothing changed
    # the win rates are those of simulate's own summary
    by_seat = stats.by_seat(first)
    np.testing.assert_allclose(outcome.table["win_lo"].iloc[:3], by_seat["win_lo"])
    np.testing.assert_allclose(outcome.table["mean_score_lo"].iloc[:3], by_seat["score_lo"])


def test_a_rule_switch_that_changes_the_play_keeps_the_deals(tmp_path):
    out = str(tmp_path / "catapult")
    p = sweep.plan("principato", ["options.catapult_big_option_gain=1,2"], players=3, games=300, seed=5,
                   workers=2, out=out)
    sweep.run(p)
    paths = [p.results_path(v) for v in p.variants]
    first, second = results.read(paths[0]), results.read(paths[1])
    # what is dealt before the first move is the same (common random numbers) ...
    dealt = ["game_index", "seed", "seat", "policy", "start_player", "turn_position", "goal_g1", "goal_g2"]
    pd.testing.assert_frame_equal(first[dealt], second[dealt])
    # ... while the play differs
    assert (first["strength_total"] != second["strength_total"]).any()
    assert_summary_matches_the_files(out, paths)


def test_the_command_writes_every_file_and_prints_the_summary(tmp_path):
    out = tmp_path / "rotated"
    result = cli("strasbourg", "--param", "rules.FM_LIMIT=null,6", "-n", 120, "-p", 3, "--seed", 5,
                 "--policy", "greedy", "--policy", "random", "--policy", "random", "--rotate-seats",
                 "--workers", 2, "--out", out, "--json")
    assert result.exit_code == 0, result.output
    summary = json.loads(result.stdout)
    assert [v["label"] for v in summary["variants"]] == ["rules.FM_LIMIT=null", "rules.FM_LIMIT=6"]
    assert len(result.stderr.strip().splitlines()) == 3      # a line per variant, then the files
    assert sorted(os.listdir(out)) == ["00-rules.FM_LIMIT=null.json", "00-rules.FM_LIMIT=null.parquet",
                                       "01-rules.FM_LIMIT=6.json", "01-rules.FM_LIMIT=6.parquet",
                                       "summary.csv", "summary.md", "sweep.json"]
    # several policies: a row per (seat, policy) and per policy over all seats
    rows = {(r["variant"], r["seat"], r["policy"]): r for r in summary["rows"]}
    assert len(rows) == 2 * (3 * 2 + 2)
    for k in (0, 1):
        greedy = [rows[(k, str(s), "greedy")] for s in range(3)]
        assert rows[(k, "all", "greedy")]["games"] == sum(r["games"] for r in greedy) == 120
        assert rows[(k, "all", "greedy")]["mean_score"] == pytest.approx(
            sum(r["mean_score"] * r["games"] for r in greedy) / 120)
    table = assert_summary_matches_the_files(str(out), [str(out / v["results"]) for v in summary["variants"]])
    assert len(table) == len(rows)
    # --force replaces the sweep the folder held: its variants' files go, not only the ones rewritten
    quiet = cli("strasbourg", "--param", "buildings.inn.value=4,5", "-n", 30, "--seed", 1, "--out", out, "--quiet",
                "--force")
    assert quiet.exit_code == 0 and quiet.stderr == ""
    for text in ("variant 1: buildings.tiles.INN.value=5", "win share", "Δ score", "buildings"):
        assert text in quiet.stdout
    assert "| 0 | buildings |" in (out / "summary.md").read_text()
    assert sorted(os.listdir(out)) == ["00-buildings.tiles.INN.value=4.json", "00-buildings.tiles.INN.value=4.parquet",
                                       "01-buildings.tiles.INN.value=5.json", "01-buildings.tiles.INN.value=5.parquet",
                                       "summary.csv", "summary.md", "sweep.json"]


def test_a_sweep_of_a_tile_count_plays_each_set_with_a_warning(tmp_path):
    """The count sweep a designer asks for: 2, 4 (the box) or 6 copies of base tile D are sets of
    70, 72 and 74 tiles; the two variants load with a warning and every game places or discards
    all the set's tiles but the start tile."""
    out = tmp_path / "d"
    result = cli("carcassonne", "--param", "tiles.D.count=2,4,6", "-n", 40, "-p", 2, "--seed", 3, "--out", out,
                 "--quiet")
    assert result.exit_code == 0, result.output
    assert result.stderr.splitlines() == [
        f"warning: the tile counts add up to {n} tiles, the box has 72 (CA-1.1): playing a variant" for n in (70, 74)]
    assert result.stdout.splitlines()[3] == "baseline: variant 1, tiles.D.count=4: the shipped value"
    for name, tiles in (("00-tiles.D.count=2", 70), ("01-tiles.D.count=4", 72), ("02-tiles.D.count=6", 74)):
        games = results.read(str(out / f"{name}.parquet"))
        assert ((games["turns"] + games["tiles_discarded"]) == tiles - 1).all()


# ---- an output folder that holds a sweep ---------------------------------------------------

INN = ["strasbourg", "--param", "buildings.inn.value=4,9", "-p", 3, "--seed", 5, "--workers", 2, "--quiet"]


def summary_csv(out):
    return pd.read_csv(os.path.join(out, "summary.csv"), dtype={"seat": str})


def test_a_folder_holding_a_sweep_is_refused_unless_force_or_resume(tmp_path):
    out = tmp_path / "inn"
    assert cli(*INN, "-n", 30, "--out", out).exit_code == 0
    before = {name: (out / name).stat().st_mtime_ns for name in os.listdir(out)}
    assert_one_error_line(cli(*INN, "-n", 30, "--out", out),
                          f"error: output folder {out} already holds a sweep (2 variant results files (60 games), "
                          "summary.csv, summary.md, sweep.json): give --resume to continue it or --force to replace it")
    assert {name: (out / name).stat().st_mtime_ns for name in os.listdir(out)} == before
    assert_one_error_line(cli(*INN, "-n", 30, "--out", out, "--force", "--resume"), "not both")
    # resuming with other values: the folder holds results of variants this sweep does not have
    other = cli("strasbourg", "--param", "buildings.inn.value=4,5", "-p", 3, "-n", 30, "--out", out, "--resume")
    assert_one_error_line(other, f"cannot resume the sweep in {out}: it holds results of other variants "
                                 "(01-buildings.tiles.INN.value=9.parquet): give --force to replace them")


def test_resume_keeps_the_games_played_and_plays_the_rest(tmp_path):
    out, fresh = tmp_path / "resumed", tmp_path / "fresh"
    assert cli(*INN, "-n", 30, "--out", out).exit_code == 0
    resumed = cli(*INN[:-1], "-n", 60, "--out", out, "--resume")
    assert resumed.exit_code == 0, resumed.output
    progress = resumed.stderr.strip().splitlines()
    assert "variant 0, buildings.tiles.INN.value=4: 60 games (30 kept from the file)" in progress[0]
    assert cli(*INN, "-n", 60, "--out", fresh).exit_code == 0
    pd.testing.assert_frame_equal(summary_csv(out), summary_csv(fresh))
    for v in sweep.plan("strasbourg", ["buildings.inn.value=4,9"], players=3, games=60, seed=5, out=str(out)).variants:
        assert results.games_in(str(out / f"{v.stem}.parquet")) == 60
    # a complete sweep resumed plays nothing and writes the same summary
    again = cli(*INN[:-1], "-n", 60, "--out", out, "--resume")
    assert again.exit_code == 0 and "(60 kept from the file)" in again.stderr
    pd.testing.assert_frame_equal(summary_csv(out), summary_csv(fresh))


def test_the_summary_reads_files_chunked_differently_in_step(tmp_path, monkeypatch):
    out = str(tmp_path / "inn")
    p = sweep.plan("strasbourg", ["buildings.inn.value=4,9"], players=3, games=300, seed=5, workers=2, out=out)
    sweep.run(p)
    first, second = (p.results_path(v) for v in p.variants)
    copy = str(tmp_path / "second.csv")
    results.read(second).to_csv(copy, index=False)
    monkeypatch.setattr(results, "CSV_READ_ROWS", 100)      # blocks of 100 rows against parts of 300 games
    table, same = sweep.summarise([first, copy]), sweep.summarise([first, second])
    pd.testing.assert_frame_equal(table.drop(columns="results"), same.drop(columns="results"), rtol=1e-12)
    short = str(tmp_path / "short.csv")
    results.read(second).iloc[:-30].to_csv(short, index=False)
    with pytest.raises(UserError, match=f"results file {short} does not hold the games of {first}"):
        sweep.summarise([first, short])


@pytest.mark.parametrize("args, needle", [
    (["nogame", "--param", "x=1"], "unknown game 'nogame'"),
    (["principato"], "no sweep parameter"),
    (["principato", "--param", "options.pair_cap"], "must be PATH=V1,V2,..."),
    (["principato", "--param", "options.pair_cap="], "no values"),
    (["principato", "--param", "options.pair_cap=[3"], "value [3 is not JSON"),
    (["principato", "--param", "optons.pair_cap=1"], "sweep path 'optons.pair_cap': no key 'optons'"),
    (["strasbourg", "--param", "buildings.hotel.value=3"], "no key 'hotel' in buildings (keys: tiles, provenance)"),
    (["principato", "--param", "options.pair_cap=x"], "holds a number (3), not a string"),
    (["principato", "--param", "options.pair_cap=3,5"],          # the loader's own check, naming the variant
     "variant 1 (options.pair_cap=5): Principato data file"),
    (["principato", "-n", "abc", "--param", "options.pair_cap=1"], "'abc' is not a valid integer"),
    (["principato", "-p", "7", "--param", "options.pair_cap=1"], "principato is played by 2 to 4 players, not 7"),
    (["principato", "--data", "/no/such.json", "--param", "options.pair_cap=1"], "data file /no/such.json does not exist"),
])
def test_command_line_mistakes_are_one_line_and_status_2(tmp_path, args, needle):
    out = tmp_path / "never"
    result = cli(*args, "-n", 10, "--out", out) if "-n" not in args else cli(*args, "--out", out)
    assert_one_error_line(result, needle)
    assert not out.exists()       # nothing is left behind, not even the data files checked for the loader


def test_an_output_folder_that_is_a_file_is_one_line(tmp_path):
    taken = tmp_path / "taken"
    taken.write_text("")
    assert_one_error_line(cli("principato", "--param", "options.pair_cap=1", "-n", 5, "--out", taken),
                          "is a file, not a folder")

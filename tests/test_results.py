import os

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from simcore import results
from simcore.contract import BatchResult, UserError
from dice_game import DICE, GREEDY, RANDOM


def dice_frame(pts, game, seat_policies, first_index=0):
    batch = BatchResult(np.asarray(pts, np.int32), np.asarray(game, np.int32))
    return results.chunk_frame(DICE, "standard-dice", batch.pts.shape[1], 42, first_index,
                               np.asarray(seat_policies, np.int8), batch)


@pytest.fixture
def two_games():
    """Game 5: scores 5, 5, 3 (a two-way tie); game 6: 7, 2, 9 (no tie)."""
    pts = [[[5, 0], [2, 3], [3, 0]],
           [[4, 3], [2, 0], [9, 0]]]
    return dice_frame(pts, [[3], [4]], [[RANDOM, GREEDY, RANDOM]] * 2, first_index=5)


def test_ranks_count_seats_with_a_strictly_higher_score():
    scores = np.array([[5, 5, 3], [7, 2, 9], [4, 4, 4], [1, 8, 8]])
    assert results.ranks(scores).tolist() == [[1, 1, 3], [2, 3, 1], [1, 1, 1], [3, 1, 1]]


def test_tied_winners_all_win_and_share_the_win():
    wins = results.ranks(np.array([[5, 5, 3], [7, 7, 7], [1, 9, 2]])) == 1
    shares = results.win_shares(wins)
    assert wins.tolist() == [[True, True, False], [True, True, True], [False, True, False]]
    np.testing.assert_allclose(shares, [[0.5, 0.5, 0], [1 / 3, 1 / 3, 1 / 3], [0, 1, 0]])


def test_chunk_frame_has_one_row_per_game_and_seat_in_schema_order(two_games):
    assert list(two_games.columns) == ["game_index", "seed", "game", "players", "seat", "policy", "score",
                                       "rank", "win", "win_share", "pts_dice", "pts_bonus", "turns", "data"]
    assert len(two_games) == 2 * 3
    assert two_games["game_index"].tolist() == [5, 5, 5, 6, 6, 6]
    assert two_games["seat"].tolist() == [0, 1, 2] * 2
    assert two_games["policy"].tolist() == ["random", "greedy", "random"] * 2
    assert two_games["turns"].tolist() == [3, 3, 3, 4, 4, 4]
    assert (two_games[["seed", "game", "players", "data"]].drop_duplicates().values.tolist()
            == [[42, "dice", 3, "standard-dice"]])
    assert two_games.dtypes.astype(str).to_dict() == results.column_dtypes(two_games.columns)


def test_chunk_frame_scores_ranks_and_wins(two_games):
    assert two_games["score"].tolist() == [5, 5, 3, 7, 2, 9]
    assert (two_games["score"] == two_games["pts_dice"] + two_games["pts_bonus"]).all()
    assert two_games["rank"].tolist() == [1, 1, 3, 2, 3, 1]
    assert two_games["win"].tolist() == [True, True, False, False, False, True]
    assert two_games["win_share"].tolist() == [0.5, 0.5, 0.0, 0.0, 0.0, 1.0]


def test_empty_frame_has_the_schema_and_no_rows(two_games):
    empty = results.empty_frame(DICE, 3)
    assert len(empty) == 0
    assert empty.dtypes.equals(two_games.dtypes)


@pytest.mark.parametrize("name", ["r.parquet", "r.pq", "r.csv"])
def test_written_chunks_read_back_identical(tmp_path, two_games, name):
    path = str(tmp_path / name)
    writer = results.open_writer(path, results.empty_frame(DICE, 3))
    writer.write(two_games.iloc[:3])
    writer.write(two_games.iloc[3:])
    writer.close()
    pd.testing.assert_frame_equal(results.read(path), two_games)
    assert [len(c) for c in results.read_chunks(path)] == ([3, 3] if name != "r.csv" else [6])


def chunk_of(frame, first_game):
    """The rows of frame's games renumbered to start at first_game."""
    moved = frame.copy()
    moved["game_index"] += first_game - int(frame["game_index"].iloc[0])
    return moved


def test_parquet_is_a_folder_of_one_part_per_chunk_read_as_one_table(tmp_path, two_games):
    path = str(tmp_path / "r.parquet")
    writer = results.open_writer(path, results.empty_frame(DICE, 3))
    for first in (0, 2, 4, 6):
        writer.write(chunk_of(two_games, first))
    writer.close()
    assert sorted(os.listdir(path)) == ["_common_metadata"] + [results.part_name(i) for i in (0, 2, 4, 6)]
    assert [pq.ParquetFile(os.path.join(path, results.part_name(i))).num_row_groups for i in (0, 2, 4, 6)] == [1] * 4
    whole = pd.read_parquet(path)                   # pandas and pyarrow read the folder as one table
    assert whole["game_index"].tolist() == [0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 4, 5, 5, 5, 6, 6, 6, 7, 7, 7]
    assert results.read(path)["game_index"].tolist() == whole["game_index"].tolist()


def test_a_part_being_written_when_the_run_died_is_skipped_and_removed_on_resume(tmp_path, two_games):
    path = str(tmp_path / "r.parquet")
    writer = results.open_writer(path, results.empty_frame(DICE, 3))
    writer.write(chunk_of(two_games, 0))
    (tmp_path / "r.parquet" / f".{results.part_name(2)}.tmp").write_bytes(b"PAR1 half a file")
    assert len(results.read(path)) == 6 and len(pd.read_parquet(path)) == 6
    assert results.games_in(path) == 2
    results.open_writer(path, results.empty_frame(DICE, 3), append=True).write(chunk_of(two_games, 2))
    assert sorted(os.listdir(path)) == ["_common_metadata", results.part_name(0), results.part_name(2)]
    assert results.games_in(path) == 4


def test_a_single_parquet_file_of_an_older_simcore_is_read_and_resumed(tmp_path, two_games):
    path = str(tmp_path / "old.parquet")
    chunk_of(two_games, 0).to_parquet(path, index=False)
    assert results.games_in(path) == 2
    writer = results.open_writer(path, results.empty_frame(DICE, 3), append=True)
    writer.write(chunk_of(two_games, 2))
    writer.close()
    assert os.path.isfile(path) and results.read(path)["game_index"].tolist() == [0] * 3 + [1] * 3 + [2] * 3 + [3] * 3


def test_a_csv_cut_inside_a_game_is_trimmed_to_its_last_whole_game(tmp_path, two_games):
    path = tmp_path / "r.csv"
    writer = results.open_writer(str(path), results.empty_frame(DICE, 3))
    writer.write(two_games)
    writer.close()
    whole = path.read_bytes()
    lines = whole.splitlines(keepends=True)          # header, game 0's three rows, game 1's three rows
    path.write_bytes(b"".join(lines[:6]) + lines[6][:5])   # game 1: two rows and a cut third
    assert results.trim_csv(str(path), 3) == len(b"".join(lines[4:6])) + 5
    assert path.read_bytes() == b"".join(lines[:4])
    assert results.trim_csv(str(path), 3) == 0


def test_games_in_counts_whole_games_without_reading_rows(tmp_path, two_games):
    for name in ("r.parquet", "r.csv"):
        path = str(tmp_path / name)
        writer = results.open_writer(path, results.empty_frame(DICE, 3))
        writer.write(two_games)
        writer.close()
        assert results.games_in(path) == 2
    (tmp_path / "notes.csv").write_text("a,b\n1,2\n")
    assert results.games_in(str(tmp_path / "notes.csv")) is None


@pytest.mark.parametrize("name", ["r.parquet", "r.csv"])
def test_a_file_closed_before_any_chunk_is_an_empty_table(tmp_path, name):
    path = str(tmp_path / name)
    results.open_writer(path, results.empty_frame(DICE, 3)).close()
    frame = results.read(path)
    assert len(frame) == 0 and "pts_dice" in frame.columns


def test_unknown_extension_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="extension"):
        results.open_writer(str(tmp_path / "r.xlsx"), results.empty_frame(DICE, 3))


def test_missing_directory_is_a_user_error_before_anything_runs(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        results.open_writer(str(tmp_path / "nope" / "r.parquet"), results.empty_frame(DICE, 3))


def test_a_directory_as_output_is_a_user_error(tmp_path):
    (tmp_path / "d.csv").mkdir()
    with pytest.raises(UserError, match="cannot write"):
        results.open_writer(str(tmp_path / "d.csv"), results.empty_frame(DICE, 3))


def test_reading_a_missing_or_foreign_file_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        results.read(str(tmp_path / "none.parquet"))
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    with pytest.raises(UserError, match="no column game_index"):
        results.read(str(tmp_path / "other.csv"))
    (tmp_path / "broken.parquet").write_bytes(b"not parquet at all")
    with pytest.raises(UserError, match="cannot read"):
        results.read(str(tmp_path / "broken.parquet"))

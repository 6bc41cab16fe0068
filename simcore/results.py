"""The results table: one row per (game, seat), built chunk by chunk; Parquet/CSV writing and reading.

Columns, in order: game_index, seed, game, players, seat, policy, score, rank, win, win_share,
pts_<category> for each of the game's score categories, the game's own integer columns
(turns, discards, ...): per-seat counters first, then game-level ones, and data (the id of
the component data the games used). Ranks use the game's tie-break where it has one (Notre Dame:
gold, then personal supply).
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import suppress

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from simcore.contract import BatchResult, GameSpec, UserError
from simcore.players import names_by_id

BASE_DTYPES = {
    "game_index": "int64",
    "seed": "int64",
    "game": "str",
    "players": "int8",
    "seat": "int8",
    "policy": "str",
    "score": "int32",
    "rank": "int8",
    "win": "bool",
    "win_share": "float64",
}
DATA_COLUMN = "data"
PARQUET_EXTENSIONS = (".parquet", ".pq")
CSV_EXTENSIONS = (".csv",)
CSV_READ_ROWS = 200_000


def column_dtypes(columns) -> dict[str, str]:
    """The dtype of each results column; anything not a base column or `data` is an int32 counter."""
    return {c: BASE_DTYPES.get(c, "str" if c == DATA_COLUMN else "int32") for c in columns}


def ranks(scores: np.ndarray, tiebreak: np.ndarray | None = None) -> np.ndarray:
    """int8[count, players]: 1 + the number of seats of the same game that rank strictly higher:
    a higher score, or the same score and a higher tie-break."""
    higher = scores[:, None, :] > scores[:, :, None]   # [game, seat, other seat]
    if tiebreak is not None:
        higher |= (scores[:, None, :] == scores[:, :, None]) & (tiebreak[:, None, :] > tiebreak[:, :, None])
    return (1 + higher.sum(axis=2)).astype(np.int8)


def win_shares(wins: np.ndarray) -> np.ndarray:
    """float64[count, players]: 1/k for each of k tied winners, 0 for the others."""
    return wins / wins.sum(axis=1, keepdims=True)


def _strings(values: pa.Array):
    # built in Arrow: five times faster than pandas converting a column of Python strings
    return pd.array(values, dtype="str")


def _repeated(text: str, rows: int):
    return _strings(pa.repeat(pa.scalar(text, pa.string()), rows))


def chunk_frame(spec: GameSpec, data_id: str, players: int, seed: int, first_index: int,
                seat_policies: np.ndarray, batch: BatchResult, names: tuple[str, ...] | None = None) -> pd.DataFrame:
    """The results rows of games first_index .. first_index + count - 1 (count = len(seat_policies));
    names: the policy names by kernel id (the run's Lineup; default the game's own)."""
    count = len(seat_policies)
    rows = count * players
    scores = batch.pts.sum(axis=2, dtype=np.int64)
    rank = ranks(scores, batch.tiebreak)
    wins = rank == 1
    columns = {
        "game_index": np.repeat(np.arange(first_index, first_index + count, dtype=np.int64), players),
        "seed": np.full(rows, seed, dtype=np.int64),
        "game": _repeated(spec.id, rows),
        "players": np.full(rows, players, dtype=np.int8),
        "seat": np.tile(np.arange(players, dtype=np.int8), count),
        "policy": _strings(pa.array(names or names_by_id(spec.policies), pa.string()).take(seat_policies.ravel())),
        "score": scores.ravel().astype(np.int32),
        "rank": rank.ravel(),
        "win": wins.ravel(),
        "win_share": win_shares(wins).ravel(),
    }
    for k, category in enumerate(spec.categories):
        columns[f"pts_{category}"] = batch.pts[:, :, k].ravel().astype(np.int32)
    for k, name in enumerate(spec.seat_columns):
        columns[name] = batch.seat[:, :, k].ravel().astype(np.int32)
    for k, name in enumerate(spec.game_columns):
        columns[name] = np.repeat(batch.game[:, k].astype(np.int32), players)
    columns[DATA_COLUMN] = _repeated(data_id, rows)
    return pd.DataFrame(columns)


def empty_frame(spec: GameSpec, players: int) -> pd.DataFrame:
    """Zero rows with the columns and dtypes of spec's results (the schema of a results file)."""
    batch = BatchResult(pts=np.zeros((0, players, len(spec.categories)), np.int32),
                        game=np.zeros((0, len(spec.game_columns)), np.int32),
                        seat=np.zeros((0, players, len(spec.seat_columns)), np.int32),
                        tiebreak=np.zeros((0, players), np.int32))
    return chunk_frame(spec, "", players, 0, 0, np.zeros((0, players), np.int8), batch)


# ---- writing ---------------------------------------------------------------------------
#
# A Parquet results "file" is a folder of part files, one per chunk, that pandas and pyarrow
# read as one table (`pd.read_parquet(PATH)`): a Parquet file is unreadable until its footer is
# written at the end, so a process killed mid-run (SIGKILL, out of memory, a power cut) would
# lose a single file whole. A part is written under a hidden temporary name, flushed to disk and
# renamed into place in one step, so the folder only ever holds whole chunks; a chunk in flight
# when the run dies leaves at most a hidden temporary file, which readers skip and --resume
# removes. A CSV file is appended and flushed to disk chunk by chunk; a run killed inside a
# write leaves a cut last line, which --resume trims with the unfinished game.

PART_PREFIX = "part-"
SCHEMA_FILE = "_common_metadata"     # the table's schema, so a folder without parts still reads


def part_name(first_index: int) -> str:
    """The part file of the chunk whose first game is first_index: names sort in game order."""
    return f"{PART_PREFIX}{first_index:012d}.parquet"


def _fsync_folder(folder: str) -> None:
    fd = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _durable_write(path: str, write) -> None:
    """write(temp path), then flush it to disk and rename it to path in one step."""
    folder, name = os.path.split(path)
    temp = os.path.join(folder, f".{name}.tmp")
    try:
        write(temp)
        with open(temp, "rb") as fh:
            os.fsync(fh.fileno())
        os.replace(temp, path)
    except BaseException:
        with suppress(OSError):
            os.remove(temp)
        raise
    _fsync_folder(folder)


class PartsWriter:
    """A Parquet results folder: one part file per chunk, each durable once written (see above).
    append: adds parts to a folder that holds games 0..k-1 (the caller checked them)."""

    def __init__(self, path: str, schema_frame: pd.DataFrame, append: bool = False):
        self.schema = pa.Schema.from_pandas(schema_frame, preserve_index=False)
        self._path = path
        if append:
            remove_unfinished_parts(path)
            return
        os.mkdir(path)
        _durable_write(os.path.join(path, SCHEMA_FILE), lambda temp: pq.write_metadata(self.schema, temp))

    def write(self, frame: pd.DataFrame) -> None:
        table = pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False)
        first = int(frame["game_index"].iloc[0]) if len(frame) else 0
        _durable_write(os.path.join(self._path, part_name(first)),
                       lambda temp: pq.write_table(table, temp, row_group_size=max(len(frame), 1)))

    def close(self) -> None:
        pass                     # every part is complete on disk as soon as it is written


def remove_unfinished_parts(path: str) -> None:
    """Deletes the hidden temporary files of chunks that were being written when a run died."""
    for name in os.listdir(path):
        if name.startswith(".") and name.endswith(".tmp"):
            os.remove(os.path.join(path, name))


class ParquetWriter:
    """A single Parquet file (the layout before results folders), only to --resume such a file:
    one row group per chunk, readable once closed.

    A Parquet file cannot grow in place (its index is at the end), so the writer copies the
    file's row groups into a temporary file next to it (`.NAME.resuming`), adds the new chunks
    there, and on close renames it over the file in one step: until then the old file is
    untouched, and an append that fails or is cut short while copying leaves it as it was."""

    def __init__(self, path: str, schema_frame: pd.DataFrame, append: bool = True):
        self.schema = pa.Schema.from_pandas(schema_frame, preserve_index=False)
        self._path = path
        folder, name = os.path.split(os.path.abspath(path))
        temp = os.path.join(folder, f".{name}.resuming")
        self._writer = pq.ParquetWriter(temp, self.schema)
        try:
            with pq.ParquetFile(path) as old:
                for i in range(old.num_row_groups):
                    group = old.read_row_group(i).cast(self.schema)
                    self._writer.write_table(group, row_group_size=max(len(group), 1))
        except BaseException:   # Ctrl-C or a read error while copying: the old file stays as it was
            self._writer.close()
            with suppress(OSError):
                os.remove(temp)
            raise
        self._temp = temp

    def write(self, frame: pd.DataFrame) -> None:
        table = pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False)
        self._writer.write_table(table, row_group_size=max(len(frame), 1))

    def close(self) -> None:
        if self._temp is None:
            return
        try:
            self._writer.close()
            os.replace(self._temp, self._path)   # atomic: readers see the old file or the new one
        except BaseException:
            with suppress(OSError):
                os.remove(self._temp)
            raise
        finally:
            self._temp = None


class CsvWriter:
    """Header once, then rows appended, flushed and synced to disk per chunk, so the file is
    always a prefix of the run (a killed write may leave a cut last line: see trim_csv).
    append: adds rows to an existing file, without a second header."""

    def __init__(self, path: str, schema_frame: pd.DataFrame, append: bool = False):
        self._file = open(path, "a" if append else "w", newline="")
        if not append:
            schema_frame.to_csv(self._file, index=False)
            self._sync()

    def write(self, frame: pd.DataFrame) -> None:
        frame.to_csv(self._file, header=False, index=False)
        self._sync()

    def _sync(self) -> None:
        self._file.flush()
        os.fsync(self._file.fileno())

    def close(self) -> None:
        self._file.close()


def is_parquet(path: str) -> bool:
    return os.path.splitext(path)[1].lower() in PARQUET_EXTENSIONS


def writer_class(path: str):
    """The writer of a new results file at path (by its extension), or a UserError."""
    ext = os.path.splitext(path)[1].lower()
    if ext in PARQUET_EXTENSIONS:
        return PartsWriter
    if ext in CSV_EXTENSIONS:
        return CsvWriter
    raise UserError(f"output file {path}: unknown extension '{ext}' (use .parquet, .pq or .csv)")


def check_output(path: str):
    """The writer class for path, or a UserError if path cannot be a results file we can write."""
    cls = writer_class(path)
    folder = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(folder):
        raise UserError(f"output file {path}: directory {folder} does not exist")
    if os.path.isdir(path) and (cls is not PartsWriter or not is_results_folder(path)):
        raise UserError(f"output file {path}: cannot write there: a directory that is no simcore results folder")
    if not os.access(path if os.path.exists(path) else folder, os.W_OK):
        raise UserError(f"output file {path}: cannot write there")
    return cls


def open_writer(path: str, schema_frame: pd.DataFrame, append: bool = False):
    """Opens the results file now (the caller removed an old one, or checked that its rows fit
    when appending), so an unwritable path fails before any game runs."""
    cls = check_output(path)
    if append and cls is PartsWriter and os.path.isfile(path):
        cls = ParquetWriter               # a single Parquet file written by an older simcore
    try:
        return cls(path, schema_frame, append=append)
    except OSError as e:
        raise UserError(f"output file {path}: cannot write ({e.strerror or e})") from e


def is_results_folder(path: str) -> bool:
    """A folder holding only a results table's part files (and their schema and temporaries)."""
    return os.path.isdir(path) and all(
        name == SCHEMA_FILE or name.startswith(PART_PREFIX) or (name.startswith(".") and name.endswith(".tmp"))
        for name in os.listdir(path))


def remove(path: str) -> None:
    """Deletes a results file or folder (--force); a folder with other files in it is a UserError."""
    if os.path.isdir(path):
        if not is_results_folder(path):
            raise UserError(f"output file {path}: cannot write there: a directory that is no simcore results folder")
        for name in os.listdir(path):
            os.remove(os.path.join(path, name))
        os.rmdir(path)
    elif os.path.exists(path):
        os.remove(path)


def games_in(path: str) -> int | None:
    """How many whole games the results file at path holds, from its metadata (Parquet) or its
    line count (CSV), without reading the rows; None if it is no results file simcore can read."""
    try:
        if is_parquet(path):
            files = parquet_files(path)
            rows = sum(pq.ParquetFile(f).metadata.num_rows for f in files)
            if rows == 0:
                return 0
            players = int(pq.ParquetFile(files[0]).read_row_group(0, columns=["players"]).column(0)[0].as_py())
            return rows // players
        if os.path.splitext(path)[1].lower() in CSV_EXTENSIONS:
            first = pd.read_csv(path, nrows=1)
            if "players" not in first.columns:
                return None
            if first.empty:
                return 0
            return whole_csv_rows(path)[0] // int(first["players"].iloc[0])
    except (OSError, ValueError, pa.ArrowException):
        return None
    return None


# ---- a CSV file cut short --------------------------------------------------------------

def whole_csv_rows(path: str) -> tuple[int, int]:
    """(data rows, bytes) of the CSV file up to its last whole line, leaving out a cut last line."""
    lines = end = 0
    with open(path, "rb") as fh:
        offset = 0
        while block := fh.read(1 << 20):
            newlines = block.count(b"\n")
            if newlines:
                lines += newlines
                end = offset + block.rindex(b"\n") + 1
            offset += len(block)
    return max(lines - 1, 0), end


def trim_csv(path: str, players: int) -> int:
    """Cuts a CSV results file back to its last whole game: a cut last line (a write killed
    midway) and the rows of an unfinished game go. Returns the bytes removed."""
    rows, end = whole_csv_rows(path)
    extra = rows % players
    if extra:
        with open(path, "rb") as fh:          # the unfinished game's rows are the last `extra` lines
            fh.seek(max(0, end - (1 << 20)))
            tail = fh.read(end - fh.tell())
        cut = len(tail)
        for _ in range(extra + 1):
            cut = tail.rindex(b"\n", 0, cut)
        end -= len(tail) - cut - 1
    size = os.path.getsize(path)
    if end < size:
        with open(path, "r+b") as fh:
            fh.truncate(end)
            os.fsync(fh.fileno())
    return size - end


# ---- reading ---------------------------------------------------------------------------

def parquet_files(path: str) -> list[str]:
    """The Parquet files of a results table in game order: a folder's parts, or the file itself."""
    if not os.path.isdir(path):
        return [path]
    return [os.path.join(path, name) for name in sorted(os.listdir(path)) if name.startswith(PART_PREFIX)]


def read_chunks(path: str) -> Iterator[pd.DataFrame]:
    """A results file as DataFrames of bounded size (Parquet row groups, CSV blocks), dtypes restored."""
    ext = os.path.splitext(path)[1].lower()
    if ext not in PARQUET_EXTENSIONS + CSV_EXTENSIONS:
        raise UserError(f"results file {path}: unknown extension '{ext}' (use .parquet, .pq or .csv)")
    cls = writer_class(path)
    if not os.path.exists(path):
        raise UserError(f"results file {path} does not exist")
    try:
        frames = _parquet_row_groups(path) if cls is PartsWriter else _csv_blocks(path)
        for frame in frames:
            yield _checked(path, frame)
    except (OSError, ValueError, pa.ArrowException) as e:
        raise UserError(f"results file {path}: cannot read ({_first_line(e)})") from e


def read(path: str) -> pd.DataFrame:
    """A whole results file as one DataFrame (for notebooks and tests; `stats` reads in chunks)."""
    return pd.concat(list(read_chunks(path)), ignore_index=True)


def _parquet_row_groups(path: str) -> Iterator[pd.DataFrame]:
    files = parquet_files(path)
    if not files and os.path.isdir(path):     # a run stopped before its first chunk: still a table
        yield pq.read_schema(os.path.join(path, SCHEMA_FILE)).empty_table().to_pandas()
    for file in files:
        parquet = pq.ParquetFile(file)
        if parquet.num_row_groups == 0:
            yield parquet.schema_arrow.empty_table().to_pandas()
        for i in range(parquet.num_row_groups):
            yield parquet.read_row_group(i).to_pandas()


def _csv_blocks(path: str) -> Iterator[pd.DataFrame]:
    with pd.read_csv(path, chunksize=CSV_READ_ROWS) as reader:
        yield from reader


def _checked(path: str, frame: pd.DataFrame) -> pd.DataFrame:
    missing = [c for c in BASE_DTYPES if c not in frame.columns]
    if missing:
        raise UserError(f"results file {path} is not a simcore results table (no column {missing[0]})")
    return frame.astype(column_dtypes(frame.columns))


def _first_line(error: Exception) -> str:
    return (str(error).strip().splitlines() or [type(error).__name__])[0]

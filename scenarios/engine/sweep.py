"""Sweeps: N games at every point of a grid of game options, run by Dask.

A sweep plays ``games`` games for each point of a grid (``--grid KEY=V1,V2`` for every
combination of the values, ``--set KEY=VALUE`` the same at every point) and keeps one
row per game. Any :class:`~.protocol.Game` can be swept: the keys are the game's
:class:`~.protocol.Option` names (values parsed by :meth:`Option.parse`), plus
``player`` (the bot of every seat, or one bot per seat separated by ``/``).

Reproducible whatever runs it: game ``i`` of every grid point plays seed ``i`` of the
series started at ``seed`` (:func:`~.runner.series_seeds`; the same seeds at every
point, so points differ by their settings and not by their deals — common random
numbers), and the rows are sorted by (point, game) before anything is summarised or
written. One worker or a hundred, in any completion order: the same rows, the same
tables, byte for byte.

Execution (:func:`run_sweep`): games are batched into tasks (``batch`` games of one
point each); ``workers=1`` plays them in this process, otherwise through
``dask.distributed`` — a ``LocalCluster`` of ``workers`` processes (default: one per
core of this machine) or an existing cluster at ``scheduler``. Tasks are retried, and
a task that was running on a worker that died is run again elsewhere; every task's
rows are kept once, by task, so no game is lost or counted twice. With a
``checkpoint`` file every finished task is appended to it (JSON lines), so an
interrupted sweep (Ctrl-C) keeps what was finished and ``resume=True`` continues it.
"""
from __future__ import annotations

import csv
import io
import itertools
import json
import math
import os
import pathlib
import sys
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TextIO

from furball.errors import InputError
from furball.geometry.files import write_bytes_atomic
from furball.i18n import Message, msg

from .cluster import CtrlC, check_local_workers, dask_client, default_workers, quiet_dask
from .protocol import Game
from .runner import play_game, series_seeds
from .stats import Summary, mean_interval, proportion_interval
from .stats import summarise as summarise_rows

__all__ = ["GridPoint", "SweepPlan", "SweepResult", "Task", "Checkpoint", "plan_sweep", "run_sweep", "play_task",
           "write_rows", "encode_rows", "default_workers", "ROW_FORMATS", "MAX_GAMES", "MAX_POINTS", "MAX_BATCH",
           "CLUSTER_WORKERS", "PLAYER", "SEATS", "FIXED_COLUMNS"]

PLAYER = "player"
"""The grid/settings key that chooses the bots (not a game option)."""
SEATS = "/"
"""Separates the bots of the seats in a ``player`` value: ``heuristic/random``."""
MAX_GAMES = 10**9
"""Games per grid point refused above this (it would run for weeks)."""
MAX_POINTS = 10_000
"""Grid points refused above this."""
MAX_BATCH = 1_000
"""Largest task (games of one point); smaller tasks spread better over workers."""
CLUSTER_WORKERS = 32
"""Workers assumed when sizing tasks for a cluster given by its scheduler."""
ROW_FORMATS = (".parquet", ".csv")
"""File formats the rows can be written in (by the file's suffix)."""
FIXED_COLUMNS = ("point", "game", "seed", PLAYER)
"""Columns every row starts with (then one per option set, then the game's result)."""


def _label(value: Any) -> str:
    """The text of an option value in rows and tables."""
    if value is None or isinstance(value, (str, int, float, bool)):
        return str(value)
    return repr(value)[:40]


@dataclass(frozen=True)
class GridPoint:
    """One combination of settings: ``index`` (0-based), ``settings`` as ``(key, value,
    text)`` triples in the order the keys were given (``--set`` keys, then ``--grid``
    keys), ``players`` (one bot name per seat), ``varied``: the keys the grid varies."""

    index: int
    settings: tuple[tuple[str, Any, str], ...]
    players: tuple[str, ...]
    varied: tuple[str, ...] = ()

    @property
    def options(self) -> dict[str, Any]:
        """The game options of this point (``player`` left out)."""
        return {k: v for k, v, _ in self.settings if k != PLAYER}

    @property
    def columns(self) -> dict[str, str]:
        """The setting columns of this point's rows: key -> text (``player`` left out)."""
        return {k: text for k, _, text in self.settings if k != PLAYER}

    @property
    def label(self) -> str:
        """What tells this point apart: the grid's settings (``"setup=free"``); with no
        grid, every setting and the bots (``"player=heuristic"``)."""
        parts = [f"{k}={text}" for k, _, text in self.settings if k in self.varied]
        if not parts:
            parts = [f"{k}={text}" for k, _, text in self.settings]
            if not any(k == PLAYER for k, _, _ in self.settings):
                parts.append(f"{PLAYER}={SEATS.join(self.players)}")
        return ", ".join(parts)


@dataclass(frozen=True)
class Task:
    """Games ``start .. stop-1`` of grid point ``point``: the unit of work a worker runs."""

    point: int
    start: int
    stop: int

    @property
    def games(self) -> int:
        return self.stop - self.start


@dataclass(frozen=True)
class SweepPlan:
    """A checked sweep: ``game``, ``games`` per point, ``seed``, the grid ``points``,
    ``batch`` (games per task). Made by :func:`plan_sweep`; nothing has run yet."""

    game: Game
    games: int
    seed: int
    points: tuple[GridPoint, ...]
    batch: int
    keys: tuple[str, ...] = field(default=())

    @property
    def total(self) -> int:
        """Games in the whole sweep."""
        return self.games * len(self.points)

    def tasks(self) -> list[Task]:
        """Every task, point by point, in game order."""
        return [Task(p.index, start, min(start + self.batch, self.games))
                for p in self.points for start in range(0, self.games, self.batch)]

    def manifest(self) -> dict:
        """What makes two sweeps the same sweep (for ``resume``): game, games, seed and
        every point's settings as text."""
        return {"game": self.game.name, "games": self.games, "seed": self.seed,
                "points": [[[k, text] for k, _, text in p.settings] + [[PLAYER, SEATS.join(p.players)]]
                           for p in self.points]}


def _parse(game: Game, key: str, value: Any) -> tuple[Any, str]:
    """``(value, text)`` of one setting; text is parsed with the option's kind."""
    if key == PLAYER:
        text = value if isinstance(value, str) else SEATS.join(value)
        for name in text.split(SEATS):
            game.player(name, 0)  # raises InputError for an unknown bot
        return tuple(text.split(SEATS)), text
    option = game.option(key)  # raises InputError for an unknown option
    if isinstance(value, str):
        return option.parse(value), value
    return option.check(value), _label(value)


def plan_sweep(game: Game, games: int, seed: int = 0, player: str | Sequence[str] | None = None,
               settings: Mapping[str, Any] | None = None, grid: Mapping[str, Sequence[Any]] | None = None,
               batch: int | None = None, workers: int | None = 1) -> SweepPlan:
    """Check a sweep before anything runs. ``settings``: option -> value (text is parsed
    by the option, other values checked), the same at every point; ``grid``: option ->
    values, every combination a point (the first key varies slowest); ``player``: a bot
    name for every seat, or one per seat (or the key ``player`` in ``settings``/``grid``);
    ``batch``: games per task (default: about 8 tasks per worker, at most
    :data:`MAX_BATCH`; ``workers=None`` — a cluster of unknown size — counts
    :data:`CLUSTER_WORKERS`). Raises :class:`InputError` (one line) for an unknown option or
    value, a key given twice, an empty grid, absurd sizes or a bad seat count."""
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= MAX_GAMES:
        raise InputError(msg("--games {games}: expected an integer from 1 to {most}", games=str(games),
                             most=format(MAX_GAMES, "g")))
    series_seeds(seed, 0)  # checks the seed
    settings, grid = dict(settings or {}), {k: list(v) for k, v in (grid or {}).items()}
    if player is not None:
        if PLAYER in settings or PLAYER in grid:
            raise InputError(msg("--player: given twice (also as a setting)"))
        settings[PLAYER] = player
    for key in settings:
        if key in grid:
            raise InputError(msg("{key}: given both with --set and with --grid", key=key))
    sizes = 1
    for key, values in grid.items():
        if not values:
            raise InputError(msg("--grid {key}: expected at least one value", key=key))
        if len(set(map(str, values))) != len(values):
            raise InputError(msg("--grid {key}: a value is given twice", key=key))
        sizes *= len(values)
        if sizes > MAX_POINTS:
            raise InputError(msg("--grid: more than {most} grid points", most=MAX_POINTS))
    fixed = [(k, *_parse(game, k, v)) for k, v in settings.items()]
    axes = [[(k, *_parse(game, k, v)) for v in values] for k, values in grid.items()]
    default_players = (next(iter(game.players)),)
    points = []
    for i, combo in enumerate(itertools.product(*axes)):
        chosen = tuple(fixed) + tuple(combo)
        names = next((v for k, v, _ in chosen if k == PLAYER), default_players)
        point = GridPoint(i, chosen, names, tuple(grid))
        try:
            game.check_combination(point.options)
        except InputError as exc:
            raise InputError(msg("{error} (at {point})", error=exc.message, point=point.label)) from None
        seats = game.seat_count(game.defaults() | point.options)
        if len(names) != seats:
            if len(names) != 1:
                raise InputError(msg("{option} {bots}: expected one bot or {seats} (one per seat) at {point}",
                                     option=PLAYER, bots=SEATS.join(names), seats=seats, point=point.label))
            point = GridPoint(i, chosen, names * seats, tuple(grid))
        points.append(point)
    total = games * len(points)
    if total > MAX_GAMES:
        raise InputError(msg("--games {games} x {points} grid points: more than {most} games", games=games,
                             points=len(points), most=format(MAX_GAMES, "g")))
    if batch is None:
        per_worker = 8  # enough tasks per worker to even out their lengths
        batch = max(1, min(MAX_BATCH, math.ceil(total / (per_worker * (workers or CLUSTER_WORKERS)))))
        batch = min(batch, games)
    elif isinstance(batch, bool) or not isinstance(batch, int) or not 1 <= batch <= MAX_GAMES:
        raise InputError(msg("--batch {batch}: expected an integer >= 1", batch=str(batch)))
    return SweepPlan(game, games, int(seed), tuple(points), int(batch),
                     tuple(k for k in list(settings) + list(grid) if k != PLAYER))


def play_task(game: Game, point: GridPoint, seed: int, task: Task) -> tuple[tuple[str, ...], list[tuple]]:
    """Play the games of ``task`` (on a worker) and return ``(columns, records)``: one
    tuple per game, in game order, with ``point``, ``game`` (index in the series),
    ``seed``, ``player``, the point's option columns, then the game's :meth:`result`
    row; an option column whose name the result also uses is called ``set_<name>``.
    (Tuples, not dicts: a million games take a fifth of the memory.)"""
    options = point.options
    player = SEATS.join(point.players) if len(set(point.players)) > 1 else point.players[0]
    head = point.columns
    columns: tuple[str, ...] = ()
    records = []
    for i, s in enumerate(series_seeds(seed, task.games, task.start), start=task.start):
        result = play_game(game, s, point.players, options, keep_log=False).result
        if not columns:
            clash = set(result) & set(FIXED_COLUMNS)
            if clash:  # pragma: no cover - an engine bug, not a user mistake
                raise RuntimeError(f"{game.name}: result columns {sorted(clash)} clash with sweep columns")
            columns = FIXED_COLUMNS + tuple(f"set_{k}" if k in result else k for k in head) + tuple(result)
        if len(columns) != len(FIXED_COLUMNS) + len(head) + len(result) or \
                tuple(result) != columns[len(FIXED_COLUMNS) + len(head):]:  # pragma: no cover - an engine bug
            raise RuntimeError(f"{game.name} seed {s}: result columns differ from game to game")
        records.append((point.index, i, s, player, *head.values(),
                        *(sys.intern(v) if type(v) is str else v for v in result.values())))  # one copy of a word
    return columns, records


# -- results -------------------------------------------------------------------------
@dataclass
class SweepResult:
    """What a sweep produced: its ``plan``; ``columns`` (every column any point has, in
    the order first met) and one ``records`` tuple per game in that order (sorted by
    point, then game; ``None`` where a point's games have no such column, e.g. the VP
    of a fourth seat in 3-player games); ``point_columns``: the columns of each point;
    and whether it is ``complete`` (False after an interruption: then only the
    finished tasks are in ``records``). ``rows`` gives the games as dicts."""

    plan: SweepPlan
    columns: tuple[str, ...]
    records: list[tuple]
    complete: bool = True
    point_columns: dict[int, tuple[str, ...]] = field(default_factory=dict)

    @classmethod
    def assemble(cls, plan: SweepPlan | None, parts: Iterable[tuple[tuple[str, ...], list[tuple]]],
                 complete: bool = True) -> SweepResult:
        """One result from tasks' ``(columns, records)``, in the order given."""
        parts = list(parts)
        union: dict[str, int] = {}
        for columns, _ in parts:
            for c in columns:
                union.setdefault(c, len(union))
        names = tuple(union) or FIXED_COLUMNS
        records: list[tuple] = []
        per_point: dict[int, tuple[str, ...]] = {}
        for columns, rows in parts:
            if rows:
                per_point.setdefault(rows[0][0], columns)
            if columns == names:
                records.extend(rows)
                continue
            where = [union[c] for c in columns]
            for r in rows:
                full = [None] * len(names)
                for i, v in zip(where, r):
                    full[i] = v
                records.append(tuple(full))
        return cls(plan, names, records, complete, per_point)  # type: ignore[arg-type]  # None: rows to write only

    @classmethod
    def from_rows(cls, plan: SweepPlan | None, rows: Sequence[Mapping[str, Any]],
                  complete: bool = True) -> SweepResult:
        """A result from rows as dicts (each row's own columns)."""
        return cls.assemble(plan, [(tuple(r), [tuple(r.values())]) for r in rows], complete)

    @property
    def games_done(self) -> int:
        return len(self.records)

    @property
    def rows(self) -> list[dict]:
        """Every game as a dict of its point's columns (made on each call)."""
        return [row for point in sorted({r[0] for r in self.records}) for row in self.point_rows(point)]

    def point_rows(self, point: int) -> list[dict]:
        """The rows of grid point ``point``, in game order, with that point's columns."""
        columns = self.point_columns.get(point, self.columns)
        where = [self.columns.index(c) for c in columns]
        return [{c: r[i] for c, i in zip(columns, where)} for r in self.records if r[0] == point]

    def column(self, name: str, point: int | None = None) -> list[Any]:
        """The values of column ``name`` (of one grid ``point``, or of all; games without
        that column left out)."""
        i = self.columns.index(name)
        return [r[i] for r in self.records if (point is None or r[0] == point) and r[i] is not None]

    def mean(self, point: int, column: str) -> tuple[float, float, float]:
        """``(mean, low, high)`` of a numeric column at ``point``: the 95 % t interval."""
        return mean_interval(self.column(column, point))

    def shares(self, point: int, column: str, levels: Sequence[Any]) -> list[tuple[float, float, float]]:
        """``(share, low, high)`` of each value of ``levels`` in ``column`` at ``point``:
        95 % Wilson intervals."""
        values = self.column(column, point)
        return [proportion_interval(sum(1 for v in values if v == level), len(values)) for level in levels]

    def result_columns(self) -> list[str]:
        """The game's result columns (the rows without the sweep's own columns)."""
        return list(self.columns[len(FIXED_COLUMNS) + len(self.plan.keys):]) if self.records else []

    def summaries(self, summarise: Callable[[Iterable[dict], str], Summary] | None = None
                  ) -> list[tuple[GridPoint, Summary]]:
        """One summary per grid point: ``summarise(rows, label)`` (default: every result
        column, means with t intervals and shares with Wilson intervals)."""
        skip = len(FIXED_COLUMNS) + len(self.plan.keys)
        out = []
        for point in self.plan.points:
            rows = self.point_rows(point.index)
            label = point.label
            if summarise is not None:
                out.append((point, summarise(rows, label)))
            else:
                columns = list(self.point_columns.get(point.index, self.columns)[skip:])
                out.append((point, summarise_rows(rows, label, columns=columns)))
        return out

    def table(self, summarise: Callable[[Iterable[dict], str], Summary] | None = None) -> str:
        """Every point's summary table, one after another."""
        head = (f"{self.plan.game.title}: {self.plan.games} games per point x {len(self.plan.points)} "
                f"point(s), seed {self.plan.seed}")
        first = self.plan.points[0]
        fixed = [f"{k}={text}" for k, _, text in first.settings if k not in first.varied]
        if fixed and first.varied:
            head += f"; at every point: {', '.join(fixed)}"
        blocks = [head]
        for point, summary in self.summaries(summarise):
            blocks.append(f"[{point.index}] {summary.table()}")
        return "\n\n".join(blocks)

    def to_json(self, summarise: Callable[[Iterable[dict], str], Summary] | None = None) -> dict:
        return {"game": self.plan.game.name, "games": self.plan.games, "seed": self.plan.seed,
                "complete": self.complete,
                "points": [{"index": p.index, "settings": {k: t for k, _, t in p.settings},
                            "players": list(p.players), "summary": s.to_json()}
                           for p, s in self.summaries(summarise)]}


def encode_rows(rows: Sequence[Mapping[str, Any]] | SweepResult, format: str) -> bytes:
    """The rows (dicts, or a :class:`SweepResult`'s records) as the bytes of a Parquet
    (pyarrow; seeds as unsigned 64-bit integers) or CSV file (``format``: one of
    :data:`ROW_FORMATS`). Raises :class:`InputError` for another format."""
    result = rows if isinstance(rows, SweepResult) else SweepResult.from_rows(None, rows)
    fmt = format.lower() if format.startswith(".") else "." + format.lower()
    if fmt not in ROW_FORMATS:
        raise InputError(msg("rows: expected a format among {formats}, got {value}", formats=", ".join(ROW_FORMATS),
                             value=repr(format)))
    if fmt == ".parquet":
        from furball.extras import require

        pa = require("cluster", "a Parquet file", "pyarrow")
        import pyarrow.parquet as pq

        table = pa.table({name: pa.array([r[i] for r in result.records],
                                         type=pa.uint64() if name == "seed" else None)
                          for i, name in enumerate(result.columns)})
        buffer = io.BytesIO()
        pq.write_table(table, buffer)
        return buffer.getvalue()
    text = io.StringIO()
    writer = csv.writer(text, lineterminator="\n")
    writer.writerow(result.columns)
    writer.writerows(result.records)
    return text.getvalue().encode("utf-8")


def write_rows(rows: Sequence[Mapping[str, Any]] | SweepResult, path: str | os.PathLike,
               format: str | None = None) -> None:
    """Write the rows to ``path`` (:func:`encode_rows`; the format from ``format`` or the
    path's suffix), atomically: under a temporary name beside ``path``, renamed into
    place once complete. Raises :class:`InputError` for another suffix."""
    path = pathlib.Path(path)
    data = encode_rows(rows, format or path.suffix or "?")
    write_bytes_atomic(path, data)


# -- checkpoints ---------------------------------------------------------------------
class Checkpoint:
    """Finished tasks appended to a file as JSON lines (the first line describes the
    sweep), so an interrupted sweep can be continued. A last line cut short by a crash
    is ignored."""

    def __init__(self, path: str | os.PathLike):
        self.path = pathlib.Path(path)
        self._fh: TextIO | None = None

    def load(self, plan: SweepPlan) -> tuple[int, dict[tuple[int, int, int], tuple]]:
        """``(batch, finished)`` read back, every line checked against ``plan``: the
        sweep's description, a whole batch size in range, tasks that are tasks of this
        sweep, records of the right games (point, index, seed, bots) under the same
        columns. Raises :class:`InputError` (one line naming the file and line) for a
        foreign or corrupt checkpoint; the file is left as it is. A last line cut short
        by a crash is ignored (that task runs again)."""
        try:
            lines = self.path.read_text(encoding="utf-8").splitlines()
            head = json.loads(lines[0])
            manifest, batch = head["furball_sweep"], head["batch"]
        except (OSError, IndexError, KeyError, TypeError, ValueError):
            raise InputError(msg("--resume: {file}: expected a sweep checkpoint", file=str(self.path))) from None
        if manifest != plan.manifest():
            raise InputError(msg("--resume: {file} was written by a different sweep (game, games, seed or settings "
                                 "differ): run the same command, or delete the file", file=str(self.path)))
        if isinstance(batch, bool) or not isinstance(batch, int) or not 1 <= batch <= MAX_BATCH:
            raise InputError(msg("--resume: {file}: line 1: expected a batch of 1 to {most} games, got {value}",
                                 file=str(self.path), most=MAX_BATCH, value=str(batch)[:20]))
        saved = SweepPlan(plan.game, plan.games, plan.seed, plan.points, batch, plan.keys)
        tasks = {(t.point, t.start, t.stop): t for t in saved.tasks()}
        done: dict[tuple[int, int, int], tuple] = {}
        columns = None
        for n, line in enumerate(lines[1:], 2):
            try:
                entry = json.loads(line)
                key = tuple(entry["task"])
                found = (tuple(entry["columns"]), [tuple(r) for r in entry["records"]])
            except (ValueError, KeyError, TypeError):
                if n == len(lines):
                    break  # the last line was cut short: that task runs again
                raise InputError(msg("--resume: {file}: line {line}: expected a finished task", file=str(self.path),
                                     line=n)) from None
            problem = self._check(saved, tasks.get(key), found, columns)
            if problem or key in done:
                raise InputError(msg("--resume: {file}: line {line}: {problem}; the file was kept: delete it to "
                                     "start the sweep again", file=str(self.path), line=n,
                                     problem=problem or msg("a task given twice")))
            columns = found[0]
            done[key] = found
        return batch, done

    @staticmethod
    def _check(plan: SweepPlan, task: Task | None, found: tuple, columns: tuple | None) -> Message | None:
        """What is wrong with one finished task of a checkpoint, or ``None``."""
        if task is None:
            return msg("a task that is not part of this sweep")
        cols, records = found
        point = plan.points[task.point]
        head = FIXED_COLUMNS + tuple(point.columns)
        if len(cols) <= len(head) or not all(isinstance(c, str) for c in cols) or \
                [c.removeprefix("set_") for c in cols[:len(head)]] != list(head) or \
                (columns is not None and cols != columns):
            return msg("columns that are not this sweep's")
        if len(records) != task.games:
            return msg("expected {games} games, found {found}", games=task.games, found=len(records))
        player = SEATS.join(point.players) if len(set(point.players)) > 1 else point.players[0]
        seeds = series_seeds(plan.seed, task.games, task.start)
        for k, record in enumerate(records):
            if len(record) != len(cols) or tuple(record[:4]) != (task.point, task.start + k, seeds[k], player):
                return msg("a record that is not game {game} of point {point}", game=task.start + k,
                           point=task.point)
        return None

    def start(self, plan: SweepPlan, resume: bool) -> None:
        """Open for appending; a new checkpoint gets the sweep's description first."""
        if resume:
            self._fh = open(self.path, "a", encoding="utf-8")
            return
        self._fh = fh = open(self.path, "w", encoding="utf-8")
        fh.write(json.dumps({"furball_sweep": plan.manifest(), "batch": plan.batch}) + "\n")
        fh.flush()

    def add(self, task: Task, columns: tuple[str, ...], records: list[tuple]) -> None:
        fh = self._fh
        if fh is None:
            raise RuntimeError("Checkpoint.add before start")
        fh.write(json.dumps({"task": [task.point, task.start, task.stop], "columns": columns,
                             "records": records}) + "\n")
        fh.flush()

    def close(self, remove: bool) -> None:
        if self._fh is not None:
            self._fh.flush()
            os.fsync(self._fh.fileno())
            self._fh.close()
            self._fh = None
        if remove:
            self.path.unlink(missing_ok=True)


# -- running -------------------------------------------------------------------------
def run_sweep(game: Game, games: int, seed: int = 0, player: str | Sequence[str] | None = None,
              settings: Mapping[str, Any] | None = None, grid: Mapping[str, Sequence[Any]] | None = None, *,
              workers: int | None = None, scheduler: str | None = None, batch: int | None = None,
              progress: Callable[[int], Any] | None = None, out: str | os.PathLike | None = None,
              checkpoint: str | os.PathLike | None = None, resume: bool = False, remove_checkpoint: bool = True,
              plan: SweepPlan | None = None) -> SweepResult:
    """Run a sweep (see the module doc) and return its :class:`SweepResult`.

    ``workers``: ``1`` plays in this process; ``N`` starts a ``LocalCluster`` of N
    worker processes; ``None`` one per core (:func:`default_workers`). ``scheduler``: the
    address of a running Dask scheduler (``tcp://host:8786``) to use instead.
    ``progress(n)`` is called with the number of games of each finished task. ``out``:
    write the rows there once complete (:func:`write_rows`, atomic). ``checkpoint``: a
    file that keeps finished tasks (``resume=True`` continues from it; it is removed
    once the sweep is complete and ``out`` written, unless ``remove_checkpoint`` is
    False: then the caller removes it once it has kept the rows). ``plan``: an already checked
    :func:`plan_sweep` (the other sweep arguments are then ignored). Ctrl-C stops the
    sweep and returns what was finished, ``complete=False``. Raises :class:`InputError`
    for bad input, before any game is played."""
    if scheduler is not None and workers is not None:
        raise InputError(msg("--workers: not with --scheduler (the cluster decides how many workers)"))
    if scheduler is None:
        check_local_workers(workers)
    n_workers = default_workers() if workers is None and scheduler is None else (workers or 1)
    if plan is None:
        plan = plan_sweep(game, games, seed, player, settings, grid, batch,
                          workers=None if scheduler is not None else n_workers)
    store = Checkpoint(checkpoint) if checkpoint is not None else None
    done: dict[tuple[int, int, int], tuple[tuple[str, ...], list[tuple]]] = {}
    if store is not None and resume:
        saved_batch, done = store.load(plan)
        if saved_batch != plan.batch:
            plan = SweepPlan(plan.game, plan.games, plan.seed, plan.points, saved_batch, plan.keys)
    elif resume:
        raise InputError(msg("--resume: needs the checkpoint of the interrupted sweep (give --out FILE)"))
    tasks = [t for t in plan.tasks() if (t.point, t.start, t.stop) not in done]
    if progress is not None and done:
        progress(sum(len(records) for _, records in done.values()))
    if store is not None:
        store.start(plan, resume)
    complete = finished = False
    try:
        try:
            if not tasks:
                complete = True
            elif scheduler is None and n_workers == 1:
                complete = _run_here(plan, tasks, done, store, progress)
            else:
                with quiet_dask(), CtrlC() as ctrl_c, dask_client(n_workers if scheduler is None else None,
                                                                  scheduler) as client:
                    complete = not ctrl_c.pressed and _run_on(client, plan, tasks, done, store, progress, ctrl_c)
        except KeyboardInterrupt:
            complete = False
        result = SweepResult.assemble(plan, [done[key] for key in sorted(done)], complete)
        if complete and out is not None:
            write_rows(result, out)
        finished = complete
    except InputError:  # the cluster could not start or be reached: a new checkpoint holding no game goes
        if store is not None and not resume and not done:
            store.close(remove=True)
            store = None
        raise
    finally:
        if store is not None:
            store.close(remove=finished and remove_checkpoint)  # kept until the rows are safely written
    return result


def _finish(task: Task, found: tuple[tuple[str, ...], list[tuple]], done: dict, store: Checkpoint | None,
            progress) -> None:
    key = (task.point, task.start, task.stop)
    if key in done:  # pragma: no cover - a task whose result came twice is kept once
        return
    done[key] = found
    if store is not None:
        store.add(task, *found)
    if progress is not None:
        progress(len(found[1]))


def _run_here(plan: SweepPlan, tasks: list[Task], done: dict, store, progress) -> bool:
    """Play the tasks one after another in this process; False if interrupted."""
    try:
        for task in tasks:
            _finish(task, play_task(plan.game, plan.points[task.point], plan.seed, task), done, store, progress)
    except KeyboardInterrupt:
        return False
    return True


def _run_on(client, plan: SweepPlan, tasks: list[Task], done: dict, store, progress, ctrl_c: CtrlC) -> bool:
    """Submit every task to the cluster in one message and collect them as they finish,
    the rows of all the tasks finished since the last look fetched in one gather, each
    task's future let go once its rows are in (its worker then frees them); False if
    Ctrl-C was pressed (the unfinished tasks are then cancelled)."""
    from distributed import as_completed

    token = os.urandom(6).hex()
    submitted = client.map(play_task, [plan.game] * len(tasks), [plan.points[t.point] for t in tasks],
                           [plan.seed] * len(tasks), tasks, pure=False, retries=3,
                           key=[f"furball-sweep-{token}-{t.point}-{t.start}" for t in tasks])
    pending = {future.key: (future, task) for future, task in zip(submitted, tasks)}
    finished = as_completed(submitted)
    del submitted
    while not finished.is_empty():
        if ctrl_c.pressed:
            client.cancel([f for f, _ in pending.values()])
            return False
        ready = finished.next_batch(block=False)
        if not ready:
            ctrl_c.wait(POLL_S)
            continue
        for future, found in zip(ready, client.gather(ready)):
            _finish(pending.pop(future.key)[1], found, done, store, progress)
        del ready
    return True


POLL_S = 0.01
"""How often the sweep looks for finished tasks while none is ready (seconds)."""

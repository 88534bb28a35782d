"""Endgame databases made by the project: build, store, load, probe.

    tables = egdb.load(AMERICAN)                    # None until built; memory-mapped, read-only
    tables.probe(position)                          # Probe(value='win', plies=13)
    egdb.build(AMERICAN, pieces=5, progress=print)  # or: python -m engine egdb build
    egdb.start_background_build()                   # what the engine's worker does on first use

What the tables hold. For every position with up to ``pieces`` pieces (American checkers: 5 by
default, International draughts: 4) the value for the side to move, win, loss or draw, under the
game's rules of moving (compulsory capture, American free choice / International majority capture,
crowning, moves told apart by (from, to, captured) as in perft: the move generator is the game's own),
and a distance in plies. The kernels and the index are in ``engine/_egdb.py``.

* ``<variant>.wld``: 2 bits a position (0 draw, 1 win, 2 loss, 3 an index no position has). The search
  reads this one in its tree.
* ``<variant>.dist``: a byte a position. The move at the root picks the fastest win and the longest
  loss with it.
* ``<variant>.json``: what was built (pieces, slices, counts, sizes, build time, the rules it was built
  for). Written last: a table without it is not finished.

Draw rules. *American checkers*: the tables ignore the 40-move rule and repetition, as databases
usually do. Repetition never changes a value (a side that wins can win without repeating: its
distance falls every move). The 40-move count (80 plies without a man move or a capture) starts
afresh with every man move and capture, so a king ending starts with a fresh count, and the longest
5-piece king ending won takes 68 plies (3 kings against 2); with men on the board the count restarts
at each of their moves. The same reading for the 25-move rule of International draughts outside the
endgame rule's groups (inside them the 16/5-move count is always the nearer).

*International draughts, the 16/5-move endgame rule* (FMJD 6.4 as engine/game.py applies it: a lone
king against 3 pieces with a king among them, "group 3", is drawn 16 moves each (32 plies) after that
material arose; against 2 or 1 such pieces, "group 2", 5 moves each (10 plies); captures do not extend
a count; 3 becoming 2 leaves min(count, 10 plies); a group-3 position in which the lone king stands on
the main diagonal and the other side has no piece on it leaves min(count, 10 plies); material outside
the groups has no count). The value of a position in a group depends on r, the plies left on its
count: a win needs the last move made with r >= 1 left (the game looks for "no moves" before it
looks at the count). More plies never hurt the side that wins, so for each position there is a least
r from which it is won (or lost), and below which it is a draw. That least r is what ``dist`` holds
in the groups' slices (``wld`` holds the value for a large enough r), and a probe given r answers
exactly: win or loss when ``dist <= r``, else draw. It is computed by the same passes as a distance,
with the transitions of the count from a parent with r to its child:

    same group (king moves, a crowning within group 3, group 2 to 2):   r - 1
    group 3 to a position with the lone king alone on the main diagonal: min(r - 1, 10)
    group 3 to group 2 (the lone king captured a piece):                min(r - 1, 10)
    a group to no group (the lone king took the only king, ...):        no count: any r >= 1 will do
    no group to a group (a capture or a crowning made the material):   a fresh count, 32 (10 on the
                                                                         main diagonal) or 10

so a child reached with a count capped at 10 is a draw for the parent when its least r is above 10,
and a child outside the groups counts with distance 0. The passes of a group stop at 32 or 10 plies:
no longer count arises. Outside the groups ``dist`` is the number of plies to the end of the game,
except that a group entered on the way counts with its least r (the plies within which the count
still matters) instead of its full length; the root move still makes progress, as each step lowers
the distance or leaves a group for good.

Files live in the user's cache directory (``platformdirs``), ``checkers3d/egdb``; the environment
variable ``CHECKERS3D_CACHE_DIR`` replaces ``.../checkers3d`` (tests use it). A build keeps each
solved pair of slices in ``<variant>.parts/`` (written atomically), so an interrupted build resumes;
the finished tables are written to temporary names and renamed. One builder per folder at a time
(a lock file, ``build.lock``). The game's worker starts a build in a background process, at low priority, when the
tables are missing (``CHECKERS3D_EGDB_AUTOBUILD=0`` turns that off), and plays without them until
they exist.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import shutil
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Callable, Iterator, NamedTuple

import numpy as np

from . import _board
from . import _egdb as K
from ._draws import NO_GROUP, NO_LIMIT, endgame_after, endgame_group, endgame_rule
from ._movegen import MAX_MOVES, MAX_PATH, new_scratch
from .position import Move, Position
from .variants import AMERICAN, CZECH, INTERNATIONAL, ITALIAN, SPANISH, THAI, VARIANTS, Variant

FORMAT = 1  # raise when the meaning of the files changes: older files are then rebuilt
# The rule sets the tables can be built for (see ``supports``) and their default size. The window builds
# those of ``VARIANTS`` in the background; the others on ``python -m engine egdb build --variant V``.
DEFAULT_PIECES = {AMERICAN.name: 5, INTERNATIONAL.name: 4, SPANISH.name: 5, ITALIAN.name: 5, CZECH.name: 5,
                  THAI.name: 5}


def supports(variant: Variant) -> bool:
    """Whether the tables can hold ``variant``'s values: the solver counts no endgame rule or FMJD 6.4's
    (its groups and their transitions, above); the counts of FMJD-64 7.2 and APCA (Russian, Brazilian,
    Pool) are other transitions, which it doesn't know."""
    return variant.name in DEFAULT_PIECES and (not variant.endgame_rule or (
        variant.lone_king_vs_three_kings_moves is None and variant.kings_ending_four_five_moves is None
        and variant.kings_ending_six_seven_moves is None and not variant.endgame_counts_restart))
CACHE_ENV = "CHECKERS3D_CACHE_DIR"
AUTOBUILD_ENV = "CHECKERS3D_EGDB_AUTOBUILD"
VALUES = {K.V_DRAW: "draw", K.V_WIN: "win", K.V_LOSS: "loss"}
MAX_DIST = K.MAX_DIST  # the longest distance a table holds, in plies


class BuildBusyError(RuntimeError):
    """Another process is building the same variant's tables."""


# --- where and what --------------------------------------------------------------------------


def cache_root() -> Path:
    """The game's cache directory: ``$CHECKERS3D_CACHE_DIR`` or the platform's user cache dir."""
    env = os.environ.get(CACHE_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_cache_dir("checkers3d", appauthor=False))


def egdb_dir(directory: Path | str | None = None) -> Path:
    return Path(directory) if directory is not None else cache_root() / "egdb"


def _rules_fingerprint(variant: Variant) -> dict:
    """The rule fields a table depends on: a table built for other rules is not used."""
    return {"squares": variant.squares, "men_capture_backward": variant.men_capture_backward,
            "flying_kings": variant.flying_kings, "majority_capture": variant.majority_capture,
            "promotion_ends_capture": variant.promotion_ends_capture, "endgame_rule": variant.endgame_rule,
            "lone_king_vs_three_moves": variant.lone_king_vs_three_moves,
            "lone_king_vs_two_moves": variant.lone_king_vs_two_moves,
            "lone_king_main_diagonal_moves": variant.lone_king_main_diagonal_moves, **_newer_rules(variant)}


def _newer_rules(variant: Variant) -> dict:
    """The capture rules added with the rule sets of issue 25, where they differ from their defaults (the
    two first games' rules), so that those games' fingerprints, and their tables already built, stay."""
    fields = {f.name: f.default for f in dataclasses.fields(Variant)}
    return {name: getattr(variant, name) for name in NEWER_RULES if getattr(variant, name) != fields[name]}


NEWER_RULES = ("men_capture_kings", "crowned_capture_continues", "king_lands_next", "king_lands_to_go_on",
               "captured_removed_at_once", "king_capture_first", "most_kings_capture", "kings_first_capture")


class Geometry(NamedTuple):
    """The index's arrays for one variant (see ``_egdb``): params, square of each bit, bit of each
    square, binomial coefficients."""

    params: np.ndarray
    sq_of_bit: np.ndarray
    bit_of_sq: np.ndarray
    binom: np.ndarray


@lru_cache(maxsize=None)
def geometry(variant: Variant, pieces: int) -> Geometry:
    if not 2 <= pieces <= K.MAX_PIECES:
        raise ValueError(f"tables of 2 to {K.MAX_PIECES} pieces can be built, not {pieces}")
    params = np.zeros(K.P_COUNT, dtype=np.int64)
    params[K.P_SQUARES] = variant.squares
    params[K.P_WIDTH] = variant.row_width
    params[K.P_TOP_BIT] = _board.square_bit(variant, variant.squares)
    rule = endgame_rule(variant)  # the rule's numbers in plies, as the game record counts them
    params[K.P_ENDGAME] = rule.enabled
    params[K.P_THREE_PLIES] = rule.lone_vs_three_plies
    params[K.P_TWO_PLIES] = rule.lone_vs_two_plies
    params[K.P_DIAG_PLIES] = rule.main_diagonal_plies
    params[K.P_DIAG] = int(rule.main_diagonal)
    params[K.P_PIECES] = pieces
    sq_of_bit = np.full(64, -1, dtype=np.int64)
    bit_of_sq = np.zeros(variant.squares, dtype=np.int64)
    for s in range(variant.squares):
        b = _board.square_bit(variant, s + 1)
        sq_of_bit[b] = s
        bit_of_sq[s] = b
    binom = np.zeros((65, K.MAX_PIECES + 1), dtype=np.int64)
    for n in range(65):
        binom[n, 0] = 1
        for k in range(1, K.MAX_PIECES + 1):
            binom[n, k] = binom[n - 1, k - 1] + binom[n - 1, k] if n > 0 else 0
    out = Geometry(params, sq_of_bit, bit_of_sq, binom)
    for arr in out:
        arr.setflags(write=False)
    return out


def _materials(pieces: int) -> list[tuple[int, int, int, int]]:
    """Every material of 2..pieces pieces with a piece on each side, in build order: fewer pieces
    first, then fewer men (a crowning leads to fewer men), each slice next to its pair's other slice.
    A table of fewer pieces is a prefix of a larger one."""
    out = []
    for n in range(2, pieces + 1):
        for a in range(n + 1):
            for b in range(n + 1 - a):
                for c in range(n + 1 - a - b):
                    d = n - a - b - c
                    if a + b and c + d:
                        out.append((a, b, c, d))
    return sorted(out, key=lambda m: (sum(m), m[0] + m[2], min(m, (m[2], m[3], m[0], m[1])), m))


def _key(m) -> int:
    a, b, c, d = m
    return ((a * K.KEY_BASE + b) * K.KEY_BASE + c) * K.KEY_BASE + d


def _name(m) -> str:
    return "".join(map(str, m))


def _layout(variant: Variant, pieces: int) -> tuple[list, np.ndarray, int]:
    """(materials in order, offsets by key (-1: none), total positions)."""
    geo = geometry(variant, pieces)
    offsets = np.full(K.KEY_COUNT, -1, dtype=np.int64)
    total = 0
    mats = _materials(pieces)
    for m in mats:
        offsets[_key(m)] = total
        total += int(K.slice_size(_key(m), geo.params, geo.binom))
    offsets.setflags(write=False)
    return mats, offsets, total


def _paths(variant: Variant, directory: Path) -> dict[str, Path]:
    name = variant.name
    return {"info": directory / f"{name}.json", "wld": directory / f"{name}.wld", "dist": directory / f"{name}.dist",
            "parts": directory / f"{name}.parts"}


def _lock_path(directory: Path) -> Path:
    """The folder's build lock: one builder at a time in a folder, whatever it builds."""
    return directory / "build.lock"


def read_info(variant: Variant, directory: Path | str | None = None) -> dict | None:
    """The metadata of a finished table for ``variant`` built with this format and these rules, or None."""
    path = _paths(variant, egdb_dir(directory))["info"]
    try:
        info = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(info, dict) or info.get("format") != FORMAT or info.get("rules") != _rules_fingerprint(variant):
        return None
    return info


# --- building ----------------------------------------------------------------------------------


@contextlib.contextmanager
def _locked(path: Path) -> Iterator[None]:
    """Hold an exclusive lock on ``path`` (BuildBusyError when another process has it). The system
    lets it go when the process ends, however it ends."""
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            if sys.platform == "win32":
                import msvcrt

                msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            else:
                import fcntl

                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BuildBusyError(f"another process is building endgame tables in {path.parent}") from None
        yield
    finally:
        os.close(fd)


def _write_atomic(path: Path, data: bytes | np.ndarray) -> None:
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    with open(tmp, "wb") as f:
        if isinstance(data, np.ndarray):
            data.tofile(f)
        else:
            f.write(data)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)


def pack_wld(val: np.ndarray, chunk: int = 1 << 24) -> np.ndarray:
    """2 bits a position, 4 positions a byte, the first in the low bits (packed a chunk at a time, so
    the build's memory peak stays near the tables' own size; ``chunk`` a multiple of 4)."""
    assert chunk % 4 == 0
    out = np.zeros((len(val) + 3) // 4, dtype=np.uint8)
    for lo in range(0, len(val), chunk):
        part = val[lo:lo + chunk]
        padded = np.zeros((len(part) + 3) // 4 * 4, dtype=np.uint8)
        padded[: len(part)] = part
        quads = padded.reshape(-1, 4)
        out[lo // 4: lo // 4 + len(quads)] = quads[:, 0] | (quads[:, 1] << 2) | (quads[:, 2] << 4) | (quads[:, 3] << 6)
    return out


def unpack_wld(wld: np.ndarray, count: int) -> np.ndarray:
    out = np.empty((len(wld), 4), dtype=np.uint8)
    for i in range(4):
        out[:, i] = (wld >> (2 * i)) & 3
    return out.reshape(-1)[:count]


class _Work:
    """The kernels' work arrays for one build (move buffers)."""

    def __init__(self):
        self.scratch, self.capstk = new_scratch()
        self.mv_from = np.zeros(MAX_MOVES, dtype=np.int64)
        self.mv_to = np.zeros(MAX_MOVES, dtype=np.int64)
        self.mv_cap = np.zeros(MAX_MOVES, dtype=np.uint64)
        self.routes = np.zeros((1, MAX_PATH), dtype=np.int64)
        self.route_len = np.zeros(1, dtype=np.int64)

    def moves(self) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
        return self.scratch, self.capstk, self.mv_from, self.mv_to, self.mv_cap, self.routes, self.route_len


def _solve(variant: Variant, geo: Geometry, k1: int, k2: int, offsets, val, dist, work: _Work) -> int:
    """Solve one pair in place; returns the passes run."""
    rules, masks, nbr, _ = _board.layout(variant)
    n1 = int(K.slice_size(k1, geo.params, geo.binom))
    size = n1 + (int(K.slice_size(k2, geo.params, geo.binom)) if k2 != k1 else 0)
    cnt = np.zeros(size, dtype=np.uint8)
    xw = np.full(size, K.NO_DIST, dtype=np.uint16)
    xl = np.zeros(size, dtype=np.uint16)
    can_lose = np.zeros(size, dtype=np.bool_)
    K.init_pair(k1, k2, offsets, val, dist, cnt, xw, xl, can_lose, geo.params, rules, masks, nbr, geo.sq_of_bit,
                geo.bit_of_sq, geo.binom, *work.moves())
    passes = K.solve_pair(k1, k2, offsets, val, dist, cnt, xw, xl, can_lose, geo.params, rules, masks, nbr,
                          geo.sq_of_bit, geo.bit_of_sq, geo.binom)
    if passes < 0:
        raise OverflowError(f"{variant.name} slice {k1}: a distance longer than {K.MAX_DIST} plies")
    return int(passes)


def build(variant: Variant, pieces: int | None = None, directory: Path | str | None = None,
          progress: Callable[[str], None] | None = None) -> dict:
    """Build (or finish, or extend) the tables of ``variant`` up to ``pieces`` pieces in ``directory``
    (default: the cache). Returns the metadata. Does nothing when a table of as many pieces exists.
    Raises BuildBusyError when another process is building tables in that folder."""
    if not supports(variant):
        raise ValueError(f"no endgame tables for {variant.title}: the solver doesn't count its endgame rules")
    folder = egdb_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    with _locked(_lock_path(folder)):
        return _build_locked(variant, pieces, folder, progress)


def _build_locked(variant: Variant, pieces: int | None, folder: Path, progress: Callable[[str], None] | None) -> dict:
    """:func:`build` with the folder's lock held."""
    pieces = DEFAULT_PIECES[variant.name] if pieces is None else pieces
    geo = geometry(variant, pieces)
    say = progress or (lambda text: None)
    paths = _paths(variant, folder)
    for stale in folder.glob(f"{variant.name}.*.tmp*"):  # a build ended midway (killed) left them
        stale.unlink(missing_ok=True)
    old = read_info(variant, folder)
    if old is not None and old["pieces"] >= pieces:
        say(f"{variant.name}: {old['pieces']}-piece tables already built")
        return old
    started = time.perf_counter()
    mats, offsets, total = _layout(variant, pieces)
    val = np.zeros(total, dtype=np.uint8)
    dist = np.zeros(total, dtype=np.uint8)
    done = 0  # positions already solved by a smaller finished table (a prefix of this one)
    if old is not None:
        done = int(old["positions"])
        val[:done] = unpack_wld(np.fromfile(paths["wld"], dtype=np.uint8), done)
        dist[:done] = np.fromfile(paths["dist"], dtype=np.uint8, count=done)
    parts = paths["parts"]
    stamp = {"format": FORMAT, "rules": _rules_fingerprint(variant)}
    if parts.exists() and _read_json(parts / "stamp.json") != stamp:
        shutil.rmtree(parts)
    parts.mkdir(exist_ok=True)
    _write_atomic(parts / "stamp.json", json.dumps(stamp).encode())
    work = _Work()
    seen: set[int] = set()
    pairs = []
    for m in mats:
        k1 = _key(m)
        if k1 in seen:
            continue
        k2 = _key((m[2], m[3], m[0], m[1]))
        seen.update((k1, k2))
        pairs.append((m, k1, k2))
    slices = []
    for number, (m, k1, k2) in enumerate(pairs, start=1):
        lo = int(offsets[k1])
        size = sum(int(K.slice_size(k, geo.params, geo.binom)) for k in {k1, k2})
        hi = lo + size
        assert k2 == k1 or offsets[k2] == lo + int(K.slice_size(k1, geo.params, geo.binom)), "pair not adjacent"
        part = parts / f"{_name(m)}.npy"
        t0 = time.perf_counter()
        if hi <= done:
            how = "kept"
        elif part.exists() and _load_part(part, size) is not None:
            val[lo:hi], dist[lo:hi] = _load_part(part, size)
            how = "resumed"
        else:
            passes = _solve(variant, geo, k1, k2, offsets, val, dist, work)
            with open(part.with_suffix(".tmp"), "wb") as f:
                np.save(f, np.stack([val[lo:hi], dist[lo:hi]]))
            os.replace(part.with_suffix(".tmp"), part)
            how = f"solved in {time.perf_counter() - t0:.1f} s, {passes} passes"
        seconds = time.perf_counter() - t0
        for k in sorted({k1, k2}):
            a, b, c, d = (int(x) for x in K.key_material(k))
            s_lo = int(offsets[k])
            s_hi = s_lo + int(K.slice_size(k, geo.params, geo.binom))
            counts = np.bincount(val[s_lo:s_hi], minlength=4)
            decided = dist[s_lo:s_hi][val[s_lo:s_hi] != K.V_DRAW]
            slices.append({"material": _name((a, b, c, d)), "offset": s_lo, "size": s_hi - s_lo,
                           "wins": int(counts[K.V_WIN]), "losses": int(counts[K.V_LOSS]),
                           "draws": int(counts[K.V_DRAW]), "invalid": int(counts[K.V_INVALID]),
                           "longest": int(decided.max()) if len(decided) else 0,
                           "group": int(K.key_group(k, geo.params)), "seconds": round(seconds, 2)})
        say(f"{variant.name} {pieces} pieces: pair {number}/{len(pairs)} {_name(m)}: {size:,} positions, {how}")
    wld = pack_wld(val)
    _write_atomic(paths["wld"], wld)
    _write_atomic(paths["dist"], dist)
    seconds = time.perf_counter() - started + (old["seconds"] if old else 0.0)
    info = {"format": FORMAT, "variant": variant.name, "rules": _rules_fingerprint(variant), "pieces": pieces,
            "positions": total, "wld_bytes": int(wld.nbytes), "dist_bytes": int(dist.nbytes),
            "seconds": round(seconds, 1), "built": time.strftime("%Y-%m-%d %H:%M:%S"), "slices": slices}
    _write_atomic(paths["info"], json.dumps(info, indent=1).encode())
    shutil.rmtree(parts, ignore_errors=True)
    say(f"{variant.name}: {pieces}-piece tables built, {total:,} positions, {wld.nbytes + dist.nbytes:,} bytes, "
        f"{seconds:.1f} s")
    return info


def _read_json(path: Path):
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None


def _load_part(path: Path, size: int):
    try:
        data = np.load(path)
    except (OSError, ValueError):
        return None
    if data.shape != (2, size) or data.dtype != np.uint8:
        return None
    return data[0], data[1]


# --- loading and probing ------------------------------------------------------------------------


@dataclass(frozen=True)
class Probe:
    """A table's answer for the side to move: ``value`` 'win', 'loss' or 'draw'; ``plies`` the
    distance (see the module docstring), None for a draw."""

    value: str
    plies: int | None


@lru_cache(maxsize=None)
def no_tables() -> TableArrays:
    """What the search kernel gets when there are no tables: arrays of the same types (so nothing is
    compiled again) holding no piece count, so it never probes."""
    arrays = TableArrays(np.zeros(K.P_COUNT, dtype=np.int64), np.full(K.KEY_COUNT, -1, dtype=np.int64),
                         np.zeros(64, dtype=np.int64), np.zeros((65, K.MAX_PIECES + 1), dtype=np.int64),
                         np.zeros(1, dtype=np.uint8), np.zeros(1, dtype=np.uint8))
    for arr in arrays:
        arr.setflags(write=False)
    return arrays


TableArrays = K.TableArrays


class Tables:
    """A variant's finished tables, memory-mapped read-only (pages are read on first touch and shared
    by every process that maps them)."""

    def __init__(self, variant: Variant, info: dict, wld: np.ndarray, dist: np.ndarray):
        self.variant = variant
        self.info = info
        self.pieces = int(info["pieces"])
        geo = geometry(variant, self.pieces)
        _, offsets, total = _layout(variant, self.pieces)
        if total != info["positions"] or len(wld) != (total + 3) // 4 or len(dist) != total:
            raise ValueError(f"{variant.name} endgame tables have the wrong size")
        self.arrays = TableArrays(geo.params, offsets, geo.sq_of_bit, geo.binom, wld, dist)

    @property
    def is_group_rule(self) -> bool:
        return bool(self.variant.endgame_rule)

    def fresh_count(self, position: Position) -> int | None:
        """The plies a Game starting at ``position`` would have on its endgame count (None: no count)."""
        return self._count_after(NO_GROUP, NO_LIMIT, True, position)

    def _count_after(self, group: int, draw_at: int, irreversible: bool, position: Position) -> int | None:
        """Plies left on the count at ``position``, reached a ply after one whose count was (group,
        draw_at) counted from that ply: the game record's own kernel (``_draws.endgame_after``)."""
        new_group, new_draw_at = endgame_after(group, draw_at, 1, irreversible, np.uint64(position.white),
                                               np.uint64(position.black), np.uint64(position.kings),
                                               endgame_rule(self.variant))
        return None if new_group == NO_GROUP else int(new_draw_at) - 1

    def probe(self, position: Position, plies_left: int | None = None) -> Probe | None:
        """The value of ``position`` for its side to move, None when it isn't in the tables.
        ``plies_left``: plies left on the endgame rule's count (International); None means the count
        a game starting here would have (``Game.plies_until_draw`` is the number during a game)."""
        if position.variant != self.variant:
            raise ValueError(f"{position.variant.name} position given to {self.variant.name} tables")
        value, plies = self._probe_raw(position, plies_left)
        if value < 0:
            return None
        return Probe(VALUES[value], None if value == K.V_DRAW else plies)

    def _probe_raw(self, position: Position, plies_left: int | None) -> tuple[int, int]:
        if plies_left is None:
            plies_left = self.fresh_count(position) or 0
        a = self.arrays
        value, plies = K.probe(np.uint64(position.white), np.uint64(position.black), np.uint64(position.kings),
                               int(position.turn), int(plies_left), True, a.params, a.offsets, a.sq_of_bit, a.binom,
                               a.wld, a.dist)
        return int(value), int(plies)

    def contains(self, position: Position) -> bool:
        return self.probe(position, 0) is not None

    def child_count(self, position: Position, move: Move, plies_left: int | None) -> int | None:
        """The plies left on the endgame count after ``move`` in ``position``, which had ``plies_left``
        (None: the count a game starting at ``position`` would have), as the game record counts them;
        None where no count runs."""
        if plies_left is None:
            plies_left = self.fresh_count(position)
        group, _ = endgame_group(np.uint64(position.white), np.uint64(position.black), np.uint64(position.kings))
        draw_at = NO_LIMIT if plies_left is None or group == NO_GROUP else plies_left
        piece = position.piece_at(move.start)
        irreversible = move.is_capture or (piece is not None and not piece.king)
        return self._count_after(int(group), draw_at, irreversible, position.play(move))

    def move_values(self, position: Position, plies_left: int | None = None) -> list[tuple[Move, Probe]]:
        """Every legal move with the value it leaves the opponent: the child's probe, with the count the
        child would have."""
        out = []
        for move in position.legal_moves():
            child = position.play(move)
            if not child.legal_moves():
                out.append((move, Probe("loss", 0)))
                continue
            probe = self.probe(child, self.child_count(position, move, plies_left) or 0)
            assert probe is not None, f"child {child.fen()} of a table position is not in the tables"
            out.append((move, probe))
        return out

    def best_move(self, position: Position, plies_left: int | None = None) -> tuple[Move, Probe] | None:
        """The tables' move: the fastest win, else a drawing move (the first), else the longest loss;
        with the value for the side to move. None when the position isn't in the tables or has no move."""
        if self.probe(position, plies_left) is None or not position.legal_moves():
            return None
        best: tuple[tuple[int, int], Move, Probe] | None = None
        for move, child in self.move_values(position, plies_left):
            # the mover's result: a child lost in n plies is our win in n + 1, and so on
            plies = child.plies or 0
            if child.value == "loss":
                key, mine = (2, -plies), Probe("win", plies + 1)
            elif child.value == "draw":
                key, mine = (1, 0), Probe("draw", None)
            else:
                key, mine = (0, plies), Probe("loss", plies + 1)
            if best is None or key > best[0]:
                best = (key, move, mine)
        assert best is not None
        return best[1], best[2]


def warm_up() -> None:
    """Compile, or load from numba's cache, the kernels that loading and probing the tables run from
    Python (``slice_size``, ``probe``, and ``endgame_group`` for the count after a table move), with the
    argument types they get then: the engine's worker does this before it says it is ready, so that
    tables found later cost it no compiling (a process that compiled keeps numba's compiler, tens of
    MB), and no loading either (which runs LLVM, whose code the worker has handed back by then)."""
    arrays = no_tables()
    K.slice_size(_key((1, 0, 0, 1)), arrays.params, arrays.binom)
    K.probe(np.uint64(1), np.uint64(2), np.uint64(0), 0, 0, True, *arrays)
    endgame_group(np.uint64(1), np.uint64(2), np.uint64(0))


_loaded: dict[tuple[str, str], Tables] = {}
_loaded_lock = threading.Lock()


def load(variant: Variant, directory: Path | str | None = None) -> Tables | None:
    """The finished tables of ``variant`` (memory-mapped, cached per process), or None when there are
    none (not built, an older format, other rules, a broken file)."""
    folder = egdb_dir(directory)
    with _loaded_lock:
        key = (variant.name, str(folder))
        info = read_info(variant, folder)
        cached = _loaded.get(key)
        if cached is not None and info is not None and cached.info == info:
            return cached
        if info is None:
            return None
        paths = _paths(variant, folder)
        try:
            wld = np.asarray(np.memmap(paths["wld"], dtype=np.uint8, mode="r"))
            dist = np.asarray(np.memmap(paths["dist"], dtype=np.uint8, mode="r"))
            tables = Tables(variant, info, wld, dist)
        except (OSError, ValueError):
            return None
        _loaded[key] = tables
        return tables


def verify(variant: Variant, directory: Path | str | None = None, progress: Callable[[str], None] | None = None) -> int:
    """Check every position of the finished tables against its children (one ply of minimax with the
    endgame rule). Returns the number of positions that disagree (0 for correct tables)."""
    info = read_info(variant, directory)
    if info is None:
        raise ValueError(f"no {variant.name} endgame tables in {egdb_dir(directory)}")
    paths = _paths(variant, egdb_dir(directory))
    pieces = int(info["pieces"])
    geo = geometry(variant, pieces)
    mats, offsets, total = _layout(variant, pieces)
    val = unpack_wld(np.fromfile(paths["wld"], dtype=np.uint8), total)
    dist = np.fromfile(paths["dist"], dtype=np.uint8)
    rules, masks, nbr, _ = _board.layout(variant)
    work = _Work()
    first = np.zeros(1, dtype=np.int64)
    bad_total = 0
    for m in mats:
        bad = int(K.verify_slice(_key(m), offsets, val, dist, geo.params, rules, masks, nbr, geo.sq_of_bit,
                                 geo.bit_of_sq, geo.binom, *work.moves(), first))
        bad_total += bad
        if progress:
            progress(f"{variant.name} {_name(m)}: {'ok' if bad == 0 else f'{bad} wrong, first index {first[0]}'}")
    return bad_total


def position_at(variant: Variant, material: str, index: int, pieces: int = K.MAX_PIECES) -> Position | None:
    """The position (White to move, normal form) of ``index`` in slice ``material`` ('2101'), or None
    for an index no position has. For tests and for reading the tables."""
    geo = geometry(variant, pieces)
    m = tuple(int(ch) for ch in material)
    w, b, k, ok = K.decode(_key(m), index, geo.params, geo.bit_of_sq, geo.binom)
    if not ok:
        return None
    from .variants import Color

    return Position(variant, int(w), int(b), int(k), Color.WHITE)


def slice_size(variant: Variant, material: str) -> int:
    geo = geometry(variant, K.MAX_PIECES)
    return int(K.slice_size(_key(tuple(int(ch) for ch in material)), geo.params, geo.binom))


# --- in the background --------------------------------------------------------------------------


def autobuild_allowed() -> bool:
    return os.environ.get(AUTOBUILD_ENV, "1").strip().lower() not in ("0", "no", "off", "false")


def missing(directory: Path | str | None = None) -> list[str]:
    """The variants whose default tables are not built."""
    out = []
    for name, variant in VARIANTS.items():
        info = read_info(variant, directory)
        if info is None or info["pieces"] < DEFAULT_PIECES[name]:
            out.append(name)
    return out


def build_in_background(directory: Path | str | None = None, busy_wait_s: float = 3.0) -> None:
    """What ``python -m engine egdb build --background`` runs: at low priority, build the missing
    default tables one variant after another, ending the moment the process that started it ends
    (``lifeline``: however that one ends, whatever the build is doing; a resumable build loses
    nothing). One build at a time in a folder: while another holds its lock (a game's build, or one
    that a restarted engine process's predecessor started and is ending) this waits ``busy_wait_s``
    seconds for it, then leaves the building to it."""
    from .lifeline import end_with_parent

    end_with_parent()
    with contextlib.suppress(OSError, AttributeError):
        os.nice(10)
    folder = egdb_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    deadline = time.monotonic() + busy_wait_s
    while True:
        try:
            with _locked(_lock_path(folder)):
                for name in missing(folder):
                    _build_locked(VARIANTS[name], None, folder, lambda text: print(text, flush=True))
            return
        except BuildBusyError:
            if time.monotonic() >= deadline:
                print(f"another process is building the endgame tables in {folder}", flush=True)
                return
            time.sleep(0.2)


def start_background_build(directory: Path | str | None = None) -> subprocess.Popen | None:
    """Start building the missing default tables in a low-priority child process (``python -m engine
    egdb build --background``; a plain subprocess, as the engine's worker is a daemon process, which
    multiprocessing doesn't let have children) unless ``CHECKERS3D_EGDB_AUTOBUILD`` is 0 or nothing is
    missing. Its progress goes to ``build.log`` next to the tables. It ends when the calling process
    ends (see :func:`build_in_background`). Returns the process, or None. The caller plays on;
    :func:`load` finds the tables once they are written."""
    if not autobuild_allowed() or not missing(directory):
        return None
    folder = egdb_dir(directory)
    folder.mkdir(parents=True, exist_ok=True)
    command = [sys.executable, "-m", "engine", "egdb", "build", "--background"]
    if directory is not None:
        command += ["--dir", str(directory)]
    from .lifeline import parent_env

    with open(folder / "build.log", "ab") as log:
        return subprocess.Popen(command, stdin=subprocess.DEVNULL, stdout=log, stderr=subprocess.STDOUT,
                                env=parent_env())

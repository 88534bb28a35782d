"""Matches between two engine configurations: how search and evaluation changes are judged.

Each opening is played twice with colours swapped, every game to its end under the Game record's
rules (no moves, repetition, the 40/25-move rule, the endgame rule). The players make and answer no
draw offers, so a draw is always one the rules declare. A game still going after ``max_plies`` plies
is adjudicated a draw (a safety net: the move-limit rules end real games long before). A match with
more pairs than openings (157 American ballots) plays the set again with one seeded random move added
to each, then two, and so on: players without randomness would otherwise play the same games again.

Resign adjudication (off unless ``--resign SCORE`` is given, as cutechess-cli's ``-resign``): a game
is scored as won once both players' searches have agreed for ``--resign-moves`` moves each in a row
that one side is ahead by at least SCORE centi-men (each player's own score, from its own side). It
spares the minutes a clearly won ending takes to play out; a random move (Easy) breaks the streak.

Endings (``--endings N``): instead of the opening set, the games start from endgame positions with at
most N pieces, made from the openings by a shallow seeded self-play (see :func:`endgame_starts`), to
judge endgame play (such as the endgame tables) where it decides games. Each is played with colours
swapped too; "first" is then the side to move in the start position.

Scoring (as cutechess-cli and fishtest's trinomial model do it), from A's side over N games with W
wins, D draws and L losses:

    score  s = (W + D/2) / N
    Elo    E(s) = 400 * log10(s / (1 - s))               (the logistic Elo model)
    per-game variance  v = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N
    95% interval of s:  s +- 1.959964 * sqrt(v / N)
    margin = (E(s_high) - E(s_low)) / 2                    (E at both ends, clipped to (0, 1))

A margin is "inf" when an end of the interval reaches 0 or 1 (all wins, all losses, tiny samples).
The summary also counts the opening pairs by A's points in them (the pentanomial 0, 1/2, 1, 3/2, 2).

SPRT (``--sprt ELO0,ELO1``, see ``engine.sprt``): after each finished pair the GSPRT's LLR is
compared with its bounds and the match stops at the first verdict; ``--games`` is the most it plays.

Outside engines: a player ``hub=COMMAND`` is a program speaking Scan's Hub protocol (dame-rs's
``dame hub``, Scan, ``python -m engine hub`` of another checkout), driven by ``engine.hubclient``:
started once per match process and kept for all its games, told the variant, a ``new-game`` before
each game, the whole game's moves before each ``go``, and the player's limits as Hub's ``level``
(``movetime=1.5`` -> ``level move-time=1.5``). An engine that dies is started again and asked again;
one that fails twice on a move, or names an illegal move, forfeits the game (reason "forfeit", the
cause in ``note``). ``tools/hub_level.py`` serves a checkout's computer level (Hard's ``choose_move``,
not a plain timed search) the same way, for matches against an older version.
"""

from __future__ import annotations

import argparse
import atexit
import functools
import json
import math
import multiprocessing
import os
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass

import numpy as np

from .game import Game
from .lifeline import end_with_parent
from .openings import openings_for
from .position import IllegalMoveError, Move, Position
from .sprt import Sprt, pentanomial
from .variants import ALL_VARIANTS, Color, Variant

Z95 = 1.959964  # two-sided 95% quantile of the normal distribution
DEFAULT_MAX_PLIES = 400
DEFAULT_TT_MB = 16  # per player; a match runs two players per process
DEFAULT_RESIGN_MOVES = 4


@dataclass(frozen=True)
class Player:
    """A configuration: a level of the specification, or explicit limits (depth, movetime in seconds,
    nodes), with a transposition table of ``tt_mb`` megabytes and optionally other evaluation weights:
    ``weights`` names a JSON file holding ``{"american": [...], "international": [...]}`` (variant
    names from the table, any of them), each a full weight vector (``engine._eval``: the opening row, then the ending row).
    ``egdb``: use the endgame tables (``engine.egdb``; they must be built: a match never builds them).
    ``net``: a network weights file (``engine.network``) to evaluate with, or ``off`` for the linear
    evaluation (default: what the package ships for the variant). ``threads``: search threads (lazy
    SMP, see ``engine.search.Searcher``; default 1, as a match usually plays two games at once).

    A level plays its opening book unless ``book`` is False; ``movetime`` with a timed level (Hard)
    replaces its budget, so Hard's own time use can be matched at shorter time controls.

    Or an outside engine: ``hub`` is the command line of a program speaking the Hub protocol (see
    ``engine.hubclient``), started in ``cwd`` (default: the current directory); its limits, if any,
    go to it as Hub's ``level`` (``move-time``, ``depth``, ``nodes``)."""

    level: str | None = None
    depth: int | None = None
    movetime: float | None = None
    nodes: int | None = None
    tt_mb: int = DEFAULT_TT_MB
    weights: str | None = None
    egdb: bool = False
    net: str | None = None
    hub: str | None = None
    cwd: str | None = None
    book: bool = True
    threads: int = 1

    @classmethod
    def parse(cls, text: str) -> "Player":
        """From ``level=hard``, ``depth=6``, ``movetime=0.1``, ``nodes=20000`` or several joined by
        commas (``depth=8,movetime=0.5``), plus ``tt=MB``, ``weights=FILE``, ``net=FILE`` or ``net=off``, ``egdb=on``,
        ``threads=N``; a bare
        ``hard`` means ``level=hard``; ``level=hard,movetime=0.3`` is Hard with a 0.3 s budget,
        ``book=off`` a level without its book. ``hub=COMMAND`` (no commas in it) with optional limits
        and ``dir=PATH`` is an outside engine."""
        from .search import LEVELS

        fields: dict = {}
        for item in (p.strip() for p in text.split(",")):
            if not item:
                continue
            key, sep, value = item.partition("=")
            key = key.strip().lower()
            if not sep and key in LEVELS:
                key, value = "level", key
            try:
                if key == "level":
                    if value not in LEVELS:
                        raise ValueError
                    fields["level"] = value
                elif key == "depth":
                    fields["depth"] = int(value)
                elif key == "movetime":
                    fields["movetime"] = float(value)
                elif key == "nodes":
                    fields["nodes"] = int(value)
                elif key == "tt":
                    fields["tt_mb"] = int(value)
                elif key == "threads":
                    fields["threads"] = int(value)
                    if fields["threads"] < 1:
                        raise ValueError
                elif key == "weights":
                    fields["weights"] = value  # read (and checked) below, with its own messages
                elif key == "net":
                    if not value.strip():
                        raise ValueError
                    fields["net"] = value.strip()
                elif key == "egdb":
                    switch = {"on": True, "1": True, "yes": True, "off": False, "0": False, "no": False}
                    if value.strip().lower() not in switch:
                        raise ValueError
                    fields["egdb"] = switch[value.strip().lower()]
                elif key == "hub":
                    if not value.strip():
                        raise ValueError
                    fields["hub"] = value.strip()
                elif key == "dir":
                    fields["cwd"] = value.strip()
                elif key == "book":
                    fields["book"] = {"on": True, "off": False}[value.strip().lower()]
                else:
                    raise KeyError
            except KeyError:
                if key == "book":
                    raise ValueError(f"bad player {text!r}: book= takes on or off") from None
                raise ValueError(f"bad player {text!r}: unknown setting {key!r} (use level=, depth=, movetime=, "
                                 "nodes=, tt=, weights=, net=, egdb=, book=, threads=, hub=, dir=)") from None
            except ValueError:
                raise ValueError(f"bad player {text!r}: {item!r} has a bad value"
                                 f"{' (levels: ' + ', '.join(LEVELS) + ')' if key == 'level' else ''}") from None
        if "hub" in fields:
            extra = sorted(set(fields) & {"level", "tt_mb", "weights", "net", "egdb", "book", "threads"})
            if extra:
                raise ValueError(f"bad player {text!r}: an outside engine (hub=) takes depth=, movetime=, nodes= "
                                 f"and dir= only, not {', '.join(extra)}")
            return cls(**fields)
        if "cwd" in fields:
            raise ValueError(f"bad player {text!r}: dir= goes with hub=")
        if "weights" in fields:
            _load_weights(fields["weights"])
        player = cls(**fields)
        if player.level is None and player.depth is None and player.movetime is None and player.nodes is None:
            raise ValueError(f"bad player {text!r}: give a level or at least one of depth=, movetime=, nodes=")
        if player.level is not None and (player.depth or player.nodes):
            raise ValueError(f"bad player {text!r}: a level sets its own limits; give a level or limits, not both")
        if player.movetime is not None and player.level is not None and LEVELS[player.level].movetime is None:
            raise ValueError(f"bad player {text!r}: movetime= goes with a timed level (hard) only")
        if not player.book and player.level is None:
            raise ValueError(f"bad player {text!r}: book= goes with a level")
        return player

    def __str__(self) -> str:
        items = [f"{k}={v}" for k, v in asdict(self).items()
                 if v is not None and k not in ("tt_mb", "book", "threads") and v is not False]
        if self.threads != 1:
            items.append(f"threads={self.threads}")
        if not self.book:
            items.append("book=off")
        return ",".join(items)


def _load_weights(path: str) -> dict[str, tuple[int, ...]]:
    """The weight vectors of a ``weights=`` file, checked against each variant's feature count (a file
    of engine/weights, or one that maps several variant names to vectors; the notes of engine/weights
    are notes)."""
    from ._eval import check_weights

    try:
        with open(path, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, json.JSONDecodeError) as err:
        raise ValueError(f"can't read weights file {path!r}: {err}") from None
    if not isinstance(data, dict):
        data = {}
    vectors = {name: vector for name, vector in data.items() if name not in _WEIGHT_NOTES}
    if not vectors or set(vectors) - set(ALL_VARIANTS):
        raise ValueError(f"weights file {path!r} must map variant names ({', '.join(ALL_VARIANTS)}) to weight lists")
    return {name: check_weights(ALL_VARIANTS[name], vector, f"weights file {path!r}") for name, vector in vectors.items()}


_WEIGHT_NOTES = ("command", "data", "positions", "scale", "features")  # keys of a weights file that hold no weights


# --- scoring ------------------------------------------------------------------------------------


def elo(score: float) -> float:
    """Elo difference of a score fraction under the logistic model; +-inf at 1 and 0."""
    if score <= 0.0:
        return -math.inf
    if score >= 1.0:
        return math.inf
    return 400.0 * math.log10(score / (1.0 - score))


def elo_with_margin(wins: int, draws: int, losses: int) -> tuple[float, float]:
    """(Elo difference, half-width of its 95% interval) from A's results; see the module doc."""
    n = wins + draws + losses
    if n == 0:
        raise ValueError("no games played")
    s = (wins + draws / 2) / n
    variance = (wins * (1 - s) ** 2 + draws * (0.5 - s) ** 2 + losses * s ** 2) / n
    half = Z95 * math.sqrt(variance / n)
    low, high = s - half, s + half
    if low <= 0.0 or high >= 1.0:
        return elo(s), math.inf
    return elo(s), (elo(high) - elo(low)) / 2


# --- playing ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class GameResult:
    """One game: ``a_first`` says whether A had the first move (Black in American checkers, White in
    International draughts); ``points`` are A's (1, 0.5 or 0). ``a_seconds``/``b_seconds``: each
    player's thinking time in the game over its ``a_moves``/``b_moves`` moves, ``a_max_seconds``/``b_max_seconds``
    its longest move (wall time, the outside engine's measured from ``go`` to ``done``). ``note`` says why a game was
    forfeited (an outside engine that died twice on one move or named an illegal move)."""

    index: int
    opening: str
    a_first: bool
    result: str  # 'white', 'black' or 'draw'
    reason: str  # an Outcome reason, 'adjudicated' (a draw at max_plies), 'resigned' or 'forfeit'
    plies: int
    points: float
    moves: str
    a_seconds: float = 0.0
    b_seconds: float = 0.0
    a_max_seconds: float = 0.0
    b_max_seconds: float = 0.0
    note: str = ""
    a_moves: int = 0
    b_moves: int = 0


_engines: dict = {}  # per process: a Searcher or HubClient per (side, player, variant), made once


def _engine(side: str, player: Player, variant: Variant):
    """The player's Searcher, or its outside engine's HubClient (started once per process and kept
    for every game; closed when the process ends)."""
    key = (side, player, variant.name)
    if key not in _engines:
        if player.hub is not None:
            from .hubclient import HubClient

            client = HubClient(player.hub, variant, player.cwd)
            client.start()
            _engines[key] = client
        else:
            from .search import Searcher

            weights = _load_weights(player.weights) if player.weights else None
            nets = {variant.name: player.net} if player.net else None
            searcher = Searcher(tt_size_mb=player.tt_mb, weights=weights, endgame_tables=player.egdb, nets=nets,
                                threads=player.threads)
            searcher.warm_up()
            _engines[key] = searcher
    return _engines[key]


def _close_hub_engines() -> None:
    """Close this process's outside engines (the Searchers stay for the next match)."""
    for key, engine in list(_engines.items()):
        if hasattr(engine, "close"):
            engine.close()
            del _engines[key]


atexit.register(_close_hub_engines)  # a match worker process closes its engines when it ends


def _move(engine, player: Player, game: Game, rng) -> tuple[Move, int | None]:
    """The player's move and its score (centi-men, the mover's view; None for a random move or an
    outside engine that gave none)."""
    from .search import Limits, choose_move

    if player.hub is not None:
        from .hubclient import HubLevel

        reply = engine.play(game, HubLevel(player.movetime, player.depth, player.nodes))
        return reply.move, reply.score
    if player.level is not None:
        found = choose_move(engine, game, player.level, rng, use_book=player.book, movetime=player.movetime)
    else:
        found = engine.search(game, Limits(depth=player.depth, movetime=player.movetime, nodes=player.nodes))
    return found.move, None if found.depth == 0 else found.score


def _resigning(scores: list, resign: int, moves: int):
    """Which player both agree has lost, "first" or "second" (to move in the game): the last
    ``moves`` scores of each, all from the first player's view, are at most ``-resign`` (or all at
    least ``resign``: the second player lost). None while they don't agree."""
    recent = scores[-2 * moves:]
    if len(recent) < 2 * moves or any(s is None for s in recent):
        return None
    if all(s >= resign for s in recent):
        return "second"
    if all(s <= -resign for s in recent):
        return "first"
    return None


def play_game(variant: Variant, opening: str, a: Player, b: Player, a_first: bool, index: int, seed: int,
              max_plies: int = DEFAULT_MAX_PLIES, resign: int | None = None,
              resign_moves: int = DEFAULT_RESIGN_MOVES) -> GameResult:
    """Play the opening's moves (or start from ``opening`` when it is a FEN), then A and B in turn
    until the Game record ends the game (or, with ``resign``, until both agree one side is lost: see
    the module docstring). A player whose outside engine fails for good or names an illegal move
    forfeits the game."""
    from .hubclient import HubEngineError

    if opening.split(":", 1)[0].strip().upper() in ("W", "B"):  # a FEN (a move such as Russian b4:d6 has a colon too)
        game = Game(variant, Position.from_fen(variant, opening))
        first = game.turn
    else:
        game = Game(variant)
        for text in opening.split():
            game.play(text)
        first = variant.first_player
    engines = {"a": _engine("a", a, variant), "b": _engine("b", b, variant)}
    for e in engines.values():
        e.new_game()  # each game starts with an empty table, so a game depends only on its seed
    rng = random.Random(seed)
    scores: list[int | None] = []  # each searched move's score from the first player's view
    seconds = {"a": [0.0], "b": [0.0]}
    loser, note = None, ""
    while not game.is_over and game.ply < max_plies and loser is None:
        first_to_move = game.turn is first
        key, player = ("a", a) if first_to_move == a_first else ("b", b)
        started = time.perf_counter()
        try:
            move, score = _move(engines[key], player, game, rng)
        except (HubEngineError, IllegalMoveError) as err:
            loser, note = ("first" if first_to_move else "second"), f"{key.upper()} forfeits: {err}"
            break
        seconds[key].append(time.perf_counter() - started)
        game.play(move)
        scores.append(None if score is None else score if first_to_move else -score)
        if resign:
            loser = _resigning(scores, resign, resign_moves)
    outcome = game.outcome
    if outcome:
        result, reason = outcome.result, outcome.reason.value
    elif loser:
        result, reason = (first.opponent if loser == "first" else first).label, "forfeit" if note else "resigned"
    else:
        result, reason = "draw", "adjudicated"
    a_color = first if a_first else first.opponent
    points = 0.5 if result == "draw" else float(result == Color(a_color).label)
    moves = " ".join(pos.move_text(m) for pos, m in zip(game.positions, game.moves, strict=False))
    return GameResult(index, opening, a_first, result, reason, game.ply, points, moves,
                      round(sum(seconds["a"]), 3), round(sum(seconds["b"]), 3), round(max(seconds["a"]), 3),
                      round(max(seconds["b"]), 3), note, len(seconds["a"]) - 1, len(seconds["b"]) - 1)


ENDINGS_DEPTH = 4  # the self-play that makes endgame starts
ENDINGS_RANDOM_SHARE = 0.25  # of its moves played at random, for variety
ENDINGS_CHECK_DEPTH = 8  # a start is kept when a search this deep scores it within ENDINGS_MAX_SCORE
ENDINGS_MAX_SCORE = 150


def endgame_starts(variant: Variant, pieces: int, count: int, seed: int = 1) -> list[str]:
    """``count`` endgame start positions (FEN) of ``variant`` with ``pieces - 2`` to ``pieces`` pieces:
    from the openings in a seeded order, a depth-4 self-play with a quarter of its moves random runs
    until the board has at most that many pieces and the side to move has no capture; the position is
    kept when no side is clearly ahead (a depth-8 search within 150 centi-men) and it is new.
    Deterministic."""
    from .search import Limits, Searcher

    searcher = Searcher(tt_size_mb=16)
    book = openings_for(variant)
    rng = random.Random(seed)
    order = np.random.default_rng(seed).permutation(len(book))
    out: list[str] = []
    seen = set()
    attempt = 0
    while len(out) < count and attempt < 50 * count:
        game = Game(variant)
        for text in book[int(order[attempt % len(book)])].split():
            game.play(text)
        attempt += 1
        searcher.new_game()
        while not game.is_over and game.ply < DEFAULT_MAX_PLIES:
            pos = game.position
            if (pos.white | pos.black).bit_count() <= pieces and not pos.has_capture():
                break
            if rng.random() < ENDINGS_RANDOM_SHARE:
                game.play(rng.choice(pos.legal_moves()))
            else:
                game.play(searcher.search(game, Limits(depth=ENDINGS_DEPTH)).move)
        pos = game.position
        on_board = (pos.white | pos.black).bit_count()
        if game.is_over or pos in seen or not pieces - 2 <= on_board <= pieces:
            continue
        searcher.new_game()
        if abs(searcher.search(Game(variant, pos), Limits(depth=ENDINGS_CHECK_DEPTH)).score) <= ENDINGS_MAX_SCORE:
            seen.add(pos)
            out.append(pos.fen())
    return out


def match_openings(variant: Variant, pairs: int, seed: int, endings: int | None = None) -> list[str]:
    """The openings of a match's ``pairs`` game pairs (see :func:`run_match`)."""
    book = openings_for(variant) if endings is None else tuple(endgame_starts(variant, endings, pairs, seed))
    order = np.random.default_rng(seed).permutation(len(book))
    out = []
    for i in range(pairs):
        opening = book[int(order[i % len(book)])]
        if i >= len(book):
            opening = extended_opening(variant, opening, i // len(book), random.Random(seed * 7919 + i))
        out.append(opening)
    return out


def extended_opening(variant: Variant, opening: str, plies: int, rng: random.Random) -> str:
    """``opening`` (moves from the start) and ``plies`` more legal moves chosen by ``rng``: a match longer
    than its opening set plays each opening again this way, the k-th time with k more moves, because
    two players without randomness (fixed depth or nodes) would play the same game again. Fewer moves
    where the game ends first."""
    game = Game(variant)
    texts = opening.split()
    for text in texts:
        game.play(text)
    for _ in range(plies):
        moves = game.position.legal_moves()
        if game.is_over or not moves:
            break
        move = rng.choice(moves)
        texts.append(game.position.move_text(move))
        game.play(move)
    return " ".join(texts)


def _play_indexed(job: tuple) -> GameResult:
    return play_game(*job)


@dataclass
class MatchResult:
    variant: str
    a: str
    b: str
    games: list[GameResult]
    seconds: float
    sprt: dict | None = None  # Sprt.status at the end, when the match was an SPRT

    @property
    def wins(self) -> int:
        return sum(g.points == 1.0 for g in self.games)

    @property
    def draws(self) -> int:
        return sum(g.points == 0.5 for g in self.games)

    @property
    def losses(self) -> int:
        return sum(g.points == 0.0 for g in self.games)

    def pair_points(self) -> list[float]:
        """A's points in each opening pair (both colours) of which both games were played."""
        by_pair: dict[int, list[float]] = {}
        for g in self.games:
            by_pair.setdefault(g.index // 2, []).append(g.points)
        return [sum(p) for _, p in sorted(by_pair.items()) if len(p) == 2]

    def summary(self) -> dict:
        n = len(self.games)
        e, margin = elo_with_margin(self.wins, self.draws, self.losses)
        out = {"variant": self.variant, "a": self.a, "b": self.b, "games": n, "wins": self.wins,
               "draws": self.draws, "losses": self.losses, "score": (self.wins + self.draws / 2) / n,
               "elo": _finite(e), "elo_margin_95": _finite(margin), "pentanomial": pentanomial(self.pair_points()),
               "forfeits": sum(g.reason == "forfeit" for g in self.games),
               "a_max_move_seconds": max(g.a_max_seconds for g in self.games),
               "b_max_move_seconds": max(g.b_max_seconds for g in self.games),
               # what a fixed-time match gave each side on average (an outside engine keeps its own clock)
               "a_mean_move_seconds": _mean_move(sum(g.a_seconds for g in self.games), sum(g.a_moves for g in self.games)),
               "b_mean_move_seconds": _mean_move(sum(g.b_seconds for g in self.games), sum(g.b_moves for g in self.games)),
               "seconds": round(self.seconds, 1)}
        if self.sprt is not None:
            out["sprt"] = self.sprt
        return out


def _mean_move(seconds: float, moves: int) -> float:
    return round(seconds / moves, 3) if moves else 0.0


def _finite(x: float):
    """JSON has no infinity: +-inf become the strings 'inf' / '-inf'."""
    return round(x, 1) if math.isfinite(x) else ("inf" if x > 0 else "-inf")


def run_match(variant: Variant, a: Player, b: Player, games: int, concurrency: int = 1, seed: int = 1,
              max_plies: int = DEFAULT_MAX_PLIES, on_game=None, resign: int | None = None,
              resign_moves: int = DEFAULT_RESIGN_MOVES, endings: int | None = None,
              sprt: Sprt | None = None) -> MatchResult:
    """Play ``games`` games (rounded up to even: each opening with both colours). Openings are taken
    from the variant's set in a seeded random order without repeats until the set runs out, then
    again in that order with seeded random moves added (:func:`extended_opening`); with
    ``endings``, from :func:`endgame_starts` of at most that many pieces instead. With ``sprt`` the
    match stops as soon as a finished pair of games takes the test's LLR past a bound (``games`` is
    then the most it plays)."""
    if games < 1:
        raise ValueError(f"--games must be at least 1, not {games}")
    if concurrency < 1:
        raise ValueError(f"--concurrency must be at least 1, not {concurrency}")
    if resign is not None and (resign < 1 or resign_moves < 1):
        raise ValueError(f"--resign needs a positive score and --resign-moves at least 1, not {resign}, {resign_moves}")
    pairs = (games + 1) // 2
    jobs: list[tuple] = []
    for opening in match_openings(variant, pairs, seed, endings):
        for a_first in (True, False):
            index = len(jobs)
            jobs.append((variant, opening, a, b, a_first, index, seed * 100_003 + index, max_plies, resign,
                         resign_moves))
    start = time.perf_counter()
    match = MatchResult(variant.name, str(a), str(b), [], 0.0)

    def record(result: GameResult) -> bool:
        """Keep a game; True once the SPRT has its verdict."""
        match.games.append(result)
        if on_game:
            on_game(result)
        if sprt is None or result.index % 2 == 0:
            return False
        match.sprt = sprt.status(match.pair_points())
        return match.sprt["verdict"] is not None

    if concurrency == 1:
        try:
            for job in jobs:
                if record(_play_indexed(job)):
                    break
        finally:
            _close_hub_engines()
    else:
        ctx = multiprocessing.get_context("spawn")
        # a worker ends with the match however it ends (killed, it can't shut its pool down), and
        # its Hub engines with the worker (their input closes)
        with ProcessPoolExecutor(max_workers=concurrency, mp_context=ctx,
                                 initializer=functools.partial(end_with_parent, parent=os.getpid())) as pool:
            futures = [pool.submit(_play_indexed, job) for job in jobs]
            for future in futures:
                if record(future.result()):
                    pool.shutdown(wait=True, cancel_futures=True)
                    break
    match.seconds = time.perf_counter() - start
    return match


# --- command line -------------------------------------------------------------------------------


def _argument(parse):
    """An argparse type from a parser raising ValueError: its message is shown, not argparse's own."""
    def convert(text: str):
        try:
            return parse(text)
        except ValueError as err:
            raise argparse.ArgumentTypeError(str(err)) from None

    convert.__name__ = parse.__name__
    return convert


def add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--games", type=int, default=20, help="games to play (rounded up to even), default 20")
    p.add_argument("--a", type=_argument(Player.parse), default="level=medium",
                   help="player A: level=easy|medium|hard, or depth=N, movetime=S, nodes=N (comma-joined); "
                        "tt=MB; weights=FILE.json (evaluation weights); net=FILE.json|off (network evaluation); "
                        "or hub=COMMAND (an outside engine speaking Hub, "
                        "no commas in COMMAND) with optional movetime=, depth=, nodes=, dir=PATH (its working directory)")
    p.add_argument("--b", type=_argument(Player.parse), default="level=easy", help="player B, as --a")
    p.add_argument("--concurrency", type=int, default=1, help="games played at once (one process each)")
    p.add_argument("--seed", type=int, default=1, help="opening order and the levels' random choices")
    p.add_argument("--max-plies", type=int, default=DEFAULT_MAX_PLIES,
                   help=f"adjudicate a draw after this many plies (default {DEFAULT_MAX_PLIES})")
    p.add_argument("--resign", type=int, default=None, metavar="SCORE",
                   help="score a game as won once both players see one side ahead by SCORE centi-men "
                        "(off by default)")
    p.add_argument("--endings", type=int, default=None, metavar="PIECES",
                   help="start from endgame positions of at most PIECES pieces made by a seeded self-play "
                        "(instead of the opening set)")
    p.add_argument("--resign-moves", type=int, default=DEFAULT_RESIGN_MOVES,
                   help=f"... for this many moves each in a row (default {DEFAULT_RESIGN_MOVES})")
    p.add_argument("--sprt", type=_argument(Sprt.parse), default=None, metavar="ELO0,ELO1",
                   help="stop once an SPRT (alpha = beta = 0.05, pentanomial GSPRT) accepts A being ELO0 or "
                        "ELO1 Elo stronger than B; --games is then the most games played")


def cmd_match(args) -> int:
    if args.fen:
        raise ValueError("match plays from its opening set; --fen is not used here")

    def progress(g: GameResult) -> None:
        side = "A first" if g.a_first else "B first"
        print(f"game {g.index + 1}: {g.opening} ({side}) -> {g.result} by {g.reason} in {g.plies} plies, "
              f"A scores {g.points}{'; ' + g.note if g.note else ''}", file=sys.stderr, flush=True)

    from .hubclient import HubEngineError

    try:
        match = run_match(args.variant, args.a, args.b, args.games, args.concurrency, args.seed, args.max_plies,
                          on_game=progress, resign=args.resign, resign_moves=args.resign_moves, endings=args.endings,
                          sprt=args.sprt)
    except HubEngineError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    s = match.summary()
    if args.json:
        print(json.dumps({**s, "game_list": [asdict(g) for g in match.games]}))
    else:
        margin = s["elo_margin_95"]
        print(f"{s['variant']}: A ({s['a']}) vs B ({s['b']}), {s['games']} games in {s['seconds']} s")
        print(f"A: {s['wins']} wins, {s['draws']} draws, {s['losses']} losses; "
              f"score {s['score'] * 100:.1f}%; Elo {s['elo']} +- {margin} (95%)")
        print(f"pairs (A's points 0, 1/2, 1, 3/2, 2): {s['pentanomial']}; longest move A {s['a_max_move_seconds']} s, "
              f"B {s['b_max_move_seconds']} s; mean move A {s['a_mean_move_seconds']} s, B {s['b_mean_move_seconds']} s; "
              f"forfeits {s['forfeits']}")
        if match.sprt is not None:
            t = match.sprt
            verdict = {"H1": f"H1 accepted (A is {t['elo1']:g} Elo or more stronger)",
                       "H0": f"H0 accepted (A is not {t['elo1']:g} Elo stronger: {t['elo0']:g} or less)",
                       None: "no verdict yet"}[t["verdict"]]
            print(f"SPRT elo0={t['elo0']:g} elo1={t['elo1']:g} alpha={t['alpha']} beta={t['beta']}: "
                  f"LLR {t['llr']} in [{t['lower']}, {t['upper']}] after {t['pairs']} pairs: {verdict}")
    return 0

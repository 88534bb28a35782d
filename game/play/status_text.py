"""The status line: whose turn, a compulsory capture, the opponent thinking, the connection to a
friend's room, the result; what a review shows; the editor's side to move."""

from __future__ import annotations

from typing import TYPE_CHECKING, assert_never

from game.modes import Mode
from game.play.offers import Offers
from game.play.phases import (
    AwaitingDrawAnswer,
    Browsing,
    ChoosingMode,
    Editing,
    EnteringLink,
    EnteringNickname,
    EnteringServer,
    GameOver,
    HumanToMove,
    InGame,
    JoiningRoom,
    OpponentFailed,
    OpponentToMove,
    Resuming,
    Reviewing,
    SeekingOpponent,
    WaitingForFriend,
)

if TYPE_CHECKING:
    from engine.game import Game, Outcome
    from game.play.machine import Controller

MUST_CAPTURE = "You must capture"


def status(c: Controller) -> str:
    """The status line: whose turn, a compulsory capture, the opponent thinking, the result; what
    a review shows; the editor's side to move."""
    p = c.turn_phase
    if isinstance(p, (OpponentToMove, AwaitingDrawAnswer, HumanToMove)) and p.mode.vs_friend:
        waiting = _friend_status(c, p)
        if waiting is not None:
            return waiting
    match p:
        case Browsing(listing=listing):
            return f"Reading {listing.path.name}…" if listing is not None and not listing.done.is_set() \
                else "Open a game"
        case Editing(setup=setup):
            return f"Set up a position · {setup.variant.side_name(setup.turn)} to move"
        case Reviewing(game=game, ply=ply):
            last = len(game.moves)
            if ply == last and game.outcome is not None:
                return "Review · " + result_text(game, game.outcome, p.mode)
            who = game.variant.side_name(game.positions[ply].turn)
            where = "the start" if ply == 0 else f"move {ply} of {last}"
            return f"Review · {where} · {who} to move"
        case ChoosingMode():
            return "Choose the rules, then how to play"
        case Resuming():
            return "Resuming your game…"
        case WaitingForFriend(link=link):
            return "Waiting for your friend" if link else "Opening a room…"
        case EnteringLink():
            return "Paste your friend's link"
        case EnteringServer():
            return "Room server"
        case EnteringNickname():
            return "Your nickname"
        case SeekingOpponent():
            return "Looking for an opponent online…"
        case JoiningRoom(returning=returning):
            return "Returning to your friend's room…" if returning else "Joining your friend's room…"
        case GameOver(game=game, mode=mode):
            assert game.outcome is not None
            return result_text(game, game.outcome, mode)
        case OpponentFailed(game=game):
            return f"The computer ({game.variant.side_name(game.turn)}) can't play"
        case OpponentToMove(game=game, mode=mode) | AwaitingDrawAnswer(game=game, mode=mode):
            who = game.variant.side_name(game.turn)
            if mode.vs_friend:
                away = c.friend_play.friend_away_s(c.phase)
                name = mode.opponent_words(capital=True)
                if away is not None:
                    return f"{name} ({who}) is disconnected ({_clock(away)}); waiting for them…"
                return f"{name}'s move ({who})…" if mode.room is not None and mode.room.opponent is None \
                    else f"{name} to move ({who})…"
            if not c.opponent_ready or c.opponent is None:
                return f"Computer ({who}) is getting ready… {c.opponent_status}".rstrip()
            return f"Computer ({who}) is thinking…"
        case HumanToMove(game=game, mode=mode):
            who = game.variant.side_name(game.turn)
            text = f"Your move ({who})" if mode.human is not None else f"{who} to move"
            if game.position.has_capture():
                text += " · " + MUST_CAPTURE
            if Offers.pending_for_player(p):
                text += " · a draw is offered"
            return text
    raise AssertionError(f"no status for {p!r}")


def _friend_status(c: Controller, p: InGame) -> str | None:
    """The status of a friend's game while our connection to the room is down, else None."""
    f = c.friend_play.friend
    if f is None:
        return "Not connected to the room"
    if f.connection == "reconnecting":
        return "Reconnecting…"
    if f.connection == "gave_up":
        return "The connection to the room is lost"
    if f.connection == "connecting":
        return "Connecting…"
    return None


def result_text(game: Game, outcome: Outcome, mode: Mode) -> str:
    from engine.game import Reason

    winner = outcome.winner
    loser = game.variant.side_name(winner.opponent) if winner is not None else ""
    match outcome.reason:
        case Reason.NO_MOVES:
            assert winner is not None
            reason = f"{loser} has no {'pieces' if not sum(game.position.count(winner.opponent)) else 'move'} left"
        case Reason.RESIGNATION if mode.human is not None:
            reason = "you resigned" if winner is mode.computer else f"{mode.opponent_words()} resigned"
        case Reason.RESIGNATION:
            reason = f"{loser} resigned"
        case Reason.TIME if mode.human is not None:
            reason = "your time ran out" if winner is mode.computer else f"the time of {mode.opponent_words()} ran out"
        case Reason.TIME:
            reason = f"{loser}'s time ran out"
        case Reason.AGREEMENT:
            reason = "both players agreed"
        case Reason.REPETITION:
            reason = f"the same position occurred {game.variant.repetition_count} times"
        case Reason.MOVE_LIMIT:
            reason = f"{game.variant.quiet_limit_moves} moves each without a man moved or a capture"
        case Reason.ENDGAME_RULE:
            reason = "the endgame move limit was reached"
        case _:
            assert_never(outcome.reason)
    if winner is None:
        head = "Draw"
    elif mode.human is not None:
        head = "You win" if winner is mode.human else f"{mode.opponent_words(capital=True)} wins"
    else:
        head = f"{game.variant.side_name(winner)} wins"
    return f"{head}: {reason}"


def _clock(seconds: float) -> str:
    """A time away as a clock shows it: 0:07, 2:45."""
    whole = int(seconds)
    return f"{whole // 60}:{whole % 60:02d}"

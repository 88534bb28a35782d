"""The computer as an :class:`game.opponent.Opponent`: an adapter to ``engine.worker.EngineClient``."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from game.opponent import DrawAnswer, OpponentError, OpponentMove, OpponentStatus, Reply

if TYPE_CHECKING:
    from engine import Move
    from engine.game import Game
    from game.modes import Mode


class WorkerOpponent:
    """Plays the computer's side through the engine's worker process (``client``, an
    ``engine.worker.EngineClient``).

    After each best move the worker is asked whether the computer offers a draw with it (only when the
    rules allow an offer then), so the move and its offer reach the game together. A request the
    worker can't answer (the process failed for good after its restarts, or the search failed) comes
    back as an :class:`OpponentError` for the player to see; the game never moves for the computer."""

    def __init__(self, client: Any):
        self.client = client
        self._games: dict[int, Game] = {}  # request id of a move request -> the game it was about
        self._level = "medium"
        self._move_for_offer: dict[int, Move] = {}  # request id of an 'offer' question -> the move
        self._asked_to_accept: set[int] = set()  # request ids of 'accept' questions
        # until the worker's Ready, the status line says the computer is getting ready
        self._first: list[Reply] = [] if client.is_ready else [OpponentStatus("(preparing the engine)", False)]

    def request_move(self, game: Game, mode: Mode) -> None:
        assert mode.level is not None, "the computer plays at a level"
        self._level = mode.level.value
        self._games[self.client.request_move(game, level=self._level)] = game

    def ask_draw(self, game: Game, mode: Mode) -> None:
        assert mode.level is not None, "the computer plays at a level"
        self._asked_to_accept.add(self.client.ask_draw(game, mode.level.value, kind="accept"))

    def cancel(self) -> None:
        self.client.cancel()
        self._games.clear()
        self._move_for_offer.clear()
        self._asked_to_accept.clear()

    def poll(self) -> list[Reply]:
        from engine import worker

        out, self._first = self._first, []
        for reply in self.client.poll():
            match reply:
                case worker.Ready():
                    out.append(OpponentStatus("ready", True))
                case worker.BestMove(request_id=rid, move=move, score=score):
                    game = self._games.pop(rid, None)
                    if game is not None and game.can_offer_draw()[0]:
                        question = self.client.ask_draw(game, self._level, kind="offer", last_score=score)
                        self._move_for_offer[question] = move
                    else:
                        out.append(OpponentMove(move))
                case worker.DrawAnswer(request_id=rid, kind="offer", answer=answer):
                    move = self._move_for_offer.pop(rid, None)
                    if move is not None:
                        out.append(OpponentMove(move, offer_draw=answer))
                case worker.DrawAnswer(request_id=rid, answer=answer):
                    self._asked_to_accept.discard(rid)
                    out.append(DrawAnswer(answer))
                case worker.Error(request_id=rid, message=message):
                    out.extend(self._failed(rid, message))
                case worker.Info():
                    pass  # a search's progress: not shown
        return out

    def _failed(self, rid: int, message: str) -> list[Reply]:
        """The reply for a request the worker could not answer. A failed offer question still has
        the computer's move: it is played without an offer."""
        move = self._move_for_offer.pop(rid, None)
        if move is not None:
            return [OpponentMove(move)]
        if self._games.pop(rid, None) is not None or rid in self._asked_to_accept:
            self._asked_to_accept.discard(rid)
            return [OpponentError(f"the engine failed: {message}")]
        return []  # nothing waits for it

    def close(self) -> None:
        self.client.close()

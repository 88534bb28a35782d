"""The seven rule sets of issue 25 (Brazilian, Russian, Pool, Spanish, Italian, Czech and Thai draughts):
the rule that tells each apart, one position a rule; their draw rules; their notation and board
orientation as data; and the whole engine playing each (record, PDN, search, levels, Hub, command line).

The perft of each start against the published numbers is in test_perft.py, the plain-Python twin on
random positions of each in test_reference.py, pydraughts on Russian, Brazilian and Italian in
test_oracle.py. Positions are given in each rule set's own square numbers, or with algebraic squares
(which the FEN reader takes too) where the picture is clearer that way.
"""

from __future__ import annotations

import itertools
import json
import random

import numpy as np
import pytest

from engine import Color, Position, variant_named
from engine import _search as K
from engine.__main__ import main as engine_main
from engine.__main__ import run_perft
from engine.game import Game, Reason
from engine.hub import HubEngine, format_position
from engine.notation import coords_square, square_coords, square_name
from engine.pdn import PdnGame, read_text
from engine.search import Limits, Searcher, choose_move
from engine.variants import ALL_VARIANTS, INTERNATIONAL, MORE_VARIANTS, VARIANTS

NAMES = list(MORE_VARIANTS)


def moves(variant: str, fen: str) -> set[tuple]:
    """{(start, end, captured squares as algebraic names, crowned)} of a position."""
    v = variant_named(variant)
    pos = Position.from_fen(v, fen)
    return {(square_name(v, m.start), square_name(v, m.end), frozenset(square_name(v, s) for s in m.captured),
             m.crowned) for m in pos.legal_moves()}


def routes(variant: str, fen: str) -> set[tuple[str, ...]]:
    v = variant_named(variant)
    pos = Position.from_fen(v, fen)
    return {tuple(square_name(v, s) for s in r) for m in pos.legal_moves() for r in m.routes}


# --- the table: names, notation, orientation --------------------------------------------------

def test_every_rule_set_is_found_by_its_name_and_the_names_other_programs_use():
    for name, v in ALL_VARIANTS.items():
        assert variant_named(name) is v and all(variant_named(alias) is v for alias in v.aliases)
    # pydraughts' and Scan's names (Hub set-param): standard, english, russian, brazilian, italian
    assert variant_named("standard") is INTERNATIONAL and variant_named("english").name == "american"
    assert {variant_named(n).name for n in ("russian", "brazilian", "italian", "shashki", "mak-hot")} == {
        "russian", "brazilian", "italian", "thai"}
    # the window offers the two first games; the engine plays all nine
    assert list(VARIANTS) == ["american", "international"] and len(ALL_VARIANTS) == 9
    with pytest.raises(ValueError, match="frisian"):
        variant_named("frisian")


def test_gametype_tags_are_the_pdn_tables():
    # pdn.fmjd.org/gametype: the PDN 3.0 GameType table, the full form of each of ours
    assert {v.name: v.pdn_game_type_tag for v in ALL_VARIANTS.values()} == {
        "american": "21,B,8,8,N1,0", "international": "20,W,10,10,N2,0", "brazilian": "26,W,8,8,A0,0",
        "russian": "25,W,8,8,A0,0", "pool": "23,B,8,8,N1,0", "spanish": "24,W,8,8,N1,1",
        "italian": "22,W,8,8,N2,1", "czech": "29,W,8,8,A0,0", "thai": "31,B,8,8,N2,0"}


def test_italian_numbering_and_board_are_fid_2_3_and_2_4():
    # FID 2.3: the near right corner square is dark for each player (h1 playable, a1 not); 2.4: numbered
    # from the first dark square at the top left, left to right, row by row; 2.6: Black on 1-12
    italian = variant_named("italian")
    assert italian.mirrored_board and coords_square(italian, 0, 0) is None and coords_square(italian, 7, 0) == 32
    assert [square_name(italian, s) for s in (1, 2, 4, 5, 29, 32)] == ["a8", "c8", "g8", "b7", "b1", "h1"]
    assert italian.start_fen == "W:W21-32:B1-12"


def test_spanish_numbering_runs_from_white_s_near_right():
    # FPD 3: square 1 is the first square at the bottom right, counted right to left and bottom to top
    # from White's side; the diagonal from 1 to 32 is the "rio"; FPD 7: each side on its first 12 squares
    spanish = variant_named("spanish")
    assert [square_name(spanish, s) for s in (1, 4, 5, 32)] == ["h1", "b1", "g2", "a8"]
    rio = [sq for sq in range(1, 33) if sum(square_coords(spanish, sq)) == 7]
    assert rio[0] == 1 and rio[-1] == 32 and len(rio) == 8
    assert spanish.start_fen == "W:W1-12:B21-32"


def test_thai_starts_with_eight_men_on_two_rows():
    thai = variant_named("thai")
    pos = Position.initial(thai)
    assert pos.count(Color.WHITE) == (8, 0) and pos.count(Color.BLACK) == (8, 0) and pos.turn is Color.BLACK
    ranks = {square_coords(thai, sq)[1] for sq, p in pos.pieces().items() if p.color is Color.BLACK}
    assert ranks == {0, 1}  # Black's two nearest rows, seen from Black, the first player


def test_notation_follows_each_rule_set():
    # Russian and Czech write squares algebraically, Russian captures with ":" (PDN 3.0 GameType 25),
    # Thai with "-"; the others write numbers
    assert Position.from_fen(variant_named("russian"), "W:W11:B7,9").move_text(
        Position.from_fen(variant_named("russian"), "W:W11:B7,9").legal_moves()[0]) == "f6:a5"
    czech = Position.initial(variant_named("czech"))
    assert czech.move_text(czech.legal_moves()[0]).count("-") == 1 and czech.move_text(czech.legal_moves()[0])[0] in "aceg"
    thai = Position.from_fen(variant_named("thai"), "W:WKa1:Bd4")
    assert [thai.move_text(m) for m in thai.legal_moves()] == [f"{thai.legal_moves()[0].start}-{thai.legal_moves()[0].end}"]
    assert variant_named("pool").piece_colours == ("white", "red")  # APCA 3


def test_the_sides_are_named_by_their_colours():
    # what the window writes for "... to move" and a result: the colour of each side's pieces, Red for
    # the rules' Black in Pool checkers (APCA 3)
    assert {v.name: (v.side_name(Color.WHITE), v.side_name(Color.BLACK)) for v in ALL_VARIANTS.values()} == {
        name: ("White", "Red" if name == "pool" else "Black") for name in ALL_VARIANTS}


# --- the rules that tell the rule sets apart ---------------------------------------------------

def test_russian_man_crowned_in_a_capture_goes_on_as_a_king():
    # white man f6 takes e7 and lands on d8, its crowning row: crowned, it goes on as a flying king over
    # the empty c7 to take b6 and land on a5, a king (Russian code 1.5.15)
    assert moves("russian", "W:Wf6:Be7,b6") == {("f6", "a5", frozenset({"e7", "b6"}), True)}
    after = Position.from_fen(variant_named("russian"), "W:Wf6:Be7,b6")
    after = after.play(after.legal_moves()[0])
    assert after.piece_at(next(iter(after.pieces()))).king
    # where passing the crowning row leaves a man (Brazilian as FMJD 4.14, Pool APCA 16) it can't reach
    # b6 as a man: the capture ends on d8, crowned there
    for name in ("brazilian", "pool"):
        assert moves(name, "W:Wf6:Be7,b6") == {("f6", "d8", frozenset({"e7"}), False)}, name


def test_passing_the_crowning_row_a_man_goes_on_backward_as_a_man():
    # Brazilian and Pool: white man f6 takes e7 to d8 and must go on backward over c7 to b6, a man still;
    # in Russian it is crowned on d8 and goes on as a king over c7, to b6 or a5
    assert moves("brazilian", "W:Wf6:Be7,c7") == {("f6", "b6", frozenset({"e7", "c7"}), False)}
    assert moves("pool", "W:Wf6:Be7,c7") == {("f6", "b6", frozenset({"e7", "c7"}), False)}
    assert moves("russian", "W:Wf6:Be7,c7") == {("f6", "b6", frozenset({"e7", "c7"}), True),
                                               ("f6", "a5", frozenset({"e7", "c7"}), True)}


def test_a_flying_king_must_land_where_it_can_capture_on():
    # (found in the Russian perft at depth 8, the shashki forum's 929,899): the black man from a5 takes
    # b4 and d2, is crowned on e1, takes f2 and must land on g3, from which it takes f4, not on h4
    fen = "B:W17,19,21,23,25-30,32:B1-8,10,12,13"
    assert {(s, e) for s, e, _, _ in moves("russian", fen)} == {("a5", "e5")}


def test_italian_man_never_captures_a_king():
    # FID 5.3(b): white man 22 takes the man on 18 but not a king there (it steps to 19 instead)
    assert moves("italian", "W:W22:B18") == {("d3", "b5", frozenset({"c4"}), False)}
    assert moves("italian", "W:W22:BK18") == {("d3", "e4", frozenset(), False)}
    # Spanish men take kings
    assert any(m[2] for m in moves("spanish", "W:Wd3:BKc4"))


def test_italian_priorities():
    # FID 6.7: man 22 and king 31 can each take one piece: the king must
    assert moves("italian", "W:W22,K31:B18,28") == {("f1", "h3", frozenset({"g2"}), False)}
    # FID 6.8: the king on 30 can take the man on 26 or the king on 27: the king
    assert moves("italian", "W:WK30:B26,K27") == {("d1", "f3", frozenset({"e2"}), False)}
    # FID 6.9: two captures of a king and a man each: the one that meets the king first; with men only
    # both stand
    assert moves("italian", "W:WK19:BK14,5,15,K7") == {("e4", "a8", frozenset({"d5", "b7"}), False)}
    assert len(moves("italian", "W:WK19:B14,5,15,7")) == 2
    # FID 6.6 before all: the most pieces, a man's two before a king's one
    assert {(s, e) for s, e, _, _ in moves("italian", "W:W22,K31:B18,10,28")} == {("d3", "d7")}


def test_spanish_most_pieces_then_most_kings():
    # the king on d1 can take the man on c2 or the king on f3: the king (FPD "lei da qualidade")
    assert {(e, tuple(c)) for _, e, c, _ in moves("spanish", "W:WKd1:Bc2,Kf3")} == {("g4", ("f3",)), ("h5", ("f3",))}
    assert len(moves("spanish", "W:WKd1:Bc2,f3")) == 4  # two men: free choice of either, and of the landing


def test_czech_a_capture_with_a_king_comes_first():
    # the man on c3 could take two (d4, f6), the king on c1 one (b2): the king must (Czech rules 4.14)
    assert moves("czech", "W:W22,K30:B18,11,25") == {("c1", "a3", frozenset({"b2"}), False)}
    # with free choice and flying kings (Pool) both stand
    assert len({m[0] for m in moves("pool", "W:Wc3,Kc1:Bd4,f6,b2")}) == 2


def test_thai_king_lands_just_beyond_the_piece():
    # a flying king takes from any distance but lands on the square right behind (Thai) / anywhere
    # beyond (Czech, FMJD)
    assert moves("thai", "W:WKa1:Bd4") == {("a1", "e5", frozenset({"d4"}), False)}
    assert {e for _, e, _, _ in moves("czech", "W:WKa1:Bd4")} == {"e5", "f6", "g7", "h8"}


def test_thai_captured_pieces_leave_at_once():
    # the king from e1 takes d2 and lands on c3; from a1 (after b2) it passes c3 and the square of b2 again...
    # and back over b2's empty square to take d4: all three, which a king whose captures stay on the board
    # (Czech) can't
    assert ("e1", "e5", frozenset({"d2", "b2", "d4"}), False) in moves("thai", "W:WKe1:Bd2,d4,b2")
    assert ("e1", "c3", "a1", "e5") in routes("thai", "W:WKe1:Bd2,d4,b2")
    assert max(len(c) for _, _, c, _ in moves("czech", "W:WKe1:Bd2,d4,b2")) == 2


def test_men_capture_backward_where_the_rules_say():
    # the first player's man with an enemy man diagonally behind it (algebraic squares are seen from the
    # first player: Black in Pool and Thai; Spanish and Italian boards have e4, not d4, dark)
    def fen(name):
        v = variant_named(name)
        man, behind = ("e4", "d3") if v.mirrored_board else ("d4", "c3")
        return f"W:W{man}:B{behind}" if v.first_player is Color.WHITE else f"B:W{behind}:B{man}"
    for name in ("brazilian", "russian", "pool"):
        assert moves(name, fen(name)) == {("d4", "b2", frozenset({"c3"}), False)}, name
    for name in ("spanish", "italian", "czech", "thai"):
        assert not any(c for _, _, c, _ in moves(name, fen(name))), name


# --- draw rules ----------------------------------------------------------------------------------

def _quiet_king_moves(game: Game, plies: int, rng: random.Random) -> None:
    """``plies`` king moves that capture nothing and leave the opponent nothing to capture, without
    repeating a position."""
    for _ in range(plies):
        pos = game.position
        options = [m for m in pos.legal_moves() if not m.captured and pos.piece_at(m.start).king
                   and not pos.play(m).has_capture() and game.repetitions(pos.play(m)) == 0]
        game.play(rng.choice(options))


def _ended_after(variant: str, fen: str, seed: int = 1, limit: int = 200) -> tuple[int, Reason]:
    game = Game(variant_named(variant), Position.from_fen(variant_named(variant), fen))
    rng = random.Random(seed)
    while not game.is_over and game.ply < limit:
        _quiet_king_moves(game, 1, rng)
    assert game.outcome is not None
    return game.ply, game.outcome.reason


def test_russian_three_kings_against_one_draw_after_15_moves():
    # FMJD-64 7.2.4: 15 moves each (the lone king kept off the long diagonal a1-h8 by a white king on it)
    assert Game(variant_named("russian"), Position.from_fen(variant_named("russian"), "W:WKa1,Kc3,Kh6:BKb6")
                ).plies_until_draw == 30
    # four kings too (7.2.4 "or more")
    assert Game(variant_named("russian"), Position.from_fen(variant_named("russian"), "W:WKa1,Kc3,Kh6,Kh4:BKb6")
                ).endgame_plies_left == 30
    # Pool (APCA): three kings must win within 13 moves; not a rule for four
    pool = variant_named("pool")
    assert Game(pool, Position.from_fen(pool, "W:WKa1,Kc3,Kh6:BKb6")).endgame_plies_left == 26
    assert Game(pool, Position.from_fen(pool, "W:WKa1,Kc3,Kh6,Kh4:BKb6")).endgame_plies_left is None


def test_russian_lone_king_on_the_long_diagonal_draws_after_5_moves():
    # FMJD-64 7.2.7: three pieces with a king against a lone king on the long diagonal, none of theirs on it
    assert _ended_after("russian", "B:WKh2,Kg1,a5:BKa1") == (10, Reason.ENDGAME_RULE)
    russian = variant_named("russian")
    assert Game(russian, Position.from_fen(russian, "W:WKa3,Kc1,e3:BKb6")).endgame_plies_left == 60  # 7.2.6


def test_russian_two_pieces_against_a_lone_king_draw_after_5_moves():
    assert _ended_after("russian", "W:WKa3,Kc1:BKb6") == (10, Reason.ENDGAME_RULE)  # FMJD-64 7.2.8
    assert _ended_after("brazilian", "W:WKa3,Kc1:BKb6") == (10, Reason.ENDGAME_RULE)


def test_russian_two_piece_count_runs_on_through_a_crowning_and_starts_afresh_after_a_capture():
    russian = variant_named("russian")
    # FMJD-64 7.2.8: king and man against a king; the man crowns: the 5-move count runs on
    game = Game(russian, Position.from_fen(russian, "W:WKa1,c7:BKh2"))
    assert game.endgame_plies_left == 10
    game.play("c7-d8")
    assert game.endgame_plies_left == 9
    # three kings against one, 30 plies left; the lone king takes one: 5 moves from there, the 15-move
    # count of 7.2.4 no cap on it (FMJD 6.4 caps it by the 16 moves, test_game.py)
    game = Game(russian, Position.from_fen(russian, "B:WKa1,Kc1,Kd6:BKe7"))
    assert game.endgame_plies_left == 30
    game.play("e7:c5")
    assert game.endgame_plies_left == 10


def test_russian_kings_endings_30_and_60_moves_and_a_capture_starts_afresh():
    # FMJD-64 7.2.6: both sides with kings, 4 or 5 pieces on the board: 30 moves; 6 or 7: 60
    russian = variant_named("russian")
    game = Game(russian, Position.from_fen(russian, "W:WKa1,Kc1,c3:BKh8,Kf8,f6"))
    assert game.endgame_plies_left == 120
    # the 15-move rule of king moves (7.2.5) comes first unless a man moves; a man moving keeps 7.2.6's count
    game.play("c3-d4")
    assert game.endgame_plies_left == 119 and game.quiet_plies == 0
    game.play("f6-e5")  # Black offers: White must take, and the capture starts a new count (5 pieces: 30)
    game.play(next(m for m in game.position.legal_moves() if m.captured))
    assert game.endgame_plies_left == 60


def test_russian_15_moves_of_kings_alone_draw():
    # FMJD-64 7.2.5, where no endgame count is nearer: two kings and two men a side, 6 pieces... kings
    ply, reason = _ended_after("russian", "W:WKa1,Kc1,h2,g3:BKh8,Kf8,a7,b6")
    assert (ply, reason) == (30, Reason.MOVE_LIMIT)


def test_italian_draws_at_the_fourth_repetition():
    italian = variant_named("italian")
    game = Game(italian, Position.from_fen(italian, "W:WK29:BK4"))
    for _ in range(2):
        for text in ("29-25", "4-8", "25-29", "8-4"):
            game.play(text)
    assert game.repetitions() == 3 and not game.is_over  # FID 9.3(b1): not yet at the third time
    for text in ("29-25", "4-8", "25-29", "8-4"):
        game.play(text)
    assert game.outcome is not None and game.outcome.reason is Reason.REPETITION


@pytest.mark.parametrize("name, moves_each", [("spanish", 25), ("czech", 25), ("thai", 25), ("italian", 40),
                                              ("pool", 15)])
def test_the_move_limit_of_each_rule_set(name, moves_each):
    v = variant_named(name)
    assert v.quiet_limit_moves == moves_each
    kings = "W:WKa1,Kc1:BKh8,Kf8" if not v.mirrored_board else "W:WKb1,Kd1:BKg8,Ke8"
    assert _ended_after(name, kings) == (2 * moves_each, Reason.MOVE_LIMIT)


# --- the whole engine plays each --------------------------------------------------------------

@pytest.mark.parametrize("name", NAMES)
def test_the_whole_engine_plays_it(name, capsys):
    v = variant_named(name)
    game = Game(v)
    rng = random.Random(7)
    for _ in range(6):
        game.play(rng.choice(game.position.legal_moves()))
    # a saved game reads back
    again = Game.from_dict(json.loads(json.dumps(game.to_dict())))
    assert again.position == game.position and again.variant is v
    # PDN: written with its GameType, read back as the same game
    text = PdnGame.from_game(game).pdn()
    assert f'[GameType "{v.pdn_game_type}"]' in text
    assert read_text(text)[0].to_game().position == game.position
    full = text.replace(f'[GameType "{v.pdn_game_type}"]', f'[GameType "{v.pdn_game_type_tag}"]')
    assert read_text(full)[0].to_game().position == game.position
    # the search and the levels, on the kernels already compiled for the other games
    searcher = Searcher(tt_size_mb=8)
    signatures = len(K.search.signatures)
    result = searcher.search(game, Limits(depth=4))
    assert result.move in game.position.legal_moves() and result.depth == 4
    assert choose_move(searcher, game, "easy", random.Random(1)).move in game.position.legal_moves()
    assert len(K.search.signatures) == max(signatures, 1)
    # the command line
    assert engine_main(["perft", "--variant", name, "--depth", "3", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["nodes"] == run_perft(Position.initial(v), 3)
    # the Hub protocol: set-param takes the name, and a search answers with a legal move
    lines: list[str] = []
    hub = HubEngine(INTERNATIONAL, write=lines.append)
    hub.searcher = searcher
    hub._dispatch("set-param", {"name": "variant", "value": name}, 0)
    hub._dispatch("pos", {"pos": format_position(game.position)}, 0)
    hub._dispatch("level", {"depth": "3"}, 0)
    hub._dispatch("go", {}, 1)
    done = [line for line in lines if line.startswith("done")]
    assert hub.variant is v and len(done) == 1
    move = done[0].split("move=")[1].split()[0]
    start, end = (int(sq) for sq in move.replace("x", "-").split("-")[:2])
    assert (start, end) in {(m.start, m.end) for m in game.position.legal_moves()}


def test_fen_takes_algebraic_squares():
    russian = variant_named("russian")
    assert Position.from_fen(russian, "W:Wa1,Kc3:Bh8") == Position.from_fen(russian, "W:W29,K22:B4")


def _random_kings_ending(variant, rng: random.Random) -> Position:
    """Kings and a few men: a lone king against 1-4 pieces, or kings on both sides (4-7 pieces), men
    never on their own crowning row; either side to move."""
    squares = list(range(1, variant.squares + 1))
    rng.shuffle(squares)
    crowning = {Color.WHITE: {sq for sq in squares if square_coords(variant, sq)[1] == (
        variant.size - 1 if variant.first_player is Color.WHITE else 0)}}
    crowning[Color.BLACK] = {sq for sq in squares if square_coords(variant, sq)[1] == (
        0 if variant.first_player is Color.WHITE else variant.size - 1)}
    lists: dict[Color, list[str]] = {Color.WHITE: [], Color.BLACK: []}
    weak = rng.choice((Color.WHITE, Color.BLACK))
    counts = {weak: (rng.choice((1, 1, 2, 3)), 0), weak.opponent: (rng.randint(1, 4), rng.randint(0, 2))}
    for color, (kings, men) in counts.items():
        for i in range(kings + men):
            sq = next(s for s in squares if i < kings or s not in crowning[color])
            squares.remove(sq)
            lists[color].append(f"K{sq}" if i < kings else str(sq))
    turn = rng.choice("WB")
    return Position.from_fen(variant, f"{turn}:W{','.join(lists[Color.WHITE])}:B{','.join(lists[Color.BLACK])}")


@pytest.mark.parametrize("name", ["russian", "brazilian", "pool"])
def test_game_and_search_count_the_endgame_draws_alike(name):
    """The search's counters (set up from the record as Searcher does, then carried by the kernel step
    it runs after every move) give the record's plies until the draw at every ply of random endings."""
    from engine._draws import NO_GROUP, endgame_rule
    from engine.search import root_endgame_count

    v = variant_named(name)
    rule, quiet_limit = endgame_rule(v), 2 * v.quiet_limit_moves
    rng = random.Random(5)
    reasons: dict[str, int] = {}
    for _ in range(60):
        game = Game(v, _random_kings_ending(v, rng))
        while not game.is_over and game.ply < 200:
            pos = game.position
            safe = [m for m in pos.legal_moves() if not pos.play(m).has_capture()]
            game.play(rng.choice(safe if safe and rng.random() < 0.9 else pos.legal_moves()))
        record = Game(v, game.start)
        quiet = record.quiet_plies
        group, draw_at = root_endgame_count(record)
        for k, move in enumerate(game.moves, start=1):
            before = record.position
            record.play(move)
            after = record.position
            irreversible = move.is_capture or not before.piece_at(move.start).king
            quiet, group, draw_at = K.child_counters(quiet, group, draw_at, k - 1, irreversible, np.uint64(after.white),
                                                     np.uint64(after.black), np.uint64(after.kings), rule)
            left = -1 if group == NO_GROUP else int(draw_at) - k
            until = quiet_limit - int(quiet) if left < 0 else min(quiet_limit - int(quiet), left)
            if record.outcome is None:
                assert until == record.plies_until_draw, (game.to_dict(), k)
            elif record.outcome.reason in (Reason.MOVE_LIMIT, Reason.ENDGAME_RULE):
                assert K.is_drawn_by_limits(quiet, k, draw_at, quiet_limit), (game.to_dict(), k)
        if game.outcome is not None:
            reasons[game.outcome.reason] = reasons.get(game.outcome.reason, 0) + 1
    assert reasons.get(Reason.ENDGAME_RULE, 0) >= 3 and reasons.get(Reason.MOVE_LIMIT, 0) >= 3, reasons


@pytest.mark.parametrize("name", ["spanish", "italian", "czech", "thai"])
def test_endgame_tables_are_built_and_agree_with_the_moves(name, tmp_path):
    """The rule sets without endgame counts get tables as American checkers does; each position's value
    agrees with those of its moves (the verify pass replays every move with the rule set's generator)."""
    from engine import egdb

    v = variant_named(name)
    assert egdb.supports(v)
    info = egdb.build(v, pieces=3, directory=tmp_path)
    assert info["pieces"] == 3 and egdb.verify(v, tmp_path) == 0
    tables = egdb.load(v, tmp_path)
    assert tables is not None
    # two kings against one, White to move, nothing to capture: won nearly always where kings are short
    # (Italian) or land just beyond what they take (Thai: "two kings are sufficient to capture a lone
    # one", mindsports), seldom against a flying king (Spanish, Czech)
    values = [tables.probe(pos).value for a, b, c in itertools.permutations(range(1, 33), 3) if a < b
              for pos in [Position.from_fen(v, f"W:WK{a},K{b}:BK{c}")] if not pos.has_capture()]
    share = values.count("win") / len(values)
    assert (share > 0.99) if name in ("italian", "thai") else (0.05 < share < 0.2), share


def test_no_endgame_tables_where_the_solver_does_not_know_the_counts():
    from engine import egdb

    for name in ("russian", "brazilian", "pool"):
        assert not egdb.supports(variant_named(name))
        with pytest.raises(ValueError, match="endgame rules"):
            egdb.build(variant_named(name), pieces=2)

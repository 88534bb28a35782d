"""PDN in and out (engine/pdn/): real game collections, every point of the syntax, bad input, round
trips, the game record's side (Game to PDN and back), and ``python -m engine pdn``.

The real collections (tests/data/pdn/*.pdn with a wiegerw/pdn header) are checked against an independent
replay: a plain splitter written here (regular expressions, nothing from engine.pdn) takes the move
texts out of each game, and the slow rules of tests/engine/reference.py (nothing from the numba move
generator) play them. A game those find legal to its end must be read to its end with the same final
position; a game they stop in must be reported at that move.
"""

from __future__ import annotations

import io
import json
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest
import reference as ref

from engine import AMERICAN, INTERNATIONAL, Color, InvalidFenError, Position
from engine.__main__ import main as engine_main
from engine.game import Game
from engine.pdn import (
    PdnError,
    PdnFileError,
    PdnGame,
    PdnMoveError,
    PdnSyntaxError,
    PdnVariantError,
    position_from_fen,
    read_file,
    read_text,
    result_text,
    result_winner,
    write_games,
)
from engine.pdn import reader as pdn_reader
from engine.pdn import tokens as pdn_tokens

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "tests" / "data" / "pdn"
REAL = sorted(p.name for p in DATA.glob("*.pdn") if "github.com/wiegerw/pdn" in p.read_text(encoding="utf-8")[:600])
HAND_WRITTEN = ["syntax.pdn", "results.pdn", "bad-input.pdn"]

# The real games that are not legal to their end, as the independent replay (or, for the stray '.', a
# look at the file) finds them: file -> {game index: (move number, move text) or the syntax error's text}.
FAULTY = {
    "american-tricks-traps-and-shots.pdn": {8: ("19.", "10x26")},  # 10x17x26 or 10x19x26
    "international-schildpad.pdn": {3: ("35.", "36x16"), 7: ("56.", "4x24")},  # two routes each
    "international-problems-faulty.pdn": {5: "can't read '.' after '8-3'"},  # "3. 8-3 . 1-0"
}


def engine(*args: str) -> subprocess.CompletedProcess:
    """The command as a user runs it, in its own process."""
    return subprocess.run([sys.executable, "-m", "engine", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=300)


def engine_here(capsys, *args: str) -> subprocess.CompletedProcess:
    """The same command's main() in this process (no interpreter start): status, stdout, stderr."""
    status = engine_main(list(args))
    out = capsys.readouterr()
    return subprocess.CompletedProcess(args, status, out.out, out.err)


# --- an independent reading of the real files ----------------------------------------------------

RESULT_WORDS = {"1-0", "0-1", "1/2-1/2", "2-0", "0-2", "1-1", "0-0", "*"}


def plain_games(text: str) -> list[tuple[dict, list[str]]]:
    """(tags, move texts) of each game of a well-behaved file: a game starts with a tag line that
    follows a line that is not a tag; comments, variations and move numbers are dropped."""
    text = "\n".join(line for line in text.splitlines() if not line.startswith("%"))
    blocks = re.split(r"\n(?=\[)(?<!\]\n)", "\n" + text)
    games = []
    for block in blocks:
        tags = dict(re.findall(r'^\[(\w+)\s+"(.*)"\]\s*$', block, flags=re.M))
        moves = re.sub(r"^\[.*\]\s*$", "", block, flags=re.M)
        moves = re.sub(r"\{[^}]*\}", " ", moves)
        while re.search(r"\([^()]*\)", moves):
            moves = re.sub(r"\([^()]*\)", " ", moves)
        moves = re.sub(r"(\d)\s*([-x])\s*(\d)", r"\1\2\3", moves)  # "1- 6"
        moves = re.sub(r"\b\d+\.(\.\.)?", " ", moves)
        words = re.findall(r"\d+(?:[-x]\d+)+|1/2-1/2|[a-h][1-8](?:[-x:][a-h][1-8])+", moves)
        if words and words[-1] in RESULT_WORDS:
            words.pop()
        if tags or words:
            games.append((tags, words))
    return games


def board_from_fen(variant: str, fen: str) -> ref.Board:
    turn, *lists = [part.strip() for part in fen.strip().rstrip(".").split(":")]
    pieces = {}
    for part in lists:
        color = ref.WHITE if part[0] == "W" else ref.BLACK
        for item in filter(None, (i.strip() for i in part[1:].split(","))):
            king = item.startswith("K")
            first, _, last = item.lstrip("K").partition("-")
            for sq in range(int(first), int(last or first) + 1):
                pieces[sq] = (color, king)
    return ref.Board(variant, pieces, ref.WHITE if turn == "W" else ref.BLACK)


def is_subsequence(needle, hay) -> bool:
    it = iter(hay)
    return all(any(x == y for y in it) for x in needle)


def replay(board: ref.Board, texts: list[str]) -> tuple[ref.Board, int | None]:
    """Play move texts by the reference rules: (the board reached, the index of the first text that
    names no legal move or several, or None)."""
    def square(token: str) -> int:
        if token.isdigit():
            return int(token)
        # algebraic, as the rule sets of GameType "A0" write it: a1 at White's near left
        n = board.rules.size
        found = ref.cell_to_square(board.rules, n - int(token[1:]), "abcdefgh".index(token[0]))
        assert found is not None, token
        return found

    for i, text in enumerate(texts):
        squares = tuple(square(s) for s in re.split(r"[-x:]", text))
        between = squares[1:-1]
        found = [ident for ident, routes in ref.legal_moves(board).items()
                 if ident[:2] == (squares[0], squares[-1]) and any(is_subsequence(between, r[1:-1]) for r in routes)]
        if len(found) > 1:
            found = [ident for ident in found if squares in ref.legal_moves(board)[ident]]
        if len(found) != 1:
            return board, i
        board = ref.play(board, found[0])
    return board, None


def same_position(board: ref.Board, pos: Position) -> bool:
    return board.key() == ref.Board.from_position(pos).key()


# --- real collections ------------------------------------------------------------------------------

@pytest.mark.parametrize("name", REAL)
def test_real_games_are_read_as_an_independent_replay_reads_them(name):
    path = DATA / name
    games = list(read_file(path))
    plain = plain_games(path.read_text(encoding="utf-8"))
    assert len(games) == len(plain) >= 4
    faulty = FAULTY.get(name, {})
    for game, (tags, texts) in zip(games, plain, strict=True):
        assert game.tags == tags
        board = board_from_fen(game.variant.name, tags.get("FEN") or game.variant.start_fen)
        board, stop = replay(board, texts)
        expected = faulty.get(game.index)
        if isinstance(expected, tuple):  # a move the rules don't allow as written
            assert stop is not None and game.plies == stop
            assert isinstance(game.error, PdnMoveError)
            assert (game.error.number, game.error.text) == expected == (expected[0], texts[stop])
            assert f"game {game.index}, line " in str(game.error) and repr(texts[stop]) in str(game.error)
        else:
            assert stop is None, f"the reference stops game {game.index} at {texts[stop]!r}"
            assert game.plies == len(texts)
            if expected:  # a syntax error after the last move
                assert isinstance(game.error, PdnSyntaxError) and expected in str(game.error)
            else:
                assert game.error is None, game.error
        assert same_position(board, game.end)
        assert [m.text.replace(" ", "") for m in game.moves] == texts[: game.plies]
    assert {g.index for g in games if g.error and g.variant} == set(faulty)


def test_real_collections_have_the_rule_set_their_tags_or_squares_give():
    variants = {name: {g.variant_name for g in read_file(DATA / name)} for name in REAL}
    assert variants["american-oca.pdn"] == {"american"}  # no GameType, squares up to 32
    assert variants["international-nk2003.pdn"] == {"international"}  # GameType "20"
    assert variants["international-kurnik.pdn"] == {"international"}  # GameType "20,W,10,10,N1,0"
    assert variants["international-schildpad.pdn"] == {"international"}  # no GameType, squares above 32
    assert variants["other-rule-sets.pdn"] == {"russian", "italian"}  # GameType "25", "22"


def test_published_russian_and_italian_games_replay_to_their_end():
    """Three games of the USSR championship of 1950 (Russian draughts, algebraic moves) and three of the
    Italian championship of 2005 (FID numbers): every move legal under our rules, to the last."""
    games = list(read_file(DATA / "other-rule-sets.pdn"))
    assert [g.tags["GameType"] for g in games] == ["25"] * 3 + ["22"] * 3
    assert [g.plies for g in games] == [61, 69, 58, 75, 69, 36]
    for game in games:
        assert game.error is None and game.end is not None
        assert game.to_game().position == game.end
    assert games[0].players == ("Блиндер Б.", "Миротин Б.")  # UTF-8 Cyrillic
    assert games[0].moves[10].text == "d4:b6"  # the Russian capture as written


def test_other_rule_sets_are_reported_never_guessed():
    games = read_text('[GameType "40"]\n1. 32-28 *\n[GameType "30"]\n1. c3-c4 *\n')
    for game, name in zip(games, ("Frisian draughts", "Turkish draughts"), strict=True):
        assert game.variant is None and game.plies == 0 and game.end is None
        assert isinstance(game.error, PdnVariantError) and name in str(game.error)
        assert game.error.game_type == game.tags["GameType"]
        with pytest.raises(PdnError):
            game.to_game()


def test_a_russian_file_without_gametype_is_read_by_the_squares_rule():
    """Without GameType the squares decide (American here); the first algebraic move that American
    checkers doesn't allow is reported, nothing is guessed."""
    text = (DATA / "other-rule-sets.pdn").read_text(encoding="utf-8").replace('[GameType "25"]\n', "")
    game = read_text(text)[0]
    assert game.variant is AMERICAN and game.plies == 0
    assert isinstance(game.error, PdnMoveError) and game.error.text == "c3-d4"


def test_the_result_counts_the_first_players_score_first():
    # PDN 2.0 (checkers): "1-0" Black won; International, as PGN: White.
    assert result_winner("1-0", AMERICAN) is Color.BLACK and result_winner("0-1", AMERICAN) is Color.WHITE
    assert result_winner("2-0", INTERNATIONAL) is Color.WHITE and result_winner("1-0", INTERNATIONAL) is Color.WHITE
    assert result_winner("0-2", INTERNATIONAL) is Color.BLACK
    assert result_winner("1/2-1/2", INTERNATIONAL) == result_winner("1-1", AMERICAN) == result_winner("½-½", AMERICAN)
    assert result_winner("1-1", AMERICAN) == "draw"
    for text in ("*", "0-0", "4-6", ""):
        assert result_winner(text, AMERICAN) is None
    assert [result_text(AMERICAN, w) for w in ("black", "white", "draw")] == ["1-0", "0-1", "1/2-1/2"]
    assert [result_text(INTERNATIONAL, w) for w in ("white", "black", "draw")] == ["2-0", "0-2", "1-1"]


def test_real_results_agree_with_the_material_at_the_end():
    """In the Open Checkers Archive excerpt, games whose final position has one side a man or more
    ahead and a decisive result give the win to that side (PDN 2.0's reading of 1-0 and 0-1)."""
    checked = 0
    for game in read_file(DATA / "american-oca.pdn"):
        winner = game.winner()
        white, black = (sum(game.end.count(c)) for c in (Color.WHITE, Color.BLACK))
        if isinstance(winner, Color) and white != black:
            assert winner is (Color.WHITE if white > black else Color.BLACK), game
            checked += 1
    assert checked >= 5


# --- encodings and line ends --------------------------------------------------------------------

def summary(games):
    return [(g.tags, [m.move for m in g.moves], g.comments, g.error and str(g.error)) for g in games]


def test_encodings_and_line_ends_give_the_same_games(tmp_path):
    text = (DATA / "international-nk2003.pdn").read_bytes().decode("utf-8")
    assert "Gérard" in text and "\r\n" in text
    expected = summary(read_file(DATA / "international-nk2003.pdn"))
    variants = {
        "latin1": text.encode("latin-1"),
        "cp1252": text.replace("Gérard", "Gérard “Gé”").encode("cp1252"),
        "utf8-bom": b"\xef\xbb\xbf" + text.encode("utf-8"),
        "utf16": text.encode("utf-16"),
        "lf": text.replace("\r\n", "\n").encode("utf-8"),
        "cr": text.replace("\r\n", "\r").encode("utf-8"),
    }
    for name, data in variants.items():
        path = tmp_path / f"{name}.pdn"
        path.write_bytes(data)
        games = summary(read_file(path))
        if name == "cp1252":  # typographic quotes: Windows-1252, not Latin-1
            [at] = [i for i, g in enumerate(games) if g[0].get("White", "").startswith("Gérard")]
            assert games[at][0]["White"] == "Gérard “Gé” Jansen"
            games[at][0]["White"] = "Gérard Jansen"
        assert games == expected, name
    assert summary(read_text("\ufeff" + text)) == expected


# --- the syntax, point by point ------------------------------------------------------------------

def plain(variant, moves: str, fen: str | None = None) -> list:
    pos = Position.from_fen(variant, fen) if fen else Position.initial(variant)
    out = []
    for text in moves.split():
        out.append(pos.parse_move(text))
        pos = pos.play(out[-1])
    return out


MANCHESTER = ("11-15 24-20 8-11 28-24 9-13 22-18 15x22 25x18 4-8 26-22 10-14 18x9 5x14 22-18 1-5 18x9 5x14 29-25 "
              "11-15 24-19 15x24 25-22 24-28 22-18 6-9 27-24 8-11 24-19 7-10 20-16 11x20 18-15 2-6 15-11 12-16 "
              "19x12 10-15 11-8 15-18 21-17 13x22 30-26 18x27 26x17x10x1")


def test_syntax_file_games_read_as_their_plain_moves():
    games = read_text((DATA / "syntax.pdn").read_text(encoding="utf-8"))
    assert [g.error for g in games] == [None] * 8
    assert [g.variant_name for g in games] == ["american", "american"] + ["international"] * 6
    first, algebraic, fen, by_squares, position, lidraughts, tags_only, again = games
    assert [m.move for m in first.moves] == plain(AMERICAN, MANCHESTER)
    assert [m.move for m in algebraic.moves] == plain(AMERICAN, "11-15 24-20 8-11 28-24 9-13 22-18 15x22 25x18")
    start = "B:W10,16,19,28,31,33,41:B7,8,12,17,26,37,42"
    assert fen.start == Position.from_fen(INTERNATIONAL, start)
    assert [m.move for m in fen.moves] == plain(INTERNATIONAL, "37x46 19-13 46x5 13x22 26x37 33-28 5x32 22-17 12x21 "
                                                "16x47", start)
    assert fen.end == Position.from_fen(INTERNATIONAL, "B:W47:B37")
    assert [m.move for m in by_squares.moves] == plain(INTERNATIONAL, "32-28 19-23 28x19 14x23")
    assert position.plies == 0  # no GameType and no move: the file's squares (above 32 in game 3) decide
    assert position.end == Position.from_fen(INTERNATIONAL, "W:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29")
    assert lidraughts.start == Position.initial(INTERNATIONAL) and lidraughts.plies == 2 and lidraughts.result == "*"
    assert tags_only.plies == 0 and tags_only.tags["Event"] == "Syntax: tags only"
    assert again.tags["Event"].startswith("Syntax: the same tag again") and again.plies == 1


def test_syntax_file_keeps_comments_marks_nags_offers_and_tags():
    first = read_text((DATA / "syntax.pdn").read_text(encoding="utf-8"))[0]
    assert first.tags["Site"] == 'C:\\games "home"'  # \\ and \" in a tag value
    assert first.result == "0-1" and first.winner() is Color.WHITE
    assert first.comments == ("a line comment before the first tag: the first game's opening comment",
                              "Before the first move.")
    moves = first.moves
    assert [(i, m.mark) for i, m in enumerate(moves) if m.mark] == [
        (0, "!"), (2, "?!"), (4, "!?"), (5, "??"), (6, "!!"), (8, "(?)")]
    assert moves[0].comments == ("Old Faithful",)  # the variation after it is skipped, with its comment
    assert moves[7].nags == (2,) and moves[15].nags == (7,)  # $2, and a * glued to the move
    assert moves[9].comments == ("to the end of the line: 6. 10-14 is no move here",)
    assert [i for i, m in enumerate(moves) if m.draw_offer] == [16, 18]  # {(=)} and a glued (=)
    assert moves[16].comments == ()
    assert moves[22].comments == ("a comment, so the reply is numbered again",)
    assert [m.text for m in moves[10:15]] == ["10-14", "18X9", "5:14", "22 - 18", "01-05"]
    assert moves[-1].text == "26x17x10x1"


def test_every_result_ends_a_game():
    games = read_file(DATA / "results.pdn")
    assert [(g.result, g.plies, g.variant_name, g.error) for g in games] == [
        ("1-0", 1, "american", None), ("0-1", 2, "american", None), ("1/2-1/2", 1, "american", None),
        ("2-0", 1, "american", None), ("0-2", 1, "american", None), ("1-1", 1, "american", None),
        ("0-0", 1, "american", None), ("*", 1, "american", None), ("½-½", 3, "american", None)]


def test_move_numbers_name_the_move_in_an_error():
    games = read_text('[GameType "21"]\n1. 11-15 24-20 2. 8-11 28-24 3. 9-14 22-18 4. 11-16 *\n'
                      '[GameType "21"]\n1. 11-15 24-20 2. 8-11 28-24 3. 9-13 22-18 4. 15x22 25x18 5. 4-8 99-1 *\n'
                      '[GameType "20"]\n[FEN "B:W31-50:B1-20"]\n1... 19-23 2. 32-28 23x32 3. 37x28 99-1 *')
    assert [(g.error.number, g.error.text, g.plies) for g in games] == [  # type: ignore[union-attr]
        ("4.", "11-16", 6), ("5...", "99-1", 9), ("3...", "99-1", 4)]
    assert "'11-16' is not a legal move here (Black to move; legal: 15x22)" in str(games[0].error)


def test_without_gametype_the_squares_decide():
    [american] = read_text("1. 11-15 23-19 *")
    [international] = read_text("1. 32-28 19-23 2. 37-32 *")  # 37: above 32
    assert american.variant is AMERICAN and international.variant is INTERNATIONAL
    # squares up to 32 from the standard start: the first move's squares, game by game
    assert [g.variant for g in read_text("1. 32-28 19-23 *\n1. 11-15 *")] == [INTERNATIONAL, AMERICAN]
    # a set-up position: the squares of its file
    fen_only = '[FEN "W:W31,32:B1"]\n*\n'
    assert read_text(fen_only)[0].variant is AMERICAN
    assert [g.variant for g in read_text(fen_only + "1. 33-28 39-33 *")] == [INTERNATIONAL] * 2
    # a first move legal in neither start (Italian draughts): American here, stopped at that move
    [italian] = read_text("1. 21-17 12-15 *")
    assert italian.variant is AMERICAN and isinstance(italian.error, PdnMoveError) and italian.error.text == "21-17"


# --- bad input ----------------------------------------------------------------------------------

def test_bad_input_file_reports_each_game_and_reads_on():
    games = list(read_file(DATA / "bad-input.pdn"))
    found = [(g.index, type(g.error).__name__ if g.error else None, g.plies, g.variant_name) for g in games]
    assert found == [
        (1, "PdnMoveError", 6, "american"), (2, "PdnMoveError", 0, "american"), (3, "PdnSyntaxError", 2, "american"),
        (4, "PdnSyntaxError", 1, "american"), (5, "PdnSyntaxError", 2, "american"), (6, "PdnSyntaxError", 1, "american"),
        (7, None, 3, "american"), (8, "PdnVariantError", 0, "other"), (9, "PdnVariantError", 0, "other"),
        (10, "PdnVariantError", 0, "other"), (11, "PdnMoveError", 0, "international"),
        (12, "PdnMoveError", 1, "american"), (13, None, 2, "american")]
    messages = [str(g.error) for g in games]
    for quoted in ("'11-16'", "it could be 10x17x26 or 10x19x26", "'xyz' after '23-19'", "/FEN",
                   "line 22: a variation opened here with '(' is not closed",
                   "line 26: a comment opened here with '{' is not closed",
                   "'[GameType]' has no value", "Frisian draughts", "8x8 board", "'W:W31-51:B1-20'",
                   "'33' is not a square of the American Checkers board"):
        assert any(quoted in m for m in messages), quoted
    assert len(games[6].warnings) == 3 and "'[Round]' has no value" in games[6].warnings[0]
    assert games[6].tags["Annotator"] == "Nobody"


def test_truncated_files_never_crash_and_keep_what_came_before(tmp_path):
    data = (DATA / "american-tricks-traps-and-shots.pdn").read_bytes()
    whole = list(read_file(DATA / "american-tricks-traps-and-shots.pdn"))
    for cut in range(0, len(data), 211):
        path = tmp_path / "cut.pdn"
        path.write_bytes(data[:cut])
        games = list(read_file(path))
        for game in games[:-1]:  # every game before the cut is as in the whole file
            assert [m.move for m in game.moves] == [m.move for m in whole[game.index - 1].moves]
        for game in games:
            assert game.error is None or isinstance(game.error, PdnError)
            assert game.end is not None or game.error is not None


def test_binary_garbage_is_refused_and_word_garbage_reported(tmp_path):
    rng = random.Random(12)
    path = tmp_path / "garbage.pdn"
    path.write_bytes(bytes(rng.randrange(256) for _ in range(100_000)))
    with pytest.raises(PdnFileError, match="not a PDN text file"):
        list(read_file(path))
    with pytest.raises(PdnFileError, match="can't open"):
        list(read_file(tmp_path / "missing.pdn"))
    with pytest.raises(PdnFileError):
        read_text("[Event \"x\"]\x00\x01\x02")
    words = " ".join(rng.choice(["lorem", "[x", "]", "{a", "}", "(", ")", "12.", "x-y", "1-0", "$", ";"])
                     for _ in range(5000))
    for game in read_text(words):
        assert game.error is None or isinstance(game.error, PdnError)


def test_random_damage_to_real_files_never_raises():
    rng = random.Random(2024)
    sources = [(DATA / name).read_text(encoding="utf-8") for name in ("american-oca.pdn", "international-nk2003.pdn")]
    alphabet = "[]{}()\";%*.-x0123456789 \n!?$/:abcK"
    for _ in range(80):
        text = list(rng.choice(sources)[: rng.randrange(200, 4000)])
        for _ in range(rng.randrange(1, 12)):
            at = rng.randrange(len(text))
            if rng.random() < 0.5:
                del text[at]
            else:
                text.insert(at, rng.choice(alphabet))
        for game in read_text("".join(text)):
            assert game.error is None or isinstance(game.error, PdnError)
            assert game.end is not None or game.error is not None


def test_huge_input_stays_within_the_limits(tmp_path, monkeypatch):
    monkeypatch.setattr(pdn_tokens, "MAX_LINE_BYTES", 4096)
    monkeypatch.setattr(pdn_reader, "MAX_GAME_CHARS", 50_000)
    monkeypatch.setattr(pdn_reader, "MAX_PLIES", 300)
    monkeypatch.setattr(pdn_tokens, "MAX_COMMENT_CHARS", 1000)
    kings = "[GameType \"21\"]\n[FEN \"B:WK32:BK1\"]\n" + " ".join(["1-5 32-28 5-1 28-32"] * 200) + " *\n"
    one_line = ('[GameType "20"] 1. 32-28 19-23 ' + "{" + "word " * 20_000 + "} ") * 3
    never_closed = '[GameType "21"]\n1. 11-15 {' + "and on\n" * 5000 + '[Event "after"]\n1. 9-13 *\n'
    tags = "".join(f'[Tag{i} "{"v" * 50}"]\n' for i in range(3000)) + "1. 11-15 *\n"
    path = tmp_path / "huge.pdn"
    path.write_text(kings + one_line + never_closed + tags, encoding="utf-8")
    games = list(read_file(path))
    assert games[0].plies == 300 and "more than 300 moves" in str(games[0].error)
    assert [g.plies for g in games[1:4]] == [2, 2, 2]
    assert all(len(g.moves[-1].comments[0]) <= 1000 for g in games[1:4])
    after_comment = games[4]
    assert after_comment.plies == 1 and "a comment opened here with '{' is not closed" in str(after_comment.error)
    assert games[5].tags == {"Event": "after"} and games[5].plies == 1 and games[5].error is None
    assert "longer than 50,000 characters" in str(games[6].error)
    assert all(sum(len(k) + len(v) for k, v in g.tags.items()) <= 51_000 for g in games[6:])


# --- round trips ----------------------------------------------------------------------------------

def readable(name):
    return [g for g in read_file(DATA / name) if g.start is not None]


@pytest.mark.parametrize("name", REAL + HAND_WRITTEN)
def test_what_is_written_reads_back_the_same(name):
    games = readable(name)
    out = io.StringIO()
    assert write_games(games, out) == len(games)
    text = out.getvalue()
    back = read_text(text)
    assert len(back) == len(games)
    for a, b in zip(games, back, strict=True):
        assert (b.variant, b.start, b.moves, b.comments, b.result) == (a.variant, a.start, a.moves, a.comments, a.result)
        assert [m.text for m in b.moves] == [pos.move_text(m.move) for m, pos in
                                             zip(b.moves, b.positions(), strict=False)]
        assert b.error is None or (a.error is not None and b.plies == a.plies)
        kept = {k: v for k, v in a.tags.items() if k.lower() not in ("fen", "setup", "gametype")}
        assert kept.items() <= b.tags.items()
    again = io.StringIO()
    write_games(back, again)
    assert again.getvalue() == text
    for line in text.splitlines():
        assert len(line) <= 80 or " " not in line.strip() or line.startswith("["), line


def test_written_layout():
    [game] = read_text('[White "W"][Black "B"][Event "E"][Extra "x"][GameType "20"][FEN "B:W31-50:B1-20"]'
                       "{intro} 1... 19-23 {c} 2. 32-28! 23x32 $7 3. 37x28 {(=)} 18-23 2-0")
    text = game.pdn()
    assert text.splitlines()[:10] == [
        '[Event "E"]', '[Site "?"]', '[Date "????.??.??"]', '[Round "?"]', '[White "W"]', '[Black "B"]',
        '[Result "2-0"]', '[GameType "20"]', '[FEN "B:W31-50:B1-20"]', '[Extra "x"]']
    assert text.splitlines()[10:] == ["", "{intro} 1... 19-23 {c} 2. 32-28! 23x32 $7 3. 37x28 {(=)} 3... 18-23 2-0", ""]
    start = read_text('[GameType "21"] 1. 11-15 *')[0].pdn()
    assert "FEN" not in start and '[GameType "21"]' in start and "\n1. 11-15 *\n" in start


# --- the game record's side -----------------------------------------------------------------------

def test_a_game_record_becomes_pdn_and_comes_back():
    game = Game(AMERICAN)
    for text in "11-15 23-19 8-11 22-17".split():
        game.play(text)
    game.play("9-13", offer_draw=True)
    game.play("17-14")  # declines
    game.resign(Color.BLACK)
    record = PdnGame.from_game(game, {"Event": "Club night", "White": "Ann", "Black": "Bob", "Result": "ignored"})
    assert record.result == "0-1" and record.tags["Result"] == "0-1"  # White won: the second number
    text = record.pdn()
    assert '[Event "Club night"]' in text and "FEN" not in text and '[GameType "21"]' in text
    assert "9-13 {(=)}" in text
    back = read_text(text)[0].to_game()
    assert back.moves == game.moves and back.outcome == game.outcome
    assert back.to_dict() == game.to_dict()


def test_an_agreed_draw_from_a_set_up_position_comes_back():
    start = Position.from_fen(INTERNATIONAL, "W:W28,K46:B19,23")
    game = Game(INTERNATIONAL, start)
    game.play("46-41", offer_draw=True)
    game.accept_draw()
    record = PdnGame.from_game(game)
    assert record.result == "1-1" and f'[FEN "{start.fen()}"]' in record.pdn()
    back = read_text(record.pdn())[0]
    assert back.start == start and back.moves[0].draw_offer
    again = back.to_game()
    assert again.outcome == game.outcome and again.outcome.reason == "agreement"
    assert read_text(PdnGame.from_game(Game(INTERNATIONAL)).pdn())[0].result == "*"


KINGS = "B:WK29,K32:BK1,K4"  # two kings each, far apart: quiet king moves only


def test_a_loaded_game_keeps_its_history_for_the_draw_rules():
    shuffle = "1-5 29-25 5-1 25-29"  # after this the start position stands again (its second time)
    [record] = read_text(f'[GameType "21"][FEN "{KINGS}"]\n{shuffle} *')
    game = record.to_game()
    assert game.ply == 4 and game.repetitions() == 2 and game.quiet_plies == 4
    for text in shuffle.split():
        game.play(text)
    assert game.outcome.reason == "repetition"  # the third time: the history counted
    fresh = Game(AMERICAN, Position.from_fen(AMERICAN, KINGS))  # a set-up position starts fresh
    assert fresh.repetitions() == 1 and fresh.quiet_plies == 0


def test_to_game_stops_where_the_rules_end_the_game_and_takes_the_first_plies():
    shuffle = "1-5 29-25 5-1 25-29 "
    [record] = read_text(f'[GameType "21"][FEN "{KINGS}"]\n{shuffle * 3}1/2-1/2')
    assert record.plies == 12 and record.error is None
    game = record.to_game()
    assert game.ply == 8 and game.outcome.reason == "repetition"
    part = record.to_game(plies=3)
    assert part.ply == 3 and not part.is_over
    [won] = read_text('[GameType "21"]\n1. 11-15 23-19 1-0')
    assert won.to_game().outcome.to_dict() == {"result": "black", "reason": "resignation"}
    assert not won.to_game(plies=1).is_over
    [drawn] = read_text('[GameType "21"]\n1. 11-15 23-19 1/2-1/2')  # no offer on the last move: left open
    assert not drawn.to_game().is_over
    [cut] = read_text('[GameType "21"]\n1. 11-15 23-19 2. 99-1 1-0')  # cut short: its result isn't applied
    assert cut.error is not None and cut.to_game().ply == 2 and not cut.to_game().is_over


def test_annotations_for_a_game_report():
    [record] = read_text('[GameType "21"]\n1. 11-15 23-19 2. 8-11 22-17 *')
    marked = record.annotate(2, mark="??", comment="-1.25").annotate(3, mark="?").annotate(None, comment="report")
    assert [m.mark for m in marked.moves] == ["", "", "??", "?"]
    assert marked.moves[2].comments == ("-1.25",) and marked.comments == ("report",)
    assert [m.mark for m in record.moves] == ["", "", "", ""] and record.comments == ()
    assert "{report} 1. 11-15 23-19 2. 8-11?? {-1.25} 2... 22-17? *" in marked.pdn()
    assert read_text(marked.pdn())[0].moves == marked.moves
    assert marked.annotate(2, mark="").moves[2].mark == ""
    for bad in (lambda: record.annotate(0, mark="?!?"), lambda: record.annotate(4, comment="x"),
                lambda: record.annotate(None, mark="?")):
        with pytest.raises(PdnError):
            bad()


def test_position_from_fen_as_pasted():
    assert position_from_fen("W:W31-50:B1-20") == Position.initial(INTERNATIONAL)
    assert position_from_fen(' [FEN "B:W21-32:B1-12"] ') == Position.initial(AMERICAN)
    assert position_from_fen("W:W31,32:B1").variant is AMERICAN
    assert position_from_fen("W:W31,32:B1", INTERNATIONAL).variant is INTERNATIONAL
    with pytest.raises(InvalidFenError, match="nonsense"):
        position_from_fen("nonsense")


# --- python -m engine pdn ------------------------------------------------------------------------

def test_cli_json_one_object_per_game():
    run = engine("pdn", str(DATA / "american-oca.pdn"), str(DATA / "other-rule-sets.pdn"), "--json")
    assert run.returncode == 0
    rows = [json.loads(line) for line in run.stdout.splitlines()]
    assert len(rows) == 30 + 6
    fields = {"file", "index", "tags", "variant", "plies", "fen", "result", "error", "warnings"}
    assert all(set(row) == fields for row in rows)
    games = list(read_file(DATA / "american-oca.pdn"))
    for row, game in zip(rows, games, strict=False):
        assert row["file"].endswith("american-oca.pdn") and row["variant"] == "american"
        assert (row["index"], row["plies"], row["fen"], row["result"], row["error"], row["tags"]) == (
            game.index, game.plies, game.end.fen(), game.tags["Result"], None, game.tags)
    russian = rows[30]
    assert russian["variant"] == "russian" and russian["plies"] == 61 and russian["error"] is None
    assert russian["tags"]["White"] == "Блиндер Б."


def test_cli_text_lines_and_exit_status(capsys):
    run = engine_here(capsys, "pdn", str(DATA / "bad-input.pdn"))
    lines = run.stdout.splitlines()
    assert run.returncode == 1 and len(lines) == 13
    assert "#1: american" in lines[0] and "6 plies" in lines[0] and "error: game 1, line 5, move 4. '11-16'" in lines[0]
    assert "error" not in lines[12]
    run = engine_here(capsys, "pdn", str(DATA / "international-kurnik.pdn"))
    assert run.returncode == 0 and len(run.stdout.splitlines()) == 4


def test_cli_export_writes_the_games_read_normalised(tmp_path, capsys):
    out = tmp_path / "out.pdn"
    sources = [DATA / "international-schildpad.pdn", DATA / "other-rule-sets.pdn", DATA / "syntax.pdn"]
    run = engine_here(capsys, "pdn", *map(str, sources), "--export", str(out))
    assert run.returncode == 1 and "wrote 24 games" in run.stderr and "left out" not in run.stderr
    written = read_text(out.read_text(encoding="utf-8"))
    read = [g for path in sources for g in read_file(path) if g.start is not None]
    assert [[m.move for m in g.moves] for g in written] == [[m.move for m in g.moves] for g in read]
    assert written[2].moves[-1].comments[-1].startswith("not read further: game 3, line 57, move 35. '36x16'")
    again = tmp_path / "again.pdn"
    assert engine_here(capsys, "pdn", str(out), "--export", str(again)).returncode == 0  # the cut games end there now
    assert " ".join(again.read_text(encoding="utf-8").split()).count("{not read further: game") == 2
    assert engine_here(capsys, "pdn", str(out), "--export", str(out)).returncode == 2  # never over a file being read


def test_cli_unreadable_files_are_reported_and_the_rest_read(tmp_path, capsys):
    binary = tmp_path / "picture.pdn"
    binary.write_bytes(bytes(range(256)) * 40)
    run = engine_here(capsys, "pdn", str(tmp_path / "missing.pdn"), str(binary), str(DATA / "international-kurnik.pdn"))
    assert run.returncode == 1 and len(run.stdout.splitlines()) == 4
    assert "can't open" in run.stderr and "not a PDN text file" in run.stderr


@pytest.mark.slow
def test_fifty_megabytes_are_read_in_bounded_memory(tmp_path):
    """A 50 MB file of real games: every game listed, the process's peak memory far below the file."""
    block = "".join((DATA / name).read_text(encoding="utf-8") for name in ("american-oca.pdn",
                                                                           "international-nk2003.pdn"))
    count = len(list(read_text(block)))
    big = tmp_path / "big.pdn"
    copies = 50_000_000 // len(block.encode("utf-8")) + 1
    with big.open("w", encoding="utf-8") as f:
        for _ in range(copies):
            f.write(block)
    code = ("import resource, sys; from engine.__main__ import main; status = main(['pdn', sys.argv[1]]); "
            "print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr); sys.exit(status)")
    run = subprocess.run([sys.executable, "-c", code, str(big)], cwd=ROOT, capture_output=True, text=True, timeout=3600)
    assert run.returncode == 0, run.stderr[-2000:]
    assert len(run.stdout.splitlines()) == count * copies
    peak_kib = int(run.stderr.split()[-1])
    assert peak_kib < 400 * 1024  # numba and numpy alone take about 150 MB


# --- the reader's visitor ----------------------------------------------------------------------------


class MoveLister(pdn_reader.PdnVisitor[tuple[dict, list[str]]]):
    """A visitor of its own, as python-chess's visitors are written: each game's tags and main-line move
    texts (no rules, no model)."""

    def __init__(self) -> None:
        self.tags: dict[str, str] = {}
        self.moves: list[str] = []

    def visit_tag(self, name: str, value: str, line: int) -> None:
        self.tags[name] = value

    def visit_move(self, text: str, line: int, number: int | None, second: bool | None) -> None:
        self.moves.append(text)

    def end_game(self) -> tuple[dict, list[str]]:
        return self.tags, self.moves


@pytest.mark.parametrize("name", ["american-oca.pdn", "international-nk2003.pdn", "international-dutch96.pdn"])
def test_a_visitor_of_its_own_gets_each_games_tags_and_main_line(name):
    text = (DATA / name).read_text(encoding="utf-8")
    reader = pdn_reader.PdnReader(MoveLister)
    games = list(reader.games(pdn_tokens.tokens(pdn_tokens.text_lines(text))))
    expected = plain_games(text)
    assert len(games) == len(expected)
    for (tags, moves), (plain_tags, plain_moves) in zip(games, expected, strict=True):
        assert tags == plain_tags
        assert [re.sub(r"\s+", "", m).lower() for m in moves if m != tags.get("Result")] == plain_moves

"""The Rules pages of both games, in our own words, written from the specification
(shared/seeds/000, "Rules and how to play" and "International Draughts (10x10) rules", which restate
the WCDF and FMJD rules), for a player who has never played the game.

Each rule is a :class:`~game.help.model.Section` with a stable id (``SECTION_IDS``), so other code can
open the page at that rule (``explain.py`` returns these ids), and a small diagram: a position, the
move to draw (a legal move of :class:`engine.Position`, drawn like the game's orange path, or as an
arrow), a move the rules refuse, squares marked, a caption. The numbers in the text come from the
:class:`engine.Variant` table, so the page and the rules can't disagree.
"""

from __future__ import annotations

from functools import cache

from engine import AMERICAN, INTERNATIONAL, Color, Variant

from .model import Claim, Diagram, Page, Section, Style, board_fen, route, squares

# Every id a Rules page may have; a page has those that apply to its game (no maximum capture in
# American checkers, no lone-king endings, ...).
SECTION_IDS = (
    "differences", "board", "men-move", "men-capture", "multi-jump", "compulsory-capture", "choice-of-capture",
    "maximum-capture", "crowning", "kings-move", "kings-capture", "winning", "draw-repetition", "draw-move-limit",
    "draw-endgame", "draw-main-diagonal", "draw-offers",
)

B, W = Color.BLACK, Color.WHITE
PATH, ARROW, REFUSED = Style.PATH, Style.ARROW, Style.REFUSED


def rules_page(variant: Variant) -> Page:
    """The Rules page of ``variant``."""
    return _PAGES[variant.name]()


# --- shared by both games ------------------------------------------------------------------------

def _winning(diagram: Diagram) -> Section:
    return Section("winning", "Winning", (
        "You win when your opponent can't make a move on their turn: either all their pieces have been "
        "captured, or every piece they have left is blocked.",
        "A player may also resign, and then loses.",
    ), (diagram,))


def _repetition(variant: Variant, diagram: Diagram) -> Section:
    return Section("draw-repetition", "Draw: the same position three times", (
        f"If the same position comes up for the {_ordinal(variant.repetition_count)} time, with the same "
        "player to move, the game is a draw.",
        "The game declares this draw, and every other automatic draw, by itself: nobody has to claim it.",
    ), (diagram,))


def _move_limit(variant: Variant, what_moves: str, diagram: Diagram) -> Section:
    n = variant.quiet_limit_moves
    return Section("draw-move-limit", f"Draw: {n} moves each without progress", (
        f"If {n} moves each are played in which {what_moves}, the game is a draw. Every move of a man and "
        "every capture starts this count again.",
        "The panel shows how many moves are left before this draw, and once 5 or fewer moves each remain, "
        "the count also appears below the board.",
    ), (diagram,))


def _draw_offers() -> Section:
    return Section("draw-offers", "Draw offers", (
        "The players may also agree to a draw. You offer one together with a move; your opponent accepts "
        "it on their turn, or declines it just by making a move.",
        "Once your offer has been declined, you may offer again only after a man has moved or a piece has "
        "been captured, by either player. The move that carries your new offer doesn't count for this.",
        "The Controls page shows how to offer a draw and how to accept one.",
    ))


def _ordinal(n: int) -> str:
    return {2: "second", 3: "third", 4: "fourth"}.get(n, f"{n}th")


# --- American checkers ---------------------------------------------------------------------------

def _american() -> Page:
    v = AMERICAN
    fen = lambda turn, white="", black="": board_fen(v, turn, white, black)  # noqa: E731
    line = lambda text, style=PATH, *claims: route(v, text, style, *claims)  # noqa: E731
    sq = lambda names: frozenset(squares(v, names))  # noqa: E731
    return Page("rules", f"Rules: {v.title}", (
        Section("board", "The board and the pieces", (
            "American checkers is played on the 32 dark squares of an 8×8 board, turned so that each player "
            "has a dark square in the corner on their left.",
            "Each player starts with 12 pieces, called men, on the dark squares of the three rows nearest to "
            "them. Black moves first; then the players take turns, moving one piece each turn.",
            "Squares are named from Black's side: columns a to h from the left, rows 1 to 8 from Black's edge, "
            "as printed on the board's frame.",
        ), (Diagram(v.start_fen, "The start: Black's men on rows 1 to 3, White's on rows 6 to 8. Black moves "
                    "first."),)),
        Section("men-move", "How men move", (
            "A man moves one square diagonally forward, onto an empty dark square. Forward means towards the "
            "other player's side of the board.",
            "A man never moves backward or sideways.",
        ), (Diagram(fen(B, "g7", "d4"), "The man on d4 can move to c5 or e5. It may not step back to c3.",
                    (line("d4-c5", ARROW), line("d4-e5", ARROW), line("d4-c3", REFUSED)), complete=True),)),
        Section("men-capture", "Capturing", (
            "A man captures by jumping. If an opposing piece stands diagonally next to it, in front, and the "
            "square just beyond that piece is empty, the man jumps over it onto that square. The piece it "
            "jumped is captured and taken off the board.",
            "In American checkers a man captures only forward.",
        ), (Diagram(fen(B, "d4 f2", "e3"), "The man on e3 jumps the white man on d4 and lands on c5. It may "
                    "not jump f2: that would be a backward capture.",
                    (line("e3xc5", PATH, Claim.ONLY), line("e3xg1", REFUSED))),)),
        Section("multi-jump", "Multiple jumps", (
            "If, after a jump, the same piece can jump again from where it landed, it must: it goes on "
            "jumping until no jump is left. All of this is one move, however many pieces it takes.",
            "The jumped pieces are removed when the move is over, and no piece can be jumped twice.",
        ), (Diagram(fen(B, "b4 d6 g7", "a3"), "The man on a3 jumps b4 and lands on c5; from there it must "
                    "jump d6 too, ending on e7. Both white men come off the board.",
                    (line("a3xc5xe7", PATH, Claim.ONLY), line("a3xc5", REFUSED))),)),
        Section("compulsory-capture", "You must capture", (
            "If any of your pieces can capture, you must make a capture: a move that captures nothing is "
            "not allowed then.",
            "In the game a gold ring at the foot of a piece shows that it can capture, and the status line "
            "says “You must capture”.",
        ), (Diagram(fen(B, "d4 g7", "c3 g3"), "Black must capture: c3 jumps d4. Moving g3 instead is not "
                    "allowed.", (line("c3xe5", PATH, Claim.ONLY), line("g3-h4", REFUSED)), rings=sq("c3")),)),
        Section("choice-of-capture", "Choosing a capture", (
            "When more than one capture is possible, you may choose any of them, even one that takes fewer "
            "pieces.",
            "Once the piece has started, though, it must finish: it keeps jumping as long as it can.",
        ), (Diagram(fen(B, "b4 d6 g3", "a3 h2"), "Black may take one man with h2×f4, although a3 could take "
                    "two with a3×c5×e7.", (line("h2xf4", PATH, Claim.FEWER), line("a3xc5xe7", ARROW)),
                    rings=sq("a3 h2"), complete=True),)),
        Section("crowning", "Crowning", (
            "A man that reaches the far row, the other player's back row, becomes a king. The game shows a "
            "king as two pieces stacked, with a gold ring on top.",
            "Reaching the far row ends the move, even in the middle of a capture: the new king can't jump "
            "on until its next turn.",
        ), (Diagram(fen(B, "e7 g7", "d6"), "The man on d6 jumps e7 and lands on the far row: it is crowned "
                    "and the move ends. It may not go on to jump g7 in the same move.",
                    (line("d6xf8", PATH, Claim.ONLY, Claim.CROWNS), line("d6xf8xh6", REFUSED))),)),
        Section("kings-move", "How kings move", (
            "A king moves one square diagonally, forward or backward.",
            "Kings in American checkers never move more than one square at a time.",
        ), (Diagram(fen(B, "g7", "Kd4"), "The king on d4 can move to any of the four squares next to it, "
                    "but not straight on to f6.",
                    (line("d4-c5", ARROW), line("d4-e5", ARROW), line("d4-c3", ARROW), line("d4-e3", ARROW),
                     line("d4-f6", REFUSED)), complete=True),)),
        Section("kings-capture", "How kings capture", (
            "A king captures as a man does, jumping an opposing piece right next to it onto the empty square "
            "beyond, but in all four directions, forward and backward.",
            "Like a man, it must keep jumping while it can.",
        ), (Diagram(fen(B, "d4 d2 g7", "Ke5"), "The king on e5 jumps d4 and then d2, backward both times, "
                    "ending on e1. It can't jump g7 from where it stands: the piece must be right next to it.",
                    (line("e5xc3xe1", PATH, Claim.ONLY), line("e5xh8", REFUSED))),)),
        _winning(Diagram(fen(B, "a5", "b4 d2"), "Black plays d2-c3. White's last man, on a5, can neither move "
                         "nor jump: White has no move and loses.", (line("d2-c3", PATH, Claim.WINS),),
                         marks=sq("a5"))),
        _repetition(v, Diagram(fen(B, "Kg7", "Kb2"), "If both kings keep going back and forth, this position "
                               "returns; the third time it does, the game is drawn.", (line("b2-c3", ARROW),))),
        _move_limit(v, "no man moves and nothing is captured",
                    Diagram(fen(B, "Kf6", "Kd4"), f"Only the kings are left to move. If {v.quiet_limit_moves} "
                            "moves each pass like this without a capture, the game is drawn.",
                            (line("d4-c5", ARROW),))),
        _draw_offers(),
    ))


# --- International draughts ----------------------------------------------------------------------

def _international() -> Page:
    v = INTERNATIONAL
    fen = lambda turn, white="", black="": board_fen(v, turn, white, black)  # noqa: E731
    line = lambda text, style=PATH, *claims: route(v, text, style, *claims)  # noqa: E731
    sq = lambda names: frozenset(squares(v, names))  # noqa: E731
    three, two, diagonal = v.lone_king_vs_three_moves, v.lone_king_vs_two_moves, v.lone_king_main_diagonal_moves
    main_diagonal = "a1 b2 c3 d4 e5 f6 g7 h8 i9 j10"
    return Page("rules", f"Rules: {v.title}", (
        Section("differences", "New to International draughts?", (
            "If you know American checkers: the board is bigger (10×10, 20 men each), White moves first, and "
            "four rules are different.",
            "• Men capture backward as well as forward; they still move only forward.",
            "• Kings fly: they move and capture along a whole diagonal.",
            "• You must make the capture that takes the most pieces.",
            "• A man that only passes over the far row during a capture stays a man.",
        )),
        Section("board", "The board and the pieces", (
            "International draughts is played on the 50 dark squares of a 10×10 board, turned so that each "
            "player has a dark square in the corner on their left.",
            "Each player starts with 20 pieces, called men, on the dark squares of the four rows nearest to "
            "them. White moves first; then the players take turns, moving one piece each turn.",
            "Squares are named from White's side: columns a to j from the left, rows 1 to 10 from White's "
            "edge, as printed on the board's frame.",
        ), (Diagram(v.start_fen, "The start: White's men on rows 1 to 4, Black's on rows 7 to 10. White moves "
                    "first."),)),
        Section("men-move", "How men move", (
            "A man moves one square diagonally forward, onto an empty dark square. Forward means towards the "
            "other player's side of the board.",
            "A man never moves backward, even though it may capture backward.",
        ), (Diagram(fen(W, "e5", "a9"), "The man on e5 can move to d6 or f6. It may not step back to d4.",
                    (line("e5-d6", ARROW), line("e5-f6", ARROW), line("e5-d4", REFUSED)), complete=True),)),
        Section("men-capture", "Capturing", (
            "A man captures by jumping. If an opposing piece stands diagonally next to it and the square just "
            "beyond that piece is empty, the man jumps over it onto that square, and the jumped piece is "
            "captured.",
            "In International draughts men capture backward as well as forward.",
        ), (Diagram(fen(W, "e5", "d4 f6"), "The man on e5 may jump d4, backward, landing on c3, or jump f6, "
                    "forward, landing on g7.", (line("e5xc3", PATH), line("e5xg7", ARROW)), complete=True),)),
        Section("multi-jump", "Multiple jumps", (
            "If the capturing piece can jump again from where it lands, it must go on until no jump is left. "
            "The whole chain is one move.",
            "Jumped pieces stay on the board until the move is over, so they still block the way, and no "
            "piece can be jumped twice. The capturing piece may cross the same empty square more than once.",
            "When the move is over, all the jumped pieces come off together.",
        ), (Diagram(fen(W, "a3", "b4 d6 f6"), "The man on a3 jumps b4, d6 and then f6, turning backward for "
                    "the last jump, and ends on g5.", (line("a3xc5xe7xg5", PATH, Claim.ONLY),)),)),
        Section("compulsory-capture", "You must capture", (
            "If any of your pieces can capture, you must make a capture: a move that captures nothing is not "
            "allowed then. Which captures you may choose, the next rule says.",
            "In the game a gold ring at the foot of a piece shows that it can capture, and the status line "
            "says “You must capture”.",
        ), (Diagram(fen(W, "c3 h2", "d4 a9"), "White must capture: c3 jumps d4. Moving h2 instead is not "
                    "allowed.", (line("c3xe5", PATH, Claim.ONLY), line("h2-g3", REFUSED)), rings=sq("c3")),)),
        Section("maximum-capture", "Take the most pieces", (
            "When there is more than one way to capture, you must choose one that takes the most pieces. "
            "Kings and men count the same: one each. It doesn't matter which piece captures.",
            "If two or more captures take the same number, you may choose any of them.",
        ), (Diagram(fen(W, "e3", "d4 f4 h6"), "The man on e3 could jump d4 and take one man, or jump f4 and "
                    "then h6 and take two. Only the capture of two is allowed.",
                    (line("e3xg5xi7", PATH, Claim.ONLY, Claim.MAXIMUM), line("e3xc5", REFUSED)),
                    rings=sq("e3")),)),
        Section("crowning", "Crowning", (
            "A man that ends its move on the far row, the other player's back row, becomes a king. The game "
            "shows a king as two pieces stacked, with a gold ring on top.",
            "A man that only passes over the far row during a capture, and jumps on from there, is still a "
            "man when the move is over.",
        ), (Diagram(fen(W, "c9", "f4"), "The man on c9 moves to d10 and becomes a king.",
                    (line("c9-d10", PATH, Claim.CROWNS), line("c9-b10", ARROW))),
            Diagram(fen(W, "b8", "c9 e9"), "The man on b8 jumps c9 and lands on the far row, but it must jump "
                    "on over e9 to f8: it stays a man.",
                    (line("b8xd10xf8", PATH, Claim.ONLY, Claim.STAYS_MAN), line("b8xd10", REFUSED))))),
        Section("kings-move", "How kings move", (
            "A king moves along a diagonal, forward or backward, as many squares as it likes, as long as "
            "they are empty. It can't pass over a piece.",
        ), (Diagram(fen(W, "Kd4 f6", "a9"), "The king on d4 can go to a7, g1 or a1 in one move, but not to "
                    "g7: its own man on f6 is in the way.",
                    (line("d4-a7", ARROW), line("d4-g1", ARROW), line("d4-a1", ARROW), line("d4-g7", REFUSED))),)),
        Section("kings-capture", "How kings capture", (
            "A king can capture a piece far along a diagonal, as long as only empty squares lie between them "
            "and the square just beyond the piece is empty. It may land on any of the empty squares beyond.",
            "Like every capturing piece it must jump on while it can, and the most-pieces rule counts here "
            "too: where it lands can decide how many it takes.",
        ), (Diagram(fen(W, "Ka3", "e7"), "The king on a3 jumps e7 from afar and may stop on f8, g9 or h10.",
                    (line("a3xg9", PATH), line("a3xf8", ARROW), line("a3xh10", ARROW)), complete=True),
            Diagram(fen(W, "Kb2", "e5 h6"), "Only from g7 can the king go on to jump h6, so it must land there "
                    "and take both men. Stopping on f6 would take just one.",
                    (line("b2xg7xi5", PATH, Claim.MAXIMUM), line("b2xg7xj4", ARROW), line("b2xf6", REFUSED)),
                    complete=True))),
        _winning(Diagram(fen(W, "i5 g3", "j6"), "White plays g3-h4. Black's last man, on j6, can neither move "
                         "nor jump: Black has no move and loses.", (line("g3-h4", PATH, Claim.WINS),),
                         marks=sq("j6"))),
        _repetition(v, Diagram(fen(W, "Kb2", "Kh10"), "If both kings keep going back and forth, this position "
                               "returns; the third time it does, the game is drawn.", (line("b2-a3", ARROW),))),
        _move_limit(v, "only kings move and nothing is captured",
                    Diagram(fen(W, "Kc1 e3", "Kh8 j10"), f"If from here both sides move only their kings, and "
                            f"nothing is captured, for {v.quiet_limit_moves} moves each, the game is drawn, even "
                            "with men on the board.",
                            (line("c1-b2", ARROW),))),
        Section("draw-endgame", "Draw: a lone king", (
            "When one side has only a single king left, the other side has a limited number of moves to win:",
            f"• against 3 pieces (3 kings, 2 kings and a man, or a king and 2 men): {three} moves each;",
            f"• against 2 pieces or 1 (2 kings, a king and a man, or a single king): {two} moves each.",
            "The count starts when that ending first appears, and capturing a piece on the way doesn't add "
            "moves. If the last move within the limit leaves the lone king's side without a move, or takes "
            "its king, that is still a win.",
            "The panel's count of moves left before a draw includes these limits.",
        ), (Diagram(fen(W, "Kc1 Ke1 Kg1", "Kd8"), f"Three kings against one: White has {three} moves each "
                    "from here to win, or the game is drawn."),)),
        Section("draw-main-diagonal", "Draw: the lone king on the long diagonal", (
            "The long diagonal runs from a1 to j10. In an ending of 3 pieces against a lone king, if the lone "
            "king stands on the long diagonal while the other side has no piece on it, only "
            f"{diagonal} moves each remain from then on.",
            f"And when 3 against 1 becomes 2 against 1, only {two} moves each remain from that moment.",
            f"Neither case ever gives more moves than the {three}-move limit that was already running.",
            "The official rules state the long-diagonal case briefly; the game applies it as written here.",
        ), (Diagram(fen(W, "Kc1 Ke1 Kg1", "Ke5"), f"The black king on e5 holds the long diagonal and no white "
                    f"piece stands on it: White has only {diagonal} moves each to win.",
                    marks=sq(main_diagonal)),)),
        _draw_offers(),
    ))


_PAGES = {AMERICAN.name: cache(_american), INTERNATIONAL.name: cache(_international)}

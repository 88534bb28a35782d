"""The rule sets, as data.

One frozen :class:`Variant` per game. Everything that differs between the rule sets is a field here,
with the article of the rules it comes from, so that a new rule set is a new table entry rather than a
hunt through the code: the kernels read the fields (through ``_board.layout``), never a variant's name.

Sources (the article numbers in the comments refer to them):

* American checkers: WCDF "English Rules" (2025 edition), as restated in the specification (shared/seeds/000).
* International draughts: FMJD "Annex 1 - Official FMJD rules for international draughts" (2024), as
  restated in the specification.
* Russian and Brazilian draughts: the FMJD section 64's rules (fmjd64.org, "Rules of the game",
  articles 1.4-1.5 for the moves, 7.2.3-7.2.8 for the draws, as lidraughts' Russian variant quotes
  them; lidraughts plays Brazilian with the same draw rules), dctl ``core/rules/russian.hpp`` (the
  Russian code of 2004, 1.4.5 and 1.5.15) and ``international.hpp`` (``using brazilian =
  international``); the Brazilian federation's rules (brazil.fmjd.org, "rules").
* Pool checkers: the APCA Tournament Rules of Play (americanpoolcheckers.us), rules 2, 5 and 7 for the
  board and the first move; 14-23 and 26 as dctl ``core/rules/pool.hpp`` numbers them; the 13 moves of
  three kings against one from the APCA Playing Rules as Wikipedia ("Pool checkers") restates them.
* Spanish draughts: the Portuguese federation's "Regras do jogo de damas clássicas" (FPD 2013; the
  Spanish game under its Portuguese name, as dctl ``core/rules/spanish.hpp`` cites it).
* Italian draughts: FID "Regolamento tecnico", Capo I (fid.it), articles 2.3-2.6 for the board, 4-6 for
  the moves and captures, 9.3(b1) and 10.4 for the draws as dctl ``core/rules/italian.hpp`` reads them.
* Czech draughts: the Czech federation's rules (damweb.cz/pravidla/cdfull.html, as dctl
  ``core/rules/czech.hpp`` cites them; the clubs' summaries agree: a king's capture comes first).
* Thai draughts (mak-hot): mindsports.nl "Thai", checkers.fandom.com "Mak-hot", dctl
  ``core/rules/thai.hpp``; the PDN 3.0 GameType table (pdn.fmjd.org/gametype) for the first player.
* Notation and board orientation: the PDN 3.0 GameType table (pdn.fmjd.org/gametype): type number,
  first player, notation (A algebraic / N numeric, and the corner of square 1 seen from the first
  player) and the invert flag (the bottom left corner is not a playing square).

Where a rule set's texts give no automatic move limit (Spanish, Czech, Thai) the game still needs one
to end: those entries say so beside the number, which is ours (FMJD 6.3's 25 moves).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass


class Color(enum.IntEnum):
    """A side. The values are the ones the kernels use."""

    WHITE = 0
    BLACK = 1

    @property
    def opponent(self) -> "Color":
        return Color(1 - self)

    @property
    def label(self) -> str:
        return self.name.lower()


@dataclass(frozen=True)
class Variant:
    """One rule set. The rules of moving and capturing, the automatic draws, and how its players write
    the squares and place the board. Counts of moves are moves each (one move of each side)."""

    name: str
    title: str
    size: int  # squares along one side of the board
    rows_of_men: int  # WCDF 1.4 (3 rows) / FMJD 2.3 (4 rows) / Thai: 2 rows, 8 men each
    first_player: Color  # WCDF 1.5: the dark pieces (Black) / FMJD 2.4: White
    men_capture_backward: bool  # WCDF 1.18: forward only / FMJD 4.2: men capture backward too
    flying_kings: bool  # WCDF 1.10: one square / FMJD 3.9 and 4.3: any distance
    majority_capture: bool  # WCDF 1.19: free choice / FMJD 4.13: the most pieces
    promotion_ends_capture: bool  # WCDF 1.21: crowning ends the move / FMJD 4.14: passing through stays a man
    repetition_count: int  # WCDF 1.31 / FMJD 6.2: the third time the same position occurs
    quiet_limit_moves: int  # moves each with no man moved and no capture: WCDF 1.32 (40) / FMJD 6.3 (25)
    endgame_rule: bool  # the rule set counts moves in endings (the lone_king_* and kings_ending_* fields)
    # The computer's Medium level searches this deep (specification, shared/seeds/000 FAQ "Is there a
    # winning strategy for Checkers?": 8 moves ahead in American Checkers, 6 in International Draughts)
    medium_depth_plies: int
    # PDN 3.0 (pdn.fmjd.org): the GameType tag's number (20 International draughts, 21 English draughts,
    # which is American checkers) and the points of a win in the Result tag (1: "1-0", "1/2-1/2"; 2: "2-0", "1-1")
    pdn_game_type: int
    pdn_win_points: int
    # --- endgame counts, in moves each; None where the rule set has no such count. See engine.game and
    # engine._draws for how they count.
    # FMJD 6.4: a lone king against 3 pieces with a king among them (3 kings, 2 kings + man, king + 2 men): 16
    lone_king_vs_three_moves: int | None = None
    # FMJD 6.4 (against 2 kings, king + man, king): 5 / FMJD-64 7.2.8: the same pieces: 5
    lone_king_vs_two_moves: int | None = None
    # FMJD 6.4 / FMJD-64 7.2.7: the 3 pieces against a lone king alone on the main (long) diagonal: 5
    lone_king_main_diagonal_moves: int | None = None
    # FMJD-64 7.2.4: three kings (or more, with lone_king_vs_more_kings) against a lone king: 15 / APCA: 13
    lone_king_vs_three_kings_moves: int | None = None
    lone_king_vs_more_kings: bool = False  # FMJD-64 7.2.4: "three kings (or more)"
    # FMJD-64 7.2.6: both sides have kings and the balance of pieces has not changed: 4 or 5 pieces on the
    # board 30 moves, 6 or 7 pieces 60 moves
    kings_ending_four_five_moves: int | None = None
    kings_ending_six_seven_moves: int | None = None
    # FMJD-64 7.2.4/7.2.6 count "from establishing the correlation of forces": a capture or a crowning
    # starts a count afresh (but the 7.2.8 count, which never restarts). FMJD 6.4 counts from when the
    # material group arose, and changes within a group keep the count.
    endgame_counts_restart: bool = False
    # --- capturing, beyond the fields above
    men_capture_kings: bool = True  # FID 5.3(b): a man never captures a king
    # Russian code 1.5.15 (FMJD-64 1.5.15): a man reaching the last row in a capture is crowned at once and
    # goes on capturing as a king
    crowned_capture_continues: bool = False
    king_lands_next: bool = False  # Thai: a king takes from any distance but lands just beyond the piece
    # a flying king with a choice of landing squares beyond a piece must take one from which it can jump on,
    # if there is one (Russian, Pool, Czech: as dctl and pydraughts play them, and the shashki forum's perft
    # counts them); under the majority rule the count decides that anyway
    king_lands_to_go_on: bool = False
    captured_removed_at_once: bool = False  # Thai: each captured piece leaves the board as it is taken
    # capture priorities after the count (majority_capture), in this order of precedence:
    king_capture_first: bool = False  # FID 6.7 / Czech 4.14: a capture with a king comes first
    most_kings_capture: bool = False  # FID 6.8 / FPD "lei da qualidade": then the most kings taken
    kings_first_capture: bool = False  # FID 6.9: then the capture that meets the kings earliest
    # --- how the game is written and set out (PDN 3.0 GameType: notation, corner digit, invert flag)
    algebraic_notation: bool = False  # squares named a1..h8 (FMJD-64 and Czech rules) instead of numbers
    # where square 1 lies, seen from the first player: 0 bottom left, 1 bottom right, 2 top left, 3 top
    # right; numbers run along its row away from that corner, then row after row (PDN 3.0 GameType)
    square_one_corner: int = 2
    mirrored_board: bool = False  # the bottom left corner is a light square (FID 2.3; FPD 2.1.5)
    capture_separator: str = "x"  # between the squares of a capture: "x"; Russian ":"; Thai "-" (PDN 3.0)
    piece_colours: tuple[str, str] = ("white", "black")  # the colours of White's and Black's men
    aliases: tuple[str, ...] = ()  # other names the command line and the Hub protocol accept (lower case)

    def __hash__(self) -> int:
        # by name: equal rule sets have equal names, and the generated hash of all the fields costs
        # 1.4 us, paid by every cache keyed by rule set (the interface's panel hashes a few hundred a frame)
        return hash(self.name)

    def side_name(self, color: Color) -> str:
        """What the players call ``color``'s side (in "... to move", a result, a clock): the colour of its
        pieces, as every rule text names them: ``"White"``, ``"Black"``, ``"Red"`` for Pool's Black."""
        return self.piece_colours[color].capitalize()

    @property
    def squares(self) -> int:
        """How many playable (dark) squares: 32 or 50."""
        return self.size * self.size // 2

    @property
    def row_width(self) -> int:
        """Playable squares in one row."""
        return self.size // 2

    @property
    def start_fen(self) -> str:
        from .notation import start_squares

        white, black = start_squares(self)
        first = "B" if self.first_player is Color.BLACK else "W"
        return f"{first}:W{white[0]}-{white[1]}:B{black[0]}-{black[1]}"

    @property
    def pdn_game_type_tag(self) -> str:
        """The GameType tag's full value, as the PDN 3.0 table gives it: ``25,W,8,8,A0,0``."""
        first = "B" if self.first_player is Color.BLACK else "W"
        notation = "A0" if self.algebraic_notation else f"N{self.square_one_corner}"
        return f"{self.pdn_game_type},{first},{self.size},{self.size},{notation},{int(self.mirrored_board)}"

AMERICAN = Variant(
    name="american",
    title="American Checkers",
    size=8,
    rows_of_men=3,
    first_player=Color.BLACK,
    men_capture_backward=False,
    flying_kings=False,
    majority_capture=False,
    promotion_ends_capture=True,
    repetition_count=3,
    quiet_limit_moves=40,
    endgame_rule=False,
    medium_depth_plies=8,
    pdn_game_type=21,
    pdn_win_points=1,
    square_one_corner=1,  # PDN 3.0 "21,B,8,8,N1,0": square 1 at Black's near right
    aliases=("english", "checkers", "8x8"),
)

INTERNATIONAL = Variant(
    name="international",
    title="International Draughts",
    size=10,
    rows_of_men=4,
    first_player=Color.WHITE,
    men_capture_backward=True,
    flying_kings=True,
    majority_capture=True,
    promotion_ends_capture=False,
    repetition_count=3,
    quiet_limit_moves=25,
    endgame_rule=True,
    medium_depth_plies=6,
    pdn_game_type=20,
    pdn_win_points=2,
    lone_king_vs_three_moves=16,
    lone_king_vs_two_moves=5,
    lone_king_main_diagonal_moves=5,
    square_one_corner=2,  # PDN 3.0 "20,W,10,10,N2,0": square 1 at White's far left
    aliases=("draughts", "10x10", "standard"),
)


# The seven rule sets of "More rule sets" (issue 25). The comment beside a field names its article.

BRAZILIAN = Variant(
    name="brazilian",
    title="Brazilian Draughts",
    size=8,
    rows_of_men=3,  # brazil.fmjd.org rules: 12 pieces each
    first_player=Color.WHITE,  # brazil.fmjd.org: "The white player begins"
    men_capture_backward=True,  # brazil.fmjd.org: men and kings capture forward and backward
    flying_kings=True,  # brazil.fmjd.org: the king "moves forwards and backwards for as many squares as he likes"
    majority_capture=True,  # brazil.fmjd.org: "obligatory to take the biggest number of pieces"
    promotion_ends_capture=False,  # CBD rule 13: a man only passing a crowning square stays a man
    repetition_count=3,  # FMJD-64 7.2.3
    quiet_limit_moves=15,  # FMJD-64 7.2.5 (the Brazilian federation's national rule 16 says 20)
    endgame_rule=True,
    medium_depth_plies=8,
    pdn_game_type=26,  # PDN 3.0 "26,W,8,8,A0,0"
    pdn_win_points=1,
    lone_king_vs_two_moves=5,  # FMJD-64 7.2.8
    lone_king_main_diagonal_moves=5,  # FMJD-64 7.2.7
    lone_king_vs_three_kings_moves=15,  # FMJD-64 7.2.4
    lone_king_vs_more_kings=True,  # FMJD-64 7.2.4 "(or more)"
    kings_ending_four_five_moves=30,  # FMJD-64 7.2.6
    kings_ending_six_seven_moves=60,  # FMJD-64 7.2.6
    endgame_counts_restart=True,  # FMJD-64 7.2.4 and 7.2.6
    algebraic_notation=True,  # PDN 3.0 "A0"
    square_one_corner=2,  # the numbers of a FEN, as lidraughts writes them (W:W21-32:B1-12)
    aliases=("8x8-international",),
)

RUSSIAN = Variant(
    name="russian",
    title="Russian Draughts",
    size=8,
    rows_of_men=3,  # FMJD-64 1.3: 12 men each on the three nearest rows
    first_player=Color.WHITE,  # FMJD-64 1.3: White begins
    men_capture_backward=True,  # Russian code 1.5.3
    flying_kings=True,  # Russian code 1.4.5
    majority_capture=False,  # FMJD-64 1.5: free choice of the capture, which must be taken to its end
    promotion_ends_capture=False,  # Russian code 1.5.15: the new king goes on (crowned_capture_continues)
    repetition_count=3,  # FMJD-64 7.2.3
    quiet_limit_moves=15,  # FMJD-64 7.2.5: 15 moves of kings only, no man moved, nothing captured
    endgame_rule=True,
    medium_depth_plies=8,
    pdn_game_type=25,  # PDN 3.0 "25,W,8,8,A0,0"
    pdn_win_points=1,
    lone_king_vs_two_moves=5,  # FMJD-64 7.2.8
    lone_king_main_diagonal_moves=5,  # FMJD-64 7.2.7
    lone_king_vs_three_kings_moves=15,  # FMJD-64 7.2.4
    lone_king_vs_more_kings=True,  # FMJD-64 7.2.4 "(or more)"
    kings_ending_four_five_moves=30,  # FMJD-64 7.2.6
    kings_ending_six_seven_moves=60,  # FMJD-64 7.2.6
    endgame_counts_restart=True,  # FMJD-64 7.2.4 and 7.2.6
    crowned_capture_continues=True,  # Russian code 1.5.15
    king_lands_to_go_on=True,  # FMJD-64 1.5: the capture is taken to its end
    algebraic_notation=True,  # PDN 3.0 "A0"; FMJD-64 rules name squares a1..h8
    square_one_corner=2,  # the numbers of a FEN, as lidraughts writes them (W:W21-32:B1-12)
    capture_separator=":",  # PDN 3.0 GameType 25
    aliases=("shashki",),
)

POOL = Variant(
    name="pool",
    title="Pool Checkers",
    size=8,
    rows_of_men=3,  # APCA 5: the first and last twelve dark squares
    first_player=Color.BLACK,  # APCA 7: "The first move must always be made by the person having the black pieces"
    men_capture_backward=True,  # APCA 14
    flying_kings=True,  # APCA 15
    majority_capture=False,  # APCA 20: free choice
    promotion_ends_capture=False,  # APCA 16, 22, 23: a man that can jump on from the king row stays a man
    repetition_count=3,  # APCA 26
    quiet_limit_moves=15,  # APCA 26, as dctl's pool.hpp counts it: 30 plies of kings only, no capture
    endgame_rule=True,
    medium_depth_plies=8,
    pdn_game_type=23,  # PDN 3.0 "23,B,8,8,N1,0"
    pdn_win_points=1,
    lone_king_vs_three_kings_moves=13,  # APCA Playing Rules: three kings must beat one within 13 moves
    king_lands_to_go_on=True,  # APCA 19: a king "must also make all the possible jumps during a sequence"
    square_one_corner=1,  # PDN 3.0 "N1": square 1 at Black's near right, as in American checkers
    piece_colours=("white", "red"),  # APCA 3: the pieces "described as black and white must be red and white"
    aliases=("american-pool", "pool-checkers"),
)

SPANISH = Variant(
    name="spanish",
    title="Spanish Draughts",
    size=8,
    rows_of_men=3,  # FPD 2.2: twelve men each
    first_player=Color.WHITE,  # FPD 2.2 / PDN 3.0 "24,W,..."
    men_capture_backward=False,  # FPD 2.2: men capture forward only
    flying_kings=True,  # FPD 2.2: the king moves and captures at any distance
    majority_capture=True,  # FPD 3.1 "lei da quantidade": the most pieces
    promotion_ends_capture=True,  # a man on the last row has nothing left to jump forward: its move ends
    repetition_count=3,  # FPD "empate": the same position three times
    quiet_limit_moves=25,  # no count found in the rules we could read: FMJD 6.3's number, our choice
    endgame_rule=False,
    medium_depth_plies=8,
    pdn_game_type=24,  # PDN 3.0 "24,W,8,8,N1,1"
    pdn_win_points=1,
    most_kings_capture=True,  # FPD 3.1 "lei da qualidade": at equal count, the most kings
    square_one_corner=1,  # FPD 3: square 1 at White's near right, counted right to left, row by row upward
    mirrored_board=True,  # FPD 6: the near right corner of each player is a playing square
    aliases=("spanish-draughts",),
)

ITALIAN = Variant(
    name="italian",
    title="Italian Draughts",
    size=8,
    rows_of_men=3,  # FID 2.6: black men on 1-12, white on 21-32
    first_player=Color.WHITE,  # FID 3.4: "La prima mossa è effettuata dal Bianco"
    men_capture_backward=False,  # FID 5.3(a)
    flying_kings=False,  # FID 4.7: the king moves one square
    majority_capture=True,  # FID 6.6: the most pieces
    promotion_ends_capture=True,  # FID 5.3(a): men capture forward only, so crowning ends the capture
    repetition_count=4,  # FID 9.3(b1), as dctl's italian.hpp reads it
    quiet_limit_moves=40,  # FID 10.4, as dctl's italian.hpp reads it (80 plies)
    endgame_rule=False,
    medium_depth_plies=8,
    pdn_game_type=22,  # PDN 3.0 "22,W,8,8,N2,1"
    pdn_win_points=1,
    men_capture_kings=False,  # FID 5.3(b)
    king_capture_first=True,  # FID 6.7: with the king rather than a man
    most_kings_capture=True,  # FID 6.8: the most kings
    kings_first_capture=True,  # FID 6.9: the capture that meets a king first
    square_one_corner=2,  # FID 2.4: from the first dark square at the top left, left to right, row by row
    mirrored_board=True,  # FID 2.3: the near right corner square is dark for each player
    aliases=("dama",),
)

CZECH = Variant(
    name="czech",
    title="Czech Draughts",
    size=8,
    rows_of_men=3,  # Czech rules 2: 12 men each
    first_player=Color.WHITE,  # Czech rules: White begins
    men_capture_backward=False,  # Czech rules 4.1: men move and capture forward only
    flying_kings=True,  # Czech rules 3.9
    majority_capture=False,  # Czech rules: free choice, but
    promotion_ends_capture=True,  # a man ending its capture on the last row becomes a king there
    repetition_count=3,  # no automatic draw in the rules we could read: threefold repetition, our choice
    quiet_limit_moves=25,  # likewise: FMJD 6.3's number, our choice
    endgame_rule=False,
    medium_depth_plies=8,
    pdn_game_type=29,  # PDN 3.0 "29,W,8,8,A0,0"
    pdn_win_points=1,
    king_capture_first=True,  # Czech rules 4.14: a capture with a king has priority
    king_lands_to_go_on=True,  # Czech rules: the capture must be made in full
    algebraic_notation=True,  # Czech rules 2.6: chess notation
    square_one_corner=2,
    aliases=("ceska-dama",),
)

THAI = Variant(
    name="thai",
    title="Thai Draughts",
    size=8,
    rows_of_men=2,  # mak-hot: 8 men each on the two nearest rows
    first_player=Color.BLACK,  # PDN 3.0 "31,B,..." (mindsports lets White begin; no fixed rule, says fandom)
    men_capture_backward=False,  # mindsports: "Men may capture forwards only"
    flying_kings=True,  # mindsports: a king moves any distance and sees a piece at any distance
    majority_capture=False,  # mindsports: "There are no priorities of capture"
    promotion_ends_capture=True,  # mindsports: "If a man in a capture reaches the back rank, the move ends there"
    repetition_count=3,  # no draw rule in the sources we could read: threefold repetition, our choice
    quiet_limit_moves=25,  # likewise: FMJD 6.3's number, our choice
    endgame_rule=False,
    medium_depth_plies=8,
    pdn_game_type=31,  # PDN 3.0 "31,B,8,8,N2,0"
    pdn_win_points=1,
    king_lands_next=True,  # mindsports: lands "on the vacant square immediately beyond a captured piece"
    captured_removed_at_once=True,  # fandom: "Removal of the captured piece is immediate" (dctl: passing capture)
    square_one_corner=2,  # PDN 3.0 "N2": square 1 at Black's far left
    capture_separator="-",  # PDN 3.0 GameType 31
    aliases=("mak-hot", "makhos"),
)

# The two rule sets the game was made for, in its order: the mode screen shows them first, the computer's
# process warms up with them, and the endgame tables are built for them in the background
VARIANTS = {v.name: v for v in (AMERICAN, INTERNATIONAL)}
# The rest of the rule sets (issue 25: the mode screen's "More rule sets"), and every rule set there is
MORE_VARIANTS = {v.name: v for v in (BRAZILIAN, RUSSIAN, POOL, SPANISH, ITALIAN, CZECH, THAI)}
ALL_VARIANTS = {**VARIANTS, **MORE_VARIANTS}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` or one of its aliases (any case); ``ValueError`` names an unknown one."""
    key = name.strip().lower()
    for variant in (*VARIANTS.values(), *MORE_VARIANTS.values()):
        if key == variant.name or key in variant.aliases:
            return variant
    raise ValueError(f"unknown variant {name!r}: choose {', '.join(ALL_VARIANTS)}")


def variant_names() -> str:
    """The variants and their aliases, for help texts: ``american (english, checkers, 8x8), ...``."""
    return ", ".join(f"{v.name} ({', '.join(v.aliases)})" if v.aliases else v.name for v in ALL_VARIANTS.values())

"""The rule sets, as data.

One frozen :class:`Variant` per game. Everything that differs between American checkers and
International draughts is a field here, with the article of the rules it comes from, so that a new
rule set (Brazilian, Russian, ...) is a new table entry rather than a hunt through the code.

Sources: WCDF "English Rules" (2025 edition), FMJD "Annex 1 - Official FMJD rules for
international draughts" (2024), as restated in the specification (shared/seeds/000).
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
    name: str
    title: str
    size: int  # squares along one side of the board
    rows_of_men: int  # WCDF 1.4 (3 rows) / FMJD 2.3 (4 rows)
    first_player: Color  # WCDF 1.5: the dark pieces (Black) / FMJD 2.4: White
    men_capture_backward: bool  # WCDF 1.18: forward only / FMJD 4.2: men capture backward too
    flying_kings: bool  # WCDF 1.10: one square / FMJD 3.9 and 4.3: any distance
    majority_capture: bool  # WCDF 1.19: free choice / FMJD 4.13: the most pieces
    promotion_ends_capture: bool  # WCDF 1.21: crowning ends the move / FMJD 4.14: passing through stays a man
    repetition_count: int  # WCDF 1.31 / FMJD 6.2: the third time the same position occurs
    quiet_limit_moves: int  # moves each with no man moved and no capture: WCDF 1.32 (40) / FMJD 6.3 (25)
    endgame_rule: bool  # FMJD 6.4: the 16- and 5-move endgame limits
    # The computer's Medium level searches this deep (specification, shared/seeds/000 FAQ "Is there a
    # winning strategy for Checkers?": 8 moves ahead in American Checkers, 6 in International Draughts)
    medium_depth_plies: int
    # PDN 3.0 (pdn.fmjd.org): the GameType tag's number (20 International draughts, 21 English draughts,
    # which is American checkers) and the points of a win in the Result tag (1: "1-0", "1/2-1/2"; 2: "2-0", "1-1")
    pdn_game_type: int
    pdn_win_points: int
    # The limits of the endgame rule in moves each, as the specification restates FMJD 6.4 ("International
    # Draughts (10x10) rules"); None where the variant has no such rule. See engine.game for how they count.
    lone_king_vs_three_moves: int | None = None  # lone king vs 3 kings / 2 kings + man / king + 2 men: 16
    lone_king_vs_two_moves: int | None = None  # lone king vs 2 kings / king + man / king: 5
    lone_king_main_diagonal_moves: int | None = None  # 3-vs-1 with the lone king alone on the main diagonal: 5
    aliases: tuple[str, ...] = ()  # other names the command line and the Hub protocol accept (lower case)

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
        men = self.rows_of_men * self.row_width
        first = "B" if self.first_player is Color.BLACK else "W"
        return f"{first}:W{self.squares - men + 1}-{self.squares}:B1-{men}"


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
    aliases=("draughts", "10x10"),
)

VARIANTS = {v.name: v for v in (AMERICAN, INTERNATIONAL)}


def variant_named(name: str) -> Variant:
    """The variant called ``name`` or one of its aliases (any case); ``ValueError`` names an unknown one."""
    key = name.strip().lower()
    for variant in VARIANTS.values():
        if key == variant.name or key in variant.aliases:
            return variant
    raise ValueError(f"unknown variant {name!r}: choose {' or '.join(VARIANTS)}")


def variant_names() -> str:
    """The variants and their aliases, for help texts: ``american (english, checkers, 8x8), ...``."""
    return ", ".join(f"{v.name} ({', '.join(v.aliases)})" if v.aliases else v.name for v in VARIANTS.values())

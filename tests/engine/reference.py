"""A slow, obvious move generator written straight from the rules text, to check the numba one.

Sources: the specification (shared/seeds/000, "Rules and how to play (American Checkers)" and
"International Draughts (10x10) rules"), i.e. WCDF English rules and FMJD Annex 1; for the other rule
sets the texts engine/variants.py names (FMJD-64 and the Russian code, APCA, FPD, FID, the Czech
rules, mindsports' and fandom's Thai pages).

Plain Python on a grid of (row, col), on purpose: no bitboards, no numba, no import of
``engine._movegen`` or ``engine.notation``. From the engine it only reads a Position's pieces and side
to move, as square numbers, which this module turns into cells by each rule set's own numbering.

Geometry: the diagram seen from White, row 0 at the top (White sits at the bottom and moves up,
towards row 0; Black moves down). The dark squares are those with (row + col) odd, so the bottom left
corner is dark; on the boards of FID 2.3 and FPD 6 (Italian and Spanish draughts) the near right
corner is, so the dark squares are those with (row + col) even. Each rule set numbers the dark squares
its own way (``NUMBERING``).

A move is identified by (start, end, frozenset(captured), crowned): ``crowned`` where a man was crowned
in the middle of its capture and ends it off its crowning row, a king (Russian code 1.5.15); each
identity carries the set of its routes, a route being (start, every square where the piece stops after
a capture, end), or (start, end) for a plain move.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

WHITE, BLACK = 0, 1
DIAGONALS = ((-1, -1), (-1, 1), (1, -1), (1, 1))  # (row step, col step); up = towards White's far row


@dataclass(frozen=True)
class Rules:
    """The parts of a rule set the reference needs, written out by hand (not read from engine.Variant)."""

    size: int
    men_capture_backward: bool  # International: men capture backward too
    flying_kings: bool  # International: kings move and capture at any distance
    majority_capture: bool  # International: the capture that takes the most pieces is compulsory
    crowning_ends_capture: bool  # American: a man reaching the far row is crowned and the move ends
    first: int = WHITE  # who moves first
    rows: int = 3  # rows of men each
    numbering: str = "pdn"  # how the dark squares are numbered (see square_to_cell)
    mirrored: bool = False  # the near right corner is dark (FID 2.3, FPD 6)
    crowned_goes_on: bool = False  # Russian code 1.5.15: crowned in a capture, it goes on as a king
    men_take_kings: bool = True  # FID 5.3(b): Italian men never capture kings
    king_lands_next: bool = False  # Thai: a king lands on the square just beyond the piece it takes
    removed_at_once: bool = False  # Thai: each piece leaves the board as soon as it is taken
    with_king_first: bool = False  # FID 6.7, Czech rules: a capture with a king comes before one with a man
    most_kings: bool = False  # FID 6.8, FPD: then the capture taking the most kings
    kings_first: bool = False  # FID 6.9: then the one meeting the kings earliest


RULES = {
    "american": Rules(size=8, men_capture_backward=False, flying_kings=False, majority_capture=False,
                      crowning_ends_capture=True, first=BLACK),
    "international": Rules(size=10, men_capture_backward=True, flying_kings=True, majority_capture=True,
                           crowning_ends_capture=False, rows=4),
    # FMJD-64 / brazil.fmjd.org: International draughts on 8x8
    "brazilian": Rules(size=8, men_capture_backward=True, flying_kings=True, majority_capture=True,
                       crowning_ends_capture=False),
    # FMJD-64: free choice; a man crowned during a capture goes on as a king
    "russian": Rules(size=8, men_capture_backward=True, flying_kings=True, majority_capture=False,
                     crowning_ends_capture=False, crowned_goes_on=True),
    # APCA: Black first, men capture backward, flying kings, free choice, passing the king row stays a man
    "pool": Rules(size=8, men_capture_backward=True, flying_kings=True, majority_capture=False,
                  crowning_ends_capture=False, first=BLACK),
    # FPD: men forward only, flying kings, the most pieces then the most kings; numbered from White's near right
    "spanish": Rules(size=8, men_capture_backward=False, flying_kings=True, majority_capture=True,
                     crowning_ends_capture=True, numbering="spanish", mirrored=True, most_kings=True),
    # FID: short kings, men forward only and never on kings, four priorities; numbered from the top left
    "italian": Rules(size=8, men_capture_backward=False, flying_kings=False, majority_capture=True,
                     crowning_ends_capture=True, numbering="italian", mirrored=True, men_take_kings=False,
                     with_king_first=True, most_kings=True, kings_first=True),
    # Czech rules: men forward only, flying kings, a king's capture first, otherwise free choice
    "czech": Rules(size=8, men_capture_backward=False, flying_kings=True, majority_capture=False,
                   crowning_ends_capture=True, with_king_first=True),
    # mak-hot: 8 men on two rows, Black first (PDN), kings land just beyond, pieces leave at once;
    # numbered from Black's far left (PDN 3.0 "31,B,8,8,N2,0")
    "thai": Rules(size=8, men_capture_backward=False, flying_kings=True, majority_capture=False,
                  crowning_ends_capture=True, first=BLACK, rows=2, numbering="thai", king_lands_next=True,
                  removed_at_once=True),
}


# --- geometry ----------------------------------------------------------------------------------

def _dark(rules: Rules, row: int, col: int) -> bool:
    return (row + col) % 2 == (0 if rules.mirrored else 1)


@lru_cache(maxsize=None)
def _cells(rules: Rules) -> tuple[tuple[int, int], ...]:
    """The dark cells in the order of their square numbers, 1 first.

    pdn: from the top left, row by row downward, left to right (PDN's American and International
    diagrams; the FEN numbers of the rule sets written algebraically). italian (FID 2.4): the same on
    its board. spanish (FPD 3): from White's near right, right to left, row by row upward. thai: from
    Black's far left, i.e. White's near right, the same way as Spanish but on a board whose near left
    corner is dark."""
    n = rules.size
    rows = range(n) if rules.numbering in ("pdn", "italian") else range(n - 1, -1, -1)
    out = []
    for r in rows:
        cols = [c for c in range(n) if _dark(rules, r, c)]
        out += [(r, c) for c in (cols if rules.numbering in ("pdn", "italian") else reversed(cols))]
    return tuple(out)


@lru_cache(maxsize=None)
def _numbers(rules: Rules) -> dict[tuple[int, int], int]:
    return {cell: number for number, cell in enumerate(_cells(rules), start=1)}


def square_to_cell(rules: Rules, square: int) -> tuple[int, int]:
    return _cells(rules)[square - 1]


def cell_to_square(rules: Rules, row: int, col: int) -> int | None:
    return _numbers(rules).get((row, col))


def forward(color: int) -> int:
    """Row step of a man's forward direction."""
    return -1 if color == WHITE else 1


def far_row(size: int, color: int) -> int:
    """The row where a man of ``color`` is crowned."""
    return 0 if color == WHITE else size - 1


# --- the board ---------------------------------------------------------------------------------

@dataclass(frozen=True)
class Board:
    """pieces: square -> (color, is_king); turn: WHITE or BLACK."""

    variant: str
    pieces: dict
    turn: int

    @property
    def rules(self) -> Rules:
        return RULES[self.variant]

    @classmethod
    def from_position(cls, pos) -> "Board":
        pieces = {sq: (int(p.color), bool(p.king)) for sq, p in pos.pieces().items()}
        return cls(pos.variant.name, pieces, int(pos.turn))

    def key(self):
        return self.turn, frozenset(self.pieces.items())


# --- move generation ---------------------------------------------------------------------------

def _captures_from(board: Board, start: int) -> list[tuple[tuple[int, ...], frozenset, bool, tuple[bool, ...]]]:
    """Every complete capture sequence of the piece on ``start``: (route, captured squares, crowned on
    the way and ending off the crowning row, whether each piece taken in turn was a king).

    The piece has left ``start`` (so ``start`` is empty during the move and a circular capture may
    end there); jumped pieces stay on the board until the move ends, so they block landings and
    passage, and none can be jumped twice (Thai: each leaves the board at once, its square free). A
    sequence ends only when the piece can jump no more, or (American and the forward-capturing rule
    sets) when a man reaches the far row. A Russian man that reaches it during a capture is a king from
    then on. A flying king with several landing squares beyond a piece must take one from which it can
    jump again, if there is one."""
    rules = board.rules
    n = rules.size
    color, king = board.pieces[start]
    results = []

    def can_land(r, c, captured):
        sq = cell_to_square(rules, r, c)
        return sq is not None and (sq not in board.pieces or sq == start
                                   or (rules.removed_at_once and sq in captured))

    def jumps(sq, captured, is_king):
        """(captured square, [landing squares]) pairs available from ``sq``."""
        r, c = square_to_cell(rules, sq)
        out = []
        for dr, dc in DIAGONALS:
            if not is_king and not rules.men_capture_backward and dr != forward(color):
                continue
            if is_king and rules.flying_kings:
                # slide over empty squares to the first piece
                k = 1
                while can_land(r + k * dr, c + k * dc, captured):
                    k += 1
                victim = cell_to_square(rules, r + k * dr, c + k * dc)
                if victim is None or board.pieces[victim][0] == color or victim in captured:
                    continue
                k += 1
                landings = []
                while can_land(r + k * dr, c + k * dc, captured | {victim}):  # any empty square beyond it
                    landings.append(cell_to_square(rules, r + k * dr, c + k * dc))
                    if rules.king_lands_next:
                        break  # Thai: just beyond the piece
                    k += 1
                if landings:
                    out.append((victim, landings))
            else:
                victim = cell_to_square(rules, r + dr, c + dc)
                if victim is None or victim == start or victim not in board.pieces or board.pieces[victim][0] == color \
                        or victim in captured:
                    continue
                if not is_king and not rules.men_take_kings and board.pieces[victim][1]:
                    continue  # FID 5.3(b)
                if can_land(r + 2 * dr, c + 2 * dc, captured | {victim}):
                    out.append((victim, [cell_to_square(rules, r + 2 * dr, c + 2 * dc)]))
        return out

    def extend(sq, route, captured, kinds, is_king):
        on_far_row = square_to_cell(rules, sq)[0] == far_row(n, color)
        if not is_king and len(route) > 1 and on_far_row:
            if rules.crowning_ends_capture:
                results.append((tuple(route), frozenset(captured), False, tuple(kinds)))  # crowned: the move ends
                return
            if rules.crowned_goes_on:
                is_king = True  # crowned, it goes on capturing as a king
        options = jumps(sq, captured, is_king)
        if not options:
            if len(route) > 1:
                crowned = is_king and not king and not on_far_row
                results.append((tuple(route), frozenset(captured), crowned, tuple(kinds)))
            return
        for victim, landings in options:
            captured.add(victim)
            kinds.append(board.pieces[victim][1])
            if is_king and rules.flying_kings and len(landings) > 1:
                going_on = [sq2 for sq2 in landings if jumps(sq2, captured, True)]
                landings = going_on or landings
            for landing in landings:
                route.append(landing)
                extend(landing, route, captured, kinds, is_king)
                route.pop()
            kinds.pop()
            captured.discard(victim)

    extend(start, [start], set(), [], king)
    return results


def _plain_moves_from(board: Board, start: int) -> list[tuple[int, ...]]:
    rules = board.rules
    color, king = board.pieces[start]
    r, c = square_to_cell(rules, start)
    out = []
    for dr, dc in DIAGONALS:
        if not king and dr != forward(color):
            continue  # men move forward only
        k = 1
        while True:
            sq = cell_to_square(rules, r + k * dr, c + k * dc)
            if sq is None or sq in board.pieces:
                break
            out.append((start, sq))
            if not (king and rules.flying_kings):
                break  # men and short kings: one square
            k += 1
    return out


def _precedence(rules: Rules, board: Board, route, captured, kinds) -> tuple:
    """What a capture is ranked by, in the order of the rules (FID 6.6-6.9): the count, a king that
    captures, the kings taken, the kings met earliest (True before False, jump by jump)."""
    return ((len(captured) if rules.majority_capture else 0),
            (board.pieces[route[0]][1] if rules.with_king_first else False),
            (sum(kinds) if rules.most_kings else 0),
            (kinds + (False,) * (32 - len(kinds)) if rules.kings_first else ()))


def legal_moves(board: Board) -> dict[tuple[int, int, frozenset, bool], frozenset[tuple[int, ...]]]:
    """{(start, end, captured, crowned): set of routes} of every legal move of the side to move."""
    rules = board.rules
    mine = [sq for sq, (color, _) in sorted(board.pieces.items()) if color == board.turn]
    captures = [c for sq in mine for c in _captures_from(board, sq)]
    if captures:  # capturing is compulsory
        ranks = [_precedence(rules, board, route, captured, kinds) for route, captured, _, kinds in captures]
        best = max(ranks)
        sequences = [(route, captured, crowned) for (route, captured, crowned, _), rank in zip(captures, ranks, strict=True)
                     if rank == best]
    else:
        sequences = [(route, frozenset(), False) for sq in mine for route in _plain_moves_from(board, sq)]
    moves: dict = {}
    for route, captured, crowned in sequences:
        moves.setdefault((route[0], route[-1], captured, crowned), set()).add(route)
    return {ident: frozenset(routes) for ident, routes in moves.items()}


def play(board: Board, ident: tuple[int, int, frozenset, bool]) -> Board:
    """The board after the move (start, end, captured, crowned): captured pieces come off together, a
    man that ends its move on the far row (or was crowned on the way) is a king, the other side is to move."""
    start, end, captured, crowned = ident
    color, king = board.pieces[start]
    pieces = {sq: p for sq, p in board.pieces.items() if sq not in captured and sq != start}
    if crowned or square_to_cell(board.rules, end)[0] == far_row(board.rules.size, color):
        king = True
    pieces[end] = (color, king)
    return Board(board.variant, pieces, 1 - board.turn)


def perft(board: Board, depth: int) -> int:
    if depth == 0:
        return 1
    moves = legal_moves(board)
    if depth == 1:
        return len(moves)
    return sum(perft(play(board, ident), depth - 1) for ident in moves)


# --- FEN out (so positions made here can be handed to the engine) --------------------------------

def fen(board: Board) -> str:
    def side(color):
        return ",".join(("K" if king else "") + str(sq)
                        for sq, (c, king) in sorted(board.pieces.items()) if c == color)
    return f"{'W' if board.turn == WHITE else 'B'}:W{side(WHITE)}:B{side(BLACK)}"


# --- position sources for the agreement tests --------------------------------------------------

def start_board(variant: str) -> Board:
    """The start: each side's men on the dark squares of its nearest ``rows`` rows."""
    rules = RULES[variant]
    n = rules.size
    pieces = {}
    for sq in range(1, n * n // 2 + 1):
        row, _ = square_to_cell(rules, sq)
        if row >= n - rules.rows:
            pieces[sq] = (WHITE, False)
        elif row < rules.rows:
            pieces[sq] = (BLACK, False)
    return Board(variant, pieces, rules.first)


def _ident_key(ident):
    return ident[0], ident[1], sorted(ident[2]), ident[3]


def random_game(variant: str, rng, max_plies: int = 300) -> list[Board]:
    """Every position of one game of uniformly random moves from the start, played until the side to
    move has no move (or ``max_plies``, as kings can shuffle for ever)."""
    board = start_board(variant)
    boards = [board]
    for _ in range(max_plies):
        moves = legal_moves(board)
        if not moves:
            break
        board = play(board, rng.choice(sorted(moves, key=_ident_key)))
        boards.append(board)
    return boards


def random_setup(variant: str, rng) -> Board:
    """A random legal-looking setup, heavy on kings: a few kings and men of each side anywhere (men
    never on their own crowning row, often on the row just before it), either side to move."""
    rules = RULES[variant]
    n = rules.size
    squares = list(range(1, n * n // 2 + 1))
    rng.shuffle(squares)
    pieces = {}
    for color in (WHITE, BLACK):
        for _ in range(rng.randint(0, 4)):
            pieces[squares.pop()] = (color, True)
        for _ in range(rng.randint(0, 6)):
            if rng.random() < 0.4:  # a man one step from crowning
                row = far_row(n, color) - forward(color)
                choices = [s for s in squares if square_to_cell(rules, s)[0] == row]
            else:
                choices = [s for s in squares if square_to_cell(rules, s)[0] != far_row(n, color)]
            if choices:
                sq = rng.choice(choices)
                squares.remove(sq)
                pieces[sq] = (color, False)
    return Board(variant, pieces, rng.choice((WHITE, BLACK)))

"""A slow, obvious move generator written straight from the rules text, to check the numba one.

Sources: the specification (shared/seeds/000, "Rules and how to play (American Checkers)" and
"International Draughts (10x10) rules"), i.e. WCDF English rules and FMJD Annex 1.

Plain Python on a grid of (row, col), on purpose: no bitboards, no numba, no import of
``engine._movegen``. From the engine it only reads a Position's pieces and side to move.

Geometry (PDN, the diagram seen from White, square 1 at the top left): square ``s`` is in row
``r = (s - 1) // W`` counted from the top and column ``2 * ((s - 1) % W) + (1 - r % 2)``, with ``W``
playable squares a row. White sits at the bottom and moves up (towards row 0); Black moves down. In
both games Black starts on the low numbers and White on the high ones.

A move is identified by (start, end, frozenset(captured)); each identity carries the set of its routes,
a route being (start, every square where the piece stops after a capture, end), or (start, end) for a
plain move.
"""

from __future__ import annotations

from dataclasses import dataclass

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


RULES = {
    "american": Rules(size=8, men_capture_backward=False, flying_kings=False, majority_capture=False,
                      crowning_ends_capture=True),
    "international": Rules(size=10, men_capture_backward=True, flying_kings=True, majority_capture=True,
                           crowning_ends_capture=False),
}


# --- geometry ----------------------------------------------------------------------------------

def square_to_cell(size: int, square: int) -> tuple[int, int]:
    w = size // 2
    row, k = divmod(square - 1, w)
    return row, 2 * k + (1 - row % 2)


def cell_to_square(size: int, row: int, col: int) -> int | None:
    if not (0 <= row < size and 0 <= col < size) or (row + col) % 2 == 0:
        return None
    return row * (size // 2) + col // 2 + 1


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

def _captures_from(board: Board, start: int) -> list[tuple[tuple[int, ...], frozenset]]:
    """Every complete capture sequence of the piece on ``start``: (route, captured squares).

    The piece has left ``start`` (so ``start`` is empty during the move and a circular capture may
    end there); jumped pieces stay on the board until the move ends, so they block landings and
    passage, and none can be jumped twice. A sequence ends only when the piece can jump no more, or
    (American) when a man reaches the far row."""
    rules = board.rules
    n = rules.size
    color, king = board.pieces[start]
    occupant = dict(board.pieces)
    del occupant[start]
    results = []

    def can_land(r, c):
        sq = cell_to_square(n, r, c)
        return sq is not None and sq not in occupant

    def jumps(sq, captured):
        """(captured square, landing square) pairs available from ``sq``."""
        r, c = square_to_cell(n, sq)
        out = []
        for dr, dc in DIAGONALS:
            if not king and not rules.men_capture_backward and dr != forward(color):
                continue
            if king and rules.flying_kings:
                # slide over empty squares to the first piece
                k = 1
                while can_land(r + k * dr, c + k * dc):
                    k += 1
                victim = cell_to_square(n, r + k * dr, c + k * dc)
                if victim is None or occupant[victim][0] == color or victim in captured:
                    continue
                k += 1
                while can_land(r + k * dr, c + k * dc):  # any empty square beyond it
                    out.append((victim, cell_to_square(n, r + k * dr, c + k * dc)))
                    k += 1
            else:
                victim = cell_to_square(n, r + dr, c + dc)
                if victim is None or victim not in occupant or occupant[victim][0] == color or victim in captured:
                    continue
                if can_land(r + 2 * dr, c + 2 * dc):
                    out.append((victim, cell_to_square(n, r + 2 * dr, c + 2 * dc)))
        return out

    def extend(sq, route, captured):
        if (not king and rules.crowning_ends_capture and len(route) > 1
                and square_to_cell(n, sq)[0] == far_row(n, color)):
            results.append((tuple(route), frozenset(captured)))  # crowned: the move ends here
            return
        options = jumps(sq, captured)
        if not options:
            if len(route) > 1:
                results.append((tuple(route), frozenset(captured)))
            return
        for victim, landing in options:
            captured.add(victim)
            route.append(landing)
            extend(landing, route, captured)
            route.pop()
            captured.discard(victim)

    extend(start, [start], set())
    return results


def _plain_moves_from(board: Board, start: int) -> list[tuple[int, ...]]:
    rules = board.rules
    n = rules.size
    color, king = board.pieces[start]
    r, c = square_to_cell(n, start)
    out = []
    for dr, dc in DIAGONALS:
        if not king and dr != forward(color):
            continue  # men move forward only
        k = 1
        while True:
            sq = cell_to_square(n, r + k * dr, c + k * dc)
            if sq is None or sq in board.pieces:
                break
            out.append((start, sq))
            if not (king and rules.flying_kings):
                break  # men and American kings: one square
            k += 1
    return out


def legal_moves(board: Board) -> dict[tuple[int, int, frozenset], frozenset[tuple[int, ...]]]:
    """{(start, end, captured): set of routes} of every legal move of the side to move."""
    mine = [sq for sq, (color, _) in sorted(board.pieces.items()) if color == board.turn]
    captures = [(route, captured) for sq in mine for route, captured in _captures_from(board, sq)]
    if captures:  # capturing is compulsory
        if board.rules.majority_capture:  # kings and men count 1 each
            most = max(len(captured) for _, captured in captures)
            captures = [(route, captured) for route, captured in captures if len(captured) == most]
        sequences = captures
    else:
        sequences = [(route, frozenset()) for sq in mine for route in _plain_moves_from(board, sq)]
    moves: dict = {}
    for route, captured in sequences:
        moves.setdefault((route[0], route[-1], captured), set()).add(route)
    return {ident: frozenset(routes) for ident, routes in moves.items()}


def play(board: Board, ident: tuple[int, int, frozenset]) -> Board:
    """The board after the move (start, end, captured): captured pieces come off together, a man that
    ends its move on the far row is crowned, the other side is to move."""
    start, end, captured = ident
    color, king = board.pieces[start]
    pieces = {sq: p for sq, p in board.pieces.items() if sq not in captured and sq != start}
    if square_to_cell(board.rules.size, end)[0] == far_row(board.rules.size, color):
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

START = {"american": (BLACK, range(21, 33), range(1, 13)), "international": (WHITE, range(31, 51), range(1, 21))}


def start_board(variant: str) -> Board:
    turn, white, black = START[variant]
    pieces = {sq: (WHITE, False) for sq in white} | {sq: (BLACK, False) for sq in black}
    return Board(variant, pieces, turn)


def random_game(variant: str, rng, max_plies: int = 300) -> list[Board]:
    """Every position of one game of uniformly random moves from the start, played until the side to
    move has no move (or ``max_plies``, as kings can shuffle for ever)."""
    board = start_board(variant)
    boards = [board]
    for _ in range(max_plies):
        moves = legal_moves(board)
        if not moves:
            break
        board = play(board, rng.choice(sorted(moves, key=lambda i: (i[0], i[1], sorted(i[2])))))
        boards.append(board)
    return boards


def random_setup(variant: str, rng) -> Board:
    """A random legal-looking setup, heavy on kings: a few kings and men of each side anywhere (men
    never on their own crowning row, often on the row just before it), either side to move."""
    n = RULES[variant].size
    squares = list(range(1, n * n // 2 + 1))
    rng.shuffle(squares)
    pieces = {}
    for color in (WHITE, BLACK):
        for _ in range(rng.randint(0, 4)):
            pieces[squares.pop()] = (color, True)
        for _ in range(rng.randint(0, 6)):
            if rng.random() < 0.4:  # a man one step from crowning
                row = far_row(n, color) - forward(color)
                choices = [s for s in squares if square_to_cell(n, s)[0] == row]
            else:
                choices = [s for s in squares if square_to_cell(n, s)[0] != far_row(n, color)]
            if choices:
                sq = rng.choice(choices)
                squares.remove(sq)
                pieces[sq] = (color, False)
    return Board(variant, pieces, rng.choice((WHITE, BLACK)))

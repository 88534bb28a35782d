"""What the board is asked to draw for a drag in progress and for a capture partly entered (no GL)."""

import numpy as np

from engine import AMERICAN, Position
from game.render import RenderState
from game.render.animation import LIFT_HEIGHT
from game.render.geometry import square_center
from game.render.instances import ENTERED_PATH, marker_rows, piece_rows


def test_a_dragged_piece_is_drawn_lifted_over_the_pointer_and_not_on_its_square():
    state = RenderState(Position.initial(AMERICAN), selected=11, drag_to=(0.3, -0.7))
    still, moving = piece_rows(state, 0.0)
    assert np.allclose(moving.pieces[:, :3], [(0.3, LIFT_HEIGHT, -0.7)])
    assert len(moving.rings) == 1  # the selection's gold ring goes with it
    x, z = square_center(AMERICAN, 11)
    assert len(still.pieces) == 23
    assert not np.any(np.isclose(still.pieces[:, 0], x) & np.isclose(still.pieces[:, 2], z))


def test_a_capture_partly_entered_is_drawn_as_a_gold_path_with_a_dot_on_each_stop():
    pos = Position.from_fen(AMERICAN, "B:W15,23,24,30,31,32:B10,1,2,3,5")
    plain = marker_rows(RenderState(pos, selected=10))
    entered = marker_rows(RenderState(pos, selected=10, entered=(10, 19)))
    gold = entered[np.all(np.isclose(entered[:, 8:], ENTERED_PATH[0]), axis=1)]
    assert len(entered) == len(plain) + 2 and len(gold) == 2  # one line, one dot
    (ax, az), (bx, bz) = square_center(AMERICAN, 10), square_center(AMERICAN, 19)
    assert np.allclose(gold[0, :4], (ax, az, bx, bz))  # the line from the piece to the square pressed
    assert np.allclose(gold[1, :4], (bx, bz, bx, bz))  # the dot where it stops

"""Move animations are pure functions of time: poses at the start, during hops, at the end; when
captured pieces leave; when a crowned man receives its second piece."""

from __future__ import annotations

import pytest

from engine import AMERICAN, INTERNATIONAL, Color, Piece, Position
from game.render.animation import HOP_ARC, LIFT_HEIGHT, MoveAnimation, captured_poses, crown_pose, is_crown_landed, piece_pose
from game.render.geometry import PIECE_HEIGHT, square_center

# Black (first) to move in International draughts with a four-piece capture 16x40 (path 16 27 38 49 40).
MULTI_FEN = "B:W21,25,26,31,32,35,36,39,41-45,47,48,50:B1-6,9,11,13-17,20,23"


def at(variant, sq):
    return square_center(variant, sq)


def test_quiet_move_starts_and_ends_on_its_squares():
    pos = Position.initial(AMERICAN)
    move = pos.parse_move("11-15")
    anim = MoveAnimation.build(pos, move, start_time=10.0)
    start = piece_pose(anim, 10.0)
    assert (start.x, start.z) == at(AMERICAN, 11) and start.y == 0
    end = piece_pose(anim, anim.end_time)
    assert (end.x, end.z) == at(AMERICAN, 15) and end.y == pytest.approx(0)
    middle = piece_pose(anim, (anim.start_time + anim.end_time) / 2)
    assert middle.y == pytest.approx(LIFT_HEIGHT)  # a plain move slides lifted, no arc
    assert anim.captured == () and not anim.crowned
    assert captured_poses(anim, 10.1) == {} and crown_pose(anim, 10.1) is None


def test_multi_capture_goes_hop_by_hop_with_an_arc_each():
    pos = Position.from_fen(INTERNATIONAL, MULTI_FEN)
    move = pos.parse_move("16x40")
    anim = MoveAnimation.build(pos, move, start_time=0.0)
    assert anim.path == (16, 27, 38, 49, 40)
    hops = anim._hop_durations()
    assert len(hops) == 4
    t = anim.start_time + 0.10  # after the lift
    for i, d in enumerate(hops):
        mid = piece_pose(anim, t + d / 2)
        a, b = at(INTERNATIONAL, anim.path[i]), at(INTERNATIONAL, anim.path[i + 1])
        assert mid.y == pytest.approx(LIFT_HEIGHT + HOP_ARC)  # the top of the arc, over the captured piece
        assert (mid.x, mid.z) == pytest.approx(((a[0] + b[0]) / 2, (a[1] + b[1]) / 2))
        t += d
        landing = piece_pose(anim, t)
        assert (landing.x, landing.z) == pytest.approx(b)
        assert landing.y == pytest.approx(LIFT_HEIGHT)


def test_captured_pieces_leave_only_after_the_move_has_landed():
    pos = Position.from_fen(INTERNATIONAL, MULTI_FEN)
    move = pos.parse_move("16x40")
    anim = MoveAnimation.build(pos, move, start_time=5.0)
    assert sorted(sq for sq, _ in anim.captured) == sorted(move.captured)
    before_landing = captured_poses(anim, anim.landed_time - 1e-6)
    assert set(before_landing) == set(move.captured)
    assert all(p.scale == 1.0 and p.y == 0.0 for p in before_landing.values())
    leaving = captured_poses(anim, (anim.landed_time + anim.end_time) / 2)
    assert all(0 < p.scale < 1 for p in leaving.values())
    assert captured_poses(anim, anim.end_time) == {}
    assert piece_pose(anim, anim.landed_time).y == pytest.approx(0)


def test_crowning_drops_the_second_piece_onto_the_stack():
    pos = Position.from_fen(AMERICAN, "B:W32:B27")  # Black man one step from Black's crowning row
    move = [m for m in pos.legal_moves() if m.start == 27][0]
    anim = MoveAnimation.build(pos, move, start_time=0.0)
    assert anim.crowned and anim.piece == Piece(Color.BLACK, False)
    assert crown_pose(anim, anim.landed_time - 1e-6) is None
    falling = crown_pose(anim, anim.landed_time + 0.05)
    assert falling.y > PIECE_HEIGHT
    assert (falling.x, falling.z) == at(AMERICAN, move.end)
    assert not is_crown_landed(anim, anim.landed_time + 0.05)
    rest = crown_pose(anim, anim.end_time)
    assert rest.y == pytest.approx(PIECE_HEIGHT) and is_crown_landed(anim, anim.end_time)


def test_speed_scales_every_phase():
    pos = Position.initial(AMERICAN)
    move = pos.parse_move("11-15")
    slow = MoveAnimation.build(pos, move, 0.0, speed=1.0)
    fast = MoveAnimation.build(pos, move, 0.0, speed=2.0)
    assert fast.end_time == pytest.approx(slow.end_time / 2)
    assert piece_pose(fast, 0.05) == piece_pose(slow, 0.10)
    with pytest.raises(ValueError):
        MoveAnimation.build(pos, move, 0.0, speed=0)


def test_poses_are_pure():
    pos = Position.initial(AMERICAN)
    anim = MoveAnimation.build(pos, pos.parse_move("9-14"), 1.0)
    assert piece_pose(anim, 1.2) == piece_pose(anim, 1.2)

"""Thousands of random presses, drags, keys, wheel turns and window resizes, posted to the real game's
event queue in a real window under Xvfb (with the real engine worker): nothing raises, and every move
in the game record is legal in the position it was played in."""

from __future__ import annotations

import random
import warnings

import pygame

KEYS = [pygame.K_LEFT, pygame.K_RIGHT, pygame.K_UP, pygame.K_DOWN, pygame.K_RETURN, pygame.K_SPACE,
        pygame.K_ESCAPE, pygame.K_TAB, pygame.K_z, pygame.K_F1, pygame.K_PAGEDOWN, pygame.K_HOME, pygame.K_SLASH]
TEXT = {pygame.K_SLASH: "?"}  # the character a key types, where the game reads that
SIZES = [(900, 640), (1280, 800), (640, 820), (520, 400), (1100, 560)]
EVENTS = 3000


def _point(rng: random.Random, app) -> tuple[int, int]:
    """Somewhere worth pressing: a button or square of the interface, the board, or anywhere."""
    roll = rng.random()
    hits = [h for h in app.ui.hits if h.enabled]
    moves = [h for h in hits if h.id.startswith("move:")]
    if roll < 0.15 and moves:  # now and then a legal move, so that games get somewhere
        return rng.choice(moves).rect.center
    if roll < 0.45 and hits:
        return rng.choice(hits).rect.center
    if roll < 0.9:
        v = app.ui.layout.view
        return rng.randrange(v.x, v.right), rng.randrange(v.y, v.bottom)
    return rng.randrange(app.size[0]), rng.randrange(app.size[1])


def _post(kind, **attrs) -> None:
    pygame.event.post(pygame.event.Event(kind, **attrs))


def _random_input(rng: random.Random, app) -> int:
    """Post one random gesture; returns how many events it took."""
    roll = rng.random()
    if roll < 0.45:
        pos = _point(rng, app)
        _post(pygame.MOUSEBUTTONDOWN, pos=pos, button=1)
        _post(pygame.MOUSEBUTTONUP, pos=pos, button=1)
        return 2
    if roll < 0.6:
        a, b = _point(rng, app), _point(rng, app)
        button = rng.choice((1, 1, 3))
        _post(pygame.MOUSEBUTTONDOWN, pos=a, button=button)
        for f in (0.3, 0.7, 1.0):
            p = (int(a[0] + (b[0] - a[0]) * f), int(a[1] + (b[1] - a[1]) * f))
            _post(pygame.MOUSEMOTION, pos=p, rel=(b[0] - a[0], b[1] - a[1]), buttons=(1, 0, 0))
        _post(pygame.MOUSEBUTTONUP, pos=b, button=button)
        return 5
    if roll < 0.85:
        mod = pygame.KMOD_CTRL if rng.random() < 0.1 else (pygame.KMOD_SHIFT if rng.random() < 0.1 else 0)
        key = rng.choice(KEYS)
        _post(pygame.KEYDOWN, key=key, mod=mod, unicode=TEXT.get(key, ""), scancode=0)
        return 1
    if roll < 0.93:
        steps = rng.choice((-2, -1, 1, 2))
        _post(pygame.MOUSEWHEEL, x=0, y=steps, precise_x=0.0, precise_y=float(steps), flipped=False)
        return 1
    if roll < 0.96:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            pygame.Window.from_display_module().size = rng.choice(SIZES)
        return 1
    _post(pygame.MOUSEMOTION, pos=_point(rng, app), rel=(0, 0), buttons=(0, 0, 0))
    return 1


def _check(controller, checked: int) -> int:
    """Every move played since the last check is legal where it was played, and a game screen always
    has its game and mode; returns how many moves are checked."""
    from game.play.phases import InGame, Screen

    if controller.screen is Screen.GAME:  # a game, or the browser over one
        assert isinstance(controller.in_game, InGame) and controller.game is not None and controller.mode is not None
    g = controller.game
    if g is None:
        return 0
    positions, moves = g.positions, g.moves
    checked = min(checked, len(moves))
    for i in range(checked, len(moves)):
        assert moves[i] in positions[i].legal_moves(), f"illegal move {moves[i]} in {positions[i].fen()}"
        assert positions[i].play(moves[i]) == positions[i + 1]
    if controller.hand.selected is not None:
        assert controller.hand.is_own_piece(controller.game.position, controller.hand.selected)
    return len(moves)


def test_thousands_of_random_inputs(open_app):
    app = open_app((900, 640))
    rng = random.Random(20261130)
    posted = checked = 0
    games, moves_seen = set(), 0
    while posted < EVENTS:
        for _ in range(10):
            posted += _random_input(rng, app)
        app.step()
        c = app.controller
        if c.game is not None:
            if id(c.game) not in games:
                games.add(id(c.game))
                checked = 0
            checked = _check(c, checked)
            moves_seen = max(moves_seen, len(c.game.moves))
    print(f"random input: {posted} events, {len(games)} games, longest {moves_seen} moves")
    assert app.running, "random input never closes the window"
    assert games and moves_seen > 0, "the random presses started games and played moves"

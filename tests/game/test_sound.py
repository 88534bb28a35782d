"""Sound effects: generated in code, short, never louder than full scale; silent without a device."""

from __future__ import annotations

import numpy as np
import pygame

from game.window.sound import RATE, Sounds, waveforms


def test_every_effect_is_short_and_within_range():
    waves = waveforms()
    assert set(waves) == {"move", "capture", "crown", "illegal", "end"}
    for name, wave in waves.items():
        assert 0.05 < wave.size / RATE < 1.2, name
        assert np.abs(wave).max() <= 1.0, name


def test_plays_with_the_dummy_driver_and_respects_mute(monkeypatch):
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    pygame.mixer.quit()
    sounds = Sounds()
    try:
        assert sounds.available
        sounds.play("crown", enabled=False)
        assert not pygame.mixer.get_busy(), "muted: nothing plays"
        sounds.play("no such sound")
        assert not pygame.mixer.get_busy(), "an unknown name plays nothing"
        sounds.play("capture")
        assert pygame.mixer.get_busy(), "the dummy driver plays it"
        pygame.mixer.stop()
        sounds.play("move", enabled=False)
        assert not pygame.mixer.get_busy(), "muted again: nothing plays"
    finally:
        pygame.mixer.quit()


def test_silent_when_the_mixer_cannot_start(monkeypatch):
    def fail(*_args, **_kwargs):
        raise pygame.error("no audio device")

    pygame.mixer.quit()
    monkeypatch.setattr(pygame.mixer, "init", fail)
    sounds = Sounds()
    assert not sounds.available
    sounds.play("move")  # nothing happens, nothing raises

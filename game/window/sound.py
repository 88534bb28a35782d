"""Short sound effects, synthesised with numpy when the game starts (nothing to ship or license).

A wooden "tock" for a move, a double knock for a capture, a rising chime for crowning, a soft low
buzz for a press that does nothing, and a three-note phrase when the game ends. Without an audio
device (``pygame.mixer`` fails to start) the game is silent and nothing else changes.
"""

from __future__ import annotations

import numpy as np

RATE = 44100


def _tock(freq: float, length: float, decay: float, rate: int) -> np.ndarray:
    """A struck-wood sound: a few inharmonic partials with a fast exponential decay, plus a click."""
    t = np.arange(int(length * rate)) / rate
    wave = sum(a * np.sin(2 * np.pi * freq * k * t) for k, a in ((1.0, 1.0), (2.76, 0.45), (5.4, 0.2)))
    env = np.exp(-t * decay)
    click = np.exp(-t * 900) * np.random.default_rng(7).uniform(-1, 1, t.size) * 0.35
    return (wave * env + click) * 0.5


def _tone(freq: float, length: float, rate: int, decay: float = 6.0) -> np.ndarray:
    t = np.arange(int(length * rate)) / rate
    attack = np.minimum(1.0, t / 0.008)
    return (np.sin(2 * np.pi * freq * t) + 0.3 * np.sin(4 * np.pi * freq * t)) * attack * np.exp(-t * decay) * 0.35


def _concat(*parts: np.ndarray, gap: float = 0.0, rate: int = RATE) -> np.ndarray:
    silence = np.zeros(int(gap * rate))
    out = []
    for p in parts:
        out += [p, silence]
    return np.concatenate(out[:-1])


def waveforms(rate: int = RATE) -> dict[str, np.ndarray]:
    """Every effect as mono float samples in [-1, 1]."""
    buzz_t = np.arange(int(0.12 * rate)) / rate
    buzz = np.sign(np.sin(2 * np.pi * 110 * buzz_t)) * np.exp(-buzz_t * 25) * 0.12
    return {
        "move": _tock(520, 0.12, 45, rate),
        "capture": _concat(_tock(470, 0.09, 50, rate), _tock(380, 0.14, 40, rate), gap=0.04, rate=rate),
        "crown": _concat(*(_tone(f, 0.18, rate, 9) for f in (660, 880, 1320)), gap=0.0, rate=rate),
        "illegal": buzz,
        "end": _concat(*(_tone(f, 0.32, rate, 5) for f in (523.25, 659.25, 783.99)), gap=0.03, rate=rate),
    }


class Sounds:
    """Plays the effects by name; silent when there is no audio device or ``enabled`` is False."""

    def __init__(self):
        self._sounds = {}
        try:
            import pygame.mixer as mixer

            if not mixer.get_init():
                mixer.init(frequency=RATE, size=-16, channels=2, buffer=512)
            rate, _, channels = mixer.get_init()
            for name, wave in waveforms(rate).items():
                pcm = (np.clip(wave, -1, 1) * 32767 * 0.8).astype(np.int16)
                if channels > 1:
                    pcm = np.repeat(pcm[:, None], channels, axis=1)
                self._sounds[name] = mixer.Sound(array=np.ascontiguousarray(pcm))
        except Exception:  # no device, no driver, no mixer module: play nothing (pygame raises pygame.error)
            self._sounds = {}

    @property
    def available(self) -> bool:
        return bool(self._sounds)

    def play(self, name: str, enabled: bool = True) -> None:
        sound = self._sounds.get(name)
        if enabled and sound is not None:
            sound.play()

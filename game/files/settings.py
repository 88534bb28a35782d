"""What the player chose, kept between runs (``game.files.storage``): notation, square numbers, animation
speed, sound, view, the rules last chosen on the mode screen and the room server for playing a friend."""

from __future__ import annotations

import dataclasses
import enum
from dataclasses import dataclass, field
from typing import Any


class Notation(enum.StrEnum):
    """How moves are written (the values are the settings file's words)."""

    ALGEBRAIC = "algebraic"  # c3-d4
    NUMERIC = "numeric"  # 11-15
    CUSTOM = "custom"  # as each rule set's players write it: algebraic where its rules name squares so

    def numeric(self, variant) -> bool:
        """Whether moves of ``variant`` are written with square numbers (``Variant.algebraic_notation``
        says how its players write them)."""
        return self is Notation.NUMERIC or (self is Notation.CUSTOM and not variant.algebraic_notation)


class View(enum.StrEnum):
    """The camera presets."""

    ANGLED = "angled"
    TOP = "top"


class AnimationSpeed(enum.StrEnum):
    SLOW = "slow"
    NORMAL = "normal"
    FAST = "fast"


def _first_variant() -> str:
    from engine import VARIANTS

    return next(iter(VARIANTS))


@dataclass
class Settings:
    """The player's choices. :meth:`toggle` flips a boolean or steps a choice; :meth:`from_dict`
    reads stored ones, keeping the default for anything missing or unknown."""

    notation: Notation = Notation.ALGEBRAIC
    square_numbers: bool = False  # standard numbers on the dark squares of the board
    animation_speed: AnimationSpeed = AnimationSpeed.NORMAL
    sound: bool = True
    view: View = View.ANGLED
    variant: str = field(default_factory=_first_variant)  # the rules last chosen (a name in engine.ALL_VARIANTS)
    room_server: str = ""  # "Play a friend" opens rooms there (ws://HOST:PORT, wss://...); empty: the game's own
    nickname: str = ""  # what an opponent found by "Play someone online" sees
    friend_clock: bool = False  # the rooms "Play a friend" opens have the game clock

    @staticmethod
    def choices(name: str) -> tuple[Any, ...] | None:
        """The values the setting ``name`` may take, in the order a toggle steps through them; None
        for a boolean."""
        if name == "variant":
            from engine import ALL_VARIANTS

            return tuple(ALL_VARIANTS)
        kind = _CHOICES.get(name)
        return tuple(kind) if kind is not None else None

    def toggle(self, name: str) -> None:
        """Flip the boolean setting ``name``, or step it to its next choice. ValueError names an
        unknown setting."""
        if name not in {f.name for f in dataclasses.fields(self)}:
            raise ValueError(f"no setting called {name!r}")
        value = getattr(self, name)
        choices = self.choices(name)
        if choices is None:
            if not isinstance(value, bool):
                raise ValueError(f"the setting {name!r} is text, not a switch")
            setattr(self, name, not value)
        else:
            setattr(self, name, choices[(choices.index(value) + 1) % len(choices)])

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe: the enums as their words."""
        return {k: (v.value if isinstance(v, enum.Enum) else v) for k, v in dataclasses.asdict(self).items()}

    @classmethod
    def from_dict(cls, stored: dict) -> Settings:
        """Settings from stored data: each value that has the right type and is one of its choices,
        the default for the rest."""
        settings = cls()
        for f in dataclasses.fields(cls):
            value, default = stored.get(f.name), getattr(settings, f.name)
            choices = cls.choices(f.name)
            if choices is None:
                if type(value) is type(default):
                    setattr(settings, f.name, value)
            elif isinstance(value, str) and value in choices:
                setattr(settings, f.name, choices[choices.index(value)])
        return settings


_CHOICES: dict[str, type[enum.StrEnum]] = {"notation": Notation, "animation_speed": AnimationSpeed, "view": View}

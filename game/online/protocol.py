"""The wire protocol between the game and the room server (``docs/online-protocol.md`` says it in prose).

WebSocket, one JSON object per text message, each with a ``"type"``. Every message type is a frozen
dataclass here; :func:`parse_client` and :func:`parse_server` turn received text into them (or raise
:class:`BadMessage`, whose text says what is wrong) and :func:`encode` turns one into text.

The server is strict about what it receives (an unknown type or field is ``bad_message``, so a typo such
as ``"offer": true`` can't silently do nothing); a client is lenient (it ignores fields it doesn't know,
so a later server may add some).

Also here: links (``checkers3d://HOST:PORT/ROOM``), server addresses as a player types them in Settings
(``ws://...``, ``wss://...`` or ``host:port``), and room ids and seat secrets from :mod:`secrets`.
"""

from __future__ import annotations

import json
import re
import secrets
import unicodedata
from dataclasses import dataclass, fields
from typing import Any, ClassVar
from urllib.parse import urlsplit

from engine import ALL_VARIANTS

from .clock import ClockReading, ClockSettings, SideTime

# --- limits ---------------------------------------------------------------------------------------

MAX_MESSAGE_BYTES = 4096  # a longer message closes the connection (WebSocket close code 1009)
RATE_LIMIT_MESSAGES = 20  # at most this many messages ...
RATE_WINDOW_S = 1.0  # ... in any window this long from one connection; more get rate_limited (once a window)
FLOOD_FACTOR = 10  # this many times the rate limit in one window closes the connection (1008)
MAX_UNSENT_BYTES = 64 * 1024  # a connection with more unsent data than this reads nothing: it is dropped
MAX_MOVE_TEXT = 200  # longest move text read (a 10x10 capture route of many landings fits easily)
DEFAULT_PORT = 47800
MAX_NICKNAME = 20  # characters of a nickname

ROOM_ID_BYTES = 12  # 96 random bits: 16 URL-safe characters
SEAT_SECRET_BYTES = 16  # 128 random bits: 22 URL-safe characters

COLORS = ("black", "white")
VARIANT_NAMES = tuple(ALL_VARIANTS)  # every rule set: rooms and the lobby's pairing take each

# The error codes a server sends (docs/online-protocol.md says which situation gives which).
ERROR_CODES = (
    "bad_message", "no_such_room", "room_full", "bad_seat", "not_in_room", "not_your_turn",
    "illegal_move", "game_over", "no_offer", "rate_limited", "too_many_rooms", "own_room", "not_seeking",
    "server_error",
)

# WebSocket close codes the server uses besides the standard ones (1009: message too big).
CLOSE_ROOM_GONE = 4000  # the room expired (idle or too old); don't reconnect
CLOSE_SEAT_TAKEN = 4001  # another connection resumed this seat; don't reconnect
CLOSE_FLOOD = 1008  # (policy violation) far more messages than the rate limit allows

_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")  # room ids and seat secrets as read (made: 16 and 22 chars)


class BadMessage(ValueError):
    """Received text that is not a valid message; the text says what is wrong (quoting the input)."""


def new_room_id() -> str:
    return secrets.token_urlsafe(ROOM_ID_BYTES)


def new_seat_secret() -> str:
    return secrets.token_urlsafe(SEAT_SECRET_BYTES)


# --- client to server -----------------------------------------------------------------------------

@dataclass(frozen=True)
class Create:
    """Open a room with these rules, with the game clock or without it (the default); the sender takes
    the first seat (the side that moves first)."""

    TYPE: ClassVar[str] = "create"
    variant: str
    clock: bool = False


@dataclass(frozen=True)
class Seek:
    """Ask to be paired with the next player who seeks a game with the same rules ("Play someone
    online"); ``nickname`` is what the opponent sees."""

    TYPE: ClassVar[str] = "seek"
    variant: str
    nickname: str


@dataclass(frozen=True)
class CancelSeek:
    """Stop seeking; a seek cancelled is never paired."""

    TYPE: ClassVar[str] = "cancel_seek"


@dataclass(frozen=True)
class Join:
    """Take the free seat of a room (the side that moves second in its first game)."""

    TYPE: ClassVar[str] = "join"
    room: str


@dataclass(frozen=True)
class Resume:
    """Return to one's seat with its secret (after a dropped connection or a relaunch)."""

    TYPE: ClassVar[str] = "resume"
    room: str
    seat: str


@dataclass(frozen=True)
class PlayMove:
    """Play a move in numeric notation (``11-15``, ``22x15``, a route ``15x24x31``), perhaps with a
    draw offer riding on it."""

    TYPE: ClassVar[str] = "move"
    move: str
    offer_draw: bool = False


@dataclass(frozen=True)
class AcceptDraw:
    TYPE: ClassVar[str] = "accept_draw"


@dataclass(frozen=True)
class Resign:
    TYPE: ClassVar[str] = "resign"


@dataclass(frozen=True)
class Rematch:
    """Ask for the next game with colours swapped; it starts when both players have asked."""

    TYPE: ClassVar[str] = "rematch"


@dataclass(frozen=True)
class Ping:
    TYPE: ClassVar[str] = "ping"


ClientMessage = Create | Seek | CancelSeek | Join | Resume | PlayMove | AcceptDraw | Resign | Rematch | Ping

# --- server to client -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Joined:
    """The answer to create, join and resume: the room, the seat's secret (keep it, never share it),
    the sender's colour in the room's current game and the link to send to the friend."""

    TYPE: ClassVar[str] = "joined"
    room: str
    seat: str
    color: str
    link: str


@dataclass(frozen=True)
class Seeking:
    """The answer to ``seek``: the sender waits for an opponent with these rules."""

    TYPE: ClassVar[str] = "seeking"
    variant: str
    nickname: str


@dataclass(frozen=True)
class SeekCancelled:
    """The answer to ``cancel_seek``: the seek is gone and will not be paired."""

    TYPE: ClassVar[str] = "seek_cancelled"


@dataclass(frozen=True)
class Paired:
    """A seek paired: the room made for the two players, the seat's secret (as in ``joined``), the
    receiver's colour in game 1 (drawn at random) and the opponent's nickname. A ``state`` follows."""

    TYPE: ClassVar[str] = "paired"
    room: str
    seat: str
    color: str
    opponent: str


@dataclass(frozen=True)
class Result:
    """How a game ended: ``result`` the winner (``black``/``white``) or ``draw``; ``reason`` one of
    ``no_moves``, ``resignation``, ``agreement``, ``repetition``, ``move_limit``, ``endgame_rule``, or
    ``time`` (the loser ran out of time)."""

    result: str
    reason: str


@dataclass(frozen=True)
class Player:
    """One seat as the state shows it: whether its player is connected now, whether anyone has taken
    the seat, for how many seconds its player has been away (None while connected or not taken), and
    the player's nickname (None in a friend's room)."""

    connected: bool
    seated: bool = True
    away_s: float | None = None
    name: str | None = None


@dataclass(frozen=True)
class State:
    """The room's current game, sent to both players after every change (moves, offers, the end, joins,
    disconnects, a rematch). ``moves`` are in numeric notation as ``python -m engine game`` reads them;
    ``offered_at`` lists the indices into ``moves`` that carried a draw offer; ``you`` is the receiver's
    colour in this game; ``rematch`` the colours that have asked for the next game; ``clock`` both
    clocks at the server's time ``clock.at`` (None in a room without the clock)."""

    TYPE: ClassVar[str] = "state"
    room: str
    variant: str
    game: int
    start_fen: str
    moves: tuple[str, ...]
    fen: str
    to_move: str
    outcome: Result | None
    draw_offer: str | None
    players: dict[str, Player]
    you: str
    offered_at: tuple[int, ...] = ()
    rematch: tuple[str, ...] = ()
    clock: ClockReading | None = None

    @property
    def started(self) -> bool:
        """Whether both seats are taken (the game starts when the friend joins)."""
        return all(p.seated for p in self.players.values())


@dataclass(frozen=True)
class Pong:
    TYPE: ClassVar[str] = "pong"


@dataclass(frozen=True)
class Error:
    """A request refused; ``code`` is one of :data:`ERROR_CODES`. The connection stays open."""

    TYPE: ClassVar[str] = "error"
    code: str
    message: str


ServerMessage = Joined | Paired | Seeking | SeekCancelled | State | Pong | Error

_CLIENT_TYPES: dict[str, type] = {c.TYPE: c for c in (Create, Seek, CancelSeek, Join, Resume, PlayMove, AcceptDraw,
                                                      Resign, Rematch, Ping)}

# --- encoding -------------------------------------------------------------------------------------


def _plain(value: Any) -> Any:
    if isinstance(value, ClockReading):
        settings = value.settings
        return {"main_s": settings.main_s, "periods": settings.periods, "period_s": settings.period_s,
                "black": _plain(value.black), "white": _plain(value.white), "running": value.running,
                "at": value.at}
    if isinstance(value, SideTime):
        return {"main_s": value.main_s, "periods": value.periods, "period_s": value.period_s}
    if isinstance(value, Player):
        return {"connected": value.connected, "seated": value.seated, "away_s": value.away_s, "name": value.name}
    if isinstance(value, Result):
        return {"result": value.result, "reason": value.reason}
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, tuple):
        return [v if isinstance(v, (str, int)) else _plain(v) for v in value]
    return value


def encode(message: ClientMessage | ServerMessage) -> str:
    """The message as one line of JSON, ``type`` first."""
    body = {"type": message.TYPE}
    body.update({f.name: _plain(getattr(message, f.name)) for f in fields(message)})
    return json.dumps(body, separators=(",", ":"), ensure_ascii=False)


def _load(text: str | bytes) -> dict:
    if not isinstance(text, str):
        raise BadMessage("messages are JSON text (a text frame), not binary")
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        raise BadMessage(f"message of more than {MAX_MESSAGE_BYTES} bytes")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise BadMessage(f"not JSON: {_quote(text)}") from None
    if not isinstance(data, dict):
        raise BadMessage(f"a message is a JSON object with a \"type\", not {_quote(text)}")
    if "type" not in data:
        raise BadMessage(f"message without a \"type\": {_quote(text)}")
    return data


def _quote(text: str, limit: int = 80) -> str:
    return repr(text if len(text) <= limit else text[:limit] + "...")


# --- reading client messages (the server side: strict) ---------------------------------------------


def parse_client(text: str | bytes) -> ClientMessage:
    """A message from a client; :class:`BadMessage` for malformed JSON, an unknown type, a missing,
    unknown or mistyped field."""
    data = _load(text)
    kind = data["type"]
    cls = _CLIENT_TYPES.get(kind) if isinstance(kind, str) else None
    if cls is None:
        raise BadMessage(f"unknown message type {kind!r} (expected one of {', '.join(_CLIENT_TYPES)})")
    names = {f.name for f in fields(cls)}
    if unknown := sorted(set(data) - names - {"type"}):
        raise BadMessage(f"{kind} has no field {', '.join(map(repr, unknown))}")
    if cls is Create:
        clock = data.get("clock", False)
        if not isinstance(clock, bool):
            raise BadMessage(f"create.clock must be true or false, not {clock!r}")
        return Create(_variant(data, kind), clock)
    if cls is Seek:
        return Seek(_variant(data, kind), check_nickname(_field(data, kind, "nickname", str)))
    if cls is Join:
        return Join(_token(data, kind, "room"))
    if cls is Resume:
        return Resume(_token(data, kind, "room"), _token(data, kind, "seat"))
    if cls is PlayMove:
        move = _field(data, kind, "move", str)
        if not 0 < len(move) <= MAX_MOVE_TEXT:
            raise BadMessage(f"move text must be 1 to {MAX_MOVE_TEXT} characters, not {_quote(move)}")
        offer = data.get("offer_draw", False)
        if not isinstance(offer, bool):
            raise BadMessage(f"offer_draw must be true or false, not {offer!r}")
        return PlayMove(move, offer)
    return cls()


def _field(data: dict, kind: str, name: str, typ: type) -> Any:
    if name not in data:
        raise BadMessage(f"{kind} needs the field {name!r}")
    value = data[name]
    if not isinstance(value, typ) or (typ is int and isinstance(value, bool)):
        raise BadMessage(f"{kind}.{name} must be {typ.__name__}, not {value!r}")
    return value


def _variant(data: dict, kind: str) -> str:
    variant = _field(data, kind, "variant", str)
    if variant not in VARIANT_NAMES:
        raise BadMessage(f"unknown variant {variant!r} (expected one of {', '.join(VARIANT_NAMES)})")
    return variant


def check_nickname(text: str) -> str:
    """A nickname as a player typed it, spaces at the ends removed: 1 to :data:`MAX_NICKNAME`
    characters, none of them a control, format or unassigned character (BadMessage says which)."""
    name = text.strip()
    if not 0 < len(name) <= MAX_NICKNAME:
        raise BadMessage(f"a nickname is 1 to {MAX_NICKNAME} characters, not {_quote(text)}")
    for c in name:
        if unicodedata.category(c).startswith("C") or (c.isspace() and c != " "):
            raise BadMessage(f"nickname {_quote(text)} has the character U+{ord(c):04X} in it")
    return name


def _token(data: dict, kind: str, name: str) -> str:
    value = _field(data, kind, name, str)
    if not _TOKEN.fullmatch(value):
        raise BadMessage(f"{kind}.{name} {_quote(value)} is not a room id or seat secret (letters, digits, - and _)")
    return value


# --- reading server messages (the client side: lenient about extra fields) -------------------------


def parse_server(text: str | bytes) -> ServerMessage:
    """A message from a server; :class:`BadMessage` when it isn't one. Fields this version doesn't
    know are ignored."""
    data = _load(text)
    kind = data["type"]
    try:
        if kind == "joined":
            return Joined(*(_field(data, kind, n, str) for n in ("room", "seat", "color", "link")))
        if kind == "paired":
            return Paired(*(_field(data, kind, n, str) for n in ("room", "seat", "color", "opponent")))
        if kind == "seeking":
            return Seeking(_field(data, kind, "variant", str), _field(data, kind, "nickname", str))
        if kind == "seek_cancelled":
            return SeekCancelled()
        if kind == "state":
            return _parse_state(data)
        if kind == "pong":
            return Pong()
        if kind == "error":
            return Error(_field(data, kind, "code", str), _field(data, kind, "message", str))
    except (TypeError, KeyError, AttributeError, ValueError) as err:
        if isinstance(err, BadMessage):
            raise
        raise BadMessage(f"malformed {kind}: {err}") from None
    raise BadMessage(f"unknown message type {kind!r}")


def _parse_state(data: dict) -> State:
    kind = "state"
    moves = _field(data, kind, "moves", list)
    if not all(isinstance(m, str) for m in moves):
        raise BadMessage(f"state.moves must be move texts, not {moves!r}")
    outcome = data.get("outcome")
    if outcome is not None:
        outcome = Result(_field(outcome, "outcome", "result", str), _field(outcome, "outcome", "reason", str))
    players = _field(data, kind, "players", dict)
    seats = {}
    for color in COLORS:
        p = players.get(color)
        if not isinstance(p, dict) or not isinstance(p.get("connected"), bool):
            raise BadMessage(f"state.players.{color} must be an object with connected true/false, not {p!r}")
        away, name = p.get("away_s"), p.get("name")
        seats[color] = Player(p["connected"], bool(p.get("seated", True)),
                              float(away) if isinstance(away, (int, float)) and not isinstance(away, bool) else None,
                              name if isinstance(name, str) else None)
    offered = data.get("offered_at", [])
    rematch = data.get("rematch", [])
    if not isinstance(offered, list) or not all(isinstance(i, int) and 0 <= i < len(moves) for i in offered):
        raise BadMessage(f"state.offered_at must be indices into moves, not {offered!r}")
    if not isinstance(rematch, list) or not all(c in COLORS for c in rematch):
        raise BadMessage(f"state.rematch must be a list of colours, not {rematch!r}")
    draw_offer = data.get("draw_offer")
    if draw_offer not in (None, *COLORS):
        raise BadMessage(f"state.draw_offer must be null, black or white, not {draw_offer!r}")
    game = _field(data, kind, "game", int)
    clock = data.get("clock")
    return State(
        room=_field(data, kind, "room", str), variant=_field(data, kind, "variant", str), game=game,
        start_fen=_field(data, kind, "start_fen", str), moves=tuple(moves), fen=_field(data, kind, "fen", str),
        to_move=_field(data, kind, "to_move", str), outcome=outcome, draw_offer=draw_offer, players=seats,
        you=_field(data, kind, "you", str), offered_at=tuple(offered), rematch=tuple(rematch),
        clock=_parse_clock(clock) if clock is not None else None)


def _is_number(value: Any) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def _parse_clock(data: Any) -> ClockReading:
    if not isinstance(data, dict):
        raise BadMessage(f"state.clock must be an object or null, not {data!r}")
    numbers = [data.get(k) for k in ("main_s", "periods", "period_s", "at")]
    if not all(_is_number(n) for n in numbers):
        raise BadMessage(f"state.clock needs main_s, periods, period_s and at as numbers: {data!r}")
    try:
        settings = ClockSettings(float(data["main_s"]), int(data["periods"]), float(data["period_s"]))
    except ValueError as err:
        raise BadMessage(f"state.clock: {err}") from None
    sides = {}
    for color in COLORS:
        side = data.get(color)
        if not isinstance(side, dict) or not all(_is_number(side.get(k)) for k in ("main_s", "periods", "period_s")):
            raise BadMessage(f"state.clock.{color} must be an object of main_s, periods and period_s, not {side!r}")
        sides[color] = SideTime(float(side["main_s"]), int(side["periods"]), float(side["period_s"]))
    running = data.get("running")
    if running not in (None, *COLORS):
        raise BadMessage(f"state.clock.running must be null, black or white, not {running!r}")
    return ClockReading(settings, sides["black"], sides["white"], running, float(data["at"]))


# --- links and server addresses -------------------------------------------------------------------

LINK_SCHEME = "checkers3d"


class InvalidLinkError(ValueError):
    """A link or server address that can't be read; the message quotes it."""


@dataclass(frozen=True)
class ServerAddress:
    """Where a room server is reached: ``ws://host:port/path`` (``wss://`` when ``tls``; the path is
    the prefix a reverse proxy may serve it under, usually empty)."""

    host: str
    port: int = DEFAULT_PORT
    tls: bool = False
    path: str = ""

    @property
    def url(self) -> str:
        """The WebSocket URL to connect to."""
        return f"{'wss' if self.tls else 'ws'}://{self.netloc}{self.path}/"

    @property
    def netloc(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{host}:{self.port}"

    def link(self, room: str) -> str:
        """The link to a room on this server: ``checkers3d://HOST:PORT/ROOM`` (``?tls=1`` when the
        server is reached with TLS)."""
        return f"{LINK_SCHEME}://{self.netloc}{self.path}/{room}" + ("?tls=1" if self.tls else "")


@dataclass(frozen=True)
class Link:
    """A parsed link: the server and the room."""

    server: ServerAddress
    room: str

    def __str__(self) -> str:
        return self.server.link(self.room)


def parse_server_address(text: str) -> ServerAddress:
    """A server as given in Settings or on a command line: ``ws://host:port``, ``wss://host[:port][/path]``,
    ``host:port`` or ``host`` (port 47800 unless a ws/wss URL implies 80/443)."""
    raw = text.strip()
    if not raw:
        raise InvalidLinkError("no server address given")
    if "://" not in raw:
        raw = f"ws://{raw}" if _has_port(raw) else f"ws://{raw}:{DEFAULT_PORT}"
    parts = _split(text, raw)
    if parts.scheme not in ("ws", "wss"):
        raise InvalidLinkError(f"{text!r} is not a room server address (expected ws://HOST:PORT or wss://HOST)")
    if parts.query or parts.fragment:
        raise InvalidLinkError(f"{text!r}: a server address has no ?query or #fragment")
    tls = parts.scheme == "wss"
    return ServerAddress(_host(text, parts), _port(text, parts, 443 if tls else 80), tls, parts.path.rstrip("/"))


def parse_link(text: str) -> Link:
    """A room link as the game shows it, ``checkers3d://HOST:PORT/ROOM`` (optionally ``?tls=1``, and a
    path before the room when the server sits under one); ``ws://HOST:PORT/ROOM`` and
    ``wss://HOST/ROOM`` name the same thing. :class:`InvalidLinkError` quotes a bad one."""
    raw = text.strip()
    parts = _split(text, raw)
    if parts.scheme not in (LINK_SCHEME, "ws", "wss"):
        raise InvalidLinkError(f"{text!r} is not a game link (expected {LINK_SCHEME}://HOST:PORT/ROOM)")
    if parts.fragment:
        raise InvalidLinkError(f"{text!r}: a game link has no #fragment")
    tls = parts.scheme == "wss"
    if parts.query:
        if parts.scheme != LINK_SCHEME or parts.query not in ("tls=1", "tls=0"):
            raise InvalidLinkError(f"{text!r}: unknown link option {parts.query!r} (only tls=1)")
        tls = parts.query == "tls=1"
    prefix, _, room = parts.path.rstrip("/").rpartition("/")
    if not _TOKEN.fullmatch(room):
        raise InvalidLinkError(f"{text!r} names no room (expected {LINK_SCHEME}://HOST:PORT/ROOM)")
    default = (443 if tls else 80) if parts.scheme in ("ws", "wss") else (443 if tls else DEFAULT_PORT)
    return Link(ServerAddress(_host(text, parts), _port(text, parts, default), tls, prefix), room)


def _split(text: str, raw: str):
    if any(c.isspace() for c in raw):
        raise InvalidLinkError(f"{text!r} has spaces in it")
    try:
        return urlsplit(raw)
    except ValueError as err:
        raise InvalidLinkError(f"can't read {text!r}: {err}") from None


def _has_port(raw: str) -> bool:
    return bool(re.fullmatch(r"(\[[^\]]*\]|[^:/\[\]]+):\d+(/.*)?", raw))


def _host(text: str, parts) -> str:
    host = parts.hostname
    if not host:
        raise InvalidLinkError(f"{text!r} names no host")
    return host


def _port(text: str, parts, default: int) -> int:
    try:
        port = parts.port
    except ValueError:
        raise InvalidLinkError(f"{text!r} has a bad port") from None
    if port == 0:
        raise InvalidLinkError(f"{text!r} has a bad port")
    return default if port is None else port

"""The wire protocol's types: parsing and validating messages, encoding, links, secrets; and that the
online package stays free of pygame and moderngl."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from game.online.clock import ClockReading, ClockSettings, SideTime
from game.online.protocol import (
    DEFAULT_PORT,
    MAX_MESSAGE_BYTES,
    MAX_NICKNAME,
    AcceptDraw,
    BadMessage,
    CancelSeek,
    Create,
    Error,
    InvalidLinkError,
    Join,
    Joined,
    Paired,
    Ping,
    Player,
    PlayMove,
    Rematch,
    Resign,
    Result,
    Resume,
    Seek,
    SeekCancelled,
    Seeking,
    ServerAddress,
    State,
    encode,
    new_room_id,
    new_seat_secret,
    parse_client,
    parse_link,
    parse_server,
    parse_server_address,
)


@pytest.mark.parametrize("text, message", [
    ('{"type": "create", "variant": "american"}', Create("american")),
    ('{"type": "create", "variant": "international"}', Create("international")),
    ('{"type": "create", "variant": "american", "clock": true}', Create("american", True)),
    ('{"type": "seek", "variant": "international", "nickname": "  Anna K. "}', Seek("international", "Anna K.")),
    ('{"type": "seek", "variant": "american", "nickname": "\u674e\u660e"}', Seek("american", "\u674e\u660e")),
    ('{"type": "cancel_seek"}', CancelSeek()),
    ('{"type": "join", "room": "abc_DEF-123"}', Join("abc_DEF-123")),
    ('{"type": "resume", "room": "r00m", "seat": "s3at"}', Resume("r00m", "s3at")),
    ('{"type": "move", "move": "11-15"}', PlayMove("11-15", False)),
    ('{"type": "move", "move": "15x24x31", "offer_draw": true}', PlayMove("15x24x31", True)),
    ('{"type": "accept_draw"}', AcceptDraw()),
    ('{"type": "resign"}', Resign()),
    ('{"type": "rematch"}', Rematch()),
    ('{"type": "ping"}', Ping()),
])
def test_client_messages_parse(text, message):
    assert parse_client(text) == message
    assert parse_client(encode(message)) == message


@pytest.mark.parametrize("text, says", [
    ("not json", "not JSON"),
    ("[1, 2]", "JSON object"),
    ('{"variant": "american"}', "without a \"type\""),
    ('{"type": "fly"}', "unknown message type 'fly'"),
    ('{"type": 7}', "unknown message type 7"),
    ('{"type": "create"}', "needs the field 'variant'"),
    ('{"type": "create", "variant": "chess"}', "unknown variant 'chess'"),
    ('{"type": "create", "variant": 8}', "must be str"),
    ('{"type": "join", "room": "a b"}', "is not a room id"),
    ('{"type": "join", "room": ""}', "is not a room id"),
    ('{"type": "join", "room": "' + "x" * 65 + '"}', "is not a room id"),
    ('{"type": "resume", "room": "abc"}', "needs the field 'seat'"),
    ('{"type": "move", "move": 1115}', "must be str"),
    ('{"type": "move", "move": ""}', "1 to 200 characters"),
    ('{"type": "move", "move": "11-15", "offer_draw": 1}', "offer_draw must be true or false"),
    ('{"type": "move", "move": "11-15", "offer": true}', "move has no field 'offer'"),
    ('{"type": "ping", "extra": 1}', "ping has no field 'extra'"),
    ('{"type": "create", "variant": "american", "clock": "yes"}', "create.clock must be true or false"),
    ('{"type": "seek", "variant": "american"}', "needs the field 'nickname'"),
    ('{"type": "seek", "nickname": "Ann"}', "needs the field 'variant'"),
    ('{"type": "seek", "variant": "chess", "nickname": "Ann"}', "unknown variant 'chess'"),
    ('{"type": "seek", "variant": "american", "nickname": "   "}', f"1 to {MAX_NICKNAME} characters"),
    ('{"type": "seek", "variant": "american", "nickname": "' + "n" * (MAX_NICKNAME + 1) + '"}', "1 to 20 characters"),
    ('{"type": "seek", "variant": "american", "nickname": "a\\u0000b"}', "U+0000"),
    ('{"type": "seek", "variant": "american", "nickname": "a\\nb"}', "U+000A"),
    ('{"type": "seek", "variant": "american", "nickname": "a\\u202eb"}', "U+202E"),  # right-to-left override
    ('{"type": "seek", "variant": "american", "nickname": "Ann", "rated": true}', "seek has no field 'rated'"),
    ('{"type": "cancel_seek", "variant": "american"}', "cancel_seek has no field 'variant'"),
    ("[" * 3000 + "]" * 1000, "not JSON"),
])
def test_malformed_client_messages_say_what_is_wrong(text, says):
    with pytest.raises(BadMessage, match=None) as err:
        parse_client(text)
    assert says in str(err.value)


def test_binary_and_oversize_messages_are_bad():
    with pytest.raises(BadMessage, match="binary"):
        parse_client(b'{"type": "ping"}')
    with pytest.raises(BadMessage, match=str(MAX_MESSAGE_BYTES)):
        parse_client(json.dumps({"type": "move", "move": "x" * MAX_MESSAGE_BYTES}))


def test_server_messages_round_trip():
    clock = ClockReading(ClockSettings(300.0, 3, 30.0), SideTime(0.0, 2, 12.5), SideTime(281.25, 3, 30.0), "black",
                         1764625512.125)
    state = State(room="r", variant="american", game=2, start_fen="B:W21-32:B1-12", moves=("11-15", "23-19"),
                  fen="B:W19,21,22,24-32:B1-10,12,15", to_move="black", outcome=Result("white", "resignation"),
                  draw_offer=None, players={"black": Player(True, name="Ann"), "white": Player(False, True, 12.5)},
                  you="white", offered_at=(1,), rematch=("black",), clock=clock)
    for message in (state, Joined("r", "s", "black", "checkers3d://h:1/r"), Error("room_full", "full"),
                    Paired("r", "s", "white", "Bo"), Seeking("american", "Ann"), SeekCancelled()):
        assert parse_server(encode(message)) == message
    wire = json.loads(encode(state))
    assert wire["type"] == "state" and wire["moves"] == ["11-15", "23-19"]
    assert wire["players"]["white"] == {"connected": False, "seated": True, "away_s": 12.5, "name": None}
    assert wire["players"]["black"]["name"] == "Ann"
    assert wire["outcome"] == {"result": "white", "reason": "resignation"}
    assert wire["clock"] == {"main_s": 300.0, "periods": 3, "period_s": 30.0,
                             "black": {"main_s": 0.0, "periods": 2, "period_s": 12.5},
                             "white": {"main_s": 281.25, "periods": 3, "period_s": 30.0},
                             "running": "black", "at": 1764625512.125}


def test_a_state_without_the_new_fields_still_reads_and_a_bad_clock_does_not():
    wire = json.loads(encode(State(room="r", variant="american", game=1, start_fen="B:W21-32:B1-12", moves=(),
                                   fen="B:W21-32:B1-12", to_move="black", outcome=None, draw_offer=None,
                                   players={"black": Player(True), "white": Player(True)}, you="black")))
    del wire["clock"], wire["players"]["black"]["name"]
    assert parse_server(json.dumps(wire)).clock is None  # an older server
    for bad in ({"main_s": 300}, {"main_s": 300, "periods": 3, "period_s": 0, "at": 1, "black": {}, "white": {}}, 7):
        with pytest.raises(BadMessage, match="clock"):
            parse_server(json.dumps({**wire, "clock": bad}))


def test_client_ignores_fields_it_does_not_know_but_not_missing_ones():
    assert parse_server('{"type": "pong", "server_time": 3}') is not None
    assert parse_server('{"type": "error", "code": "room_full", "message": "m", "hint": 1}') == Error("room_full", "m")
    with pytest.raises(BadMessage):
        parse_server('{"type": "joined", "room": "r"}')
    with pytest.raises(BadMessage):
        parse_server('{"type": "state", "room": "r"}')


def test_room_ids_and_seat_secrets_are_random_url_safe_and_long():
    rooms = {new_room_id() for _ in range(1000)}
    seats = {new_seat_secret() for _ in range(1000)}
    assert len(rooms) == len(seats) == 1000
    for token, bits in ((next(iter(rooms)), 96), (next(iter(seats)), 128)):
        assert len(token) * 6 >= bits
        assert all(c.isalnum() or c in "-_" for c in token)


@pytest.mark.parametrize("link, server_url, room, tls", [
    ("checkers3d://192.168.1.20:47800/AbC-12_x", "ws://192.168.1.20:47800/", "AbC-12_x", False),
    ("  checkers3d://rooms.example.org/AbC\n", f"ws://rooms.example.org:{DEFAULT_PORT}/", "AbC", False),
    ("checkers3d://rooms.example.org:443/AbC?tls=1", "wss://rooms.example.org:443/", "AbC", True),
    ("checkers3d://rooms.example.org:443/play/AbC?tls=1", "wss://rooms.example.org:443/play/", "AbC", True),
    ("checkers3d://[::1]:5000/AbC", "ws://[::1]:5000/", "AbC", False),
    ("ws://10.0.0.5:47800/AbC", "ws://10.0.0.5:47800/", "AbC", False),
    ("wss://rooms.example.org/AbC", "wss://rooms.example.org:443/", "AbC", True),
])
def test_links_parse(link, server_url, room, tls):
    parsed = parse_link(link)
    assert (parsed.server.url, parsed.room, parsed.server.tls) == (server_url, room, tls)
    assert parse_link(str(parsed)) == parsed


@pytest.mark.parametrize("link, says", [
    ("http://example.org/AbC", "not a game link"),
    ("checkers3d://example.org:47800/", "names no room"),
    ("checkers3d://example.org:47800/bad room", "spaces"),
    ("checkers3d://:47800/AbC", "names no host"),
    ("checkers3d://example.org:99999/AbC", "bad port"),
    ("checkers3d://example.org:47800/AbC?secret=1", "unknown link option"),
    ("checkers3d://example.org:47800/AbC#x", "fragment"),
])
def test_bad_links_are_quoted(link, says):
    with pytest.raises(InvalidLinkError) as err:
        parse_link(link)
    assert says in str(err.value) and repr(link) in str(err.value)


@pytest.mark.parametrize("text, address", [
    ("ws://rooms.example.org:47800", ServerAddress("rooms.example.org", 47800)),
    ("ws://rooms.example.org", ServerAddress("rooms.example.org", 80)),
    ("wss://rooms.example.org", ServerAddress("rooms.example.org", 443, tls=True)),
    ("wss://example.org:8443/checkers/", ServerAddress("example.org", 8443, True, "/checkers")),
    ("rooms.example.org", ServerAddress("rooms.example.org", DEFAULT_PORT)),
    ("rooms.example.org:9000", ServerAddress("rooms.example.org", 9000)),
    ("[::1]:9000", ServerAddress("::1", 9000)),
])
def test_server_addresses_as_settings_give_them(text, address):
    assert parse_server_address(text) == address


def test_a_link_carries_a_configured_server():
    address = parse_server_address("wss://example.org/checkers")
    link = address.link("R00m")
    assert link == "checkers3d://example.org:443/checkers/R00m?tls=1"
    assert parse_link(link).server == address
    for bad in ("", "http://example.org", "ws://example.org/?x=1"):
        with pytest.raises(InvalidLinkError):
            parse_server_address(bad)


def test_online_modules_import_neither_pygame_nor_moderngl():
    code = ("import sys, game.online.protocol, game.online.store, game.online.server, game.online.client, "
            "game.friend.session, game.online.load\n"
            "print(sorted(m for m in sys.modules if m.split('.')[0] in ('pygame', 'moderngl')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True)
    assert out.stdout.strip() == "[]"

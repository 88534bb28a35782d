"""Fixtures of the online tests: real room servers on free ports of 127.0.0.1."""

from __future__ import annotations

import pytest

from game.online.server import EmbeddedServer


@pytest.fixture
def make_server():
    """make_server(**options) -> a started EmbeddedServer on 127.0.0.1 (stopped after the test)."""
    started: list[EmbeddedServer] = []

    def build(**options) -> EmbeddedServer:
        server = EmbeddedServer("127.0.0.1", **options)
        server.start()
        started.append(server)
        return server

    yield build
    for server in started:
        server.stop()


@pytest.fixture
def server(make_server) -> EmbeddedServer:
    return make_server()

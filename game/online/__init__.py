"""Play a friend or someone online: the room server, its wire protocol and a headless client.

Nothing in this package imports pygame or moderngl: the server runs on a machine without a display, and
the game's window reaches it only through :mod:`game.friend.session`, polled once a frame.

    protocol.py   message types (parse, validate, encode), links, room ids and seat secrets
    clock.py      the clock of online games (main time, byo-yomi periods): server and clients alike
    store.py      SQLite persistence of rooms (WAL; a change is on disk before anyone sees it)
    server.py     the authoritative room server (websockets, asyncio), its command line
                  (``checkers3d-server``) and the embedded form on a background thread
    client.py     a client on a background thread: a thread-safe inbox of typed events, reconnection
    load.py       load measurement (``python -m game.online.load``)

The protocol is documented in ``docs/online-protocol.md``.
"""

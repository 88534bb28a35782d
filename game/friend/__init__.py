"""A friend's game on the game's side: where rooms are opened (``rooms``), the room's session
(``session``: the server's states turned into what the friend did) and the friend as an opponent
(``opponent``).

Imports ``game.online`` (the room server and its client), ``engine`` and the shared words of ``game``."""

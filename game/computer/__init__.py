"""The computer: the opponent on the engine's worker process (``worker_opponent``), the analyst that
analyses and hints on the same worker (``analysis``), the link they share (``engine_link``) and the
game report (``report``).

Imports only ``engine`` and the shared words of ``game`` (``game.modes``, ``game.opponent``)."""

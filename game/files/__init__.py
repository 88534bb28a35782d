"""What is kept on disk: the small JSON files (``storage``: the game in progress, results, recent files),
the settings (``settings``), and PDN files in the games folder (``pdn``: names, tags, reading a file).

Imports only ``engine`` and the shared words of ``game``."""

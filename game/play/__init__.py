"""The play state machine: the phases (``phases``), what a player asks for (``intents``), the one module
that applies a transition (``machine``) and its jobs (the hand on the board, offers, results, the
review and the editor, the engine beside the board, a friend's game, PDN in and out, the saved game).

Imports ``computer``, ``friend``, ``files``, ``help`` and ``engine``; never ``ui``, ``window``, pygame
or moderngl (tested without a window)."""

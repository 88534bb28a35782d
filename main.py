"""Checkers 3D. Run ``python main.py --help`` for the options."""

import sys

from game.cli import main

if __name__ == "__main__":
    sys.exit(main())

"""The window and main loop."""

from __future__ import annotations

import argparse
import os


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="checkers3d", description="Checkers 3D: American checkers and "
                                     "International draughts on a 3D board")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS",
                        help="close the window by itself after this many seconds (for tests)")
    return parser


def main(argv=None) -> int:
    args = build_parser().parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    import pygame

    pygame.init()
    try:
        screen = pygame.display.set_mode((1280, 800), pygame.RESIZABLE)
        pygame.display.set_caption("Checkers 3D")
        clock = pygame.time.Clock()
        elapsed = 0.0
        running = True
        while running:
            for event in pygame.event.get():
                if event.type == pygame.QUIT:
                    running = False
            screen.fill((38, 44, 52))
            pygame.display.flip()
            elapsed += clock.tick(60) / 1000
            if args.quit_after is not None and elapsed >= args.quit_after:
                running = False
    finally:
        pygame.quit()
    return 0

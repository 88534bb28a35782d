"""The command line: ``python main.py`` (or ``checkers3d``) opens the window, ``checkers3d LINK``
opens it straight into a friend's room; options run the offscreen tools and the window benchmarks
instead."""

from __future__ import annotations

import argparse
import gc
import os
import signal
import sys

# The offscreen tools' module imports the rules engine (numba): it loads only when one is asked for.
_TOOL_FLAGS = ("--screenshot", "--bench-frames", "-h", "--help")


def build_parser(tools: bool = True) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="checkers3d", description="Checkers 3D: American checkers and "
                                     "International draughts on a 3D board")
    from engine import version

    parser.add_argument("--version", action="version", version=f"checkers3d {version()}")
    parser.add_argument("link", nargs="?", metavar="LINK",
                        help="a friend's link (checkers3d://HOST:PORT/ROOM): open the game in that room")
    parser.add_argument("--room-host", default="0.0.0.0", metavar="ADDRESS",
                        help="the address this game's own room server listens on for \"Play a friend\" (default "
                             "0.0.0.0, every interface; 127.0.0.1 keeps rooms to this computer)")
    parser.add_argument("--quit-after", type=float, metavar="SECONDS",
                        help="close the window by itself after this many seconds (for tests)")
    parser.add_argument("--window", default="1280x800", metavar="WxH", help="initial window size (default 1280x800)")
    parser.add_argument("--bench-window", type=int, metavar="N",
                        help="open the window, play N frames of a Hard game against the computer with scripted "
                             "moves and camera turns, and print frame times (idle, animating, computer thinking)")
    parser.add_argument("--bench-launch", type=int, metavar="RUNS",
                        help="launch the game RUNS times with numba's cache and RUNS times without, and print the "
                             "seconds to the mode screen, to the 3D board on it and to the rules engine being ready")
    parser.add_argument("--bench-memory", type=int, nargs="?", const=20, metavar="PLIES",
                        help="open the window and print the memory of the game and its engine worker (resident, "
                             "proportional, private, and together), by kind of mapping: at the mode screen, then "
                             "after PLIES (default 20) plies of an American and of an International game against Hard")
    parser.add_argument("--trace", action="store_true",
                        help="with --bench-memory: also list the game process's largest Python allocations")
    if tools:
        from game.render.offscreen import add_tool_arguments

        add_tool_arguments(parser)  # --screenshot, --bench-frames and their options (--json too)
    else:
        parser.add_argument("--json", action="store_true", help="print the measurements as JSON")
    return parser


def main(argv=None) -> int:
    import engine

    # the game's process calls the rules a few times a move: as plain Python, without numba's import and
    # compiled code (about 110 MB); the computer's process compiles them (see engine/_jit.py)
    engine.interpret_kernels()
    argv = sys.argv[1:] if argv is None else list(argv)
    args = build_parser(tools=any(a.split("=")[0] in _TOOL_FLAGS for a in argv)).parse_args(argv)
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    if hasattr(args, "screenshot"):
        from game.render.offscreen import run_tool

        status = run_tool(args)  # the offscreen tools render without opening a window
        if status is not None:
            return status
    width, height = (int(v) for v in args.window.lower().split("x"))
    if args.bench_launch:
        from game.window.bench import bench_launch

        return bench_launch(args.bench_launch, (width, height), as_json=args.json)
    if args.bench_memory:
        from game.window.bench import bench_memory

        return bench_memory((width, height), as_json=args.json, plies=args.bench_memory, trace=args.trace)
    if args.bench_window:
        from game.window.bench import bench_window

        return bench_window(args.bench_window, (width, height), as_json=args.json)
    from game.window.app import App, WindowClosed

    try:
        app = App((width, height), link=args.link, room_host=args.room_host)
    except WindowClosed:  # closed while it opened
        return 0
    # a polite kill (the screenshot tool, a session ending) closes like the window's close button
    signal.signal(signal.SIGTERM, lambda *_: setattr(app, "running", False))
    try:
        app.run(args.quit_after)
    finally:
        app.close()
        # what is left goes with the process: the interpreter's collections at exit would walk every
        # object first (a fifth of a second, and more on a busy computer)
        gc.freeze()
    return 0

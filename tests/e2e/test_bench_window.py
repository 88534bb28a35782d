"""``python main.py --bench-window``: frames of each kind are timed in a real window, and the scripted
games leave the player's own files alone (they are played in a temporary folder of their own)."""

from __future__ import annotations

import json
import os


def test_the_window_benchmark_times_each_kind_of_frame_in_a_folder_of_its_own(display, tmp_path, monkeypatch,
                                                                              capsys):
    from game.window.bench import bench_window

    player = tmp_path / "player"
    games = tmp_path / "games"
    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("CHECKERS3D_DATA_DIR", str(player))
    monkeypatch.setenv("CHECKERS3D_GAMES_DIR", str(games))
    monkeypatch.delenv("CHECKERS3D_CONFIG_DIR", raising=False)
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert bench_window(200, (640, 480), as_json=True) == 0
    out = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    kinds = out["kinds"]
    assert sum(kind["all"]["frames"] for kind in kinds.values()) == 200
    assert kinds["camera"]["drawn"]["frames"] > 0 and kinds["idle"]["all"]["frames"] > 0
    assert kinds["thinking"]["all"]["frames"] + kinds["camera+think"]["all"]["frames"] > 0  # a move was played
    # the player's folders: nothing read, nothing written; the environment as it was
    assert not player.exists() and not games.exists()
    assert os.environ["CHECKERS3D_DATA_DIR"] == str(player) and os.environ["CHECKERS3D_GAMES_DIR"] == str(games)
    assert "CHECKERS3D_CONFIG_DIR" not in os.environ

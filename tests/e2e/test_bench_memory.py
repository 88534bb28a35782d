"""``python main.py --bench-memory``: the scenario runs to its end in a real window and measures the
game's processes at each of its moments (no totals are asserted: they depend on the machine), and the
engine worker holds none of LLVM's code once its kernels are loaded (engine/pages.py)."""

from __future__ import annotations

import json


def test_the_memory_benchmark_measures_the_game_and_its_worker_at_every_moment(display, monkeypatch, capsys):
    from game.window.bench import bench_memory

    monkeypatch.setenv("DISPLAY", display)
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    monkeypatch.setenv("CHECKERS3D_DATA_DIR", "")  # the benchmark sets its own; restored after the test
    monkeypatch.delenv("SDL_VIDEODRIVER", raising=False)
    assert bench_memory((640, 480), as_json=True, plies=2) == 0
    rows = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    moments = [row["moment"] for row in rows]
    assert len(rows) == 4, moments
    assert moments[0].startswith("mode screen")
    assert moments[1].startswith("american game, 2 plies") and moments[2].startswith("international game, 2 plies")
    assert moments[3].startswith("American ending (7 pieces), 2 plies")
    for row in rows:
        assert {"game", "engine worker"} <= {p["name"] for p in row["processes"]}, row["moment"]
        assert row["rss_sum"] >= max(p["rss"] for p in row["processes"]) > 0
        worker = next(p for p in row["processes"] if p["name"] == "engine worker")
        llvm = worker["mappings"].get("numba (llvmlite's LLVM)", {"rss": 0})["rss"]
        assert llvm < 8 * 2**20, (row["moment"], llvm)  # 67 MiB stayed before; the unchanged pages go

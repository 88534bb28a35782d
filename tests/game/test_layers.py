"""The layout of ``game/`` (issue 20), read from the source with ``ast``: its packages import one way
(the window on top, then the panel, the state machine, the computer and a friend's game, the files,
the help, the renderer and the room server, and the words they share at the bottom), no modules
import each other in a circle, and the panel's sections register with it instead of importing one
another."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# top to bottom: a part may import the parts below it (and itself), never one above or beside it
LAYERS = (("cli",), ("window",), ("ui",), ("play",), ("computer", "friend"), ("files", "help", "render", "online"),
          ("opponent", "desktop"), ("modes", "reading"))
TOOLKIT = {"paint", "column", "theme", "common", "layout", "diagram"}  # what a section module may import of game.ui


def module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


MODULES = {module_name(p): p for p in sorted((ROOT / "game").rglob("*.py"))}


def imports(name: str, everywhere: bool = True) -> set[str]:
    """The modules of ``game`` that module ``name`` imports: anywhere in it (under ``TYPE_CHECKING`` and
    in functions too), or at import time only (``everywhere`` False)."""
    path = MODULES[name]
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    nodes = ast.walk(tree) if everywhere else iter(tree.body)
    found = set()
    for node in nodes:
        if isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                up = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join(up + ([node.module] if node.module else []))
            found |= {f"{base}.{a.name}" if f"{base}.{a.name}" in MODULES else base for a in node.names}
        elif isinstance(node, ast.Import):
            found |= {a.name for a in node.names}
    return {m for m in found if m in MODULES and m != name}


def part_of(name: str) -> str:
    parts = name.split(".")
    return parts[1] if len(parts) > 1 else "game"


def layer(part: str) -> int:
    return next(i for i, names in enumerate(LAYERS) if part in names)


def test_the_packages_of_game_import_one_way():
    assert {part_of(m) for m in MODULES} - {"game"} == {p for names in LAYERS for p in names}
    wrong = [f"{m} -> {i}" for m in MODULES if part_of(m) != "game" for i in imports(m)
             if part_of(i) != part_of(m) and layer(part_of(i)) <= layer(part_of(m))]
    assert wrong == []


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph.get(v, ()):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                found.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_modules_import_each_other_at_import_time():
    assert cycles({m: imports(m, everywhere=False) for m in MODULES}) == []


def test_the_cycle_check_finds_one():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_the_panels_sections_register_instead_of_importing_each_other():
    sections = [m for m in MODULES if m.startswith("game.ui.") and m.rpartition(".")[2] not in TOOLKIT | {"panel"}]
    assert len(sections) >= 7
    wrong = {m: sorted(i for i in imports(m) if i.startswith("game.ui.") and i.rpartition(".")[2] not in TOOLKIT)
             for m in sections}
    assert {m: i for m, i in wrong.items() if i} == {}

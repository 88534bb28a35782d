"""Shader programs: loading assets/shaders/*.glsl and compiling them into moderngl programs.

Each .glsl file holds both stages, selected by ``VERTEX_SHADER`` / ``FRAGMENT_SHADER`` defines (the
moderngl-window convention), and may ``#include "other.glsl"`` for shared lighting code. The files
are the ``assets`` package's data, read through importlib.resources (in a checkout or an installed wheel).
"""

from __future__ import annotations

import re
from importlib import resources

SHADER_DIR = resources.files("assets") / "shaders"
PROGRAMS = ("board", "board_bake", "piece", "ring", "decal", "background", "present", "fxaa", "overlay")
_INCLUDE = re.compile(r'^\s*#include\s+"([^"]+)"\s*$', re.MULTILINE)


def shader_source(name: str, stage: str, defines: tuple[str, ...] = ()) -> str:
    """The GLSL text of ``assets/shaders/<name>.glsl`` for ``stage`` ('VERTEX_SHADER' or
    'FRAGMENT_SHADER'), with includes expanded and ``defines`` defined (a variant's switches)."""
    text = (SHADER_DIR / f"{name}.glsl").read_text(encoding="utf-8")
    text = _INCLUDE.sub(lambda m: (SHADER_DIR / m.group(1)).read_text(encoding="utf-8"), text)
    switches = "".join(f"#define {d}\n" for d in (stage, *defines))
    return f"#version 330 core\n{switches}#line 1\n{text}"


def load_program(ctx, name: str, defines: tuple[str, ...] = ()):
    """Compile and link ``assets/shaders/<name>.glsl`` (with ``defines``) in the moderngl context ``ctx``."""
    return ctx.program(vertex_shader=shader_source(name, "VERTEX_SHADER", defines),
                       fragment_shader=shader_source(name, "FRAGMENT_SHADER", defines))


def set_uniform(program, name: str, value) -> None:
    """Set a uniform if the linked program kept it (drivers drop unused ones)."""
    if name in program:
        program[name].value = value

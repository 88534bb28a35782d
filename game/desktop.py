"""Making ``checkers3d://`` links open this game on a Linux desktop (freedesktop.org), only when the
player asks for it in Settings ("Register checkers3d:// links").

:func:`register_link_handler` writes ``$XDG_DATA_HOME/applications/checkers3d.desktop``, a desktop
entry whose ``Exec`` starts this game with the link, and makes it the handler of the link type
``x-scheme-handler/checkers3d`` with ``xdg-mime default``; where xdg-utils is missing it writes the
same line into the ``[Default Applications]`` group of ``$XDG_CONFIG_HOME/mimeapps.list``, as xdg-mime
does (Desktop Entry Specification 1.5; MIME Applications Associations Specification 1.0.1). The two
folders are platformdirs' ``user_data_dir()`` and ``user_config_dir()`` (which read the XDG variables).
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

DESKTOP_FILE = "checkers3d.desktop"
LINK_TYPE = "x-scheme-handler/checkers3d"
_RESERVED = set(" \t\n\"'\\><~|&;$*?#()`")  # characters that make an Exec argument need quotes


def launch_command() -> list[str]:
    """How this game is started again: its ``checkers3d`` script beside the running interpreter when
    installed so, else the interpreter with ``main.py``."""
    script = Path(sys.executable).with_name("checkers3d")
    if script.is_file():
        return [str(script)]
    return [sys.executable, str(Path(__file__).resolve().parents[1] / "main.py")]


def exec_argument(arg: str) -> str:
    """One argument of a desktop entry's ``Exec`` key, quoted as the specification asks, then escaped
    as the file's string values are (a backslash doubled)."""
    if arg and not any(ch in _RESERVED for ch in arg):
        quoted = arg
    else:
        quoted = '"' + "".join("\\" + ch if ch in '"`$\\' else ch for ch in arg) + '"'
    return quoted.replace("%", "%%").replace("\\", "\\\\")


def desktop_entry(command: list[str]) -> str:
    """The desktop entry that opens a ``checkers3d://`` link (``%u``) with ``command``."""
    return "\n".join([
        "[Desktop Entry]",
        "Type=Application",
        "Name=Checkers 3D",
        "Comment=Opens checkers3d:// links: a game with a friend",
        "Exec=" + " ".join(exec_argument(a) for a in command) + " %u",
        "Terminal=false",
        f"MimeType={LINK_TYPE};",
        "Categories=Game;BoardGame;",
        "NoDisplay=true",
        "",
    ])


def register_link_handler(command: list[str] | None = None) -> str:
    """Register this game (or ``command``) as the opener of ``checkers3d://`` links for this user;
    returns what was done, in a player's words. ``OSError`` or ``RuntimeError`` say why it failed."""
    import platformdirs

    applications = Path(platformdirs.user_data_dir()) / "applications"
    applications.mkdir(parents=True, exist_ok=True)
    entry = applications / DESKTOP_FILE
    entry.write_text(desktop_entry(command or launch_command()), encoding="utf-8")
    xdg_mime = shutil.which("xdg-mime")
    if xdg_mime is not None:
        done = subprocess.run([xdg_mime, "default", DESKTOP_FILE, LINK_TYPE], capture_output=True, text=True,
                              timeout=30)
        if done.returncode != 0:
            raise RuntimeError(f"xdg-mime failed: {(done.stderr or done.stdout).strip() or done.returncode}")
        database = shutil.which("update-desktop-database")
        if database is not None:  # a cache some desktops read; the link works without it elsewhere
            subprocess.run([database, str(applications)], capture_output=True, timeout=30)
    else:
        _set_default(Path(platformdirs.user_config_dir()) / "mimeapps.list")
    return f"checkers3d:// links now open this game ({entry})."


def _set_default(mimeapps: Path) -> None:
    """``x-scheme-handler/checkers3d=checkers3d.desktop;`` in the ``[Default Applications]`` group of
    ``mimeapps``, the rest of the file kept as it was."""
    try:
        lines = mimeapps.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        lines = []
    line = f"{LINK_TYPE}={DESKTOP_FILE};"
    group, out, placed = None, [], False
    for text in lines:
        stripped = text.strip()
        if stripped.startswith("[") and stripped.endswith("]"):
            if group == "[Default Applications]" and not placed:
                out.append(line)
                placed = True
            group = stripped
        elif group == "[Default Applications]" and stripped.split("=", 1)[0].strip() == LINK_TYPE:
            if not placed:
                out.append(line)
                placed = True
            continue
        out.append(text)
    if not placed:
        if group != "[Default Applications]":
            out.append("[Default Applications]")
        out.append(line)
    mimeapps.parent.mkdir(parents=True, exist_ok=True)
    mimeapps.write_text("\n".join(out) + "\n", encoding="utf-8")

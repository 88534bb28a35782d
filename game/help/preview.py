"""The help pages as plain text, with ASCII diagrams, for reviewing them without a window."""

from __future__ import annotations

import textwrap

from engine import Color, Variant, coords_square, square_coords, square_name

from .explain import explain_refusal
from .model import Diagram, Page, Style

WIDTH = 76

LEGEND = ("b/w: black/white man, B/W: king, (x): gold ring, [x]: marked square, "
          "1 2 3: where the orange path stops, o: where an arrow ends, !: where a refused move ends")


def page_text(page: Page, variant: Variant) -> str:
    """The whole page: sections, paragraphs, diagrams, and the key table of the Controls page."""
    out = [page.title.upper(), "=" * len(page.title), ""]
    for section in page.sections:
        out += [f"{section.title}  [{section.id}]", "-" * len(section.title)]
        for i, paragraph in enumerate(section.paragraphs):
            bullet = paragraph.startswith("• ")
            if i and not bullet:
                out.append("")
            out += textwrap.wrap(paragraph, WIDTH, subsequent_indent="  " if bullet else "")
        for diagram in section.diagrams:
            out += ["", *diagram_text(diagram, variant)]
        out.append("")
    if page.keys:
        out += ["Keys", "----"]
        width = max(len(k.label) for k in page.keys)
        for key in page.keys:
            out += textwrap.wrap(f"{key.label:<{width}}  {key.action}", WIDTH, subsequent_indent=" " * (width + 2))
        out.append("")
    return "\n".join(out)


def diagram_text(diagram: Diagram, variant: Variant) -> list[str]:
    """The board seen from the first player (a1 bottom left), then the moves drawn and the caption."""
    pos = diagram.position(variant)
    cells: dict[int, str] = {}
    for line in diagram.lines:
        end = line.route[-1]
        if line.style is Style.PATH:
            for i, sq in enumerate(line.stops, start=1):
                cells.setdefault(sq, str(i))
        else:
            cells.setdefault(end, "o" if line.style is Style.ARROW else "!")
    n = variant.size
    rows = []
    for rank in range(n - 1, -1, -1):
        row = f"{rank + 1:>2} "
        for file in range(n):
            square = coords_square(variant, file, rank)
            if square is None:
                row += "   "
                continue
            piece = pos.piece_at(square)
            mark = "." if piece is None else ("b" if piece.color is Color.BLACK else "w")
            if piece is not None and piece.king:
                mark = mark.upper()
            if piece is None and square in cells:
                mark = cells[square]
            if square in diagram.rings:
                row += f"({mark})"
            elif square in diagram.marks:
                row += f"[{mark}]"
            else:
                row += f" {mark} "
        rows.append(row.rstrip())
    rows.append(("   " + "".join(f" {chr(ord('a') + f)} " for f in range(n))).rstrip())
    rows.append(f"   {pos.variant.side_name(pos.turn)} to move · FEN {diagram.fen}")
    for line in diagram.lines:
        capture = len(line.route) > 2 or _jumps_over(variant, pos, line.route[0], line.route[1])
        text = ("x" if capture else "-").join(square_name(variant, sq) for sq in line.route)
        if line.style is Style.REFUSED:
            why = explain_refusal(pos, line.start, line.stops, finished=True)
            said = f"{why.message} [{why.section}]" if why else "ALLOWED (should be refused)"
            rows.append(f"   refused {text}: {said}")
        else:
            claims = "".join(f" ({c.value})" for c in sorted(line.claims, key=lambda c: c.value))
            rows.append(f"   {line.style.value} {text}{claims}")
    rows += textwrap.wrap(diagram.caption, WIDTH, initial_indent="   ", subsequent_indent="   ")
    return rows


def _jumps_over(variant: Variant, pos, a: int, b: int) -> bool:
    """Whether an opposing piece stands between ``a`` and ``b`` on their diagonal (a capture)."""
    (fa, ra), (fb, rb) = square_coords(variant, a), square_coords(variant, b)
    steps = abs(fb - fa)
    if steps < 2 or steps != abs(rb - ra):
        return False
    df, dr = (fb - fa) // steps, (rb - ra) // steps
    between = (pos.piece_at(coords_square(variant, fa + i * df, ra + i * dr)) for i in range(1, steps))
    return any(p is not None and p.color is not pos.turn for p in between)

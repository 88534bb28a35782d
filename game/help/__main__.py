"""Print the help pages as text: ``python -m game.help --variant international [--page rules|controls]``."""

from __future__ import annotations

import argparse

from engine import VARIANTS, variant_named

from .content import rules_page
from .controls import controls_page
from .preview import LEGEND, page_text


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m game.help", description=__doc__)
    parser.add_argument("--variant", default="american", help=f"the rules: {', '.join(VARIANTS)} (or an alias)")
    parser.add_argument("--page", choices=("rules", "controls", "all"), default="all")
    args = parser.parse_args(argv)
    try:
        variant = variant_named(args.variant)
    except ValueError as err:
        parser.error(str(err))
    pages = []
    if args.page in ("rules", "all"):
        pages.append(rules_page(variant))
    if args.page in ("controls", "all"):
        pages.append(controls_page(variant))
    print(LEGEND + "\n")
    for page in pages:
        print(page_text(page, variant))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

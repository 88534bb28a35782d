"""Perft is the contract: the published tables of shared/reference/perft.md, node for node.

Counts are "drop duplicates": one move per (from, to, set of captured squares). Shallow depths run in
every test run; the deep ones are marked slow (``pytest -m slow``). A mismatch prints a divide (the
count below each root move) to show where to look.

The kernel is called through ``engine.__main__.run_perft``, the function ``python -m engine perft`` uses.
"""

from __future__ import annotations

import pytest

from engine import AMERICAN, INTERNATIONAL, Position, variant_named
from engine.__main__ import run_perft
from engine.variants import THAI

# American checkers, initial position B:W21-32:B1-12, Black moves first.
# Sources: Aart Bik, "perft for 8x8 checkers" (TalkChess, 2009); OEIS A133046; Martin Fierz's Cake
# (CheckerBoard blog, 2009, depths 1-12); dctl test/src/algo/traversal/initial/board_08x08.cpp (drop).
AMERICAN_START = [7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_680, 18_391_564, 85_242_128,
                  388_617_999, 1_766_564_893]

# International draughts, initial position W:W31-50:B1-20, White moves first.
# Sources: dctl test/src/algo/traversal/initial/board_10x10.cpp (FMJD forum "Perft" thread); Aart Bik,
# "BikDam: international checkers" (1-10); Moby Dam test/doperft (perft(11) = 1665861398).
INTERNATIONAL_START = [9, 81, 658, 4_265, 27_117, 167_140, 1_049_442, 6_483_961, 41_022_423, 258_895_763,
                       1_665_861_398]

# Other International positions, from the FMJD forum "Perft" thread as recorded in dctl
# test/src/algo/traversal/international/fmjd.cpp (and Moby Dam test/doperft for Woldouby and Random178).
INTERNATIONAL_POSITIONS = {
    "Woldouby": ("W:B12,13,14,16,18,19,21,23,24,26:W25,27,28,30,32,33,34,35,37,38",
                 [6, 12, 30, 73, 215, 590, 1_944, 6_269, 22_369, 88_050, 377_436, 1_910_989, 9_872_645,
                  58_360_286, 346_184_885]),
    "Random178": ("B:BK17,K24:W6,9,10,11,20,21,22,23,30,K31,33,37,41,42,43,44,46",
                  [14, 55, 1_168, 5_432, 87_195, 629_010, 9_041_010, 86_724_219, 1_216_917_193]),
    "AllKings": ("W:WK31,K32,K33,K34,K35,K36,K37,K38,K39,K40,K41,K42,K43,K44,K45,K46,K47,K48,K49,K50"
                 ":BK1,K2,K3,K4,K5,K6,K7,K8,K9,K10,K11,K12,K13,K14,K15,K16,K17,K18,K19,K20",
                 [17, 79, 352, 1_399, 7_062, 37_589, 217_575, 1_333_217, 8_558_321, 58_381_162, 417_920_283]),
    "AlmostPromotion": ("W:W6,7,8,9,10:B41,42,43,44,45",
                        [9, 81, 795, 7_578, 86_351, 936_311, 11_448_262, 138_362_698, 1_799_526_674]),
}

# The 8x8 rule sets of issue 25, start positions, drop duplicates. Source: dctl
# test/src/algo/traversal/initial/board_08x08.cpp: Brazilian, Pool and Russian from the "Standard
# validation generator moves" thread of the shashki.com forum (Russian: the forum's 929,899 at depth 8
# counts a man crowned in a capture as another move than the same capture ending as a man, as ours),
# Spanish, Italian, Czech and Thai from the FMJD forum's "Perft for all recognized draughts variants"
# thread (damforum.nl t=2822). dctl's Thai numbers are those of a Thai board with 12 men each on three
# rows (dctl ``initial(2)``), not of Thai's own start with 8 men on two rows, for which we found no
# published count: that start is checked against the plain-Python reference (test_reference.py).
MORE_STARTS = {
    "brazilian": [7, 49, 302, 1_469, 7_473, 37_628, 187_302, 907_830, 4_431_766, 21_560_022, 105_491_257,
                  511_882_477, 2_481_546_396],
    "russian": [7, 49, 302, 1_469, 7_482, 37_986, 190_146, 929_899, 4_570_586, 22_444_032, 110_917_189,
                544_770_444, 2_673_979_569],
    "pool": [7, 49, 302, 1_469, 7_482, 37_986, 190_146, 929_896, 4_570_534, 22_435_955, 110_833_952, 544_005_148,
             2_668_385_616],
    "spanish": [7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783, 3_860_866, 17_743_464, 81_383_200, 365_728_331,
                1_637_958_247],
    "italian": [7, 49, 302, 1_469, 7_361, 36_473, 177_532, 828_783, 3_860_875, 17_761_384, 81_647_058, 367_911_475,
                1_655_211_086],
    "czech": [7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_671, 18_368_918, 84_967_210, 386_262_109,
              1_749_707_352],
}
THAI_TWELVE_MEN = ("B:W1-12:B21-32",  # Thai numbering: White's three rows are squares 1-12 (PDN 3.0 "31,B,..,N2")
                   [7, 49, 302, 1_469, 7_361, 36_768, 179_740, 845_931, 3_963_648, 18_363_523, 84_892_793,
                    385_713_660, 1_745_666_630])

# Depths up to SHALLOW_NODES leaves run in every test run (each about a second or less here); deeper
# ones, up to SLOW_NODES leaves (a minute or so each on this 2-core machine), are marked slow. The
# very deepest published numbers (over a billion leaves) are kept as data but not run.
SHALLOW_NODES = 2_000_000
SLOW_NODES = 500_000_000


def cases():
    tables = [("American start", AMERICAN, AMERICAN.start_fen, AMERICAN_START),
              ("International start", INTERNATIONAL, INTERNATIONAL.start_fen, INTERNATIONAL_START)]
    tables += [(name, INTERNATIONAL, fen, counts) for name, (fen, counts) in INTERNATIONAL_POSITIONS.items()]
    tables += [(f"{name} start", variant_named(name), variant_named(name).start_fen, counts)
               for name, counts in MORE_STARTS.items()]
    tables += [("Thai on three rows", THAI, THAI_TWELVE_MEN[0], THAI_TWELVE_MEN[1])]
    for name, variant, fen, counts in tables:
        for depth, nodes in enumerate(counts, start=1):
            if nodes > SLOW_NODES:
                continue
            marks = [pytest.mark.slow] if nodes > SHALLOW_NODES else []
            yield pytest.param(variant, fen, depth, nodes, id=f"{name}-{depth}", marks=marks)


def divide(pos: Position, depth: int) -> str:
    """The count below each root move, as ``python -m engine perft --divide`` prints it."""
    lines = [f"{pos.move_text(m)}: {run_perft(pos.play(m), depth - 1)}" for m in pos.legal_moves()]
    return "\n".join(lines)


@pytest.mark.parametrize("variant, fen, depth, expected", list(cases()))
def test_perft(variant, fen, depth, expected):
    pos = Position.from_fen(variant, fen)
    nodes = run_perft(pos, depth)
    if nodes != expected:
        pytest.fail(f"perft({depth}) of {variant.name} {fen} = {nodes:,}, published {expected:,}\n"
                    f"divide at depth {depth}:\n{divide(pos, depth)}", pytrace=False)


def test_start_fens_are_the_published_ones():
    assert AMERICAN.start_fen == "B:W21-32:B1-12"
    assert INTERNATIONAL.start_fen == "W:W31-50:B1-20"
    # the starts of the other rule sets in their own numbers: FPD 3 (Spanish White on 1-12), FID 2.6
    # (Italian Black on 1-12), PDN 3.0's Thai numbering from Black's side; the others as lidraughts writes them
    assert {name: variant_named(name).start_fen for name in (*MORE_STARTS, "thai")} == {
        "brazilian": "W:W21-32:B1-12", "russian": "W:W21-32:B1-12", "pool": "B:W21-32:B1-12",
        "spanish": "W:W1-12:B21-32", "italian": "W:W21-32:B1-12", "czech": "W:W21-32:B1-12", "thai": "B:W1-8:B25-32"}


def test_divide_sums_to_perft():
    pos = Position.initial(AMERICAN)
    total = sum(int(line.rsplit(": ", 1)[1]) for line in divide(pos, 5).splitlines())
    assert total == AMERICAN_START[4]


def test_depth_zero_is_one_node():
    assert run_perft(Position.initial(AMERICAN), 0) == 1

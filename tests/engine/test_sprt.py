"""The SPRT of a match: the GSPRT log-likelihood ratio, its bounds and verdicts, pentanomial counts."""

from __future__ import annotations

import math

import pytest

from engine.sprt import PENTANOMIAL_SCORES, TRINOMIAL_SCORES, Sprt, expected_score, llr, llr_approximation, pentanomial


def test_expected_score_is_the_logistic_elo_model():
    assert expected_score(0) == 0.5
    assert expected_score(400) == pytest.approx(10 / 11)
    assert expected_score(-400) == pytest.approx(1 / 11)


def test_bounds_are_walds():
    sprt = Sprt(0, 10)
    assert sprt.lower == pytest.approx(math.log(0.05 / 0.95)) == pytest.approx(-2.944, abs=1e-3)
    assert sprt.upper == pytest.approx(2.944, abs=1e-3)


@pytest.mark.parametrize("counts, scores, elo0, elo1", [
    ([60, 100, 70], TRINOMIAL_SCORES, -5, 5),
    ([10, 30, 80, 30, 10], PENTANOMIAL_SCORES, 0, 10),
    ([12, 41, 95, 47, 14], PENTANOMIAL_SCORES, 0, 5),
])
def test_llr_is_close_to_the_closed_form_for_small_differences(counts, scores, elo0, elo1):
    exact, approx = llr(counts, scores, elo0, elo1), llr_approximation(counts, scores, elo0, elo1)
    assert exact == pytest.approx(approx, rel=0.03, abs=0.01)


def test_llr_signs_and_symmetry():
    # a sample whose mean is H0's: the likelihood can only be lower under H1
    assert llr([10, 20, 10], TRINOMIAL_SCORES, 0, 20) < 0
    # a winning sample favours the stronger hypothesis
    assert llr([5, 20, 60, 40, 15], PENTANOMIAL_SCORES, 0, 10) > 0
    # mirrored results under mirrored hypotheses: the opposite ratio
    counts = [7, 25, 61, 33, 9]
    assert llr(counts[::-1], PENTANOMIAL_SCORES, -10, 0) == pytest.approx(-llr(counts, PENTANOMIAL_SCORES, 0, 10))
    # more of the same evidence, more confidence
    assert llr([2 * c for c in counts], PENTANOMIAL_SCORES, 0, 10) > llr(counts, PENTANOMIAL_SCORES, 0, 10) > 0
    assert llr([0, 0, 0], TRINOMIAL_SCORES, 0, 10) == 0.0


def test_one_kind_of_result_still_has_a_ratio():
    assert llr([0, 0, 0, 0, 30], PENTANOMIAL_SCORES, 0, 50) > 0
    assert llr([30, 0, 0, 0, 0], PENTANOMIAL_SCORES, 0, 50) < 0
    assert math.isfinite(llr([0, 0, 50, 0, 0], PENTANOMIAL_SCORES, 0, 10))


def test_pentanomial_counts_pairs_by_points():
    assert pentanomial([0, 0.5, 1, 1, 1.5, 2, 2, 2]) == [1, 1, 2, 1, 3]


def test_verdicts():
    sprt = Sprt(0, 10)
    strong = [2.0] * 30 + [1.5] * 60 + [1.0] * 60 + [0.5] * 20  # about +120 Elo
    assert sprt.status(strong)["verdict"] == "H1"
    weak = [0.0] * 30 + [0.5] * 60 + [1.0] * 60 + [1.5] * 20
    assert sprt.status(weak)["verdict"] == "H0"
    status = sprt.status([1.0, 1.5, 0.5])
    assert status["verdict"] is None and status["pairs"] == 3 and status["lower"] < status["llr"] < status["upper"]


def test_parse():
    assert Sprt.parse("0,10") == Sprt(0.0, 10.0)
    assert Sprt.parse("-5, 5") == Sprt(-5.0, 5.0)
    for bad in ("10", "a,b", "0,10,20", "10,0", "5,5"):
        with pytest.raises(ValueError):
            Sprt.parse(bad)

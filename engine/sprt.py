"""The sequential probability ratio test of a match: stop as soon as the games say which of two Elo
differences is the truth, as fishtest and cutechess-cli do.

Hypotheses, in logistic Elo (the Elo of ``match.elo``): H0 "A is ``elo0`` stronger than B", H1 "A is
``elo1`` stronger" (elo0 < elo1, e.g. ``--sprt 0,10``: "is the change worth 10 Elo, or nothing?").
Error rates alpha = P(accept H1 | H0) and beta = P(accept H0 | H1), 0.05 each by default. After each
finished pair of games the log-likelihood ratio LLR is compared with Wald's bounds

    lower = log(beta / (1 - alpha))      (about -2.94: accept H0)
    upper = log((1 - beta) / alpha)      (about +2.94: accept H1)

The LLR is the generalized SPRT (GSPRT) of Michel Van den Bergh, the one fishtest computes
(``LLRcalc.LLR_logistic``): outcomes are categories i with scores x_i and counts n_i (N in all);
each hypothesis is a mean score s (s = 1 / (1 + 10^(-elo / 400))), and its likelihood is that of the
closest distribution with that mean, the maximum-likelihood one

    p_i(s) = (n_i / N) / (1 + theta (x_i - s)),   theta such that sum p_i(s) = 1

so LLR = sum n_i log(p_i(s1) / p_i(s0)). No draw model is assumed: the draw rate is whatever the
games show. Counts are regularised (at least 1e-3 each, as fishtest does) so that a sample with one
kind of result only has an LLR.

Models: trinomial (single games: loss, draw, win = 0, 1/2, 1) or pentanomial (each opening's pair of
games with colours swapped: the pair's total 0, 1/2, 1, 3/2, 2 scored 0, 1/4, 1/2, 3/4, 1), which
counts the pairs' correlation (a lopsided opening) and is what fishtest uses for paired games.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Sequence

TRINOMIAL_SCORES = (0.0, 0.5, 1.0)
PENTANOMIAL_SCORES = (0.0, 0.25, 0.5, 0.75, 1.0)
_EPSILON = 1e-3  # regularisation of empty categories (fishtest's)


def expected_score(elo: float) -> float:
    """The mean score of a player ``elo`` stronger, under the logistic model."""
    return 1.0 / (1.0 + 10.0 ** (-elo / 400.0))


def _mle(freqs: Sequence[float], scores: Sequence[float], s: float) -> list[float]:
    """The distribution closest (in likelihood) to ``freqs`` whose mean score is ``s``."""
    lo_x, hi_x = min(scores), max(scores)
    if not lo_x < s < hi_x:
        raise ValueError(f"mean score {s} must lie strictly between {lo_x} and {hi_x}")
    # sum f_i (x_i - s) / (1 + theta (x_i - s)) falls as theta rises; the p_i stay positive for
    # theta in (-1 / (hi_x - s), 1 / (s - lo_x)): bisect there
    lo, hi = -1.0 / (hi_x - s), 1.0 / (s - lo_x)
    for _ in range(200):
        theta = (lo + hi) / 2
        g = sum(f * (x - s) / (1 + theta * (x - s)) for f, x in zip(freqs, scores, strict=True))
        if g > 0:
            lo = theta
        else:
            hi = theta
    theta = (lo + hi) / 2
    return [f / (1 + theta * (x - s)) for f, x in zip(freqs, scores, strict=True)]


def llr(counts: Sequence[float], scores: Sequence[float], elo0: float, elo1: float) -> float:
    """The GSPRT log-likelihood ratio of H1 (``elo1``) against H0 (``elo0``) given ``counts`` of
    outcomes with ``scores`` (see the module doc). 0 without games."""
    if len(counts) != len(scores):
        raise ValueError("one count per outcome score")
    if sum(counts) <= 0:
        return 0.0
    regular = [max(float(c), _EPSILON) for c in counts]
    n = sum(regular)
    freqs = [c / n for c in regular]
    p0 = _mle(freqs, scores, expected_score(elo0))
    p1 = _mle(freqs, scores, expected_score(elo1))
    return sum(c * math.log(a / b) for c, a, b in zip(regular, p1, p0, strict=True))


def llr_approximation(counts: Sequence[float], scores: Sequence[float], elo0: float, elo1: float) -> float:
    """Van den Bergh's closed form of the same ratio, N (s1 - s0) (2 m - s0 - s1) / (2 v) with the
    sample's mean m and variance v: close to :func:`llr` for small Elo differences (a check)."""
    n = sum(counts)
    mean = sum(c * x for c, x in zip(counts, scores, strict=True)) / n
    var = sum(c * (x - mean) ** 2 for c, x in zip(counts, scores, strict=True)) / n
    s0, s1 = expected_score(elo0), expected_score(elo1)
    return n * (s1 - s0) * (2 * mean - s0 - s1) / (2 * var)


def pentanomial(pair_points: Sequence[float]) -> list[int]:
    """Counts of game pairs by A's total points in the pair: [0, 1/2, 1, 3/2, 2]."""
    counts = [0] * 5
    for points in pair_points:
        counts[round(points * 2)] += 1
    return counts


@dataclass(frozen=True)
class Sprt:
    """An SPRT's hypotheses and error rates; :meth:`parse` reads ``elo0,elo1`` (``--sprt 0,10``)."""

    elo0: float
    elo1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not self.elo0 < self.elo1:
            raise ValueError(f"--sprt needs elo0 < elo1, not {self.elo0:g},{self.elo1:g}")
        if not (0 < self.alpha < 0.5 and 0 < self.beta < 0.5):
            raise ValueError(f"SPRT error rates must lie in (0, 0.5), not alpha={self.alpha}, beta={self.beta}")

    @classmethod
    def parse(cls, text: str) -> "Sprt":
        parts = text.split(",")
        try:
            elo0, elo1 = (float(p) for p in parts)
        except ValueError:
            raise ValueError(f"bad --sprt {text!r}: write two Elo numbers, e.g. 0,10") from None
        return cls(elo0, elo1)

    @property
    def lower(self) -> float:
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        return math.log((1 - self.beta) / self.alpha)

    def status(self, pair_points: Sequence[float]) -> dict:
        """Where the test stands after the finished pairs (A's points in each): the LLR, both bounds
        and the verdict, 'H1' (elo1 accepted), 'H0' (elo0 accepted) or None (keep playing)."""
        value = llr(pentanomial(pair_points), PENTANOMIAL_SCORES, self.elo0, self.elo1)
        verdict = "H1" if value >= self.upper else "H0" if value <= self.lower else None
        return {"elo0": self.elo0, "elo1": self.elo1, "alpha": self.alpha, "beta": self.beta,
                "llr": round(value, 3), "lower": round(self.lower, 3), "upper": round(self.upper, 3),
                "pairs": len(pair_points), "verdict": verdict}

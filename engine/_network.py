"""Network evaluation kernels (numba): a small fully connected network over piece-square inputs, in
whole numbers, its first layer kept up to date move by move.

Inputs, seen from one side ("us"; the view of White, or of Black with the board turned half a turn,
the bit reversal ``top - b`` of ``_egdb``): one input for each (kind, square), kinds 0 our men, 1 our
kings, 2 their men, 3 their kings: ``4 * squares`` inputs (128 on 8x8, 200 on 10x10), of which the
pieces on the board are 1. The network scores the position for the side to move from that side's
view, so one set of weights serves both colours.

Layers (``NetTables``), with activations in [0, 1] held as whole numbers times Q_ACT:

    a1 = clip((b1 + sum of w1[input] over the inputs that are 1) >> Q1_SHIFT, 0, Q_ACT)   H1: the accumulator
    a2 = clip((b2 + w2 @ a1) >> Q_SHIFT, 0, Q_ACT)                            H2 wide
    a3 = clip((b3 + w3 @ a2) >> Q_SHIFT, 0, Q_ACT)                            H3 wide
    out = b4 + w4 . a3                     the logit of the side to move's expected score, times Q_ACT * Q_W

w1 and b1 are the float weights times Q_ACT * 2^Q1_SHIFT (16-bit: the accumulator is), the other
weights times Q_W (= 2^Q_SHIFT), the other biases times Q_ACT * Q_W. The score in centi-men is
``out * scale >> 16`` (``scale`` from the weights file: centi-men per logit, times 2^16, over
Q_ACT * Q_W). Every shift rounds to nearest.

The accumulator (``b1 + w1 @ inputs`` before the clip) is kept for both views at every ply of the
search (``Stack.acc[ply, view]``): the root's is summed from its pieces (``refresh``), a child's is its
parent's plus the columns of the pieces that appeared and minus those that left (``update``), so
that undoing a move costs nothing (the parent's row is still there). ``NetTables.sizes[0] == 0``
means no network: the search uses the linear evaluation (``_eval``).
"""

from typing import NamedTuple

import numpy as np

from ._jit import inlined, kernel
from ._movegen import lsb

ONE = np.uint64(1)
ZERO = np.uint64(0)

Q_ACT = 127  # an activation of 1.0
Q1_SHIFT = 2  # the accumulator counts in quarters of the activation's steps (less rounding in its sums)
Q_SHIFT = 6
Q_W = 1 << Q_SHIFT  # a hidden weight of 1.0
SCALE_SHIFT = 16
MAX_HIDDEN = 256  # the widest layer the search's accumulator and work rows hold
KINDS = 4  # our men, our kings, their men, their kings

# sizes vector (int64)
N_H1, N_H2, N_H3, N_INPUTS, N_SCALE = range(5)
N_COUNT = 5


class NetTables(NamedTuple):
    """What the network kernels read, read-only (``network.net_tables``). The first two layers' weights
    are 16-bit (the accumulator's additions and the products of the dot products, 16 at a time)."""

    sizes: np.ndarray  # int64 [N_COUNT]: H1 (0: no network), H2, H3, inputs, scale
    input_index: np.ndarray  # int64 [2, 4, 64]: the input of (view, piece kind white man/king, black man/king, bit); -1 none
    w1: np.ndarray  # int16 [inputs, H1]
    b1: np.ndarray  # int16 [H1]
    w2: np.ndarray  # int16 [H2, H1] (each output's weights in a row)
    b2: np.ndarray  # int32 [H2]
    w3: np.ndarray  # int16 [H3, H2]
    b3: np.ndarray  # int32 [H3]
    w4: np.ndarray  # int32 [H3]
    b4: np.ndarray  # int32 [1]


@inlined
def refresh(white, black, kings, net, acc):
    """Both views' accumulators (``acc`` int16 [2, >= H1]) summed from the pieces of a position."""
    h1 = net.sizes[N_H1]
    for v in range(2):
        row = acc[v]
        for j in range(h1):
            row[j] = net.b1[j]
        for kind in range(KINDS):
            side = white if kind < 2 else black
            b = side & kings if kind & 1 else side & ~kings
            while b:
                sq = lsb(b)
                b &= b - ONE
                i = net.input_index[v, kind, sq]
                for j in range(h1):
                    row[j] += net.w1[i, j]


@inlined
def update(acc, ply, net, c, frm, to, cap, kings, was_king, is_king):
    """The accumulators of ply + 1 (``acc[ply + 1]``, ``acc`` int16 [plies, 2, >= H1]) after side ``c``
    played (frm, to, cap) from the position of ply (``kings``: its kings; ``was_king``/``is_king``: the
    moving piece before and after). The rows are indexed in place, never taken as views: numba
    counts the references to each view it makes, each count an atomic operation."""
    h1 = net.sizes[N_H1]
    w1 = net.w1
    mover = 2 * c
    them = 2 - mover
    for v in range(2):
        left = net.input_index[v, mover + was_king, frm]
        came = net.input_index[v, mover + is_king, to]
        for j in range(h1):
            acc[ply + 1, v, j] = acc[ply, v, j] - w1[left, j] + w1[came, j]
        b = cap
        while b:
            sq = lsb(b)
            b &= b - ONE
            taken = net.input_index[v, them + np.int64((kings >> np.uint64(sq)) & ONE), sq]
            for j in range(h1):
                acc[ply + 1, v, j] -= w1[taken, j]


@inlined
def _layer(hidden, src, n_in, weights, bias, n_out, dst):
    """hidden[dst] = clip((bias + weights @ hidden[src]) >> Q_SHIFT, 0, Q_ACT) (rounded to nearest): a
    dot product of 16-bit numbers per output, summed in 32 bits (exact: at most MAX_HIDDEN products of
    an activation <= Q_ACT and a 16-bit weight, under 2^30), which the compiler turns into
    multiply-adds 16 pairs at a time (``vpmaddwd``); summed in numba's own 64-bit integers they took
    four times the lanes."""
    for k in range(n_out):
        z = np.int32(0)
        for j in range(n_in):
            z = np.int32(z + np.int32(hidden[src, j]) * np.int32(weights[k, j]))
        hidden[dst, k] = min(max((np.int64(z) + bias[k] + (Q_W >> 1)) >> Q_SHIFT, 0), Q_ACT)


@inlined
def forward(acc, ply, c, net, hidden):
    """The network's score (centi-men, the side to move's view) of the position of ply ``ply`` from
    the accumulator of side ``c`` to move (``acc[ply, c]``); ``hidden`` is work space, int16 [3, >= H1]
    (a row a layer, indexed in place like ``update``'s)."""
    h1, h2, h3 = net.sizes[N_H1], net.sizes[N_H2], net.sizes[N_H3]
    for j in range(h1):
        hidden[0, j] = min(max((acc[ply, c, j] + (1 << (Q1_SHIFT - 1))) >> Q1_SHIFT, 0), Q_ACT)
    _layer(hidden, 0, h1, net.w2, net.b2, h2, 1)
    _layer(hidden, 1, h2, net.w3, net.b3, h3, 2)
    out = np.int64(net.b4[0])
    for k in range(h3):
        out += np.int64(hidden[2, k]) * net.w4[k]
    return (out * net.sizes[N_SCALE] + (1 << (SCALE_SHIFT - 1))) >> SCALE_SHIFT


@kernel
def evaluate_position(white, black, kings, color, net, acc, hidden):
    """The network's score of one position for the side ``color`` to move (``refresh`` then
    ``forward``; ``acc`` int16 [>= 1, 2, >= H1]): what the search's evaluation at a leaf adds up to,
    for tests and tools."""
    refresh(white, black, kings, net, acc[0])
    return forward(acc, 0, color, net, hidden)

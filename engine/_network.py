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

H1, H2 and H3 are whole multiples of ``STEP`` (the trained widths padded with units of zero weights,
which stay 0), as the compiled hidden layer (``_layer``) takes them.

w1 and b1 are the float weights times Q_ACT * 2^Q1_SHIFT (16-bit: the accumulator is), the other
weights times Q_W (= 2^Q_SHIFT), the other biases times Q_ACT * Q_W. The score in centi-men is
``out * scale >> 16`` (``scale`` from the weights file: centi-men per logit, times 2^16, over
Q_ACT * Q_W). Every shift rounds to nearest.

The accumulator (``b1 + w1 @ inputs`` before the clip) is kept for both views at every ply of the
search (``Stack.acc[ply, view]``): the root's is summed from its pieces (``refresh``), a child's is its
parent's plus the columns of the pieces that appeared and minus those that left (``update``, a view
at a time, when an evaluation needs it), so that undoing a move costs nothing (the parent's row is
still there). ``NetTables.sizes[0] == 0`` means no network: the search uses the linear evaluation
(``_eval``).
"""

from typing import NamedTuple

import numpy as np

from ._jit import inlined, is_interpreted, kernel
from ._movegen import lsb

ONE = np.uint64(1)
ZERO = np.uint64(0)

Q_ACT = 127  # an activation of 1.0
Q1_SHIFT = 2  # the accumulator counts in quarters of the activation's steps (less rounding in its sums)
Q_SHIFT = 6
Q_W = 1 << Q_SHIFT  # a hidden weight of 1.0
SCALE_SHIFT = 16
MAX_HIDDEN = 256  # the widest layer the search's accumulator and work rows hold
STEP = 8  # every hidden width is a multiple of it: the compiled layer's outputs a vector, inputs a step
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
    w2: np.ndarray  # int16 [H1 / 2, 2 * H2]: row p holds, output by output, the weights of inputs 2p and 2p + 1
    b2: np.ndarray  # int32 [H2]
    w3: np.ndarray  # int16 [H2 / 2, 2 * H3], laid out as w2
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
def update(acc, ply, net, v, c, frm, to, cap, kings, was_king, is_king):
    """View ``v``'s accumulator of ply + 1 (``acc[ply + 1, v]``, ``acc`` int16 [plies, 2, >= H1]) after
    side ``c`` played (frm, to, cap) from the position of ply (``kings``: its kings; ``was_king``/
    ``is_king``: the moving piece before and after). The rows are indexed in place, never taken as
    views: numba counts the references to each view it makes, each count an atomic operation."""
    h1 = net.sizes[N_H1]
    w1 = net.w1
    mover = 2 * c
    them = 2 - mover
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


if is_interpreted():  # plain Python (see _jit.interpret): what the compiled layer below computes

    def _layer(hidden, src, n_in, weights, bias, n_out, dst):
        """hidden[dst] = clip((bias + W @ hidden[src]) >> Q_SHIFT, 0, Q_ACT) (rounded to nearest), where
        output k's weight of input j is ``weights[j // 2, 2 * k + j % 2]`` (``NetTables.w2``)."""
        for k in range(n_out):
            z = int(bias[k])
            for j in range(n_in):
                z += int(hidden[src, j]) * int(weights[j >> 1, 2 * k + (j & 1)])
            hidden[dst, k] = min(max((z + (Q_W >> 1)) >> Q_SHIFT, 0), Q_ACT)

else:
    from llvmlite import ir
    from numba import types
    from numba.core import cgutils
    from numba.extending import intrinsic
    from numba.np.arrayobj import make_array

    def element_pointer(context, builder, array_type, array, index):
        """The address of ``array[index]`` (a tuple of LLVM integers), unchecked."""
        a = make_array(array_type)(context, builder, array)
        return cgutils.get_item_pointer2(context, builder, a.data, cgutils.unpack_tuple(builder, a.shape),
                                         cgutils.unpack_tuple(builder, a.strides), array_type.layout, index,
                                         wraparound=False)

    def _steps(builder, stop, step, body):
        """``for i in range(0, stop, step): body(i)`` (``stop`` a multiple of ``step``) in LLVM IR, with the
        test at the bottom."""
        intp = stop.type
        before = builder.basic_block
        loop = builder.append_basic_block("steps.body")
        after = builder.append_basic_block("steps.end")
        builder.cbranch(builder.icmp_signed(">", stop, intp(0)), loop, after)
        builder.position_at_end(loop)
        i = builder.phi(intp)
        body(i)
        following = builder.add(i, intp(step))
        i.add_incoming(intp(0), before)
        i.add_incoming(following, builder.basic_block)
        builder.cbranch(builder.icmp_signed("<", following, stop), loop, after)
        builder.position_at_end(after)

    @intrinsic
    def _layer(typingctx, hidden, src, n_in, weights, bias, n_out, dst):
        """hidden[dst] = clip((bias + W @ hidden[src]) >> Q_SHIFT, 0, Q_ACT) (rounded to nearest), where
        output k's weight of input j is ``weights[j // 2, 2 * k + j % 2]`` (``NetTables.w2``; n_in and
        n_out multiples of STEP), written as LLVM vectors. The outputs go STEP (8) at a time, each
        one 32-bit sum of a vector: a step takes the next pair of inputs, repeated across the vector,
        times the next row's 16 weights of these outputs, and adds each output's two products to its
        sum (exact: at most MAX_HIDDEN products of an activation <= Q_ACT and a 16-bit weight, under
        2^30). That is one ``vpmaddwd`` of 256 bits (``vpdpwssd`` where the CPU has VNNI) a pair, four
        pairs a step into four sums, so that no step waits on the one before. Written as plain Python
        loops (the dot product of one output at a time, summed in np.int32), LLVM vectorised the sum
        over the inputs 8 wide, in 128-bit ``vpmaddwd`` followed by a horizontal sum per output: a
        standalone forward pass took 0.34 us where this takes 0.16 (American network, 128-32-32)."""
        if not (isinstance(hidden, types.Array) and isinstance(weights, types.Array) and isinstance(bias, types.Array)
                and all(isinstance(x, types.Integer) for x in (src, n_in, n_out, dst))
                and hidden.dtype == weights.dtype == types.int16 and bias.dtype == types.int32
                and hidden.ndim == weights.ndim == 2 and hidden.layout == weights.layout == "C"
                and bias.layout == "C" and hidden.mutable):
            return None
        signature = types.void(hidden, types.intp, types.intp, weights, bias, types.intp, types.intp)

        def codegen(context, builder, sig, args):
            hidden_v, src_v, n_in_v, weights_v, bias_v, n_out_v, dst_v = args
            intp = n_in_v.type
            i16, i32 = ir.IntType(16), ir.IntType(32)
            sums_t = ir.VectorType(i32, STEP)  # a sum per output
            wide_t = ir.VectorType(i32, 2 * STEP)  # a product per weight
            weights_t = ir.VectorType(i16, 2 * STEP)  # two weights per output
            out_t = ir.VectorType(i16, STEP)
            pair_t = ir.VectorType(i16, 2)
            even = ir.Constant(sums_t, list(range(0, 2 * STEP, 2)))
            odd = ir.Constant(sums_t, list(range(1, 2 * STEP, 2)))
            repeat = ir.Constant(ir.VectorType(i32, 2 * STEP), [i & 1 for i in range(2 * STEP)])
            zero = intp(0)
            source = element_pointer(context, builder, sig.args[0], hidden_v, (src_v, zero))
            target = element_pointer(context, builder, sig.args[0], hidden_v, (dst_v, zero))
            first_row = element_pointer(context, builder, sig.args[3], weights_v, (zero, zero))
            biases = element_pointer(context, builder, sig.args[4], bias_v, (zero,))
            row_length = builder.mul(n_out_v, intp(2))
            unroll = STEP // 2

            def outputs(k):
                sums = [cgutils.alloca_once_value(builder, ir.Constant(sums_t, None)) for _ in range(unroll)]
                column = builder.gep(first_row, [builder.mul(k, intp(2))])

                def pairs(p):
                    for u in range(unroll):
                        q = builder.add(p, intp(u))
                        pair = builder.load(builder.bitcast(builder.gep(source, [builder.mul(q, intp(2))]),
                                                            pair_t.as_pointer()), align=2)
                        inputs = builder.shuffle_vector(pair, pair, repeat)
                        w = builder.load(builder.bitcast(builder.gep(column, [builder.mul(q, row_length)]),
                                                         weights_t.as_pointer()), align=2)
                        products = builder.mul(builder.sext(inputs, wide_t), builder.sext(w, wide_t))
                        two = builder.add(builder.shuffle_vector(products, products, even),
                                          builder.shuffle_vector(products, products, odd))
                        builder.store(builder.add(builder.load(sums[u]), two), sums[u])

                _steps(builder, builder.udiv(n_in_v, intp(2)), unroll, pairs)
                z = builder.load(builder.bitcast(builder.gep(biases, [k]), sums_t.as_pointer()), align=4)
                for s in sums:
                    z = builder.add(z, builder.load(s))
                z = builder.ashr(builder.add(z, ir.Constant(sums_t, [Q_W >> 1] * STEP)),
                                 ir.Constant(sums_t, [Q_SHIFT] * STEP))
                low, high = ir.Constant(sums_t, [0] * STEP), ir.Constant(sums_t, [Q_ACT] * STEP)
                z = builder.select(builder.icmp_signed("<", z, low), low, z)
                z = builder.select(builder.icmp_signed(">", z, high), high, z)
                builder.store(builder.trunc(z, out_t), builder.bitcast(builder.gep(target, [k]), out_t.as_pointer()),
                              align=2)

            _steps(builder, n_out_v, STEP, outputs)
            return context.get_dummy_value()

        return signature, codegen


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

//===- cross_entropy.cpp - cross-entropy loss and its gradient ------------===//
//
// Per row (token) of logits x (n_rows, n_cols = V), with labels t (i64), ignore_index, label
// smoothing eps and z-loss scale z (Liger-Kernel's label_smoothing and lse_square_scale), with
// lse = logsumexp(x[row, :]):
//   loss[row] = (1 - eps) * (lse - x[t]) + eps * (lse - sum_j x[j] / V) + z * lse^2
// (0 when t == ignore_index). eps * (lse - mean_j x[j]) = eps * mean_j(-log softmax(x)_j): this
// is PyTorch's F.cross_entropy(label_smoothing=eps), (1 - eps) * nll + eps * the uniform target's
// cross-entropy, plus PaLM's z-loss; eps = z = 0 is the plain cross-entropy lse - x[t].
// Computed in f32 with an online softmax over vocabulary blocks (OnlineSoftmax.h: the row is
// read once, each thread keeps its own running values; the row sum of x is a third one). One program per row; grid = (n_rows,). Reduction over
// rows (mean over the non-ignored rows, or sum) is the caller's; a mean over zero rows is NaN,
// as in PyTorch (case C4).
//
//===----------------------------------------------------------------------===//
#include "OnlineSoftmax.h"
#include "RowSpaces.h"

#include <tessel/dsl.h>

using namespace tessel::dsl;

struct CrossEntropyConfig {
  int BLOCK = 4096;
  int num_warps = 8;
};
TESSEL_CONFIG(CrossEntropyConfig, BLOCK, num_warps)

/// rowSoftmaxStats with the row's sum s only when label smoothing needs it (eps != 0; else s =
/// 0): the plain loss skips a select and an add per element of its first pass.
template <class T>
std::tuple<Float, Float, Float> rowStats(int block, Ptr<T> base, Int n_cols,
                                         Float label_smoothing) {
  return if_then_else(
      label_smoothing != 0.0, [&] { return rowSoftmaxStats(block, base, n_cols, true); },
      [&] {
        auto [m, d, unused] = rowSoftmaxStats(block, base, n_cols, false);
        return std::tuple{m, d, Float(0.0)};
      });
}

/// One row's loss from its logsumexp, its target logit and its sum s.
inline Float row_loss(Float lse, Float target, Float s, Int n_cols, Float label_smoothing,
                      Float z_loss) {
  Float nll = lse - target;         // -log softmax(x)_t
  Float uniform = lse - s / n_cols; // mean_j -log softmax(x)_j
  Float eps = label_smoothing;
  Float smooth = where(eps != 0.0, eps * uniform, 0.0);
  return (1.0 - eps) * nll + smooth + z_loss * lse * lse;
}

/// loss (n_rows) f32. The target logit is only read for rows that are not ignored. The
/// smoothing term is selected away when eps = 0, so a row holding -inf (a masked logit, whose
/// sum is -inf) keeps the plain cross-entropy rather than 0 * inf = NaN.
template <class T>
void cross_entropy(const CrossEntropyConfig &c, Ptr<f32> loss, Ptr<T> logits, Ptr<i64> labels,
                   Int stride, Int n_cols, Int ignore_index, Float label_smoothing,
                   Float z_loss) {
  Int row = program_id(0);
  Int label = load(labels + row);
  Ptr<T> base = logits + row * stride;
  Bool valid = label != ignore_index;
  Float target = cast<f32>(load(base + label, valid, 0.0));
  auto [m, d, s] = rowStats(c.BLOCK, base, n_cols, label_smoothing);
  Float lse = log(d) + m;
  store(loss + row, where(valid, row_loss(lse, target, s, n_cols, label_smoothing, z_loss), 0.0));
}
TESSEL_KERNEL(cross_entropy, DTYPES(f32, f16, bf16),
              ARGS(loss, logits, labels, stride, n_cols, ignore_index, label_smoothing, z_loss),
              CONFIGS(CrossEntropyConfig{.BLOCK = 4096, .num_warps = 8},
                      CrossEntropyConfig{.BLOCK = 8192, .num_warps = 16}))
TESSEL_TUNE(cross_entropy, viewedRowSpace<CrossEntropyConfig>())

/// How the per-row losses were reduced in the forward pass; decides the upstream gradient.
TESSEL_ENUM(Reduction, none, mean, sum)

struct CrossEntropyBackwardConfig {
  int BLOCK = 4096;
  Reduction reduction = Reduction::mean;
  int num_warps = 8;
};
TESSEL_CONFIG(CrossEntropyBackwardConfig, BLOCK, reduction, num_warps)

/// The gradient pass over one row: dbase[j] = (p_j * (1 + 2 * z * lse) - (1 - eps) *
/// [j == label] - eps / V) * g with p_j = exp(x_j - lse), computed in f32 and rounded once to
/// T. An ignored row stores exactly 0 (selected, never multiplied, so a mean over zero rows
/// cannot produce NaN: case C4). dbase may be base (in place): each element is read and
/// written by the same thread. The blocks go last first (for_blocks_reversed): after a first
/// pass over the row, its freshest lines are still in L2. `evict` is the L2 priority of the
/// pass's loads and stores: evict_first after a first pass (the row's last read, and a gradient
/// this kernel does not read), so that they make room for the rows other programs still read:
/// 2.3% at 2048x128256 on the benchmark GPU. evict_last on the first pass gained 0.3% alone and nothing
/// with it (results/2026-12-03-h200-s37, call 3), and nothing would un-mark the lines it marks.
template <class T>
void store_gradient(int block, Ptr<T> dbase, Ptr<T> base, Int n_cols, Int label, Bool ignored,
                    Float lse, Float g, Float label_smoothing, Float z_loss,
                    Evict evict = Evict::normal) {
  // The row's factors folded into three scalars, so that an element costs one exp, one fma,
  // one i32 compare and a select: grad_j = fma(p_j, a, -(j == label ? at_label : spread)), one
  // rounding as (p_j - 1) * g had for the label's column when eps = z = 0.
  // With rowStats' sum only under smoothing: cross_entropy_fused 8192 / 16 warps at 8192x128256
  // bf16 on the benchmark GPU 1733 -> 1444 us (17 -> 14 assembly lines per element here, 13 -> 10
  // in the first pass; results/2026-12-03-h200-s39).
  Float a = (1.0 + 2.0 * z_loss * lse) * g; // d (lse + z * lse^2) / d lse, times g
  Float spread = label_smoothing / n_cols * g; // eps / V * g, every class's weight
  Float at_label = (1.0 - label_smoothing) * g + spread;
  Tile<i32> cols = arange(0, block); // (BLOCK)
  if_then_else(
      ignored,
      [&] { // exactly 0, never multiplied (a mean over zero rows cannot make NaN: case C4)
        for_blocks_reversed(n_cols, block, [&](Int start) {
          Tile<i64> offs = start + cols; // (BLOCK)
          store(dbase + offs, cast<T>(zeros<f32>({block})), offs < n_cols, {.evict = evict});
        });
      },
      [&] {
        for_blocks_reversed(n_cols, block, [&](Int start) {
          Tile<i64> offs = start + cols; // (BLOCK)
          Mask mask = offs < n_cols;     // (BLOCK)
          // The label's column in this block, as i32 (clamped to [-1, BLOCK]: a label outside
          // the block matches no column), so that the per-element compare is 32-bit.
          Tile<i32> at = cast<i32>(minimum(maximum(label - start, Int(-1)), Int(block)));
          Tile<f32> x = cast<f32>(load(base + offs, mask, -inf, {.evict = evict})); // (BLOCK)
          Tile<f32> grad = fma(exp_shifted(x, lse), a, where(cols == at, -at_label, -spread)); // (BLOCK)
          store(dbase + offs, cast<T>(grad), mask, {.evict = evict});
        });
      });
}

/// dlogits[row, j] = (p_j * (1 + 2 * z * lse) - (1 - eps) * [j == label] - eps / V) * g, with
/// p = softmax(logits[row]), eps = label_smoothing and z = z_loss (the forward's loss
/// differentiated: d lse / d x_j = p_j, d (sum_j x_j / V) / d x_j = 1 / V), where g is dloss[row]
/// (reduction none: one upstream value per row, case C3), dloss[0] (sum) or dloss[0] / n_valid
/// (mean over the n_valid non-ignored rows). Ignored rows get exactly 0 (selected, never
/// multiplied, so a mean over zero rows cannot produce NaN: case C4). The gradient is computed
/// in f32 and rounded once to T (case C2); eps = z = 0 gives (p_j - [j == label]) * g exactly.
/// dlogits may alias logits (in place).
template <class T>
void cross_entropy_backward(const CrossEntropyBackwardConfig &c, Ptr<T> dlogits, Ptr<T> logits,
                            Ptr<i64> labels, Ptr<f32> dloss, Int stride, Int dstride,
                            Int n_cols, Int ignore_index, Int n_valid, Float label_smoothing,
                            Float z_loss) {
  Int row = program_id(0);
  Int label = load(labels + row);
  Ptr<T> base = logits + row * stride;
  Ptr<T> dbase = dlogits + row * dstride;
  auto [m, d, unused] = rowSoftmaxStats(c.BLOCK, base, n_cols, /*withSum=*/false);
  Float lse = m + log(d);
  Float g;
  if (c.reduction == Reduction::none)
    g = load(dloss + row);
  else if (c.reduction == Reduction::sum)
    g = load(dloss);
  else
    g = load(dloss) / n_valid;
  store_gradient(c.BLOCK, dbase, base, n_cols, label, label == ignore_index, lse, g,
                 label_smoothing, z_loss, Evict::evict_first);
}
TESSEL_KERNEL(cross_entropy_backward, DTYPES(f32, f16, bf16),
              ARGS(dlogits, logits, labels, dloss, stride, dstride, n_cols, ignore_index,
                   n_valid, label_smoothing, z_loss),
              CONFIGS(CrossEntropyBackwardConfig{.reduction = Reduction::none},
                      CrossEntropyBackwardConfig{.reduction = Reduction::mean},
                      CrossEntropyBackwardConfig{.reduction = Reduction::sum}))

/// cross_entropy and cross_entropy_backward in one kernel (Liger-Kernel's cross-entropy
/// kernel): loss[row] as cross_entropy, lse[row] = logsumexp(logits[row]) (f32, every row, for
/// cross_entropy_backward_lse), and dlogits as cross_entropy_backward for the upstream
/// gradient g = grad_scale[0] on every row (fused linear cross-entropy passes 1 / n_valid for
/// a mean, 1 for a sum). The row is read twice, the second time mostly from L2 (the program
/// has just read it), and written once, where the two kernels read it three times. dlogits may
/// alias logits: the target logit is read before the first pass, since the gradient pass of
/// another warp may overwrite it once the last reduction of the first pass is done.
template <class T>
void cross_entropy_fused(const CrossEntropyConfig &c, Ptr<f32> loss, Ptr<f32> lse_out,
                         Ptr<T> dlogits, Ptr<T> logits, Ptr<i64> labels, Ptr<f32> grad_scale,
                         Int stride, Int dstride, Int n_cols, Int ignore_index,
                         Float label_smoothing, Float z_loss) {
  Int row = program_id(0);
  Int label = load(labels + row);
  Ptr<T> base = logits + row * stride;
  Bool valid = label != ignore_index;
  Float target = cast<f32>(load(base + label, valid, 0.0));
  Float g = load(grad_scale);
  auto [m, d, s] = rowStats(c.BLOCK, base, n_cols, label_smoothing);
  Float lse = log(d) + m;
  store(loss + row, where(valid, row_loss(lse, target, s, n_cols, label_smoothing, z_loss), 0.0));
  store(lse_out + row, lse);
  store_gradient(c.BLOCK, dlogits + row * dstride, base, n_cols, label, !valid, lse, g,
                 label_smoothing, z_loss, Evict::evict_first);
}
TESSEL_KERNEL(cross_entropy_fused, DTYPES(f32, f16, bf16),
              ARGS(loss, lse, dlogits, logits, labels, grad_scale, stride, dstride, n_cols,
                   ignore_index, label_smoothing, z_loss),
              CONFIGS(CrossEntropyConfig{.BLOCK = 4096, .num_warps = 8},
                      CrossEntropyConfig{.BLOCK = 8192, .num_warps = 16}))
TESSEL_TUNE(cross_entropy_fused, viewedRowSpace<CrossEntropyConfig>())

/// The gradient of a window of columns [col_offset, col_offset + n_cols) of each row, given the
/// row's logsumexp over all its columns (lse, f32, from cross_entropy_fused): dlogits[row, j] =
/// (exp(logits[row, j] - lse[row]) - [col_offset + j == label]) * grad_scale[0], computed in f32
/// and rounded once to T; ignored rows get exactly 0. Fused linear cross-entropy's
/// vocabulary-chunked backward recomputes a (rows, n_cols) window of the logits and turns it
/// into its gradient with this, without the rest of the row. No label smoothing or z-loss.
/// dlogits may alias logits. One program per row; grid = (n_rows,).
template <class T>
void cross_entropy_backward_lse(const CrossEntropyConfig &c, Ptr<T> dlogits, Ptr<T> logits,
                                Ptr<i64> labels, Ptr<f32> lse, Ptr<f32> grad_scale, Int stride,
                                Int dstride, Int n_cols, Int col_offset, Int ignore_index) {
  Int row = program_id(0);
  Int label = load(labels + row);
  // The label as a column of the window: outside [0, n_cols) when the window lacks it.
  store_gradient(c.BLOCK, dlogits + row * dstride, logits + row * stride, n_cols,
                 label - col_offset, label == ignore_index, load(lse + row), load(grad_scale),
                 Float(0.0), Float(0.0));
}
TESSEL_KERNEL(cross_entropy_backward_lse, DTYPES(f32, f16, bf16),
              ARGS(dlogits, logits, labels, lse, grad_scale, stride, dstride, n_cols, col_offset,
                   ignore_index),
              CONFIGS(CrossEntropyConfig{.BLOCK = 2048, .num_warps = 4},
                      CrossEntropyConfig{.BLOCK = 4096, .num_warps = 8}))
TESSEL_TUNE(cross_entropy_backward_lse, loopedRowSpace<CrossEntropyConfig>())

//===- RowSpaces.h - the autotuner's spaces of the row kernels ---*- C++ -*-===//
//
// Config spaces (TESSEL_TUNE, docs/Autotuning.md) shared by the kernels that run one program
// per row of a ROWSxCOLS input and are configured by BLOCK and num_warps (n_cols is the key,
// bucketed to powers of two, and the grid is (n_rows,)), and by the element-wise kernels (one
// program per BLOCK of n elements).
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_KERNELS_ROWSPACES_H
#define TESSEL_KERNELS_ROWSPACES_H

#include <tessel/dsl.h>

#include <algorithm>

/// The whole row in one block: BLOCK must hold the row, and is tuned at n_cols' bucket (a
/// larger block only adds masked lanes), so num_warps is what is tuned.
template <class C> tessel::dsl::Space<C> oneBlockRowSpace() {
  using namespace tessel::dsl;
  return Space<C>()
      .field(&C::BLOCK, pow2(16, 65536))
      .field(&C::num_warps, {1, 2, 4, 8, 16, 32})
      .where([](const C &c) { return c.num_warps * 32 <= std::max(c.BLOCK, 32); })
      .key("n_cols", Bucket::pow2)
      .valid([](const C &c, const Keys &k) { return c.BLOCK >= k["n_cols"]; })
      .where([](const C &c, const Keys &k) { return c.BLOCK == k["n_cols"]; })
      .grid("n_rows");
}

/// The norms' one-row backward (rmsnorm_backward, add_rmsnorm_backward, layernorm_backward):
/// oneBlockRowSpace with their grid, each program walking rows_per_program rows (tessel.ops: as
/// many programs as fit on the GPU at once; tessel-tune: --opt rows_per_program=R).
template <class C> tessel::dsl::Space<C> oneBlockRowBackwardSpace() {
  return oneBlockRowSpace<C>().grid("cdiv(n_rows, rows_per_program)");
}

/// Several rows per program (the *_rows kernels): ROWS rows of BLOCK columns, the warps over
/// the rows first (AssignLayouts puts them on the unreduced dimension), so that with num_warps
/// <= ROWS each row is reduced inside one warp, by shuffles alone. For short rows, where one
/// row per program leaves most of a warp's lanes idle: bf16 RMSNorm 262144x128 on the H200
/// 159 us one row per program, 34.5 as 16 rows per program; 131072x256 81 -> 35; 65536x512
/// 42 -> 35; at 1000 columns no config beat one row per program (ROWS 2-32, 1-16 warps;
/// benchmarks/gpu/results/2026-12-04-h200-s45). The library's configs are tessel-tune's
/// choices there: 32 (forward) or 8-16 (backward) elements per thread.
struct RowsConfig {
  int ROWS = 4;
  int BLOCK = 1024;
  int num_warps = 4;
};
TESSEL_CONFIG(RowsConfig, ROWS, BLOCK, num_warps)

/// The *_rows kernels' space: BLOCK holds the row (tuned at n_cols' bucket), every warp has a
/// row of its own, at most 64 f32 elements per thread (ROWS x BLOCK / threads).
inline tessel::dsl::Space<RowsConfig> rowsSpace() {
  using namespace tessel::dsl;
  using C = RowsConfig;
  return Space<C>()
      .field(&C::ROWS, pow2(2, 64))
      .field(&C::BLOCK, pow2(16, 8192))
      .field(&C::num_warps, {1, 2, 4, 8, 16})
      .where([](const C &c) { return c.num_warps <= c.ROWS; })
      .where([](const C &c) { return c.ROWS * c.BLOCK <= 64 * 32 * c.num_warps; })
      .key("n_cols", Bucket::pow2)
      .valid([](const C &c, const Keys &k) { return c.BLOCK >= k["n_cols"]; })
      .where([](const C &c, const Keys &k) { return c.BLOCK == k["n_cols"]; })
      .grid("cdiv(n_rows, ROWS)");
}

/// The *_rows backward kernels' space: as rowsSpace, with at most 16 f32 per thread in a row
/// tile (x, dy and the partial sums of dW live together), and their grid: each program walks
/// rows_per_program rows (tessel.ops: as many programs as fit on the GPU at once).
inline tessel::dsl::Space<RowsConfig> rowsBackwardSpace() {
  return rowsSpace()
      .where([](const RowsConfig &c) { return c.ROWS * c.BLOCK <= 16 * 32 * c.num_warps; })
      .grid("cdiv(n_rows, rows_per_program)");
}

/// The row walked block by block: no block longer than the row's bucket (that is the one-block
/// kernel's case), no warp without elements.
template <class C> tessel::dsl::Space<C> loopedRowSpace() {
  using namespace tessel::dsl;
  return Space<C>()
      .field(&C::BLOCK, pow2(256, 32768))
      .field(&C::num_warps, {2, 4, 8, 16, 32})
      .where([](const C &c) { return c.num_warps * 32 <= c.BLOCK; })
      .key("n_cols", Bucket::pow2)
      .where([](const C &c, const Keys &k) { return c.BLOCK <= k["n_cols"]; })
      .grid("n_rows");
}

/// loopedRowSpace for the kernels whose first pass views each block as rows of one 16-byte
/// vector (OnlineSoftmax.h): every thread holds at least one such row of a 2-byte type, or the
/// view's rows are replicated over the warps that have none and loaded once per replica.
template <class C> tessel::dsl::Space<C> viewedRowSpace() {
  return loopedRowSpace<C>().where([](const C &c) { return c.num_warps * 32 * 8 <= c.BLOCK; });
}

/// n elements in programs of BLOCK: from 1 to 32 elements per thread (the loads are 16-byte
/// vectors of 2-byte types at 8). n is the key only for its bucket's grid size; every config is
/// valid for every n.
template <class C> tessel::dsl::Space<C> elementwiseSpace() {
  using namespace tessel::dsl;
  return Space<C>()
      .field(&C::BLOCK, pow2(256, 16384))
      .field(&C::num_warps, {1, 2, 4, 8, 16})
      .where([](const C &c) {
        return c.BLOCK >= 32 * c.num_warps && c.BLOCK <= 32 * 32 * c.num_warps;
      })
      .key("n", Bucket::pow2)
      .grid("cdiv(n, BLOCK)");
}

#endif // TESSEL_KERNELS_ROWSPACES_H

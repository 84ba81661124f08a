//===- RowBlock.h - ROWS rows of BLOCK columns as one tile -------*- C++ -*-===//
//
// The addressing the *_rows kernels (layernorm.cpp, rmsnorm.cpp and their backward) share: a
// (ROWS, BLOCK) tile of rows `rows`, those at or past `end` masked, against columns `cols`
// masked by `cm`. A plain C++ function: its ops are emitted inline in each kernel.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_KERNELS_ROWBLOCK_H
#define TESSEL_KERNELS_ROWBLOCK_H

#include <tessel/dsl.h>

struct RowBlock {
  tessel::dsl::Mask rm;                         // (ROWS): rows < end
  tessel::dsl::Mask m;                          // (ROWS, BLOCK): rm and cm
  tessel::dsl::Tile<tessel::dsl::i64> offs;     // (ROWS, BLOCK): row * stride + col
};

/// rows (ROWS), cols (BLOCK), cm (BLOCK); `stride` elements between rows.
inline RowBlock rowBlock(const tessel::dsl::Tile<tessel::dsl::i64> &rows, tessel::dsl::Int end,
                         const tessel::dsl::Tile<tessel::dsl::i32> &cols,
                         const tessel::dsl::Mask &cm, tessel::dsl::Int stride) {
  using namespace tessel::dsl;
  Mask rm = rows < end;
  return {rm, rm(_, None) & cm(None, _), rows(_, None) * stride + cols(None, _)};
}

#endif // TESSEL_KERNELS_ROWBLOCK_H

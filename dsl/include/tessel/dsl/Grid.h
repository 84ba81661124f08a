//===- Grid.h - program_id and num_programs ---------------------*- C++ -*-===//
#ifndef TESSEL_DSL_GRID_H
#define TESSEL_DSL_GRID_H

#include "tessel/dsl/Tile.h"

namespace tessel::dsl {

/// Index of this program instance along grid axis 0, 1 or 2, as an i64 `Int` (the i32
/// `tile.program_id` widened with arith.extsi, so `pid * BLOCK` cannot wrap).
inline Int program_id(int axis, TESSEL_DSL_LOC) {
  return Int(detail::gridIndex(false, axis, detail::Loc::from(loc)));
}

/// Number of program instances along grid axis 0, 1 or 2, as an i64 `Int`.
inline Int num_programs(int axis, TESSEL_DSL_LOC) {
  return Int(detail::gridIndex(true, axis, detail::Loc::from(loc)));
}

} // namespace tessel::dsl

#endif // TESSEL_DSL_GRID_H

//===- dsl.h - the Tessel kernel DSL ----------------------------*- C++ -*-===//
//
// Include this in a kernel file. A kernel is a C++ function that the tracer runs once per
// config (and dtype): each DSL call emits tile IR with the caller's source line, plain C++
// values (config fields, loop counters) are compile-time constants, and handles (Tile<T>,
// Ptr<T>, Int, Mask) stand for values of the kernel. docs/DSL.md is the guide.
//
//   #include <tessel/dsl.h>
//   using namespace tessel::dsl;
//
//   struct AddConfig { int BLOCK = 1024; int num_warps = 4; };
//   TESSEL_CONFIG(AddConfig, BLOCK, num_warps)
//
//   void vector_add(const AddConfig &c, Ptr<f32> x, Ptr<f32> y, Ptr<f32> out, Int n) {
//     Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);   // (BLOCK)
//     Mask m = offs < n;                                               // (BLOCK)
//     store(out + offs, load(x + offs, m) + load(y + offs, m), m);
//   }
//   TESSEL_KERNEL(vector_add, ARGS(x, y, out, n), CONFIGS(AddConfig{}))
//
// This header includes no MLIR or LLVM header: a kernel file compiles in well under a second.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_DSL_H
#define TESSEL_DSL_H

#include "tessel/dsl/Config.h"
#include "tessel/dsl/Control.h"
#include "tessel/dsl/DType.h"
#include "tessel/dsl/Debug.h"
#include "tessel/dsl/Dot.h"
#include "tessel/dsl/Grid.h"
#include "tessel/dsl/Kernel.h"
#include "tessel/dsl/Math.h"
#include "tessel/dsl/Memory.h"
#include "tessel/dsl/Ptr.h"
#include "tessel/dsl/Reduce.h"
#include "tessel/dsl/Shape.h"
#include "tessel/dsl/Sort.h"
#include "tessel/dsl/SplitJoin.h"
#include "tessel/dsl/Tile.h"
#include "tessel/dsl/Tune.h"

#endif // TESSEL_DSL_H

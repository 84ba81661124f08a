// if_then_else whose branches both return literals has no type to give the result: a compile
// error that says how to write it.
// RUN: not tesselc %s -o - 2>&1 | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct C { int BLOCK = 64; };
TESSEL_CONFIG(C, BLOCK)

void literal_branches(const C &c, Ptr<f32> a, Int n) {
  // CHECK-DAG: branch_literals.cpp:[[@LINE+1]]:{{[0-9]+}}:
  Float s = if_then_else(n > 0, [&] { return 1.0; }, [&] { return 2.0; });
  store(a, s);
}
TESSEL_KERNEL(literal_branches, ARGS(a, n), CONFIGS(C{}))
// CHECK-DAG: static assertion failed: both branches of if_then_else return literals: write one as a typed scalar (Float(1.0), Int(0)) or use where(cond, a, b)

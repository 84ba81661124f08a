// Kernel functions: tile.kernel, num_warps / num_stages from the config (defaults 4 and 1),
// pointer divisibility 16 unless Ptr<T, Align<N>>, IntDiv<N> integers, one function per
// (dtype, config) named after the config's fields, tile.target on the module.
// RUN: tesselc %s -o - --target=cuda:sm_90a | FileCheck %s
#include <tessel/dsl.h>
using namespace tessel::dsl;

TESSEL_ENUM(Mode, fast, exact)
struct Config {
  int BLOCK = 128;
  bool CHECKED = false;
  Mode MODE = Mode::fast;
  double SCALE = 0.5;
  int num_warps = 8;
  int num_stages = 2;
};
TESSEL_CONFIG(Config, BLOCK, CHECKED, MODE, SCALE, num_warps, num_stages)

template <class T>
void attrs(const Config &c, Ptr<T> out, Ptr<T, Align<1>> in, IntDiv<16> stride, Int n, Float eps,
           Scalar<i32> small) {
  store(out + stride + n + small, load(in));
}
TESSEL_KERNEL(attrs, DTYPES(f32, bf16), ARGS(out, in, stride, n, eps, small),
              CONFIGS(Config{}, Config{.BLOCK = 64, .CHECKED = true, .MODE = Mode::exact,
                                       .SCALE = 1e-6}))

struct Plain { int BLOCK = 32; };
TESSEL_CONFIG(Plain, BLOCK)
void plain(const Plain &c, Ptr<i8> p) { store(p, 1); }
TESSEL_KERNEL(plain, ARGS(p), CONFIGS(Plain{}))

// CHECK:       module attributes {tile.target = "cuda:sm_90a"} {
// CHECK-LABEL: func.func @attrs__f32__BLOCK_128__CHECKED_false__MODE_fast__SCALE_0p5__num_warps_8__num_stages_2(
// CHECK-SAME:    %arg0: !tile.ptr<f32> {tile.divisibility = 16 : i32},
// CHECK-SAME:    %arg1: !tile.ptr<f32>,
// CHECK-SAME:    %arg2: i64 {tile.divisibility = 16 : i32}, %arg3: i64, %arg4: f32, %arg5: i32)
// CHECK-SAME:    attributes {tile.kernel, tile.num_stages = 2 : i32, tile.num_warps = 8 : i32}
// CHECK-LABEL: func.func @attrs__f32__BLOCK_64__CHECKED_true__MODE_exact__SCALE_1em06__num_warps_8__num_stages_2(
// CHECK-LABEL: func.func @attrs__bf16__BLOCK_128__CHECKED_false__MODE_fast__SCALE_0p5__num_warps_8__num_stages_2(
// CHECK-SAME:    %arg0: !tile.ptr<bf16> {tile.divisibility = 16 : i32}, %arg1: !tile.ptr<bf16>,
// CHECK-LABEL: func.func @attrs__bf16__BLOCK_64__CHECKED_true__MODE_exact__SCALE_1em06__num_warps_8__num_stages_2(
// Without num_warps / num_stages fields the defaults are 4 and 1.
// CHECK-LABEL: func.func @plain__BLOCK_32(
// CHECK-SAME:    attributes {tile.kernel, tile.num_stages = 1 : i32, tile.num_warps = 4 : i32}

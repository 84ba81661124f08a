// Two small kernels for the tesselc flag tests.
#include <tessel/dsl.h>
using namespace tessel::dsl;

TESSEL_ENUM(Act, none, relu)
struct ScaleConfig {
  int BLOCK = 128;
  Act ACT = Act::none;
  bool MASKED = true;
  int num_warps = 4;
};
TESSEL_CONFIG(ScaleConfig, BLOCK, ACT, MASKED, num_warps)

template <class T>
void scale(const ScaleConfig &c, Ptr<T> out, Ptr<T> in, Int n, Float s) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);  // (BLOCK)
  Mask m = offs < n;                                               // (BLOCK)
  Tile<f32> x = cast<f32>(load(in + offs, m, 0.0)) * s;            // (BLOCK)
  if (c.ACT == Act::relu)
    x = maximum(x, 0.0);
  store(out + offs, cast<T>(x), m);
}
TESSEL_KERNEL(scale, DTYPES(f32, bf16), ARGS(out, in, n, s),
              CONFIGS(ScaleConfig{}, ScaleConfig{.BLOCK = 1024, .num_warps = 8}))

struct CopyConfig {
  int BLOCK = 256;
};
TESSEL_CONFIG(CopyConfig, BLOCK)

void copy(const CopyConfig &c, Ptr<i32> out, Ptr<i32, Align<4>> in, IntDiv<8> n) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);  // (BLOCK)
  store(out + offs, load(in + offs, offs < n), offs < n);
}
TESSEL_KERNEL(copy, ARGS(out, in, n), CONFIGS(CopyConfig{}))

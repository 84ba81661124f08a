// Case C10: argmax / argmin of f32 rows; program r reduces row r of BLOCK values:
// out[2r] = argmax, out[2r + 1] = argmin.
#include <tessel/dsl.h>
using namespace tessel::dsl;
struct ArgConfig { int BLOCK = 4; int num_warps = 1; };
TESSEL_CONFIG(ArgConfig, BLOCK, num_warps)
void arg_extrema(const ArgConfig &c, Ptr<f32> x, Ptr<i32> out) {
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);
  Tile<f32> v = load(x + offs);
  store(out + program_id(0) * 2, argmax(v, 0));
  store(out + program_id(0) * 2 + 1, argmin(v, 0));
}
TESSEL_KERNEL(arg_extrema, ARGS(x, out), CONFIGS(ArgConfig{}, ArgConfig{.BLOCK = 8}))

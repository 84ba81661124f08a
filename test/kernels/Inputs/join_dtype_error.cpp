// join of tiles of two dtypes: a C++ compile error (the dtype is static) whose message names the
// fix, with the caller's line in the "required from here" note (split-join.test).
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int num_warps = 1; };
TESSEL_CONFIG(Config, num_warps)

void join_dtypes(const Config &c, Ptr<f32> x, Ptr<i32> y) {
  // GCC notes "required from here" before the error, clang "requested here" after it.
  // CHECK-DAG: error: static assertion failed{{.*}}: join(a, b): a and b must have the same dtype; convert one with cast<T>(...) first
  // CHECK-DAG: join_dtype_error.cpp:[[@LINE+1]]:{{[0-9]+}}:{{.*}} {{required from here|requested here}}
  Tile<f32> j = join(load(x + arange(0, 8)), load(y + arange(0, 8)));
}
TESSEL_KERNEL(join_dtypes, ARGS(x, y), CONFIGS(Config{}))

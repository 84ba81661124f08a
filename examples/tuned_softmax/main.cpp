//===- main.cpp - softmax from C++ through a generated launcher -----------===//
//
//   tuned_softmax [ROWS COLS]      (run from the build directory, or set TESSEL_KERNEL_PATH)
//
// Runs tessel::kernels::softmax (kernels/softmax.h, written by tesselc --emit=header) on random
// f32 rows, checks every row against a double-precision softmax, and prints the variant the
// launcher chose (the tuning cache's for this shape's bucket on this GPU, else the default),
// and the host time of one launch call, whole and up to the driver's cuLaunchKernel. Exit code 0
// PASS, 1 FAIL, 2 no GPU.
//
//===----------------------------------------------------------------------===//
#include "softmax.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace rt = tessel::rt;

static int fail(const rt::Status &s) {
  std::fprintf(stderr, "tuned_softmax: %s\n", s.message().c_str());
  return 2;
}

int main(int argc, char **argv) {
  int64_t rows = argc > 2 ? std::atoll(argv[1]) : 4096, cols = argc > 2 ? std::atoll(argv[2]) : 4096;
  rt::addKernelDirectory(TESSEL_KERNEL_DIR);
  std::printf("device: %s\n", rt::deviceDescription().c_str());

  std::vector<float> x(size_t(rows * cols)), y(x.size());
  std::mt19937 rng(0);
  std::uniform_real_distribution<float> dist(-4, 4);
  for (float &v : x)
    v = dist(rng);
  size_t bytes = x.size() * sizeof(float);
  void *in = nullptr, *out = nullptr;
  if (rt::Status s = rt::deviceAlloc(bytes, in); !s)
    return fail(s);
  if (rt::Status s = rt::deviceAlloc(bytes, out); !s)
    return fail(s);
  if (rt::Status s = rt::copyToDevice(in, x.data(), bytes); !s)
    return fail(s);

  auto call = [&] {
    return tessel::kernels::softmax(static_cast<float *>(out), static_cast<float *>(in), cols,
                                    cols, cols, rows);
  };
  if (rt::Status s = call(); !s) // loads the variant
    return fail(s);
  if (rt::Status s = rt::synchronize(); !s)
    return fail(s);
  // The host time of a launch call once the variant is loaded, and of its part before the
  // driver's cuLaunchKernel (the launcher's own: choosing, checking, packing the arguments).
  std::vector<double> us, ownUs;
  for (int i = 0; i < 1000; ++i) {
    auto t0 = std::chrono::steady_clock::now();
    if (rt::Status s = call(); !s)
      return fail(s);
    auto t1 = std::chrono::steady_clock::now();
    us.push_back(std::chrono::duration<double, std::micro>(t1 - t0).count());
    ownUs.push_back(std::chrono::duration<double, std::micro>(rt::lastLaunchIssuedAt() - t0).count());
    if (i % 64 == 0)
      (void)rt::synchronize(); // keep the queue short
  }
  std::sort(ownUs.begin(), ownUs.end());
  std::sort(us.begin(), us.end());
  if (rt::Status s = rt::synchronize(); !s)
    return fail(s);
  if (rt::Status s = rt::copyToHost(y.data(), out, bytes); !s)
    return fail(s);

  double worst = 0;
  for (int64_t r = 0; r < rows; ++r) {
    const float *xr = &x[size_t(r * cols)];
    double m = *std::max_element(xr, xr + cols), sum = 0;
    for (int64_t c = 0; c < cols; ++c)
      sum += std::exp(double(xr[c]) - m);
    for (int64_t c = 0; c < cols; ++c)
      worst = std::max(worst, std::abs(double(y[size_t(r * cols + c)]) -
                                        std::exp(double(xr[c]) - m) / sum));
  }
  bool pass = worst < 1e-5;
  std::printf("softmax f32 [%lldx%lld]: variant %s (%s)\n", (long long)rows, (long long)cols,
              rt::lastLaunchedVariant().c_str(),
              rt::lastLaunchFromCache() ? "tuning cache" : "default config: no tuning entry");
  std::printf("launch call: %.2f us median, %.2f us p90 (host, 1000 calls); to the driver's "
              "cuLaunchKernel: %.2f us median, %.2f us p90\n",
              us[us.size() / 2], us[us.size() * 9 / 10], ownUs[ownUs.size() / 2],
              ownUs[ownUs.size() * 9 / 10]);
  std::printf("max abs error %.3g: %s\n", worst, pass ? "PASS" : "FAIL");
  rt::deviceFree(in);
  rt::deviceFree(out);
  return pass ? 0 : 1;
}

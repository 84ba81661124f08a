// A launch through a generated launcher that fails before the driver (here: no GPU, or no
// compiled variant in a kernel directory) leaves rt::lastLaunchIssuedAt() at the clock's epoch.
#include "scaled_add.h"

#include <cstdio>

int main() {
  float *p = nullptr;
  tessel::rt::Status s = tessel::kernels::scaled_add(p, p, p, 10, 1.0f);
  bool never = tessel::rt::lastLaunchIssuedAt() == std::chrono::steady_clock::time_point{};
  std::printf("launch %s; issued %s\n", s ? "ok" : "failed", never ? "never" : "set");
  return 0;
}

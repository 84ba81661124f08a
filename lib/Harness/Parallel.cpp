//===- Parallel.cpp - the harness's loops over large buffers ---------------===//
#include "tessel/Harness/Parallel.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <sched.h>
#include <thread>
#include <vector>

using namespace tessel::harness;

/// The CPUs this process may run on (its affinity mask, which hardware_concurrency ignores), at
/// most 64 as the GEMM reference's threads; TESSEL_HOST_THREADS lowers it (below 1: 1).
static int64_t hostThreads() {
  int64_t n = std::thread::hardware_concurrency();
  cpu_set_t set;
  if (sched_getaffinity(0, sizeof(set), &set) == 0)
    n = CPU_COUNT(&set);
  n = std::clamp<int64_t>(n, 1, 64);
  if (const char *cap = std::getenv("TESSEL_HOST_THREADS"))
    n = std::clamp<int64_t>(std::atoll(cap), 1, n);
  return n;
}

void tessel::harness::forChunks(
    int64_t n, int64_t chunk,
    const std::function<void(int64_t index, int64_t begin, int64_t end)> &fn) {
  if (n <= 0)
    return;
  chunk = std::max<int64_t>(chunk, 1);
  int64_t chunks = (n + chunk - 1) / chunk;
  int64_t threads = chunks < 16 ? 1 : std::min(chunks, hostThreads());
  // Chunks are taken in order from a shared counter: the threads stay busy when chunks cost
  // unevenly (page faults on first touch), and which thread runs a chunk changes nothing.
  std::atomic<int64_t> next{0};
  auto work = [&] {
    for (int64_t i; (i = next.fetch_add(1)) < chunks;)
      fn(i, i * chunk, std::min(n, (i + 1) * chunk));
  };
  if (threads == 1) {
    work();
    return;
  }
  std::vector<std::thread> pool;
  for (int64_t t = 1; t < threads; ++t)
    pool.emplace_back(work);
  work();
  for (std::thread &t : pool)
    t.join();
}

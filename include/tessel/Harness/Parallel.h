//===- Parallel.h - the harness's loops over large buffers --------*- C++ -*-===//
//
// A benchmark row's host work (random inputs, float64 copies, the comparison) grows with the
// buffers: on the GPU machine, bench.sh's verified rows ran into its 200 s bound after 27 rows
// (benchmarks/gpu/results, session 54), each about a hundred kernel launches. These loops split
// such buffers into fixed chunks run on every core; the chunk boundaries do not depend on the
// number of threads, so neither do the results.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_PARALLEL_H
#define TESSEL_HARNESS_PARALLEL_H

#include <cstdint>
#include <functional>

namespace tessel::harness {

/// Elements per chunk of forChunks' callers: a buffer this small is one chunk, handled in the
/// order the serial loops had (larger ones add their sums per chunk, then in chunk order).
inline constexpr int64_t kChunkElements = int64_t(1) << 16;

/// Calls fn(index, begin, end) for the chunks [index * chunk, min(n, (index + 1) * chunk)) of
/// [0, n), each once, on up to as many threads as the process has CPUs (at most 64;
/// TESSEL_HOST_THREADS caps them, 1 runs everything on the caller). Under 16 chunks all run on
/// the caller's thread. fn must only write what its chunk owns.
void forChunks(int64_t n, int64_t chunk,
               const std::function<void(int64_t index, int64_t begin, int64_t end)> &fn);

} // namespace tessel::harness

#endif // TESSEL_HARNESS_PARALLEL_H

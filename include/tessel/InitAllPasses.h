//===- InitAllPasses.h - passes tessel-opt can run -------------*- C++ -*-===//
#ifndef TESSEL_INITALLPASSES_H
#define TESSEL_INITALLPASSES_H

namespace tessel {
/// Registers Tessel's passes and the upstream ones its pipelines use (canonicalize, cse,
/// inline, loop-invariant-code-motion, ...), so that tessel-opt can run each in isolation.
void registerAllPasses();
} // namespace tessel

#endif // TESSEL_INITALLPASSES_H

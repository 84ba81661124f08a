//===- InitAllTargets.h - the adapters Tessel tools know -------*- C++ -*-===//
#ifndef TESSEL_INITALLTARGETS_H
#define TESSEL_INITALLTARGETS_H

namespace tessel {
/// Registers every adapter (third_party/<vendor>) in the target registry. Tools call it first
/// thing in main, before anything looks a target up; calling it again does nothing new.
void registerAllTargets();
} // namespace tessel

#endif // TESSEL_INITALLTARGETS_H

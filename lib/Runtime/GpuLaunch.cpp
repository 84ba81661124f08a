//===- GpuLaunch.cpp - what the CUDA and HIP executors share --------------===//
#include "tessel/Runtime/GpuLaunch.h"

#include "tessel/Harness/FloatFormats.h"

#include <cstring>
#include <fstream>
#include <sstream>

using namespace tessel;
using namespace tessel::harness;

Status tessel::rt::readArtifact(const KernelMetadata &variant, const std::string &kind,
                                const std::string &emitFlag, std::string &out) {
  auto file = variant.files.find(kind);
  if (file == variant.files.end())
    return Status::error(variant.metadataPath + ": error: variant " + variant.function +
                         " has no " + kind + " artifact; compile it with tesselc " + emitFlag);
  std::ifstream in(file->second, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  out = s.str();
  if (!in || out.empty())
    return Status::error(file->second + ": error: cannot read the " + kind);
  return Status::ok();
}

int tessel::rt::scalarBytes(const std::string &t) {
  if (t == "i1" || t == "i8")
    return 1;
  if (t == "i16" || t == "f16" || t == "bf16")
    return 2;
  if (t == "i32" || t == "f32")
    return 4;
  if (t == "i64" || t == "f64")
    return 8;
  return 0;
}

Status tessel::rt::checkGrid(const LaunchConfig &config, const std::string &fn,
                             const std::string &prefix, const int64_t max[3], unsigned grid[3]) {
  if (config.firstProgram != 0 ||
      (config.programCount >= 0 && config.programCount != config.grid.count()))
    return Status::error(prefix + fn + ": GPU executors run whole grids (no --programs subset)");
  const int64_t dims[3] = {config.grid.x, config.grid.y, config.grid.z};
  // A dimension of 0 is an empty grid: the contexts launch nothing (case C17).
  for (int d = 0; d < 3; ++d)
    if (dims[d] < 0 || dims[d] > max[d])
      return Status::error(prefix + fn + ": grid (" + std::to_string(dims[0]) + ", " +
                           std::to_string(dims[1]) + ", " + std::to_string(dims[2]) +
                           ") exceeds the device's limits (" + std::to_string(max[0]) + ", " +
                           std::to_string(max[1]) + ", " + std::to_string(max[2]) + ")");
  for (int d = 0; d < 3; ++d)
    grid[d] = unsigned(dims[d]);
  return Status::ok();
}

/// A float scalar's bits in the parameter's type.
static rt::CheckedArg floatArg(const std::string &type, double v) {
  rt::CheckedArg c;
  c.size = unsigned(rt::scalarBytes(type));
  if (type == "f32") {
    float f = float(v);
    std::memcpy(&c.bits, &f, 4);
  } else if (type == "f64") {
    std::memcpy(&c.bits, &v, 8);
  } else {
    c.bits = type == "bf16" ? doubleToBF16(v) : doubleToHalf(v);
  }
  return c;
}

Status
tessel::rt::checkLaunchArgs(const KernelMetadata &variant, const std::vector<LaunchArg> &args,
                            const std::function<bool(const LaunchArg &, int, uint64_t &)> &address,
                            const std::string &prefix, std::vector<CheckedArg> &out) {
  const std::string &fn = variant.function;
  if (args.size() != variant.args.size())
    return Status::error(prefix + fn + " takes " + std::to_string(variant.args.size()) +
                         " arguments, got " + std::to_string(args.size()));
  // The messages are built only on an error: this runs on every launch of a launcher.
  auto instead = [&] {
    return "; use the variant it specializes" +
           (variant.specializes.empty() ? "" : " (" + variant.specializes + ")");
  };
  out.clear();
  out.reserve(args.size());
  for (size_t i = 0; i < args.size(); ++i) {
    const KernelArgInfo &info = variant.args[i];
    const LaunchArg &a = args[i];
    auto what = [&] { return fn + " argument #" + std::to_string(i) + " '" + info.name + "'"; };
    CheckedArg c;
    if (info.isPointer()) {
      if (a.kind != LaunchArg::Kind::Buffer ||
          !address(a, std::max(scalarBytes(info.pointee()), 1), c.bits))
        return Status::error(prefix + what() + " (" + info.type + ") needs a buffer");
      if (info.divisibility > 1 && c.bits % uint64_t(info.divisibility) != 0)
        return Status::error(prefix + what() + " is not aligned to " +
                             std::to_string(info.divisibility) + " bytes as the variant assumes");
      c.isPointer = true;
    } else if (info.isFloat()) {
      c = floatArg(info.type, a.kind == LaunchArg::Kind::Float ? a.f : double(a.i));
    } else {
      int64_t v = a.kind == LaunchArg::Kind::Int ? a.i : int64_t(a.f);
      if (info.equalTo && v != *info.equalTo)
        return Status::error(prefix + what() + " = " + std::to_string(v) + " but variant " + fn +
                             " assumes " + std::to_string(*info.equalTo) + instead());
      if (info.divisibility > 1 && v % info.divisibility != 0)
        return Status::error(prefix + what() + " = " + std::to_string(v) +
                             " is not a multiple of " + std::to_string(info.divisibility) +
                             " as variant " + fn + " assumes" + instead());
      c.size = unsigned(scalarBytes(info.type));
      if (c.size == 0)
        return Status::error(prefix + what() + " has unsupported type " + info.type);
      std::memcpy(&c.bits, &v, c.size); // little-endian truncation
    }
    out.push_back(c);
  }
  return Status::ok();
}

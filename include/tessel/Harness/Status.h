//===- Status.h - success or an error message ---------------------*- C++ -*-===//
//
// The harness and the executors report failures as values, never as exceptions (the
// interpreter and MLIR are built without them) and never by aborting.
//
//===----------------------------------------------------------------------===//
#ifndef TESSEL_HARNESS_STATUS_H
#define TESSEL_HARNESS_STATUS_H

#include <string>
#include <utility>

namespace tessel::harness {

/// Success, or failure with a message meant for the user (already located where possible:
/// `file:line:col: error: ...`).
class Status {
public:
  static Status ok() { return Status(); }
  static Status error(std::string message) { return Status(std::move(message), true); }
  bool isOk() const { return !failed_; }
  explicit operator bool() const { return !failed_; }
  const std::string &message() const { return message_; }

private:
  Status() = default;
  Status(std::string m, bool f) : message_(std::move(m)), failed_(f) {}
  std::string message_;
  bool failed_ = false;
};

} // namespace tessel::harness

#endif // TESSEL_HARNESS_STATUS_H

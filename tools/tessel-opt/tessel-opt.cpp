//===- tessel-opt.cpp - run Tessel passes on tile IR ----------------------===//
//
// mlir-opt with the tile dialect and every Tessel pass: the workhorse of the lit tests.
// Malformed input is a located diagnostic and exit code 1, never a crash.
//
//===----------------------------------------------------------------------===//
#include "tessel/InitAllDialects.h"
#include "tessel/InitAllPasses.h"
#include "tessel/InitAllTargets.h"

#include "mlir/IR/DialectRegistry.h"
#include "mlir/Tools/mlir-opt/MlirOptMain.h"

#ifdef TESSEL_INCLUDE_TESTS
namespace tessel::test {
void registerTestAxisInfoPass();
} // namespace tessel::test
#endif

int main(int argc, char **argv) {
  tessel::registerAllTargets();
  mlir::DialectRegistry registry;
  tessel::registerAllDialects(registry);
  tessel::registerAllPasses();
#ifdef TESSEL_INCLUDE_TESTS
  tessel::test::registerTestAxisInfoPass();
#endif
  return mlir::asMainReturnCode(
      mlir::MlirOptMain(argc, argv, "Tessel optimizer driver\n", registry));
}

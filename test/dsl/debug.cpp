// device_print, device_assert, static_print and static_check: the tile IR, the interpreter's
// lines and stop, --debug keeping the asserts, vprintf and __assertfail in NVIDIA PTX, ockl's
// hostcall printf and s_trap in AMDGCN.
// RUN: rm -rf %t && tesselc %s -o - 2>%t.static | FileCheck %s --check-prefix=IR
// RUN: FileCheck %s --check-prefix=STATIC < %t.static
// RUN: tesselc %s --debug -o - 2>/dev/null | FileCheck %s --check-prefix=DEBUG
// RUN: tesselc %s --debug -o %t/debug 2>/dev/null && tesselc %s -o %t/plain 2>/dev/null
// RUN: not tessel-run %t/debug/debug__BLOCK_8__num_warps_1.json --threads 1 --grid 2 --arg 'x@f32:[1,2,3,4,1,2,3,4,9,1,2,3]' --arg n@i64=12 > %t.run 2>&1
// RUN: FileCheck %s --check-prefix=INTERP < %t.run
// RUN: tessel-run %t/plain/debug__BLOCK_8__num_warps_1.json --threads 1 --grid 2 --arg 'x@f32:[1,2,3,4,1,2,3,4,9,1,2,3]' --arg n@i64=12 | FileCheck %s --check-prefix=PLAIN
// RUN: not tesselc %s -D BLOCK=12 -o %t/bad 2>&1 | FileCheck %s --check-prefix=CHECKFAIL
// RUN: tesselc %s --debug --target=cuda:sm_90a --emit=ptx -o %t/ptx 2>/dev/null
// RUN: FileCheck %s --check-prefix=PTX < %t/ptx/debug__BLOCK_8__num_warps_1.ptx
// RUN: tesselc %s --debug --target=cuda:sm_90a --emit=llvm -o %t/ll 2>/dev/null
// RUN: FileCheck %s --check-prefix=FORMAT < %t/ll/debug__BLOCK_8__num_warps_1.ll
// RUN: tesselc %s --debug --target=hip:gfx942 --emit=amdgcn,hsaco -o %t/amd 2>/dev/null
// RUN: FileCheck %s --check-prefix=AMD < %t/amd/debug__BLOCK_8__num_warps_1.amdgcn
#include <tessel/dsl.h>
using namespace tessel::dsl;

struct Config { int BLOCK = 8; int num_warps = 1; };
TESSEL_CONFIG(Config, BLOCK, num_warps)

void debug(const Config &c, Ptr<f32> x, Int n) {
  static_print("offsets", arange(0, c.BLOCK), "BLOCK", c.BLOCK);
  static_check(c.BLOCK % 8 == 0, "BLOCK must be a multiple of 8");
  Tile<i64> offs = program_id(0) * c.BLOCK + arange(0, c.BLOCK);       // (BLOCK)
  Tile<f32> v = load(x + offs, offs < n, 0.0);                         // (BLOCK)
  device_print("v = ", v, offs);
  device_print_hex("n 100%", n, v);
  device_assert(v < 5.0, "x must stay below 5");
}
TESSEL_KERNEL(debug, ARGS(x, n), CONFIGS(Config{}))

// IR-LABEL: func.func @debug__BLOCK_8__num_warps_1(
// IR:         tile.print "v = " %{{.+}}, %{{.+}} : tensor<8xf32>, tensor<8xi64>
// IR:         %[[BITS:.+]] = arith.bitcast %{{.+}} : tensor<8xf32> to tensor<8xi32>
// IR:         tile.print "n 100%" %{{.+}}, %[[BITS]] hex : i64, tensor<8xi32>
// IR-NOT:     tile.assert
// DEBUG:      tile.assert %{{.+}}, "x must stay below 5" : tensor<8xi1>

// STATIC: debug.cpp:[[#@LINE-17]]:15: static_print: offsets a tile of i32 [8] BLOCK 8

// One thread runs the programs in order (on several, a failure may stop the others before they
// print): program 0 passes, program 1 (elements 8..15, 12.. masked off to 0) prints, then fails
// at its element 0 (9.0).
// INTERP:      pid (0, 0, 0) idx (0) v = 1.000000 0
// INTERP:      pid (0, 0, 0) idx (7) v = 4.000000 7
// INTERP:      pid (0, 0, 0) idx (7) n 100% 0xc 0x40800000
// INTERP-NEXT: pid (1, 0, 0) idx (0) v = 9.000000 8
// INTERP:      pid (1, 0, 0) idx (4) v = 0.000000 12
// INTERP:      debug.cpp:[[#@LINE-21]]:16: error: device_assert failed: x must stay below 5 (pid (1, 0, 0), element (0))
// PLAIN: pid (1, 0, 0) idx (0) v = 9.000000 8
// PLAIN-NOT: device_assert

// CHECKFAIL: debug.cpp:[[#@LINE-30]]:15: error: static_check failed: BLOCK must be a multiple of 8

// vprintf per element with the program id, the index and the values (f32 as f64, i64 as %lld);
// the assert prints its message where the condition fails, then calls CUDA's __assertfail (the
// launch fails with CUDA_ERROR_ASSERT) with the message, the file, the line and the kernel.
// PTX-DAG: .extern .func __assertfail
// PTX-DAG: .extern .func (.param .b32 func_retval0) vprintf
// PTX-DAG: call.uni (retval0),
// PTX-DAG: vprintf,
// PTX-DAG: st.param.b32 [param2+0], 31;
// PTX-DAG: __assertfail,

// ockl's hostcall printf (the kernel gets the hidden hostcall buffer) and s_trap.
// The user's text is escaped in the printf formats ('%' -> '%%'); floats print as f64 (%f),
// i64 as %lld, hex as 0x%x / 0x%llx.
// FORMAT-DAG: c"pid (%d, %d, %d) idx (%d) v = %f %lld\0A\00"
// FORMAT-DAG: c"pid (%d, %d, %d) idx (%d) n 100%% 0x%llx 0x%x\0A\00"
// FORMAT-DAG: debug.cpp:{{[0-9]+}}:16: error: device_assert failed: x must stay below 5 (pid (%d, %d, %d), element (%d))\0A\00"
// AMD: __ockl_hostcall_internal
// AMD: s_trap
// AMD: .value_kind: hidden_hostcall_buffer

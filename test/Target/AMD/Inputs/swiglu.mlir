// out = silu(gate) * up = gate / (1 + exp(-gate)) * up, bf16, computed in f32; one program per
// 2048 elements of a flat [rows * cols] tensor with i64 offsets (tensors over 2^31 elements).
func.func @swiglu(%out: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                  %gate: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                  %up: !tile.ptr<bf16> {tile.divisibility = 16 : i32},
                  %n: i64 {tile.divisibility = 16 : i32})
    attributes {tile.kernel, tile.num_warps = 4 : i32} {
  %pid = tile.program_id 0
  %p64 = arith.extsi %pid : i32 to i64
  %cb = arith.constant 2048 : i64
  %base = arith.muli %p64, %cb : i64
  %r = tile.arange 0, 2048 : tensor<2048xi32>
  %r64 = arith.extsi %r : tensor<2048xi32> to tensor<2048xi64>
  %bs = tile.splat %base : i64 -> tensor<2048xi64>
  %offs = arith.addi %bs, %r64 : tensor<2048xi64>                          // (BLOCK)
  %ns = tile.splat %n : i64 -> tensor<2048xi64>
  %m = arith.cmpi slt, %offs, %ns : tensor<2048xi64>
  %gs = tile.splat %gate : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>>
  %gp = tile.addptr %gs, %offs : tensor<2048x!tile.ptr<bf16>>, tensor<2048xi64>
  %g = tile.load %gp, %m evict = evict_first : tensor<2048x!tile.ptr<bf16>>
  %us = tile.splat %up : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>>
  %upp = tile.addptr %us, %offs : tensor<2048x!tile.ptr<bf16>>, tensor<2048xi64>
  %u = tile.load %upp, %m evict = evict_first : tensor<2048x!tile.ptr<bf16>>
  %gf = arith.extf %g : tensor<2048xbf16> to tensor<2048xf32>
  %uf = arith.extf %u : tensor<2048xbf16> to tensor<2048xf32>
  %ng = arith.negf %gf : tensor<2048xf32>
  %e = math.exp %ng : tensor<2048xf32>
  %one = arith.constant dense<1.0> : tensor<2048xf32>
  %den = arith.addf %one, %e : tensor<2048xf32>
  %silu = arith.divf %gf, %den : tensor<2048xf32>
  %y = arith.mulf %silu, %uf : tensor<2048xf32>
  %yb = arith.truncf %y : tensor<2048xf32> to tensor<2048xbf16>
  %os = tile.splat %out : !tile.ptr<bf16> -> tensor<2048x!tile.ptr<bf16>>
  %op = tile.addptr %os, %offs : tensor<2048x!tile.ptr<bf16>>, tensor<2048xi64>
  tile.store %op, %yb, %m cache = cs : tensor<2048x!tile.ptr<bf16>>
  return
}

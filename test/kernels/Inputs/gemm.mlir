// GEMM with GROUP_M tile order and a fused bias + activation epilogue, hand-written tile IR
// template (ELT, TRUNC; BM, BN, BK block sizes, GM = GROUP_M, ACTN 0 / 1 / 2 / 3 and ACTS
// none / relu / gelu / silu, BIAS 0 / 1). Strides are in elements. c (M, N) = act(a (M, K) * b (K, N) + bias (N)); one program per
// (BM, BN) tile of c, visited GROUP_M rows of tiles at a time; the K loop masks the last,
// partial block (K need not be a multiple of BK: masked, not wrapped, case C7).
func.func @gemm(%a: !tile.ptr<ELT>, %b: !tile.ptr<ELT>, %c: !tile.ptr<ELT>, %bias: !tile.ptr<ELT>,
                %M: i64, %N: i64, %K: i64, %sam: i64, %sak: i64, %sbk: i64, %sbn: i64,
                %scm: i64, %scn: i64)
    attributes {tile.kernel, tessel.config = {BLOCK_M = BM : i64, BLOCK_N = BN : i64,
                                              BLOCK_K = BK : i64, GROUP_M = GM : i64,
                                              ACT = "ACTS", HAS_BIAS = BIAS : i64}} {
  %pid32 = tile.program_id 0
  %pid = arith.extsi %pid32 : i32 to i64
  %bm = arith.constant BM : i64
  %bn = arith.constant BN : i64
  %bk = arith.constant BK : i64
  %gm = arith.constant GM : i64
  %c0 = arith.constant 0 : i64
  // Grouped order: GROUP_M tile rows share the columns of b while they are in cache.
  %npm = arith.ceildivsi %M, %bm : i64
  %npn = arith.ceildivsi %N, %bn : i64
  %npig = arith.muli %gm, %npn : i64
  %gid = arith.divsi %pid, %npig : i64
  %firstm = arith.muli %gid, %gm : i64
  %left = arith.subi %npm, %firstm : i64
  %gsm = arith.minsi %left, %gm : i64
  %pin = arith.remsi %pid, %npig : i64
  %pmo = arith.remsi %pin, %gsm : i64
  %pidm = arith.addi %firstm, %pmo : i64
  %pidn = arith.divsi %pin, %gsm : i64
  // Row, column and k indices.
  %im = tile.arange 0, BM : tensor<BMxi32>
  %in = tile.arange 0, BN : tensor<BNxi32>
  %ik = tile.arange 0, BK : tensor<BKxi32>
  %im64 = arith.extsi %im : tensor<BMxi32> to tensor<BMxi64>
  %in64 = arith.extsi %in : tensor<BNxi32> to tensor<BNxi64>
  %ik64 = arith.extsi %ik : tensor<BKxi32> to tensor<BKxi64>
  %m0 = arith.muli %pidm, %bm : i64
  %n0 = arith.muli %pidn, %bn : i64
  %m0s = tile.splat %m0 : i64 -> tensor<BMxi64>
  %n0s = tile.splat %n0 : i64 -> tensor<BNxi64>
  %rm = arith.addi %m0s, %im64 : tensor<BMxi64>                          // (BM)
  %rn = arith.addi %n0s, %in64 : tensor<BNxi64>                          // (BN)
  // a tile (BM, BK): rows rm, columns k0 + rk.
  %rmc = tile.expand_dims %rm {axis = 1 : i32} : tensor<BMxi64> -> tensor<BMx1xi64>
  %rma = tile.broadcast %rmc : tensor<BMx1xi64> -> tensor<BMxBKxi64>
  %rkr = tile.expand_dims %ik64 {axis = 0 : i32} : tensor<BKxi64> -> tensor<1xBKxi64>
  %rka = tile.broadcast %rkr : tensor<1xBKxi64> -> tensor<BMxBKxi64>
  %sams = tile.splat %sam : i64 -> tensor<BMxBKxi64>
  %arow = arith.muli %rma, %sams : tensor<BMxBKxi64>
  %Ma = tile.splat %M : i64 -> tensor<BMxBKxi64>
  %ma = arith.cmpi slt, %rma, %Ma : tensor<BMxBKxi64>
  %Ka = tile.splat %K : i64 -> tensor<BMxBKxi64>
  %saks = tile.splat %sak : i64 -> tensor<BMxBKxi64>
  %as = tile.splat %a : !tile.ptr<ELT> -> tensor<BMxBKx!tile.ptr<ELT>>
  // b tile (BK, BN): rows k0 + rk, columns rn.
  %rkc = tile.expand_dims %ik64 {axis = 1 : i32} : tensor<BKxi64> -> tensor<BKx1xi64>
  %rkb = tile.broadcast %rkc : tensor<BKx1xi64> -> tensor<BKxBNxi64>
  %rnr = tile.expand_dims %rn {axis = 0 : i32} : tensor<BNxi64> -> tensor<1xBNxi64>
  %rnb = tile.broadcast %rnr : tensor<1xBNxi64> -> tensor<BKxBNxi64>
  %sbks = tile.splat %sbk : i64 -> tensor<BKxBNxi64>
  %sbns = tile.splat %sbn : i64 -> tensor<BKxBNxi64>
  %bcol = arith.muli %rnb, %sbns : tensor<BKxBNxi64>
  %Nb = tile.splat %N : i64 -> tensor<BKxBNxi64>
  %nbm = arith.cmpi slt, %rnb, %Nb : tensor<BKxBNxi64>
  %Kb = tile.splat %K : i64 -> tensor<BKxBNxi64>
  %bs = tile.splat %b : !tile.ptr<ELT> -> tensor<BKxBNx!tile.ptr<ELT>>
  %za = arith.constant dense<0.0> : tensor<BMxBKxf32>
  %zaE = TRUNC %za : tensor<BMxBKxf32> to tensor<BMxBKxELT>
  %zb = arith.constant dense<0.0> : tensor<BKxBNxf32>
  %zbE = TRUNC %zb : tensor<BKxBNxf32> to tensor<BKxBNxELT>
  %acc0 = arith.constant dense<0.0> : tensor<BMxBNxf32>
  %acc = scf.for %k0 = %c0 to %K step %bk iter_args(%acc_i = %acc0) -> (tensor<BMxBNxf32>) : i64 {
    %k0a = tile.splat %k0 : i64 -> tensor<BMxBKxi64>
    %ka = arith.addi %k0a, %rka : tensor<BMxBKxi64>
    %kam = arith.cmpi slt, %ka, %Ka : tensor<BMxBKxi64>
    %amask = arith.andi %ma, %kam : tensor<BMxBKxi1>
    %acol = arith.muli %ka, %saks : tensor<BMxBKxi64>
    %aoff = arith.addi %arow, %acol : tensor<BMxBKxi64>
    %ap = tile.addptr %as, %aoff : tensor<BMxBKx!tile.ptr<ELT>>, tensor<BMxBKxi64>
    %av = tile.load %ap, %amask, %zaE : tensor<BMxBKx!tile.ptr<ELT>>      // (BM, BK)
    %k0b = tile.splat %k0 : i64 -> tensor<BKxBNxi64>
    %kb = arith.addi %k0b, %rkb : tensor<BKxBNxi64>
    %kbm = arith.cmpi slt, %kb, %Kb : tensor<BKxBNxi64>
    %bmask = arith.andi %kbm, %nbm : tensor<BKxBNxi1>
    %brow = arith.muli %kb, %sbks : tensor<BKxBNxi64>
    %boff = arith.addi %brow, %bcol : tensor<BKxBNxi64>
    %bp = tile.addptr %bs, %boff : tensor<BKxBNx!tile.ptr<ELT>>, tensor<BKxBNxi64>
    %bv = tile.load %bp, %bmask, %zbE : tensor<BKxBNx!tile.ptr<ELT>>      // (BK, BN)
    %d = tile.dot %av, %bv, %acc_i : tensor<BMxBKxELT> * tensor<BKxBNxELT> -> tensor<BMxBNxf32>
    scf.yield %d : tensor<BMxBNxf32>
  }
  // Epilogue: + bias (N), activation, store the (BM, BN) tile with its edge masked.
  %hasb = arith.constant BIAS : i64
  %hb = arith.cmpi ne, %hasb, %c0 : i64
  %Nn = tile.splat %N : i64 -> tensor<BNxi64>
  %nm = arith.cmpi slt, %rn, %Nn : tensor<BNxi64>
  %hbs = tile.splat %hb : i1 -> tensor<BNxi1>
  %bmk = arith.andi %nm, %hbs : tensor<BNxi1>
  %biass = tile.splat %bias : !tile.ptr<ELT> -> tensor<BNx!tile.ptr<ELT>>
  %biasp = tile.addptr %biass, %rn : tensor<BNx!tile.ptr<ELT>>, tensor<BNxi64>
  %zn = arith.constant dense<0.0> : tensor<BNxf32>
  %znE = TRUNC %zn : tensor<BNxf32> to tensor<BNxELT>
  %biasv = tile.load %biasp, %bmk, %znE : tensor<BNx!tile.ptr<ELT>>
  %biasf = EXT %biasv : tensor<BNxELT> to tensor<BNxf32>
  %biasr = tile.expand_dims %biasf {axis = 0 : i32} : tensor<BNxf32> -> tensor<1xBNxf32>
  %biasb = tile.broadcast %biasr : tensor<1xBNxf32> -> tensor<BMxBNxf32>
  %x = arith.addf %acc, %biasb : tensor<BMxBNxf32>
  %act = arith.constant ACTN : i64
  %zero = arith.constant dense<0.0> : tensor<BMxBNxf32>
  %one = arith.constant dense<1.0> : tensor<BMxBNxf32>
  %halfc = arith.constant dense<0.5> : tensor<BMxBNxf32>
  %rs2 = arith.constant dense<0.707106769> : tensor<BMxBNxf32>
  %relu = arith.maximumf %x, %zero : tensor<BMxBNxf32>
  %xs2 = arith.mulf %x, %rs2 : tensor<BMxBNxf32>
  %erf = math.erf %xs2 : tensor<BMxBNxf32>
  %erf1 = arith.addf %one, %erf : tensor<BMxBNxf32>
  %hx = arith.mulf %halfc, %x : tensor<BMxBNxf32>
  %gelu = arith.mulf %hx, %erf1 : tensor<BMxBNxf32>
  %nx = arith.negf %x : tensor<BMxBNxf32>
  %enx = math.exp %nx : tensor<BMxBNxf32>
  %den = arith.addf %one, %enx : tensor<BMxBNxf32>
  %silu = arith.divf %x, %den : tensor<BMxBNxf32>
  %c1 = arith.constant 1 : i64
  %c2 = arith.constant 2 : i64
  %c3 = arith.constant 3 : i64
  %is1 = arith.cmpi eq, %act, %c1 : i64
  %is2 = arith.cmpi eq, %act, %c2 : i64
  %is3 = arith.cmpi eq, %act, %c3 : i64
  %y1 = arith.select %is1, %relu, %x : tensor<BMxBNxf32>
  %y2 = arith.select %is2, %gelu, %y1 : tensor<BMxBNxf32>
  %y = arith.select %is3, %silu, %y2 : tensor<BMxBNxf32>
  %ye = TRUNC %y : tensor<BMxBNxf32> to tensor<BMxBNxELT>
  %rmo = tile.broadcast %rmc : tensor<BMx1xi64> -> tensor<BMxBNxi64>
  %rno = tile.broadcast %rnr : tensor<1xBNxi64> -> tensor<BMxBNxi64>
  %scms = tile.splat %scm : i64 -> tensor<BMxBNxi64>
  %crow = arith.muli %rmo, %scms : tensor<BMxBNxi64>
  %scns = tile.splat %scn : i64 -> tensor<BMxBNxi64>
  %ccol = arith.muli %rno, %scns : tensor<BMxBNxi64>
  %coff = arith.addi %crow, %ccol : tensor<BMxBNxi64>
  %Mc = tile.splat %M : i64 -> tensor<BMxBNxi64>
  %Nc = tile.splat %N : i64 -> tensor<BMxBNxi64>
  %cm1 = arith.cmpi slt, %rmo, %Mc : tensor<BMxBNxi64>
  %cm2 = arith.cmpi slt, %rno, %Nc : tensor<BMxBNxi64>
  %cmask = arith.andi %cm1, %cm2 : tensor<BMxBNxi1>
  %cs = tile.splat %c : !tile.ptr<ELT> -> tensor<BMxBNx!tile.ptr<ELT>>
  %cp = tile.addptr %cs, %coff : tensor<BMxBNx!tile.ptr<ELT>>, tensor<BMxBNxi64>
  tile.store %cp, %ye, %cmask : tensor<BMxBNx!tile.ptr<ELT>>
  return
}

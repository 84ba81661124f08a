// Case C12: float atomic max / min order -0 < +0, as arith.maximumf / minimumf (docs/TileIR.md):
// stored -0 then atomic max with +0 gives +0; stored +0 then atomic min with -0 gives -0; and
// the same whatever the order (stored +0, max with -0: +0; stored -0, min with +0: -0). C's
// std::max / std::min, which the interpreter used, keep the stored zero when the two compare
// equal. Cells 4 and 5 start at -inf / +inf and take a max (min) from every program of a grid of
// 4, even programs with -0 and odd with +0 (max) or the reverse (min): +0 and -0.
// (GPU targets lower f32 / f64 ones through integer atomics: benchmarks/gpu/cases/c12_atomic_minmax.mlir.)
// RUN: tessel-run %s --kernel zeros_f32 --grid 4 --arg 'x@f32:[-0.0,0.0,0.0,-0.0,-inf,inf]' | FileCheck %s --check-prefix=F32
// F32: x = [0, 0, -0, -0, 0, -0]
// RUN: tessel-run %s --kernel zeros_f16 --grid 4 --arg 'x@f16:[-0.0,0.0,0.0,-0.0,-inf,inf]' | FileCheck %s --check-prefix=F16
// F16: x = [0, 0, -0, -0, 0, -0]
// RUN: tessel-run %s --kernel zeros_bf16 --grid 4 --arg 'x@bf16:[-0.0,0.0,0.0,-0.0,-inf,inf]' | FileCheck %s --check-prefix=BF16
// BF16: x = [0, 0, -0, -0, 0, -0]
// RUN: tessel-run %s --kernel zeros_f64 --grid 4 --arg 'x@f64:[-0.0,0.0,0.0,-0.0,-inf,inf]' | FileCheck %s --check-prefix=F64
// F64: x = [0, 0, -0, -0, 0, -0]

func.func @zeros_f32(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %pid = tile.program_id 0
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    %x1 = tile.addptr %x, %c1 : !tile.ptr<f32>, i32
    %x2 = tile.addptr %x1, %c1 : !tile.ptr<f32>, i32
    %x3 = tile.addptr %x2, %c1 : !tile.ptr<f32>, i32
    %a = tile.atomic_rmw max, acq_rel, gpu, %x, %pz : !tile.ptr<f32>
    %b = tile.atomic_rmw max, acq_rel, gpu, %x1, %nz : !tile.ptr<f32>
    %c = tile.atomic_rmw min, acq_rel, gpu, %x2, %nz : !tile.ptr<f32>
    %d = tile.atomic_rmw min, acq_rel, gpu, %x3, %pz : !tile.ptr<f32>
  }
  %rem = arith.remsi %pid, %c2 : i32
  %odd = arith.cmpi eq, %rem, %c1 : i32
  %vmax = arith.select %odd, %pz, %nz : f32
  %vmin = arith.select %odd, %nz, %pz : f32
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %x4 = tile.addptr %x, %c4 : !tile.ptr<f32>, i32
  %x5 = tile.addptr %x, %c5 : !tile.ptr<f32>, i32
  %e = tile.atomic_rmw max, acq_rel, gpu, %x4, %vmax : !tile.ptr<f32>
  %f = tile.atomic_rmw min, acq_rel, gpu, %x5, %vmin : !tile.ptr<f32>
  return
}

func.func @zeros_f16(%x: !tile.ptr<f16>) attributes {tile.kernel} {
  %pz = arith.constant 0.0 : f16
  %nz = arith.constant -0.0 : f16
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %pid = tile.program_id 0
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    %x1 = tile.addptr %x, %c1 : !tile.ptr<f16>, i32
    %x2 = tile.addptr %x1, %c1 : !tile.ptr<f16>, i32
    %x3 = tile.addptr %x2, %c1 : !tile.ptr<f16>, i32
    %a = tile.atomic_rmw max, acq_rel, gpu, %x, %pz : !tile.ptr<f16>
    %b = tile.atomic_rmw max, acq_rel, gpu, %x1, %nz : !tile.ptr<f16>
    %c = tile.atomic_rmw min, acq_rel, gpu, %x2, %nz : !tile.ptr<f16>
    %d = tile.atomic_rmw min, acq_rel, gpu, %x3, %pz : !tile.ptr<f16>
  }
  %rem = arith.remsi %pid, %c2 : i32
  %odd = arith.cmpi eq, %rem, %c1 : i32
  %vmax = arith.select %odd, %pz, %nz : f16
  %vmin = arith.select %odd, %nz, %pz : f16
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %x4 = tile.addptr %x, %c4 : !tile.ptr<f16>, i32
  %x5 = tile.addptr %x, %c5 : !tile.ptr<f16>, i32
  %e = tile.atomic_rmw max, acq_rel, gpu, %x4, %vmax : !tile.ptr<f16>
  %f = tile.atomic_rmw min, acq_rel, gpu, %x5, %vmin : !tile.ptr<f16>
  return
}

func.func @zeros_bf16(%x: !tile.ptr<bf16>) attributes {tile.kernel} {
  %pz = arith.constant 0.0 : bf16
  %nz = arith.constant -0.0 : bf16
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %pid = tile.program_id 0
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    %x1 = tile.addptr %x, %c1 : !tile.ptr<bf16>, i32
    %x2 = tile.addptr %x1, %c1 : !tile.ptr<bf16>, i32
    %x3 = tile.addptr %x2, %c1 : !tile.ptr<bf16>, i32
    %a = tile.atomic_rmw max, acq_rel, gpu, %x, %pz : !tile.ptr<bf16>
    %b = tile.atomic_rmw max, acq_rel, gpu, %x1, %nz : !tile.ptr<bf16>
    %c = tile.atomic_rmw min, acq_rel, gpu, %x2, %nz : !tile.ptr<bf16>
    %d = tile.atomic_rmw min, acq_rel, gpu, %x3, %pz : !tile.ptr<bf16>
  }
  %rem = arith.remsi %pid, %c2 : i32
  %odd = arith.cmpi eq, %rem, %c1 : i32
  %vmax = arith.select %odd, %pz, %nz : bf16
  %vmin = arith.select %odd, %nz, %pz : bf16
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %x4 = tile.addptr %x, %c4 : !tile.ptr<bf16>, i32
  %x5 = tile.addptr %x, %c5 : !tile.ptr<bf16>, i32
  %e = tile.atomic_rmw max, acq_rel, gpu, %x4, %vmax : !tile.ptr<bf16>
  %f = tile.atomic_rmw min, acq_rel, gpu, %x5, %vmin : !tile.ptr<bf16>
  return
}

func.func @zeros_f64(%x: !tile.ptr<f64>) attributes {tile.kernel} {
  %pz = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %pid = tile.program_id 0
  %first = arith.cmpi eq, %pid, %c0 : i32
  scf.if %first {
    %x1 = tile.addptr %x, %c1 : !tile.ptr<f64>, i32
    %x2 = tile.addptr %x1, %c1 : !tile.ptr<f64>, i32
    %x3 = tile.addptr %x2, %c1 : !tile.ptr<f64>, i32
    %a = tile.atomic_rmw max, acq_rel, gpu, %x, %pz : !tile.ptr<f64>
    %b = tile.atomic_rmw max, acq_rel, gpu, %x1, %nz : !tile.ptr<f64>
    %c = tile.atomic_rmw min, acq_rel, gpu, %x2, %nz : !tile.ptr<f64>
    %d = tile.atomic_rmw min, acq_rel, gpu, %x3, %pz : !tile.ptr<f64>
  }
  %rem = arith.remsi %pid, %c2 : i32
  %odd = arith.cmpi eq, %rem, %c1 : i32
  %vmax = arith.select %odd, %pz, %nz : f64
  %vmin = arith.select %odd, %nz, %pz : f64
  %c4 = arith.constant 4 : i32
  %c5 = arith.constant 5 : i32
  %x4 = tile.addptr %x, %c4 : !tile.ptr<f64>, i32
  %x5 = tile.addptr %x, %c5 : !tile.ptr<f64>, i32
  %e = tile.atomic_rmw max, acq_rel, gpu, %x4, %vmax : !tile.ptr<f64>
  %f = tile.atomic_rmw min, acq_rel, gpu, %x5, %vmin : !tile.ptr<f64>
  return
}

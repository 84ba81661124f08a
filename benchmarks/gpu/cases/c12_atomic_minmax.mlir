// Case C12 on the GPU: float atomic max / min through integer atomics, ordered as
// arith.maximumf / minimumf (-0 < +0, NaN wins) whatever the order the 4 programs run in.
// x = [-0, +0, +0, -0, -inf, +inf, 1, 1, -5, 5]:
//   0-3  program 0: max(-0, +0), max(+0, -0), min(+0, -0), min(-0, +0)  -> 0, 0, -0, -0
//   4, 5 every program: max with -0 (even) / +0 (odd); min the reverse    -> 0, -0
//   6, 7 program 0 a NaN, the others pid - 1.5 (max) / pid - 3.5 (min)    -> nan, nan
//   8, 9 max of pid - 3.5, min of pid - 1.5 (both signs)                  -> -0.5, -1.5
// The interpreter gives the same (test/Interpreter/c12-atomic-gpu-input.test); verify.sh runs
// it on the H200 (tessel-run-gpu) and FileCheck-style compares the printed buffer.
func.func @minmax_f32(%x: !tile.ptr<f32>) attributes {tile.kernel} {
  %pz = arith.constant 0.0 : f32
  %nz = arith.constant -0.0 : f32
  %nan = arith.constant 0x7FC00000 : f32
  %half = arith.constant 0.5 : f32
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
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
  // pid - 3.5 and pid - 1.5: values of both signs from every program.
  %pf = arith.sitofp %pid : i32 to f32
  %c35 = arith.constant 3.5 : f32
  %c15 = arith.constant 1.5 : f32
  %m8 = arith.subf %pf, %c35 : f32
  %m9 = arith.subf %pf, %c15 : f32
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %x6 = tile.addptr %x, %c6 : !tile.ptr<f32>, i32
  %x7 = tile.addptr %x, %c7 : !tile.ptr<f32>, i32
  %x8 = tile.addptr %x, %c8 : !tile.ptr<f32>, i32
  %x9 = tile.addptr %x, %c9 : !tile.ptr<f32>, i32
  %v6 = arith.select %first, %nan, %m9 : f32
  %v7 = arith.select %first, %nan, %m8 : f32
  %g = tile.atomic_rmw max, acq_rel, gpu, %x6, %v6 : !tile.ptr<f32>
  %h = tile.atomic_rmw min, acq_rel, gpu, %x7, %v7 : !tile.ptr<f32>
  %k = tile.atomic_rmw max, acq_rel, gpu, %x8, %m8 : !tile.ptr<f32>
  %l = tile.atomic_rmw min, acq_rel, gpu, %x9, %m9 : !tile.ptr<f32>
  return
}

func.func @minmax_f64(%x: !tile.ptr<f64>) attributes {tile.kernel} {
  %pz = arith.constant 0.0 : f64
  %nz = arith.constant -0.0 : f64
  %nan = arith.constant 0x7FF8000000000000 : f64
  %half = arith.constant 0.5 : f64
  %c0 = arith.constant 0 : i32
  %c1 = arith.constant 1 : i32
  %c2 = arith.constant 2 : i32
  %c3 = arith.constant 3 : i32
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
  // pid - 3.5 and pid - 1.5: values of both signs from every program.
  %pf = arith.sitofp %pid : i32 to f64
  %c35 = arith.constant 3.5 : f64
  %c15 = arith.constant 1.5 : f64
  %m8 = arith.subf %pf, %c35 : f64
  %m9 = arith.subf %pf, %c15 : f64
  %c6 = arith.constant 6 : i32
  %c7 = arith.constant 7 : i32
  %c8 = arith.constant 8 : i32
  %c9 = arith.constant 9 : i32
  %x6 = tile.addptr %x, %c6 : !tile.ptr<f64>, i32
  %x7 = tile.addptr %x, %c7 : !tile.ptr<f64>, i32
  %x8 = tile.addptr %x, %c8 : !tile.ptr<f64>, i32
  %x9 = tile.addptr %x, %c9 : !tile.ptr<f64>, i32
  %v6 = arith.select %first, %nan, %m9 : f64
  %v7 = arith.select %first, %nan, %m8 : f64
  %g = tile.atomic_rmw max, acq_rel, gpu, %x6, %v6 : !tile.ptr<f64>
  %h = tile.atomic_rmw min, acq_rel, gpu, %x7, %v7 : !tile.ptr<f64>
  %k = tile.atomic_rmw max, acq_rel, gpu, %x8, %m8 : !tile.ptr<f64>
  %l = tile.atomic_rmw min, acq_rel, gpu, %x9, %m9 : !tile.ptr<f64>
  return
}

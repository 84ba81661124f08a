func.func @f(%n: index, %z: i32) -> i32 {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %r:2 = scf.for %k = %c0 to %n step %c1 iter_args(%a = %z, %b = %b1) -> (i32, i32) {
    %x = arith.addi %b, %a : i32
    %b1 = arith.addi %x, %x : i32
    scf.yield %x, %b1 : i32, i32
  }
  return %r#0 : i32
}

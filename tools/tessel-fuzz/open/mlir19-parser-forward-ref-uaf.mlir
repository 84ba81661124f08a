func.func @zeros_f32(%x: i32) {
  scf.if %first {
  }
}
func.func @zeros_f16(%x: i32) {
  scf.if %first {
  }
}
func.func @zeros_bf16(%x: i32) {
  %first = arith.cmpi eq, %pid, %c0 : i32
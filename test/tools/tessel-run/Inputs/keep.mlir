// Kernels that leave their buffer as it is, one per element type: tessel-run prints, saves and
// checks what it read (from .npy files, rand) without a kernel in the way.
func.func @keep_f16(%x: !tile.ptr<f16>) attributes {tile.kernel} { return }
func.func @keep_bf16(%x: !tile.ptr<bf16>) attributes {tile.kernel} { return }
func.func @keep_f32(%x: !tile.ptr<f32>) attributes {tile.kernel} { return }
func.func @keep_f64(%x: !tile.ptr<f64>) attributes {tile.kernel} { return }
func.func @keep_i1(%x: !tile.ptr<i1>) attributes {tile.kernel} { return }
func.func @keep_i8(%x: !tile.ptr<i8>) attributes {tile.kernel} { return }
func.func @keep_i16(%x: !tile.ptr<i16>) attributes {tile.kernel} { return }
func.func @keep_i32(%x: !tile.ptr<i32>) attributes {tile.kernel} { return }
func.func @keep_i64(%x: !tile.ptr<i64>) attributes {tile.kernel} { return }
// An i32 scalar parameter: a value given as i64 must still fit it.
func.func @take_i32(%n: i32) attributes {tile.kernel} { return }

// RUN: tessel-opt %s -split-input-file -verify-diagnostics

// tile.program_id and tile.num_programs take a grid axis of 0, 1 or 2.

func.func @program_id_axis() {
  // expected-error @+1 {{'tile.program_id' op axis must be 0, 1 or 2, got 3}}
  %x = tile.program_id 3
  return
}

// -----

func.func @program_id_negative_axis() {
  // expected-error @+1 {{'tile.program_id' op axis must be 0, 1 or 2, got -1}}
  %x = tile.program_id -1
  return
}

// -----

func.func @num_programs_axis() {
  // expected-error @+1 {{'tile.num_programs' op axis must be 0, 1 or 2, got 5}}
  %x = tile.num_programs 5
  return
}

// -----

// The result is i32.
func.func @program_id_i64() {
  // expected-error @+1 {{'tile.program_id' op result #0 must be 32-bit signless integer, but got 'i64'}}
  %x = "tile.program_id"() <{axis = 0 : i32}> : () -> i64
  return
}

func.func @f() attributes {tile.kernel} {
  %x = tile.arange 4, 2 : tensor<2xi32>
  return
}

// Seven arguments, the signature over several lines with a comment, an
// argument attribute whose string holds `, %` and an argument location:
// pld-run reads the names from the text.
func.func @pick(
    // where the result goes, "a, %b" (not an argument)
    %out: memref<1x1xi32> {test.note = "x) , %y"},
    %first: i32,
    %second: i32 loc("named-args.mlir":8:5),
    %third.v$1: i32,
    %unused: f32,
    %signal: !pld.dtensor<2x1xi32>,
    %which: index)
    attributes {pl.kernel = #pl.kernel<incore>} {
  pl.write %second, %out[0, 0] : memref<1x1xi32>
  return
}

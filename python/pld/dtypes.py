"""Element types (`pl.INT32`, `pl.FP32`, ...): their MLIR type and numpy dtype."""

import numpy as np


class DType:
    """An element type as the seed names it (`pl.INT32`)."""

    def __init__(self, name, mlir_type, numpy_dtype, nbytes):
        self.name = name
        self.mlir_type = mlir_type  # the description's Type object
        self.numpy_dtype = numpy_dtype
        self.nbytes = nbytes

    def get_byte(self):
        """The size of one element in bytes (the seed's `dtype.get_byte()`)."""
        return self.nbytes

    def __repr__(self):
        return f"pl.{self.name}"


INT8 = DType("INT8", {"int": 8}, np.int8, 1)
INT16 = DType("INT16", {"int": 16}, np.int16, 2)
INT32 = DType("INT32", {"int": 32}, np.int32, 4)
INT64 = DType("INT64", {"int": 64}, np.int64, 8)
# numpy has no bfloat16: a BF16 array travels as its raw 16-bit patterns.
FP16 = DType("FP16", {"float": "f16"}, np.float16, 2)
BF16 = DType("BF16", {"float": "bf16"}, np.uint16, 2)
FP32 = DType("FP32", {"float": "f32"}, np.float32, 4)
FP64 = DType("FP64", {"float": "f64"}, np.float64, 8)
BOOL = DType("BOOL", {"int": 1}, np.bool_, 1)
# `index`: what offsets, peers and loop bounds are; 64-bit on the simulator.
INDEX = DType("INDEX", {"index": True}, np.int64, 8)

ALL = [INT8, INT16, INT32, INT64, FP16, BF16, FP32, FP64, BOOL, INDEX]

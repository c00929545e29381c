//! Window tensors and memrefs after lowering: a `__gm__` pointer and the
//! dimensions, static or read at run time. A `!pld.dtensor` or `memref`
//! value of the pld level stands for one of these.

use melior::ir::{Type, ValueLike};
use pld_ir::{Builder, Ix, Val, types};

/// A lowered window tensor or memref (row-major, contiguous).
#[derive(Clone)]
pub struct Buffer<'c> {
    pub ptr: Val<'c>,
    pub dims: Vec<Ix<'c>>,
    pub element: Type<'c>,
    /// The comm group of a window over a buffer of a group
    /// (`alloc_window_buffer ... ranks [...]`); `None`: the function's
    /// communicator.
    pub group: Option<Group<'c>>,
}

/// A comm group in host code: its world ranks and its context there.
#[derive(Clone)]
pub struct Group<'c> {
    pub ranks: std::rc::Rc<[i64]>,
    pub ctx: Val<'c>,
}

impl<'c> Buffer<'c> {
    /// The dimensions of a shaped type, with `dynamic` supplying the `?`s in
    /// order.
    pub fn dims_of(r#type: Type<'c>, dynamic: &[Val<'c>]) -> Vec<Ix<'c>> {
        let mut dynamic = dynamic.iter();
        types::shape(r#type)
            .expect("a shaped type")
            .into_iter()
            .map(|dim| {
                if dim == types::DYNAMIC {
                    Ix::Dyn(*dynamic.next().expect("one value per dynamic dimension"))
                } else {
                    Ix::Const(dim)
                }
            })
            .collect()
    }

    /// The row-major strides, in elements.
    pub fn strides(&self, builder: &Builder<'c>) -> Vec<Ix<'c>> {
        let mut strides = vec![Ix::Const(1); self.dims.len()];
        for dim in (0..self.dims.len().saturating_sub(1)).rev() {
            strides[dim] = builder.mul(strides[dim + 1], self.dims[dim + 1]);
        }
        strides
    }

    /// The element index of `offsets` (one per dimension).
    pub fn linear(&self, builder: &Builder<'c>, offsets: &[Ix<'c>]) -> Ix<'c> {
        let strides = self.strides(builder);
        offsets
            .iter()
            .zip(&strides)
            .fold(Ix::Const(0), |sum, (offset, stride)| {
                let term = builder.mul(*offset, *stride);
                builder.add(sum, term)
            })
    }

    /// The number of elements.
    pub fn len(&self, builder: &Builder<'c>) -> Ix<'c> {
        self.dims
            .iter()
            .fold(Ix::Const(1), |len, dim| builder.mul(len, *dim))
    }

    /// The buffer as the tensor an access must stay in.
    pub fn tensor(&self, builder: &Builder<'c>) -> pld_ir::build::ascend::Tensor<'c> {
        pld_ir::build::ascend::Tensor {
            base: self.ptr,
            elements: self.len(builder),
        }
    }
}

/// Whether a type is lowered to a [`Buffer`]: a `!pld.dtensor` or a memref.
pub fn is_buffer_type(r#type: Type) -> bool {
    pld_dialect::types::is_distributed_tensor(r#type) || types::is_memref(r#type)
}

/// Whether `value` is of a type lowered to a [`Buffer`].
pub fn is_buffer(value: Val) -> bool {
    is_buffer_type(value.r#type())
}

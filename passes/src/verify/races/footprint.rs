//! Where an access lands: a box of a row-major array, kept as the box and
//! turned into byte intervals only for the memory the conflict search
//! needs (memory nobody writes never is, and a GEMM reads a lot of it).

/// The box at `offsets` with `sizes` of a row-major `shape` of elements of
/// `element_bytes` bytes.
#[derive(Clone, Debug)]
pub struct Footprint {
    pub shape: Vec<i64>,
    pub offsets: Vec<i64>,
    pub sizes: Vec<i64>,
    pub element_bytes: i64,
}

impl Footprint {
    /// The box; `Err` holds the same box when it leaves the shape (or has
    /// another rank), for the trap to name.
    pub fn new(
        shape: &[i64],
        offsets: Vec<i64>,
        sizes: Vec<i64>,
        element_bytes: i64,
    ) -> Result<Self, Self> {
        let same_rank = shape.len() == offsets.len() && shape.len() == sizes.len();
        // An empty box touches nothing, wherever it starts (the ragged last
        // chunk of a decomposition may start past the end).
        let empty = sizes.contains(&0) && sizes.iter().all(|size| *size >= 0);
        let inside = shape
            .iter()
            .zip(&offsets)
            .zip(&sizes)
            .all(|((dim, offset), size)| *offset >= 0 && *size >= 0 && offset + size <= *dim);
        let footprint = Self {
            shape: shape.to_vec(),
            offsets,
            sizes,
            element_bytes,
        };
        if same_rank && (inside || empty) {
            Ok(footprint)
        } else {
            Err(footprint)
        }
    }

    /// The dimension from which on the box is one contiguous run: the
    /// trailing dimensions it covers whole, with the first partial one.
    fn inner(&self) -> usize {
        let mut inner = self.shape.len().saturating_sub(1);
        while inner > 0 && self.offsets[inner] == 0 && self.sizes[inner] == self.shape[inner] {
            inner -= 1;
        }
        inner
    }

    /// How many separate byte intervals the box has.
    pub fn runs(&self) -> usize {
        if self.sizes.contains(&0) {
            return 0;
        }
        // Saturating: a type's dimensions may multiply past usize.
        self.sizes[..self.inner()]
            .iter()
            .fold(1usize, |runs, size| runs.saturating_mul(*size as usize))
    }

    /// The byte offset of the box's first element.
    pub fn start(&self) -> i64 {
        let element = self
            .shape
            .iter()
            .zip(&self.offsets)
            .fold(0, |start, (dim, offset)| start * dim + offset);
        element * self.element_bytes
    }

    /// The box's sorted, disjoint, half-open byte intervals.
    pub fn bytes(&self) -> Vec<(i64, i64)> {
        let rank = self.shape.len();
        if self.sizes.contains(&0) {
            return Vec::new();
        }
        if rank == 0 {
            return vec![(0, self.element_bytes)];
        }
        // Row-major strides, in elements.
        let mut strides = vec![1i64; rank];
        for dim in (0..rank - 1).rev() {
            strides[dim] = strides[dim + 1] * self.shape[dim + 1];
        }
        let inner = self.inner();
        let run = self.sizes[inner] * strides[inner];
        let mut out = Vec::with_capacity(self.runs());
        let mut index = vec![0i64; inner];
        loop {
            let start: i64 = (0..inner)
                .map(|d| (self.offsets[d] + index[d]) * strides[d])
                .sum::<i64>()
                + self.offsets[inner] * strides[inner];
            out.push((
                start * self.element_bytes,
                (start + run) * self.element_bytes,
            ));
            // The next index of the outer dimensions, last fastest.
            let mut dim = inner;
            loop {
                if dim == 0 {
                    return out;
                }
                dim -= 1;
                index[dim] += 1;
                if index[dim] < self.sizes[dim] {
                    break;
                }
                index[dim] = 0;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Footprint;

    fn bytes(
        shape: &[i64],
        offsets: &[i64],
        sizes: &[i64],
        element: i64,
    ) -> Option<Vec<(i64, i64)>> {
        let footprint = Footprint::new(shape, offsets.to_vec(), sizes.to_vec(), element).ok()?;
        let bytes = footprint.bytes();
        assert_eq!(footprint.runs(), bytes.len());
        if let Some((first, _)) = bytes.first() {
            assert_eq!(footprint.start(), *first);
        }
        Some(bytes)
    }

    #[test]
    fn boxes_become_byte_intervals() {
        // Row 1 of a 4x64 f32 tensor.
        assert_eq!(
            bytes(&[4, 64], &[1, 0], &[1, 64], 4),
            Some(vec![(256, 512)])
        );
        // Whole rows are one run.
        assert_eq!(
            bytes(&[4, 64], &[1, 0], &[2, 64], 4),
            Some(vec![(256, 768)])
        );
        // Half of two rows: two runs.
        assert_eq!(
            bytes(&[4, 64], &[0, 32], &[2, 32], 4),
            Some(vec![(128, 256), (384, 512)])
        );
        // 3-D: a column of each plane.
        assert_eq!(
            bytes(&[2, 2, 4], &[0, 0, 1], &[2, 2, 1], 1),
            Some(vec![(1, 2), (5, 6), (9, 10), (13, 14)])
        );
        // Empty, and a scalar.
        assert_eq!(bytes(&[4, 64], &[1, 0], &[0, 64], 4), Some(vec![]));
        assert_eq!(bytes(&[1, 203], &[0, 224], &[1, 0], 4), Some(vec![]));
        assert_eq!(bytes(&[], &[], &[], 4), Some(vec![(0, 4)]));
        // Outside the shape.
        assert_eq!(bytes(&[4, 64], &[3, 0], &[2, 64], 4), None);
        assert_eq!(bytes(&[8, 1], &[8, 0], &[1, 1], 4), None);
    }
}

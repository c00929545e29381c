//! What the target's PTO ISA accepts, read from the C++ half
//! (`pld/Dialect/Ascend/IR/TargetRules.h`), which the ascend verifiers
//! check too: one list per fact, with its source in
//! `docs/target/pto-isa.md`.

use crate::{enums::TargetProfile, ffi, ops::pl, string_ref_bytes};
use melior::ir::{Type, TypeLike};

/// The vector unit's element-wise tile instructions, by the element types
/// they take (a tile-scalar form takes its tile-tile instruction's).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TileMath {
    Add = 0,
    Max = 1,
    Min = 2,
    Mul = 3,
    Sub = 4,
    /// TEXPANDS: a tile filled with a scalar (`pl.full`).
    Expand = 5,
}

/// Whether an element-wise pl op combines two tiles or a tile and a scalar.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operands {
    Tiles,
    Scalar,
}

impl TileMath {
    /// The instruction family of the element-wise pl op named `name`, and
    /// whether its second operand is a tile or a scalar (`pl.full` has a
    /// scalar alone).
    pub fn of_op(name: &str) -> Option<(Self, Operands)> {
        use Operands::{Scalar, Tiles};
        Some(match name {
            pl::AddOp::NAME => (Self::Add, Tiles),
            pl::MaxOp::NAME => (Self::Max, Tiles),
            pl::MinOp::NAME => (Self::Min, Tiles),
            pl::MulOp::NAME => (Self::Mul, Tiles),
            pl::SubOp::NAME => (Self::Sub, Tiles),
            pl::AddSOp::NAME => (Self::Add, Scalar),
            pl::MaxSOp::NAME => (Self::Max, Scalar),
            pl::MinSOp::NAME => (Self::Min, Scalar),
            pl::MulSOp::NAME => (Self::Mul, Scalar),
            pl::SubSOp::NAME => (Self::Sub, Scalar),
            pl::FullOp::NAME => (Self::Expand, Scalar),
            _ => return None,
        })
    }

    /// The instruction family of the element-wise pl op named `name`.
    pub fn of_op_name(name: &str) -> Option<Self> {
        Self::of_op(name).map(|(math, _)| math)
    }

    /// PTO's name of the tile-tile instruction (TEXPANDS for `Expand`).
    pub fn instruction(self) -> &'static str {
        self.instruction_with(Operands::Tiles)
    }

    /// PTO's name of the instruction in the form `operands`.
    pub fn instruction_with(self, operands: Operands) -> &'static str {
        match (self, operands) {
            (Self::Add, Operands::Tiles) => "TADD",
            (Self::Max, Operands::Tiles) => "TMAX",
            (Self::Min, Operands::Tiles) => "TMIN",
            (Self::Mul, Operands::Tiles) => "TMUL",
            (Self::Sub, Operands::Tiles) => "TSUB",
            (Self::Add, Operands::Scalar) => "TADDS",
            (Self::Max, Operands::Scalar) => "TMAXS",
            (Self::Min, Operands::Scalar) => "TMINS",
            (Self::Mul, Operands::Scalar) => "TMULS",
            (Self::Sub, Operands::Scalar) => "TSUBS",
            (Self::Expand, _) => "TEXPANDS",
        }
    }
}

/// The columns a tile row of `cols` logical columns of `element` has on
/// the target: a whole number of 32-byte blocks.
pub fn padded_cols(cols: i64, element: Type) -> i64 {
    // SAFETY: a live type; the function only reads its bit width.
    unsafe { ffi::ascendTilePaddedCols(cols, element.to_raw()) }
}

/// The bytes of unified buffer an SDMA session works through (the scratch
/// buffer of `ascend.sdma_session`).
pub fn sdma_scratch_bytes() -> i64 {
    // SAFETY: the function reads a constant.
    unsafe { ffi::ascendSdmaScratchBytes() }
}

/// Whether TLOAD and TSTORE move tiles of `element`.
pub fn is_tile_element(element: Type) -> bool {
    // SAFETY: a type predicate on a live type.
    unsafe { ffi::ascendIsTileElementType(element.to_raw()) }
}

/// The element types TLOAD and TSTORE move, for messages.
pub fn tile_element_names() -> &'static str {
    // SAFETY: the C API returns a static, nul-free ASCII string.
    let bytes = unsafe { string_ref_bytes(ffi::ascendTileElementTypeNames()) };
    std::str::from_utf8(bytes).expect("an ASCII list")
}

/// The most rows a tile TLOAD and TSTORE move may have on `profile`, if
/// there is a limit (4095 on Ascend910B).
pub fn max_tile_rows(profile: TargetProfile) -> Option<i64> {
    // SAFETY: a pure function of a valid enum value.
    let most = unsafe { ffi::ascendMaxTileRows(profile as i32) };
    (most > 0).then_some(most)
}

/// Whether `math` exists for `element` on `profile`.
pub fn is_tile_math_element(profile: TargetProfile, math: TileMath, element: Type) -> bool {
    // SAFETY: a predicate on a live type; both enums are valid values.
    unsafe { ffi::ascendIsTileMathElementType(profile as i32, math as i32, element.to_raw()) }
}

/// # Safety
///
/// `user_data` is a `*mut String` alive for the call; `piece` names
/// `length` readable bytes.
unsafe extern "C" fn append(piece: mlir_sys::MlirStringRef, user_data: *mut std::ffi::c_void) {
    // SAFETY: as documented above.
    unsafe {
        let names = &mut *(user_data as *mut String);
        names.push_str(&String::from_utf8_lossy(string_ref_bytes(piece)));
    }
}

/// The element types `math` has on `profile`, for messages.
pub fn tile_math_element_names(profile: TargetProfile, math: TileMath) -> String {
    let mut names = String::new();
    // SAFETY: the callback only appends to `names`, alive for the call.
    unsafe {
        ffi::ascendTileMathElementTypeNames(
            profile as i32,
            math as i32,
            Some(append),
            &mut names as *mut String as *mut _,
        )
    };
    names
}

/// Whether TCVT converts `source` elements to `result` elements on
/// `profile`.
pub fn is_conversion(profile: TargetProfile, source: Type, result: Type) -> bool {
    // SAFETY: a predicate on live types; the enum is a valid value.
    unsafe { ffi::ascendIsConversion(profile as i32, source.to_raw(), result.to_raw()) }
}

/// The conversions TCVT has on `profile`, for messages.
pub fn conversion_names(profile: TargetProfile) -> String {
    let mut names = String::new();
    // SAFETY: the callback only appends to `names`, alive for the call.
    unsafe {
        ffi::ascendConversionNames(
            profile as i32,
            Some(append),
            &mut names as *mut String as *mut _,
        )
    };
    names
}

/// The cube's rules, from the same header.
pub mod cube {
    use crate::{enums::TargetProfile, enums::ascend::TileKind, ffi, string_ref_bytes};
    use melior::ir::{Type, TypeLike};

    /// The bytes of the on-chip buffer tiles of `kind` live in on `profile`.
    pub fn buffer_bytes(profile: TargetProfile, kind: TileKind) -> i64 {
        // SAFETY: a pure function of two valid enum values.
        unsafe { ffi::ascendTileBufferBytes(profile as i32, kind as i32) }
    }

    /// What a tile's rows and columns must be multiples of: its fractal's
    /// inner box.
    pub fn tile_box(kind: TileKind, element: Type) -> (i64, i64) {
        // SAFETY: reads the bit width of a live type.
        unsafe {
            (
                ffi::ascendTileBoxRows(kind as i32, element.to_raw()),
                ffi::ascendTileBoxCols(kind as i32, element.to_raw()),
            )
        }
    }

    /// The accumulator element type TMATMUL gives `lhs x rhs`, if it has one.
    pub fn matmul_accumulator<'c>(lhs: Type<'c>, rhs: Type<'c>) -> Option<Type<'c>> {
        // SAFETY: live types of one context; a null result means none.
        let raw = unsafe { ffi::ascendMatmulAccumulator(lhs.to_raw(), rhs.to_raw()) };
        // SAFETY: a non-null type of the operands' context.
        (!raw.ptr.is_null()).then(|| unsafe { Type::from_raw(raw) })
    }

    /// The (accumulator, lhs, rhs) element types TMATMUL has, for messages.
    pub fn matmul_element_names() -> &'static str {
        // SAFETY: the C API returns a static, nul-free ASCII string.
        let bytes = unsafe { string_ref_bytes(ffi::ascendMatmulElementTypeNames()) };
        std::str::from_utf8(bytes).expect("an ASCII list")
    }

    /// Whether the fixpipe stores an accumulator of `acc` as `memory`.
    pub fn is_acc_store(acc: Type, memory: Type) -> bool {
        // SAFETY: a predicate on live types.
        unsafe { ffi::ascendIsAccStoreElementTypes(acc.to_raw(), memory.to_raw()) }
    }
}

//! Reading IR: op names, operands, symbols, attributes by their ODS names,
//! where an op or value comes from and what encloses it. The one set of
//! readers that pld's passes and its Ascend target share.
//!
//! Operands of pl, pld and ascend ops are read through the generated
//! `pld_dialect::ops::<dialect>::<Op>::operands`, by the names their ODS
//! definitions give them; the positional readers here serve upstream ops
//! and the analyses that treat every operand alike.

use crate::{
    OpRef, Val,
    keys::{OpKey, PtrMap, ValueKey},
};
use melior::ir::{
    AttributeLike, Type, TypeLike, Value, ValueLike,
    attribute::DenseI64ArrayAttribute,
    block::BlockArgument,
    operation::{Operation, OperationLike, OperationRef},
};
use pld_dialect::string_ref_bytes;
use std::collections::HashSet;

/// Anything that names a live op: an op handle, or a borrow of one or of
/// an owned op. Readers take it so that a caller holding either form can
/// ask without converting.
pub trait OpHandle<'c>: Copy {
    fn raw_op(self) -> mlir_sys::MlirOperation;
}

impl<'c> OpHandle<'c> for OperationRef<'c, '_> {
    fn raw_op(self) -> mlir_sys::MlirOperation {
        self.to_raw()
    }
}

impl<'c, T: OpHandle<'c>> OpHandle<'c> for &T {
    fn raw_op(self) -> mlir_sys::MlirOperation {
        (*self).raw_op()
    }
}

impl<'c> OpHandle<'c> for &Operation<'c> {
    fn raw_op(self) -> mlir_sys::MlirOperation {
        self.to_raw()
    }
}

/// The handle of `op` with the context's lifetime (see the crate docs).
fn handle<'c>(op: impl OpHandle<'c>) -> OpRef<'c> {
    // SAFETY: `op` is live, and a pass's IR lives as long as its run.
    unsafe { OpRef::from_raw(op.raw_op()) }
}

/// The name of an op (`pld.tensor.put`); empty for a name that is not
/// UTF-8 (an unregistered op may be named anything).
pub fn name<'c>(op: impl OpHandle<'c>) -> &'c str {
    // SAFETY: a live op; its name is uniqued in the context, so the text
    // lives as long as the context. Empty text may have a null `data`.
    let bytes = unsafe {
        string_ref_bytes(mlir_sys::mlirIdentifierStr(mlir_sys::mlirOperationGetName(
            op.raw_op(),
        )))
    };
    // Names are ASCII in practice, and checking that is a word at a time: a
    // third of what `from_utf8` costs on a name, and rules ask for names of
    // every op many times.
    if bytes.is_ascii() {
        // SAFETY: ASCII bytes are UTF-8.
        return unsafe { std::str::from_utf8_unchecked(bytes) };
    }
    std::str::from_utf8(bytes).unwrap_or("")
}

/// The keyword of an op as a kernel author writes it in prose: its name
/// without dialect and group (`wait` for `pld.system.wait`).
pub fn keyword<'c>(op: impl OpHandle<'c>) -> &'c str {
    let name = name(op);
    name.rsplit('.').next().unwrap_or(name)
}

/// `text` decoded (lossily) into a `String`.
///
/// # Safety
///
/// As for [`string_ref_bytes`]: `text` names readable bytes for the call.
unsafe fn owned_text(text: mlir_sys::MlirStringRef) -> String {
    // SAFETY: the caller's guarantee.
    String::from_utf8_lossy(unsafe { string_ref_bytes(text) }).into_owned()
}

/// The symbol name of an op (a function's `sym_name`), when it is a string.
pub fn symbol_name<'c: 'a, 'a>(op: &impl OperationLike<'c, 'a>) -> Option<String> {
    // SAFETY: the C API returns the name as static text.
    let attribute = unsafe { string_ref_bytes(mlir_sys::mlirSymbolTableGetSymbolAttributeName()) };
    let name = op.attribute(std::str::from_utf8(attribute).ok()?).ok()?;
    // SAFETY: the value is read only from a confirmed string attribute,
    // whose text lives in the context.
    unsafe {
        mlir_sys::mlirAttributeIsAString(name.to_raw())
            .then(|| owned_text(mlir_sys::mlirStringAttrGetValue(name.to_raw())))
    }
}

/// The function a `func.call` calls (its `callee`).
pub fn callee_name<'c: 'a, 'a>(call: &impl OperationLike<'c, 'a>) -> Option<String> {
    pld_dialect::ops::func::CallOp::get_callee(call).map(str::to_owned)
}

/// Operand `index` of an op the caller knows has it (an upstream op whose
/// operands ODS fixes).
pub fn operand<'c>(op: OpRef<'c>, index: usize) -> Val<'c> {
    let value = op.operand(index).expect("the op has this operand");
    // SAFETY: see the crate documentation.
    unsafe { Val::from_raw(value.to_raw()) }
}

/// Operand `index` of `op`, if it has one, with the op's lifetimes (melior
/// ties it to the borrow of `op`).
pub fn operand_at<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
    // SAFETY: `index` is in bounds (checked first); the operand lives as
    // long as the op.
    (index < op.operand_count()).then(|| unsafe {
        Value::from_raw(mlir_sys::mlirOperationGetOperand(
            op.to_raw(),
            index as isize,
        ))
    })
}

/// Every operand of `op`, with the op's lifetimes.
pub fn operands<'c, 'a>(op: &OperationRef<'c, 'a>) -> Vec<Value<'c, 'a>> {
    (0..op.operand_count())
        .filter_map(|index| operand_at(op, index))
        .collect()
}

/// The entries of a `DenseI64ArrayAttr` (dynamic entries are
/// The tile and the second operand of element-wise tile math, if `op` is
/// one: a tile (`pl.add` ... `pl.sub`) or a scalar of its element type (the
/// tile-scalar forms `pl.adds` ... `pl.mins`).
pub fn elementwise_operands<'c, 'a>(
    op: &OperationRef<'c, 'a>,
) -> Option<(Value<'c, 'a>, Value<'c, 'a>)> {
    use pld_dialect::ops::pl;
    pl::AddOp::operands(op)
        .map(|math| (math.lhs, math.rhs))
        .or_else(|| pl::MaxOp::operands(op).map(|math| (math.lhs, math.rhs)))
        .or_else(|| pl::MinOp::operands(op).map(|math| (math.lhs, math.rhs)))
        .or_else(|| pl::MulOp::operands(op).map(|math| (math.lhs, math.rhs)))
        .or_else(|| pl::SubOp::operands(op).map(|math| (math.lhs, math.rhs)))
        .or_else(|| pl::AddSOp::operands(op).map(|math| (math.lhs, math.scalar)))
        .or_else(|| pl::MaxSOp::operands(op).map(|math| (math.lhs, math.scalar)))
        .or_else(|| pl::MinSOp::operands(op).map(|math| (math.lhs, math.scalar)))
        .or_else(|| pl::MulSOp::operands(op).map(|math| (math.lhs, math.scalar)))
        .or_else(|| pl::SubSOp::operands(op).map(|math| (math.lhs, math.scalar)))
}

/// [`crate::types::DYNAMIC`]), if the op has it.
pub fn static_list<'c>(op: impl OpHandle<'c>, attribute: &str) -> Option<Vec<i64>> {
    let list = DenseI64ArrayAttribute::try_from(handle(op).attribute(attribute).ok()?).ok()?;
    (0..list.len())
        .map(|index| list.element(index).ok())
        .collect()
}

/// The key that identifies a value (values are compared by identity).
pub fn value_key(value: Value) -> ValueKey {
    ValueKey::of(value)
}

/// The key that identifies an op.
pub fn op_key<'c>(op: impl OpHandle<'c>) -> OpKey {
    OpKey::of(op)
}

/// Groups `items` by `key`, groups in order of first appearance and items in
/// their order (so that diagnostics come out in a stable order).
pub fn group_in_order<T: Copy, K: std::hash::Hash + Eq>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(T) -> Option<K>,
) -> Vec<Vec<T>> {
    let mut slots: PtrMap<K, usize> = PtrMap::default();
    let mut groups: Vec<Vec<T>> = Vec::new();
    for item in items {
        let Some(key) = key(item) else { continue };
        let slot = *slots.entry(key).or_insert_with(|| {
            groups.push(Vec::new());
            groups.len() - 1
        });
        groups[slot].push(item);
    }
    groups
}

/// Whether `op` is a function (`FunctionOpInterface`).
pub fn is_function(op: &OperationRef) -> bool {
    pld_dialect::interfaces::is_function(op)
}

/// The op that defines `value`, if it is an op result.
pub fn defining_op<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    if !value.is_operation_result() {
        return None;
    }
    // SAFETY: `value` is a live op result (checked above), owned by a live op.
    unsafe { OperationRef::from_option_raw(mlir_sys::mlirOpResultGetOwner(value.to_raw())) }
}

/// `value` as a block argument, if it is one. Checked before melior's
/// `BlockArgument::try_from`, whose error prints the value: an op result
/// prints with an `AsmState` of the whole module, so a failed conversion costs
/// as much as printing the module (the race rule's argument roles made it
/// quadratic in module size).
pub fn block_argument<'c, 'a>(value: Value<'c, 'a>) -> Option<BlockArgument<'c, 'a>> {
    if !value.is_block_argument() {
        return None;
    }
    BlockArgument::try_from(value).ok()
}

/// The op whose region holds the block that declares `value`, if `value` is a
/// block argument.
pub fn argument_owner<'c, 'a>(value: Value<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    if !value.is_block_argument() {
        return None;
    }
    // SAFETY: `value` is a live block argument (checked above); its block's
    // parent may be null (a detached block), which becomes `None`.
    unsafe {
        let block = mlir_sys::mlirBlockArgumentGetOwner(value.to_raw());
        OperationRef::from_option_raw(mlir_sys::mlirBlockGetParentOperation(block))
    }
}

/// The nearest proper ancestor of `op` whose name is one of `names`.
pub fn enclosing<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    names: &[&str],
) -> Option<OperationRef<'c, 'a>> {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if names.contains(&name(ancestor)) {
            return Some(ancestor);
        }
        current = ancestor.parent_operation();
    }
    None
}

/// The nearest enclosing function of `op`.
pub fn enclosing_function<'c, 'a>(op: &OperationRef<'c, 'a>) -> Option<OperationRef<'c, 'a>> {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if is_function(&ancestor) {
            return Some(ancestor);
        }
        current = ancestor.parent_operation();
    }
    None
}

/// Whether `ancestor` is a proper ancestor of `op`.
pub fn is_inside(op: &OperationRef, ancestor: &OperationRef) -> bool {
    let mut current = op.parent_operation();
    while let Some(parent) = current {
        if parent == *ancestor {
            return true;
        }
        current = parent.parent_operation();
    }
    false
}

/// Whether `op` is `ancestor` or nested in it.
pub fn is_within(op: OpRef, ancestor: OpRef) -> bool {
    let ancestor: OperationRef = ancestor;
    let mut current = Some(op);
    while let Some(candidate) = current {
        if candidate == ancestor {
            return true;
        }
        current = candidate.parent_operation();
    }
    false
}

/// The module an op belongs to (the outermost ancestor, or the op itself).
pub fn root<'c, 'a>(op: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    let mut current = op;
    while let Some(parent) = current.parent_operation() {
        current = parent;
    }
    current
}

/// Whether `value` is computed, through any chain of ops, from a value for
/// which `is_source` holds (the value itself included).
pub fn depends_on<'c: 'a, 'a>(
    value: Value<'c, 'a>,
    is_source: &dyn Fn(Value<'c, 'a>) -> bool,
) -> bool {
    let mut seen = HashSet::new();
    let mut work = vec![value];
    while let Some(current) = work.pop() {
        if !seen.insert(current.to_raw().ptr) {
            continue;
        }
        if is_source(current) {
            return true;
        }
        if let Some(op) = defining_op(current) {
            work.extend(operands(&op));
        }
    }
    false
}

/// Whether `value` depends on the result of an op named `op_name`.
pub fn depends_on_op(value: Value, op_name: &str) -> bool {
    depends_on(value, &|current| {
        defining_op(current).is_some_and(|op| name(op) == op_name)
    })
}

/// A readable rendering of a static index list: `[0, ?]`.
pub fn format_list(values: &[Option<i64>]) -> String {
    let items: Vec<String> = values
        .iter()
        .map(|value| value.map_or_else(|| "?".to_owned(), |value| value.to_string()))
        .collect();
    format!("[{}]", items.join(", "))
}

/// Whether a type is the element type `bf16`.
pub fn is_bf16(r#type: Type) -> bool {
    r#type.is_bf16()
}

/// The chip `op` is compiled for: the `pld.target` of the nearest op
/// around it that has one (a module), with that op; else Ascend910B, with
/// none.
pub fn target_profile<'c, 'a>(
    op: &OperationRef<'c, 'a>,
) -> (
    pld_dialect::enums::TargetProfile,
    Option<OperationRef<'c, 'a>>,
) {
    use pld_dialect::enums::TargetProfile;
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if let Some(profile) = TargetProfile::on(&ancestor) {
            return (profile, Some(ancestor));
        }
        current = ancestor.parent_operation();
    }
    (TargetProfile::Ascend910B, None)
}

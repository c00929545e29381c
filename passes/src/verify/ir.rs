//! Read-only queries over melior IR that the rules of pld-verify share.

use crate::ir::ops::{callee_name, symbol_name};
use melior::ir::{
    Type, TypeLike, Value, ValueLike,
    attribute::DenseI64ArrayAttribute,
    operation::{OperationLike, OperationRef},
};
use pld_dialect::analysis::ValueFacts;
use pld_dialect::ops::{func, scf};
use std::collections::HashSet;

/// A key that identifies a value (values are compared by identity).
pub fn value_key(value: Value) -> usize {
    value.to_raw().ptr as usize
}

/// A key that identifies an op.
pub fn op_key(op: &OperationRef) -> usize {
    op.to_raw().ptr as usize
}

/// Groups `items` by `key`, groups in order of first appearance and items in
/// their order (so that diagnostics come out in a stable order).
pub fn group_in_order<T: Copy>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(T) -> Option<usize>,
) -> Vec<Vec<T>> {
    let mut slots: crate::ir::PtrMap<usize, usize> = crate::ir::PtrMap::default();
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

/// The marker of a dynamic entry in a static index list (`ShapedType::kDynamic`).
pub const DYNAMIC: i64 = i64::MIN;

/// The full name of an op, e.g. `pld.system.notify` (see
/// [`crate::ir::ops::name`]).
pub fn name<'c>(op: &OperationRef<'c, '_>) -> &'c str {
    // SAFETY: the op is live; the name outlives it (uniqued in the context).
    crate::ir::ops::name(unsafe { crate::ir::OpRef::from_raw(op.to_raw()) })
}

/// The keyword of an op as a kernel author writes it in prose: its name
/// without dialect and group (`wait` for `pld.system.wait`).
pub fn keyword<'c>(op: &OperationRef<'c, '_>) -> &'c str {
    let name = name(op);
    name.rsplit('.').next().unwrap_or(name)
}

pub use crate::ir::nested_ops;

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

/// Operand `index` of `op`, with the op's lifetimes (melior ties it to the
/// borrow of `op`).
pub fn operand<'c, 'a>(op: &OperationRef<'c, 'a>, index: usize) -> Option<Value<'c, 'a>> {
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
        .filter_map(|index| operand(op, index))
        .collect()
}

/// The integer `value` always holds, when it is known: folded from known
/// operands (however computed), or from the module's value facts where it
/// flows through a region, a call or a function's arguments.
pub fn constant_int(value: Value) -> Option<i64> {
    let key = value_key(value);
    if let Some(known) = SCOPE.with_borrow(|scope| scope.as_ref()?.folded.get(&key).copied()) {
        return known;
    }
    let known = match defining_op(value) {
        Some(op) if op.region_count() > 0 || name(&op) == func::CallOp::NAME => {
            with_facts(|facts| facts.constant(value)).flatten()
        }
        Some(op) => super::fold::fold(&op, constant_int),
        None if is_decided_by_callers(value) => with_facts(|facts| facts.constant(value)).flatten(),
        None => None,
    };
    SCOPE.with_borrow_mut(|scope| {
        if let Some(scope) = scope {
            scope.folded.insert(key, known);
        }
    });
    known
}

/// Whether the value facts may know block argument `value`: an iteration
/// argument or region argument, or an argument of a function the module
/// calls (its callers decide it). Not a loop's induction variable (never one
/// constant) nor an entry point's argument (anything).
fn is_decided_by_callers(value: Value) -> bool {
    let Some(owner) = argument_owner(value) else {
        return false;
    };
    // SAFETY: `value` is a block argument (it has an owner op).
    let index = unsafe { mlir_sys::mlirBlockArgumentGetArgNumber(value.to_raw()) };
    if name(&owner) == scf::ForOp::NAME {
        return index != 0;
    }
    if !is_function(&owner) {
        return true;
    }
    symbol_name(&owner).is_some_and(|name| {
        SCOPE.with_borrow(|scope| {
            scope
                .as_ref()
                .is_some_and(|scope| scope.called.contains(&name))
        })
    })
}

/// The signed bounds of an integer or index value, when known (rank ids and
/// counts always are: semantics §1).
pub fn int_range(value: Value) -> Option<(i64, i64)> {
    constant_int(value)
        .map(|known| (known, known))
        .or_else(|| with_facts(|facts| facts.range(value)).flatten())
}

/// The module pld-verify is checking, while it runs (see [`FactsScope`]):
/// its value facts (made on first need: most modules decide every rule
/// without them) and what has been folded.
struct Scope {
    module: melior::ir::operation::OperationRef<'static, 'static>,
    facts: std::cell::OnceCell<Option<ValueFacts<'static>>>,
    folded: crate::ir::PtrMap<usize, Option<i64>>,
    /// The functions the module calls, by name.
    called: HashSet<String>,
}

thread_local! {
    static SCOPE: std::cell::RefCell<Option<Scope>> = const { std::cell::RefCell::new(None) };
}

/// Makes `module` the one `constant_int` and `int_range` judge values in,
/// on this thread, until dropped.
pub struct FactsScope<'m> {
    module: std::marker::PhantomData<&'m ()>,
}

impl<'m> FactsScope<'m> {
    /// # Safety
    ///
    /// The guard must be dropped (not leaked, e.g. by `mem::forget`) before
    /// `module` is destroyed: until then the thread keeps a handle to it.
    pub unsafe fn enter(module: OperationRef<'_, 'm>) -> Self {
        let called = nested_ops(module)
            .iter()
            .filter(|op| name(op) == func::CallOp::NAME)
            .filter_map(callee_name)
            .collect();
        // SAFETY: the module outlives the scope (`'m`), and the scope is
        // cleared when this guard drops, which the caller guarantees happens
        // before the module can go.
        let module = unsafe { OperationRef::from_raw(module.to_raw()) };
        SCOPE.with_borrow_mut(|scope| {
            debug_assert!(scope.is_none(), "one pld-verify run at a time per thread");
            *scope = Some(Scope {
                module,
                facts: std::cell::OnceCell::new(),
                folded: Default::default(),
                called,
            });
        });
        Self {
            module: std::marker::PhantomData,
        }
    }
}

impl Drop for FactsScope<'_> {
    fn drop(&mut self) {
        SCOPE.with_borrow_mut(|scope| *scope = None);
    }
}

fn with_facts<R>(query: impl FnOnce(&ValueFacts) -> R) -> Option<R> {
    SCOPE.with_borrow(|scope| {
        let scope = scope.as_ref()?;
        let facts = scope
            .facts
            .get_or_init(|| ValueFacts::of(&scope.module))
            .as_ref()?;
        Some(query(facts))
    })
}

/// The entries of a `DenseI64ArrayAttr` (dynamic entries are [`DYNAMIC`]).
pub fn static_list(op: &OperationRef, attribute: &str) -> Option<Vec<i64>> {
    let list = DenseI64ArrayAttribute::try_from(op.attribute(attribute).ok()?).ok()?;
    (0..list.len())
        .map(|index| list.element(index).ok())
        .collect()
}

/// The nearest proper ancestor of `op` whose name is one of `names`.
pub fn enclosing<'c, 'a>(
    op: &OperationRef<'c, 'a>,
    names: &[&str],
) -> Option<OperationRef<'c, 'a>> {
    let mut current = op.parent_operation();
    while let Some(ancestor) = current {
        if names.contains(&name(&ancestor)) {
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
        defining_op(current).is_some_and(|op| name(&op) == op_name)
    })
}

/// The element type of a shaped type (a `!pld.dtensor`, a memref, a tile),
/// or `None` for any other type.
pub fn element_type<'c>(r#type: Type<'c>) -> Option<Type<'c>> {
    // SAFETY: the shaped-type accessor runs only on a live type the C API
    // confirms implements ShapedType.
    unsafe {
        let raw = r#type.to_raw();
        mlir_sys::mlirTypeIsAShaped(raw)
            .then(|| Type::from_raw(mlir_sys::mlirShapedTypeGetElementType(raw)))
    }
}

/// The static trip count of an `scf.for`, when its bounds and step are constants.
pub fn constant_trip_count(for_op: &OperationRef) -> Option<i64> {
    let lower = constant_int(operand(for_op, 0)?)?;
    let upper = constant_int(operand(for_op, 1)?)?;
    let step = constant_int(operand(for_op, 2)?)?;
    trips(lower, upper, step)
}

/// How often a loop from `lower` to `upper` by `step` runs.
fn trips(lower: i64, upper: i64, step: i64) -> Option<i64> {
    let span = upper.saturating_sub(lower).max(0);
    (step > 0).then(|| span / step + i64::from(span % step != 0))
}

/// The most times an `scf.for` can run, from the ranges of its bounds (a
/// loop to `nranks` runs at most 64 times) and a constant step; `None` when
/// a bound or the step is unknown.
pub fn trip_count_bound(for_op: &OperationRef) -> Option<i64> {
    let (lower, _) = int_range(operand(for_op, 0)?)?;
    let (_, upper) = int_range(operand(for_op, 1)?)?;
    let step = constant_int(operand(for_op, 2)?)?;
    trips(lower, upper, step)
}

/// The module an op belongs to (the outermost ancestor, or the op itself).
pub fn root<'c, 'a>(op: OperationRef<'c, 'a>) -> OperationRef<'c, 'a> {
    let mut current = op;
    while let Some(parent) = current.parent_operation() {
        current = parent;
    }
    current
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

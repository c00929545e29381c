//! Converting one function: its signature (the CommContext first, window
//! tensors and memrefs as pointers and dynamic dimensions), then every op of
//! its body (`ops.rs`), then the cleanup of what the old values left.

use super::ConvertError;
use super::{
    Function, Functions, Kind,
    buffer::{Buffer, Group, is_buffer_type},
    specifiers,
};
use melior::ir::{
    BlockLike, BlockRef, RegionLike, Type, TypeLike, ValueLike, operation::OperationLike,
    r#type::FunctionType,
};
use pld_dialect::enums::KernelKind;
use pld_dialect::ops::func;
use pld_dialect::types::{
    self as pld_types, ascend as ascend_types, is_comm_ctx, is_task_id, is_window_ptr,
};
use pld_ir::pass::report::Report;
use pld_ir::{
    Builder, OpRef, Val,
    build::{ascend::set_specifiers, context_of, erase_op},
    types,
};
use pld_ir::{PtrMap, ValueKey};

/// What a value of the pld level stands for after lowering.
#[derive(Clone)]
pub enum Lowered<'c> {
    /// A window tensor or memref.
    Buffer(Buffer<'c>),
    /// A CommContext (`!pld.comm_ctx`): a comm group's, or `None` for the
    /// function's own.
    Ctx(Option<Group<'c>>),
    /// A value of another type (a window buffer pointer, a task id).
    Value(Val<'c>),
}

/// Converts one function in place.
pub struct FunctionConverter<'a, 'c> {
    pub functions: &'a Functions<'c>,
    pub function: Function<'c>,
    pub report: &'a mut Report,
    pub ctx: Option<Val<'c>>,
    /// The task's dispatch payload, which a task's kernel and the device
    /// functions it reaches that read the block or lane index take after
    /// the CommContext (docs/lowering.md, the kernel ABI).
    pub payload: Option<Val<'c>>,
    /// The SDMA workspace and sync id, which a kernel that moves data with
    /// SDMA takes after the CommContext and the dispatch payload (the
    /// kernel ABI).
    pub sdma: Option<(Val<'c>, Val<'c>)>,
    /// The FFTS base address, which a mixed kernel takes after the
    /// CommContext, the dispatch payload and the SDMA workspace and sync id
    /// (the kernel ABI); `mixed.rs` sets it at the kernel's entry.
    pub ffts: Option<Val<'c>>,
    /// The hand-off space, which a kernel whose vector work uses a
    /// `pl.matmul` product takes after the FFTS base address (the kernel
    /// ABI, `handoff.rs`).
    pub handoff: Option<Val<'c>>,
    /// The kernel's SDMA session, once its first SDMA transfer built it.
    pub session: Option<Val<'c>>,
    pub lowered: PtrMap<ValueKey, Lowered<'c>>,
    /// The context of each window buffer of a comm group, by the buffer.
    pub groups: PtrMap<ValueKey, Group<'c>>,
    /// Ops whose results stood for lowered values; erased at the end.
    pub replaced: Vec<OpRef<'c>>,
    /// The tiles this converter made: the pl tile type each stands for and
    /// its valid shape.
    pub tiles: PtrMap<ValueKey, (Type<'c>, super::ops::Valid<'c>)>,
    /// The pl tile type of each tile scf carries (a loop's iter_args, a
    /// branch's results), whose valid shape is only known at run time.
    pub carried: PtrMap<ValueKey, Type<'c>>,
    /// Site strings by (op name, location): the ops a collective decomposes
    /// into share both, and printing a location for each would dominate the
    /// pass's cost.
    sites: PtrMap<(usize, usize), std::rc::Rc<str>>,
    /// The function's GEMMs, converted at their stores (`cube.rs`).
    pub cube: super::cube::CubeWork<'c>,
}

impl<'a, 'c> FunctionConverter<'a, 'c> {
    pub fn new(
        functions: &'a Functions<'c>,
        function: &Function<'c>,
        report: &'a mut Report,
    ) -> Self {
        Self {
            functions,
            function: function.clone(),
            report,
            ctx: None,
            payload: None,
            sdma: None,
            ffts: None,
            handoff: None,
            session: None,
            lowered: PtrMap::default(),
            groups: PtrMap::default(),
            replaced: Vec::new(),
            tiles: PtrMap::default(),
            carried: PtrMap::default(),
            sites: PtrMap::default(),
            cube: Default::default(),
        }
    }

    /// The site string of a pld op: the op the user wrote and where it
    /// stands (`pld_ir::location::site_text`).
    pub fn site_of(&mut self, op: OpRef<'c>) -> std::rc::Rc<str> {
        let op_name = pld_ir::read::name(op);
        let location = op.location();
        self.sites
            .entry((op_name.as_ptr() as usize, location.to_raw().ptr as usize))
            .or_insert_with(|| {
                let is_signal_op = pld_dialect::interfaces::signal_access(&op).is_some();
                pld_ir::location::site_text(op_name, is_signal_op, location).into()
            })
            .clone()
    }

    /// The whole function: signature, body, cleanup. Returns whether it is
    /// a mixed kernel, converted whole, for `mixed::split` to halve.
    pub fn convert(mut self) -> bool {
        let op = self.function.op;
        let Some(entry) = op.region(0).ok().and_then(|region| region.first_block()) else {
            // A declaration: only its signature.
            self.convert_declaration();
            return false;
        };
        // SAFETY: see the documentation of `pld_ir`.
        let entry: BlockRef<'c, 'c> = unsafe { BlockRef::from_raw(entry.to_raw()) };
        let Some(old_arguments) = self.convert_arguments(entry) else {
            return false;
        };
        let ops = pld_ir::nested_ops(op);
        match super::cube::find(&ops) {
            Ok(cube) => self.cube = cube,
            Err(rejection) => {
                self.report
                    .error(&rejection.op, &rejection.message, &rejection.notes);
                return false;
            }
        }
        // One error per region op: what is nested in a rejected op is not
        // reported again.
        let mut rejected: Vec<OpRef> = Vec::new();
        for inner in ops {
            if rejected
                .iter()
                .any(|outer| pld_ir::read::is_within(inner, *outer))
            {
                continue;
            }
            if let Err(message) = self.convert_op(inner) {
                self.report.error(&inner, &message.to_string(), &[]);
                rejected.push(inner);
            }
        }
        if self.report.failed() {
            return false;
        }
        self.clean_up(entry, old_arguments);
        self.cube.mixed
    }

    /// Whether this function is a kernel that moves data with SDMA (and so
    /// takes the SDMA workspace and a sync id).
    fn takes_sdma(&self) -> bool {
        self.function.kind == Kind::Kernel && self.function.sdma
    }

    /// Whether this function is a mixed kernel (and so takes the FFTS base
    /// address).
    fn takes_ffts(&self) -> bool {
        self.function.kind == Kind::Kernel && self.function.mixed
    }

    /// Whether this function is a kernel with hand-offs (and so takes the
    /// hand-off space).
    fn takes_handoff(&self) -> bool {
        self.function.kind == Kind::Kernel && self.function.handoff_bytes > 0
    }

    /// Where the pld-level arguments start while both kinds coexist: after
    /// the CommContext, the dispatch payload, the SDMA workspace and sync
    /// id, the FFTS base address and the hand-off space.
    fn first_old_argument(&self) -> usize {
        1 + usize::from(self.payload.is_some())
            + 2 * usize::from(self.sdma.is_some())
            + usize::from(self.ffts.is_some())
            + usize::from(self.handoff.is_some())
    }

    /// The lowered parameter types of a pld-level parameter type (none for a
    /// CommContext), or why it cannot be a parameter.
    pub fn parameter_types(&self, r#type: Type<'c>) -> Result<Vec<Type<'c>>, ConvertError> {
        let context = context_of(self.function.op);
        if is_buffer_type(r#type) {
            if types::is_memref(r#type) && !types::is_identity_memref(r#type) {
                return Err(format!("'{type}' is not a contiguous row-major memref").into());
            }
            let element = types::element_type(r#type).expect("a shaped type");
            let pointer = ascend_types::gm(context, element)
                .ok_or_else(|| format!("the target has no pointer to {element}"))?;
            let dynamic = types::shape(r#type)
                .expect("a shaped type")
                .into_iter()
                .filter(|dim| *dim == types::DYNAMIC)
                .count();
            let mut parameters = vec![pointer];
            parameters.extend(std::iter::repeat_n(Type::index(context), dynamic));
            return Ok(parameters);
        }
        if pld_types::is_tile(r#type) {
            return Err(format!(
                "a tile ('{type}') cannot cross a function boundary: tiles live in one core's \
                 unified buffer"
            )
            .into());
        }
        if is_comm_ctx(r#type) {
            return Ok(vec![]);
        }
        if is_window_ptr(r#type) {
            let i8 = melior::ir::r#type::IntegerType::new(context, 8).into();
            return Ok(vec![
                ascend_types::gm(context, i8).expect("i8 has a pointer"),
            ]);
        }
        if is_task_id(r#type) {
            return Ok(vec![ascend_types::task(context)]);
        }
        if r#type.is_index() || is_integer_or_float(r#type) {
            return Ok(vec![r#type]);
        }
        Err(format!("values of type '{type}' cannot be passed to a lowered function").into())
    }

    /// The lowered result type of a pld-level result type.
    fn result_type(&self, r#type: Type<'c>) -> Result<Type<'c>, ConvertError> {
        if is_buffer_type(r#type)
            && types::shape(r#type).is_some_and(|shape| shape.contains(&types::DYNAMIC))
        {
            return Err(format!(
                "a function returning '{type}' cannot be lowered: the caller could not learn its \
                 dynamic dimensions"
            )
            .into());
        }
        match self.parameter_types(r#type)?.as_slice() {
            [single] => Ok(*single),
            _ => Err(format!("a function returning '{type}' cannot be lowered").into()),
        }
    }

    /// Adds the CommContext and the lowered parameters to the entry block,
    /// maps the old arguments to what they stand for; returns how many old
    /// arguments there were (they follow the context until the cleanup).
    fn convert_arguments(&mut self, entry: BlockRef<'c, 'c>) -> Option<usize> {
        let op = self.function.op;
        let context = context_of(op);
        let location = op.location();
        let old_count = entry.argument_count();
        let ctx = entry.insert_argument(0, ascend_types::ctx(context), location);
        // SAFETY: see the documentation of `pld_ir`.
        let ctx: Val = unsafe { Val::from_raw(ctx.to_raw()) };
        self.ctx = Some(ctx);
        if self.function.payload {
            let payload =
                entry.insert_argument(1, ascend_types::dispatch_payload(context), location);
            // SAFETY: see the documentation of `pld_ir`.
            self.payload = Some(unsafe { Val::from_raw(payload.to_raw()) });
        }
        if self.takes_sdma() {
            let at = 1 + usize::from(self.payload.is_some());
            let workspace =
                entry.insert_argument(at, ascend_types::sdma_workspace(context), location);
            let i32 = melior::ir::r#type::IntegerType::new(context, 32).into();
            let sync_id = entry.insert_argument(at + 1, i32, location);
            // SAFETY: see the documentation of `pld_ir`.
            self.sdma = Some(unsafe {
                (
                    Val::from_raw(workspace.to_raw()),
                    Val::from_raw(sync_id.to_raw()),
                )
            });
        }
        if self.takes_ffts() {
            let at = 1 + usize::from(self.payload.is_some()) + 2 * usize::from(self.sdma.is_some());
            let ffts = entry.insert_argument(at, ascend_types::ffts_addr(context), location);
            // SAFETY: see the documentation of `pld_ir`.
            self.ffts = Some(unsafe { Val::from_raw(ffts.to_raw()) });
        }
        if self.takes_handoff() {
            let at = 1
                + usize::from(self.payload.is_some())
                + 2 * usize::from(self.sdma.is_some())
                + usize::from(self.ffts.is_some());
            let i8 = melior::ir::r#type::IntegerType::new(context, 8).into();
            let space = entry.insert_argument(
                at,
                ascend_types::gm(context, i8).expect("i8 has a pointer type"),
                location,
            );
            // SAFETY: see the documentation of `pld_ir`.
            self.handoff = Some(unsafe { Val::from_raw(space.to_raw()) });
        }
        let first_old = self.first_old_argument();
        let mut failed = false;
        for index in 0..old_count {
            let old = entry
                .argument(index + first_old)
                .expect("the old argument is there");
            // SAFETY: see the documentation of `pld_ir`.
            let old: Val = unsafe { Val::from_raw(old.to_raw()) };
            let parameters = match self.parameter_types(old.r#type()) {
                Ok(parameters) => parameters,
                Err(message) => {
                    self.report
                        .error(&op, &format!("argument #{index}: {message}"), &[]);
                    failed = true;
                    continue;
                }
            };
            let new: Vec<Val> = parameters
                .iter()
                .map(|r#type| {
                    let argument = entry.add_argument(*r#type, location);
                    // SAFETY: see the documentation of `pld_ir`.
                    unsafe { Val::from_raw(argument.to_raw()) }
                })
                .collect();
            let lowered = self.lowered_parameter(old.r#type(), &new);
            if let Some(lowered) = lowered {
                self.lowered.insert(ValueKey::of(old), lowered);
            } else {
                // A scalar keeps its type: its uses move to the new argument
                // (and captures of outlined regions, which still name the old
                // one, find it in the map).
                // SAFETY: both are live values of one type.
                unsafe { mlir_sys::mlirValueReplaceAllUsesOfWith(old.to_raw(), new[0].to_raw()) };
                self.lowered
                    .insert(ValueKey::of(old), Lowered::Value(new[0]));
            }
        }
        (!failed).then_some(old_count)
    }

    /// What a pld-level value of `r#type` passed as the lowered `values`
    /// stands for; `None` for a scalar, which is the value itself.
    pub fn lowered_parameter(&self, r#type: Type<'c>, values: &[Val<'c>]) -> Option<Lowered<'c>> {
        if is_buffer_type(r#type) {
            let element = types::element_type(r#type).expect("a shaped type");
            return Some(Lowered::Buffer(Buffer {
                ptr: values[0],
                dims: Buffer::dims_of(r#type, &values[1..]),
                element,
                group: None,
            }));
        }
        if is_comm_ctx(r#type) {
            return Some(Lowered::Ctx(None));
        }
        if is_window_ptr(r#type) || is_task_id(r#type) {
            return Some(Lowered::Value(values[0]));
        }
        None
    }

    fn convert_declaration(&mut self) {
        let op = self.function.op;
        let context = context_of(op);
        let Some(function_type) = function_type(op) else {
            return;
        };
        let mut inputs = vec![ascend_types::ctx(context)];
        for index in 0..function_type.input_count() {
            match self.parameter_types(function_type.input(index).expect("an input")) {
                Ok(parameters) => inputs.extend(parameters),
                Err(message) => self.report.error(&op, &message.to_string(), &[]),
            }
        }
        self.finish_signature(inputs);
    }

    /// Sets the function type (`inputs` and the lowered results), the C++
    /// specifiers of its kind, and public visibility (upstream EmitC would
    /// replace the specifiers of a private function with `static`).
    fn finish_signature(&mut self, inputs: Vec<Type<'c>>) {
        let op = self.function.op;
        let context = context_of(op);
        let function_type = function_type(op).expect("a function has a type");
        let mut results = Vec::new();
        // A kernel returns nothing on the device: what a pld kernel returns
        // is one of its own arguments (`return %out`), dropped here.
        let result_count = if self.function.kind == Kind::Kernel {
            0
        } else {
            function_type.result_count()
        };
        for index in 0..result_count {
            match self.result_type(function_type.result(index).expect("a result")) {
                Ok(result) => results.push(result),
                Err(message) => self.report.error(&op, &message.to_string(), &[]),
            }
        }
        let new_type = FunctionType::new(context, &inputs, &results);
        func::FuncOp::set_function_type(&op, new_type.into());
        func::FuncOp::set_arg_attrs(&op, None);
        func::FuncOp::set_res_attrs(&op, None);
        func::FuncOp::set_sym_visibility(&op, None);
        KernelKind::remove_from(&op);
        let words = specifiers(self.function.kind);
        if !words.is_empty() {
            set_specifiers(op, words);
        }
    }

    /// Erases the ops and old arguments the lowered values replaced, and
    /// sets the new signature.
    fn clean_up(&mut self, entry: BlockRef<'c, 'c>, old_count: usize) {
        for op in self.replaced.drain(..).rev() {
            if let Some(user) = first_user(op) {
                self.report.error(
                    &user,
                    &format!(
                        "'{}' cannot be lowered: it uses a value the lowering replaced",
                        pld_ir::read::name(user)
                    ),
                    &[],
                );
                return;
            }
            erase_op(op);
        }
        let first_old = self.first_old_argument();
        for _ in 0..old_count {
            let old = entry
                .argument(first_old)
                .expect("the old argument is there");
            // SAFETY: see the documentation of `pld_ir`.
            let old: Val = unsafe { Val::from_raw(old.to_raw()) };
            if let Some((user, _)) = pld_ir::uses(old).first() {
                self.report.error(
                    user,
                    &format!(
                        "'{}' cannot be lowered: it uses an argument of type '{}'",
                        pld_ir::read::name(*user),
                        old.r#type()
                    ),
                    &[],
                );
                return;
            }
            // SAFETY: the argument has no uses left and no handle to it is
            // used after this.
            unsafe { entry.erase_argument(first_old) };
        }
        let inputs: Vec<Type> = (0..entry.argument_count())
            .map(|index| entry.argument(index).expect("an argument").r#type())
            .collect();
        self.finish_signature(inputs);
    }
}

/// The first op that uses a result of `op`.
fn first_user(op: OpRef) -> Option<OpRef> {
    (0..op.result_count())
        .flat_map(|index| pld_ir::uses(Builder::result_at(op, index)))
        .map(|(user, _)| user)
        .next()
}

/// The `function_type` of a `func.func`.
pub fn function_type(op: OpRef) -> Option<FunctionType> {
    FunctionType::try_from(func::FuncOp::get_function_type(&op)?).ok()
}

fn is_integer_or_float(r#type: Type) -> bool {
    // SAFETY: type predicates on a live type.
    unsafe {
        mlir_sys::mlirTypeIsAInteger(r#type.to_raw()) || mlir_sys::mlirTypeIsAFloat(r#type.to_raw())
    }
}

/// Kinds for which a function is InCore code.
pub fn is_incore(kind: Kind) -> bool {
    kind != Kind::Host
}

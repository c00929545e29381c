//! The C API of the C++ half (`dialect/include/pld-c/*.h`).

use mlir_sys::{
    MlirAttribute, MlirContext, MlirDiagnosticSeverity, MlirDialectHandle, MlirDialectRegistry,
    MlirLocation, MlirLogicalResult, MlirOperation, MlirStringCallback, MlirStringRef, MlirType,
    MlirValue,
};
use std::ffi::c_void;

/// `PldValueFacts` of `pld-c/Analysis.h`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PldValueFacts {
    pub ptr: *mut c_void,
}

/// `PldPassOption` of `pld-c/PassBridge.h`.
#[repr(C)]
pub struct PldPassOption {
    pub name: MlirStringRef,
    pub description: MlirStringRef,
    pub default_value: MlirStringRef,
}

/// `PldPassStatistic` of `pld-c/PassBridge.h`.
#[repr(C)]
pub struct PldPassStatistic {
    pub name: MlirStringRef,
    pub description: MlirStringRef,
}

/// `PldRunningPass` of `pld-c/PassBridge.h`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PldRunningPass {
    pub ptr: *mut c_void,
}

/// `PldPassCallbacks` of `pld-c/PassBridge.h`.
#[repr(C)]
pub struct PldPassCallbacks {
    pub run: unsafe extern "C" fn(
        op: MlirOperation,
        values: *const MlirStringRef,
        num_values: isize,
        pass: PldRunningPass,
        user_data: *mut c_void,
    ) -> MlirLogicalResult,
    pub validate_options: Option<
        unsafe extern "C" fn(
            values: *const MlirStringRef,
            num_values: isize,
            error: MlirStringCallback,
            error_user_data: *mut c_void,
            user_data: *mut c_void,
        ) -> MlirLogicalResult,
    >,
    pub user_data: *mut c_void,
    pub leaves_ir_unchanged: bool,
}

/// `PldPipelineCallbacks` of `pld-c/PassBridge.h`.
#[repr(C)]
pub struct PldPipelineCallbacks {
    pub build: unsafe extern "C" fn(
        values: *const MlirStringRef,
        num_values: isize,
        append: MlirStringCallback,
        append_user_data: *mut c_void,
        user_data: *mut c_void,
    ) -> MlirLogicalResult,
    pub user_data: *mut c_void,
}

/// `PLD_MAX_INDEX_RANK` of `pld-c/Interfaces.h`.
pub const PLD_MAX_INDEX_RANK: usize = 8;

/// `PldIndex` of `pld-c/Interfaces.h`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PldIndex {
    pub known: bool,
    pub constant: i64,
    pub value: MlirValue,
}

/// `PldMemoryAccess` of `pld-c/Interfaces.h`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PldMemoryAccess {
    pub memory: MlirValue,
    pub peer: MlirValue,
    /// `PldAccessKind`.
    pub kind: i32,
    pub rank: isize,
    pub offsets: [PldIndex; PLD_MAX_INDEX_RANK],
    pub sizes: [PldIndex; PLD_MAX_INDEX_RANK],
}

/// `PldSignalAccess` of `pld-c/Interfaces.h`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct PldSignalAccess {
    pub signal: MlirValue,
    pub peer: MlirValue,
    pub scalar: MlirValue,
    /// `PldSignalEffect`.
    pub effect: i32,
    pub deferred: bool,
    pub rank: isize,
    pub cell: [PldIndex; PLD_MAX_INDEX_RANK],
}

// SAFETY: each declaration matches its prototype in `dialect/include/pld-c/`.
unsafe extern "C" {
    pub fn mlirGetDialectHandle__pl__() -> MlirDialectHandle;
    pub fn mlirGetDialectHandle__pld__() -> MlirDialectHandle;
    pub fn pldRegisterAllDialects(registry: MlirDialectRegistry);

    pub fn pldDistributedTensorTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
    ) -> MlirType;
    pub fn pldTypeIsADistributedTensor(r#type: MlirType) -> bool;
    pub fn pldCommCtxTypeGet(context: MlirContext) -> MlirType;
    pub fn pldTypeIsACommCtx(r#type: MlirType) -> bool;
    pub fn pldPtrTypeGet(context: MlirContext) -> MlirType;
    pub fn pldTypeIsAPtr(r#type: MlirType) -> bool;
    pub fn plTileTypeGet(
        context: MlirContext,
        rank: isize,
        shape: *const i64,
        element_type: MlirType,
    ) -> MlirType;
    pub fn plTypeIsATile(r#type: MlirType) -> bool;
    pub fn plTaskIdTypeGet(context: MlirContext) -> MlirType;
    pub fn plTypeIsATaskId(r#type: MlirType) -> bool;

    pub fn ascendCtxTypeGet(context: MlirContext) -> MlirType;
    pub fn ascendGmPtrTypeGet(context: MlirContext, element_type: MlirType) -> MlirType;
    pub fn ascendTileTypeGet(
        context: MlirContext,
        rows: i64,
        cols: i64,
        element_type: MlirType,
    ) -> MlirType;
    pub fn ascendViewTypeGet(context: MlirContext, element_type: MlirType) -> MlirType;
    pub fn ascendTaskTypeGet(context: MlirContext) -> MlirType;
    pub fn ascendArgsTypeGet(context: MlirContext) -> MlirType;
    pub fn ascendDispatchPayloadTypeGet(context: MlirContext) -> MlirType;
    pub fn ascendTilePaddedCols(cols: i64, element: MlirType) -> i64;
    pub fn ascendIsTileElementType(element: MlirType) -> bool;
    pub fn ascendTileElementTypeNames() -> MlirStringRef;
    pub fn ascendIsTileMathElementType(profile: i32, math: i32, element: MlirType) -> bool;
    pub fn ascendTileMathElementTypeNames(
        profile: i32,
        math: i32,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    );
    pub fn ascendTypeIsATile(r#type: MlirType) -> bool;
    pub fn ascendTypeIsAGmPtr(r#type: MlirType) -> bool;
    pub fn ascendGmPtrTypeGetElementType(r#type: MlirType) -> MlirType;
    pub fn ascendTileTypeGetRows(r#type: MlirType) -> i64;
    pub fn ascendTileTypeGetCols(r#type: MlirType) -> i64;
    pub fn ascendTileTypeGetElementType(r#type: MlirType) -> MlirType;
    pub fn mlirGetDialectHandle__ascend__() -> MlirDialectHandle;

    pub fn pldTranslateToCpp(
        op: MlirOperation,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    pub fn pldLowerToCpp(
        module: MlirOperation,
        options: MlirStringRef,
        callback: MlirStringCallback,
        user_data: *mut c_void,
    ) -> MlirLogicalResult;
    pub fn pldRegisterUpstreamPasses();

    pub fn pldOperationGetOperandGroup(
        op: MlirOperation,
        name: MlirStringRef,
        start: *mut isize,
        count: *mut isize,
    ) -> bool;

    pub fn pldOperationGetMemoryAccesses(
        op: MlirOperation,
        accesses: *mut PldMemoryAccess,
        capacity: isize,
    ) -> isize;
    pub fn pldOperationGetSignalAccess(op: MlirOperation, access: *mut PldSignalAccess) -> bool;
    pub fn pldOperationGetCollective(
        op: MlirOperation,
        signal: *mut MlirValue,
        tensors: *mut MlirValue,
        capacity: isize,
    ) -> isize;
    pub fn pldCollectiveGetAlgorithms(
        op: MlirOperation,
        algorithms: *mut i32,
        capacity: isize,
    ) -> isize;
    pub fn pldCollectiveAlgorithmSignalProblem(
        op: MlirOperation,
        algorithm: i32,
        callback: MlirStringCallback,
        user_data: *mut std::ffi::c_void,
    ) -> bool;

    pub fn pldOperationIsFunction(op: MlirOperation) -> bool;
    pub fn ascendOperationGetPipe(op: MlirOperation) -> i32;
    pub fn ascendOperationReadsPayload(op: MlirOperation) -> bool;
    pub fn ascendOperationWritesPayload(op: MlirOperation) -> bool;
    pub fn ascendOperationRunsCallee(op: MlirOperation) -> bool;

    pub fn pldValueFactsCreate(module: MlirOperation) -> PldValueFacts;
    pub fn pldValueFactsDestroy(facts: PldValueFacts);
    pub fn pldValueFactsGetConstant(facts: PldValueFacts, value: MlirValue, out: *mut i64) -> bool;
    pub fn pldValueFactsGetRange(
        facts: PldValueFacts,
        value: MlirValue,
        min: *mut i64,
        max: *mut i64,
    ) -> bool;

    pub fn pldEmitDiagnostic(
        location: MlirLocation,
        severity: MlirDiagnosticSeverity,
        message: MlirStringRef,
        num_notes: isize,
        note_locations: *const MlirLocation,
        note_messages: *const MlirStringRef,
    );

    pub fn pldRegisterPass(
        argument: MlirStringRef,
        description: MlirStringRef,
        anchor_op_name: MlirStringRef,
        options: *const PldPassOption,
        num_options: isize,
        statistics: *const PldPassStatistic,
        num_statistics: isize,
        callbacks: PldPassCallbacks,
    );
    pub fn pldRunningPassAddStatistic(pass: PldRunningPass, index: isize, value: u64);

    pub fn pldRegisterPipeline(
        argument: MlirStringRef,
        description: MlirStringRef,
        options: *const PldPassOption,
        num_options: isize,
        callbacks: PldPipelineCallbacks,
    );
}

/// `pld<Name>AttrGet`, `pldAttributeIsA<Name>` and `pld<Name>AttrGetValue` of
/// `pld-c/Dialects.h`.
macro_rules! enum_attribute_functions {
    ($($get:ident, $isa:ident, $value:ident;)*) => {
        // SAFETY: the prototypes of `PLD_DEFINE_*ENUM_ATTR_CAPI` in Dialects.cpp.
        unsafe extern "C" {
            $(
                pub fn $get(context: MlirContext, value: i32) -> MlirAttribute;
                pub fn $isa(attribute: MlirAttribute) -> bool;
                pub fn $value(attribute: MlirAttribute) -> i32;
            )*
        }
    };
}

enum_attribute_functions! {
    pldNotifyOpAttrGet, pldAttributeIsANotifyOp, pldNotifyOpAttrGetValue;
    pldWaitCmpAttrGet, pldAttributeIsAWaitCmp, pldWaitCmpAttrGetValue;
    pldReduceOpAttrGet, pldAttributeIsAReduceOp, pldReduceOpAttrGetValue;
    pldAtomicTypeAttrGet, pldAttributeIsAAtomicType, pldAtomicTypeAttrGetValue;
    pldCollectiveModeAttrGet, pldAttributeIsACollectiveMode, pldCollectiveModeAttrGetValue;
    pldCollectiveAlgorithmAttrGet, pldAttributeIsACollectiveAlgorithm,
        pldCollectiveAlgorithmAttrGetValue;
    pldTargetProfileAttrGet, pldAttributeIsATargetProfile, pldTargetProfileAttrGetValue;
    plKernelKindAttrGet, plAttributeIsAKernelKind, plKernelKindAttrGetValue;
    plLevelAttrGet, plAttributeIsALevel, plLevelAttrGetValue;
    plSplitModeAttrGet, plAttributeIsASplitMode, plSplitModeAttrGetValue;
    ascendNotifyOpAttrGet, ascendAttributeIsANotifyOp, ascendNotifyOpAttrGetValue;
    ascendWaitCmpAttrGet, ascendAttributeIsAWaitCmp, ascendWaitCmpAttrGetValue;
    ascendAtomicTypeAttrGet, ascendAttributeIsAAtomicType, ascendAtomicTypeAttrGetValue;
    ascendPipeAttrGet, ascendAttributeIsAPipe, ascendPipeAttrGetValue;
}

"""The seed's enums and their keywords in the pl and pld dialects."""

import enum


class _Keyworded(enum.Enum):
    """An enum whose value is the dialect keyword (`set`, `atomic_add`)."""

    @property
    def keyword(self):
        return self.value


class NotifyOp(_Keyworded):
    AtomicAdd = "atomic_add"
    Set = "set"


class WaitCmp(_Keyworded):
    Eq = "eq"
    Ge = "ge"


class ReduceOp(_Keyworded):
    Sum = "sum"
    Max = "max"
    Min = "min"
    Prod = "prod"


class AtomicType(_Keyworded):
    None_ = "none"
    Add = "add"


class Level(_Keyworded):
    CORE = "core"
    CORE_GROUP = "core_group"


class SplitMode(_Keyworded):
    NONE = "none"
    UP_DOWN = "up_down"
    LEFT_RIGHT = "left_right"

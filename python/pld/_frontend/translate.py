"""The tracer: walks a decorated function's ast and emits its description.

Python values and runtime values meet here. A name is bound either to a
Python object (a module constant, an int, an enum, a list of offsets), which
the tracer computes with at trace time, or to an `ir.Value`, which it emits
ops for. So `for i in range(3)` and `if CONST:` are unrolled / chosen now,
while `for i in pl.range(n)` becomes `scf.for` and `if` on a value `scf.if`,
both carrying the variables their body reassigns (docs/python.md).
"""

import ast
import builtins

from ..annotations import as_param, function_annotations
from ..errors import FrontendError
from ..markers import marker_key
from . import ir
from .coerce import CoerceMixin, describe, is_py_int
from .ir import Emitter, Value
from .source import Source

# ast comparison -> arith.cmpi predicate (signed: pld's integers are signed)
_CMP = {ast.Eq: 0, ast.NotEq: 1, ast.Lt: 2, ast.LtE: 3, ast.Gt: 4, ast.GtE: 5}
# ast operator -> (integer op, float op)
_ARITH = {
    ast.Add: ("arith.addi", "arith.addf"),
    ast.Sub: ("arith.subi", "arith.subf"),
    ast.Mult: ("arith.muli", "arith.mulf"),
    ast.FloorDiv: ("arith.divsi", None),
    ast.Mod: ("arith.remsi", None),
    ast.Div: (None, "arith.divf"),
}
_TILE_ARITH = {ast.Add: "pl.add", ast.Sub: "pl.sub", ast.Mult: "pl.mul"}
_WITH_MARKERS = ("pl.at", "pl.spmd", "pl.split_aiv")


class Poison:
    """A name that is bound but cannot be used here (it was assigned inside a
    loop, branch or task whose values do not leave it)."""

    def __init__(self, message):
        self.message = message


def assigned_names(stmts):
    """Every name a statement list assigns (nested blocks included)."""
    names = set()
    for stmt in stmts:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                names.add(node.id)
            elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
                names.add(node.name)
    return names


class Program:
    """The functions of one module: the entry and every kernel it calls."""

    def __init__(self):
        self.functions = {}  # name -> (kernel, description)
        self.order = []
        self.in_progress = set()

    def describe(self, kernel):
        name = kernel.name
        if name in self.functions:
            if self.functions[name][0] is not kernel:
                raise FrontendError(f"two different kernels are named {name}; rename one")
            return self.functions[name][1]
        if name in self.in_progress:
            raise FrontendError(f"{name} calls itself (recursion is not supported)")
        self.in_progress.add(name)
        desc = Tracer(kernel, self).describe()
        self.in_progress.discard(name)
        self.functions[name] = (kernel, desc)
        self.order.append(name)
        return desc


def describe_program(kernel):
    program = Program()
    program.describe(kernel)
    # The entry first, then its callees in the order they were finished.
    names = [kernel.name] + [n for n in program.order if n != kernel.name]
    return {"functions": [program.functions[n][1] for n in names]}


class Tracer(CoerceMixin):
    def __init__(self, kernel, program):
        self.kernel = kernel
        self.fn = kernel.fn
        self.program = program
        self.src = Source(self.fn)
        self.em = Emitter()
        self.env = {}
        self.outer = dict(self.fn.__globals__)
        code = self.fn.__code__
        for name, cell in zip(code.co_freevars, self.fn.__closure__ or ()):
            try:
                self.outer[name] = cell.cell_contents
            except ValueError:
                pass  # a closure variable not assigned yet: unbound

    # --- locations and errors -------------------------------------------

    def loc(self, node):
        return self.src.loc(node)

    def error(self, node, message):
        return self.src.error(node, message)

    def emit(self, name, node, **kw):
        return self.em.op(name, self.loc(node), **kw)

    # --- the function ----------------------------------------------------

    def parameters(self):
        """[(name, Param, ast.arg)] of the decorated function."""
        try:
            annotations = function_annotations(self.fn)
        except Exception as e:  # an annotation that does not evaluate
            raise self.error(self.src.tree, f"cannot evaluate the annotations of {self.kernel.name}: {e}")
        args = self.src.tree.args
        if args.vararg or args.kwarg or args.posonlyargs or args.kwonlyargs:
            raise self.error(self.src.tree, "a kernel takes plain positional parameters only")
        params = []
        for arg in args.args:
            param = as_param(annotations.get(arg.arg))
            if param is None:
                raise self.error(arg, f"parameter {arg.arg} needs a type such as "
                                      "pl.Tensor[[1, 64], pl.FP32] or pl.Scalar[pl.INT32]")
            params.append((arg.arg, param, arg))
        ret = annotations.get("return")
        if ret is None:
            results = []
        elif isinstance(ret, (tuple, list)):
            results = [as_param(r) for r in ret]
        else:
            results = [as_param(ret)]
        if any(r is None for r in results):
            raise self.error(self.src.tree, f"the return type of {self.kernel.name} is not a pl type")
        return params, [r.spec.mlir_type for r in results]

    def describe(self):
        tree = self.src.tree
        params, self.result_types = self.parameters()
        arguments = []
        for name, param, arg in params:
            v = self.em.new_value(param.spec.mlir_type)
            self.env[name] = v
            arguments.append({"id": v.id, "name": name, "type": v.type, "loc": self.loc(arg)})
        body = self.em.open_block()
        stmts = list(tree.body)
        if stmts and isinstance(stmts[0], ast.Expr) and isinstance(stmts[0].value, ast.Constant) \
                and isinstance(stmts[0].value.value, str):
            stmts = stmts[1:]  # the docstring
        self.returned = False
        for i, stmt in enumerate(stmts):
            if isinstance(stmt, ast.Return) and i != len(stmts) - 1:
                raise self.error(stmt, "return must be the last statement of a kernel")
            self.statement(stmt, top=True)
        if not self.returned:
            if self.result_types:
                raise self.error(tree, f"{self.kernel.name} declares a result but does not return one")
            self.emit("func.return", stmts[-1] if stmts else tree, operands={"operands": []})
        self.em.close_block(body)
        return {
            "name": self.kernel.name,
            "kind": self.kernel.kind,
            "loc": self.loc(tree),
            "arguments": arguments,
            "results": self.result_types,
            "body": body.ops,
        }

    # --- statements ------------------------------------------------------

    def statements(self, stmts):
        for stmt in stmts:
            self.statement(stmt)

    def statement(self, stmt, top=False):
        method = getattr(self, "stmt_" + type(stmt).__name__, None)
        if method is None:
            raise self.error(stmt, f"a {type(stmt).__name__} statement is not supported in a kernel")
        if isinstance(stmt, ast.Return):
            if not top:
                raise self.error(stmt, "return inside a loop, branch or task is not supported; "
                                       "return at the end of the kernel")
        method(stmt)

    def stmt_Pass(self, stmt):
        pass

    def stmt_Expr(self, stmt):
        if isinstance(stmt.value, ast.Constant) and isinstance(stmt.value.value, str):
            return  # a string used as a comment
        self.expr(stmt.value)

    def stmt_Assign(self, stmt):
        hint = stmt.targets[0].id if isinstance(stmt.targets[0], ast.Name) else None
        value = self.expr(stmt.value, target_name=hint)
        for target in stmt.targets:
            self.bind(target, value)

    def stmt_AnnAssign(self, stmt):
        if stmt.value is None:
            raise self.error(stmt, "a declaration without a value is not supported")
        hint = stmt.target.id if isinstance(stmt.target, ast.Name) else None
        self.bind(stmt.target, self.expr(stmt.value, target_name=hint))

    def stmt_AugAssign(self, stmt):
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt, "only a name can be updated with an augmented assignment")
        current = self.lookup(stmt.target.id, stmt.target)
        self.bind(stmt.target, self.binop(stmt.op, current, self.expr(stmt.value), stmt))

    def bind(self, target, value):
        if isinstance(target, ast.Name):
            self.env[target.id] = value
        elif isinstance(target, (ast.Tuple, ast.List)):
            if not isinstance(value, (tuple, list)) or len(value) != len(target.elts):
                raise self.error(target, f"cannot unpack {describe(value)} into {len(target.elts)} names")
            for t, v in zip(target.elts, value):
                self.bind(t, v)
        elif isinstance(target, ast.Subscript):
            raise self.error(target, "assigning to an element is not supported; use pl.write(dest, offsets, value)")
        else:
            raise self.error(target, "this assignment target is not supported")

    def stmt_Return(self, stmt):
        values = []
        if stmt.value is not None:
            v = self.expr(stmt.value)
            values = list(v) if isinstance(v, tuple) else [v]
        if len(values) != len(self.result_types):
            raise self.error(stmt, f"{self.kernel.name} returns {len(self.result_types)} value(s), "
                                   f"this return gives {len(values)}")
        operands = [self.to_type(v, t, "the returned value", stmt) for v, t in zip(values, self.result_types)]
        self.emit("func.return", stmt, operands={"operands": operands})
        self.returned = True

    def stmt_If(self, stmt):
        cond = self.expr(stmt.test)
        if not isinstance(cond, Value):
            # A Python condition: the branch is chosen now.
            self.statements(stmt.body if cond else stmt.orelse)
            return
        c = self.to_i1(cond, "the condition", stmt.test)
        self.runtime_if(stmt, c)

    def stmt_For(self, stmt):
        if stmt.orelse:
            raise self.error(stmt, "for ... else is not supported")
        it = stmt.iter
        if isinstance(it, ast.Call) and marker_key(self.expr(it.func)) == "pl.range":
            self.runtime_for(stmt)
            return
        seq = self.expr(it)
        if isinstance(seq, Value):
            raise self.error(it, "a loop over a runtime value needs pl.range(n)")
        try:
            items = list(seq)
        except TypeError:
            raise self.error(it, f"cannot loop over {describe(seq)}") from None
        # Over Python values: unrolled, the loop variable a Python value.
        for item in items:
            self.bind(stmt.target, item)
            self.statements(stmt.body)

    def stmt_While(self, stmt):
        raise self.error(stmt, "while loops are not supported; use for ... in pl.range(n)")

    def stmt_Break(self, stmt):
        raise self.error(stmt, "break is not supported")

    def stmt_Continue(self, stmt):
        raise self.error(stmt, "continue is not supported; guard the rest of the body with if")

    def stmt_With(self, stmt):
        if len(stmt.items) != 1:
            raise self.error(stmt, "open one task scope per with statement")
        item = stmt.items[0]
        call = item.context_expr
        fn = self.expr(call.func) if isinstance(call, ast.Call) else None
        key = marker_key(fn)
        if key not in _WITH_MARKERS:
            raise self.error(call, "with takes pl.at(...), pl.spmd(...) or pl.split_aiv(...)")
        from .ops import lower_scope
        lower_scope(self, key, fn, call, item.optional_vars, stmt)

    # --- scopes and control flow -----------------------------------------

    def poison_assigned(self, saved, names, message):
        """Restore `saved` and make the names assigned inside a region unusable after it."""
        env = dict(saved)
        for name in names:
            env[name] = Poison(message.format(name=name))
        self.env = env

    def runtime_for(self, stmt):
        it = stmt.iter
        from .ops import bind_call
        args = bind_call(self, self.expr(it.func), it)
        start, stop, step = args["start"], args["stop"], args["step"]
        if stop is None:
            start, stop = 0, start
        lb = self.to_index(start, "the start of pl.range", it)
        ub = self.to_index(stop, "the stop of pl.range", it)
        st = self.to_index(step, "the step of pl.range", it)
        if not isinstance(stmt.target, ast.Name):
            raise self.error(stmt.target, "the variable of a pl.range loop is one name")
        var = stmt.target.id
        assigned = assigned_names(stmt.body)
        # Carried: every variable the body reassigns that exists before the loop.
        carried, inits = [], []
        for name in sorted(assigned - {var}):
            before = self.env.get(name)
            if isinstance(before, Value):
                carried.append(name)
                inits.append(before)
            elif isinstance(before, (bool, int, float)):
                carried.append(name)
                inits.append(self.materialize(before, None, stmt))
        saved = dict(self.env)
        block = self.em.open_block([ir.INDEX] + [v.type for v in inits])
        self.env[var] = block.arguments[0]
        for name, arg in zip(carried, block.arguments[1:]):
            self.env[name] = arg
        self.statements(stmt.body)
        yields = []
        for name, init in zip(carried, inits):
            v = self.env.get(name)
            if isinstance(v, Poison):
                raise self.error(stmt, v.message)
            yields.append(self.merge_value(v, init.type, name, stmt))
        after = dict(self.env)
        self.emit("scf.yield", stmt, operands={"results": yields})
        self.em.close_block(block)
        line = stmt.lineno + self.src.line_offset
        self.poison_assigned(saved, (assigned | {var}) - set(carried),
                             "{name} is assigned inside the pl.range loop at line " + str(line)
                             + " and is only defined inside it")
        # A non-value Python object the body rebinds cannot change per iteration.
        for name in assigned - set(carried) - {var}:
            if name in saved and not isinstance(saved[name], Poison) and after.get(name) is not saved[name]:
                raise self.error(stmt, f"{name} is reassigned inside a pl.range loop to a Python "
                                       f"object ({describe(after.get(name))}); only values can change per iteration")
        results = self.emit("scf.for", stmt,
                            operands={"lowerBound": [lb], "upperBound": [ub], "step": [st], "initArgs": inits},
                            results=[("results", [v.type for v in inits])],
                            regions=[("region", [block])])
        for name, v in zip(carried, results):
            self.env[name] = v

    def materialize(self, x, type, node):
        """A Python number as a value: of `type`, else i1 / i32 / f32."""
        if type is None:
            type = ir.I1 if isinstance(x, bool) else ir.I32 if is_py_int(x) else {"float": "f32"}
        return self.to_type(x, type, "the value", node)

    def merge_value(self, v, type, name, node):
        """`v` as the carried type `type` (ints are cast, Python numbers made)."""
        if isinstance(v, Value) and v.type != type and not (
                ir.is_integer_like(v.type) and ir.is_integer_like(type)):
            raise self.error(node, f"{name} changes type from {ir.show(type)} to {ir.show(v.type)}")
        if not isinstance(v, (Value, bool, int, float)):
            raise self.error(node, f"{name} is {describe(v)} on one path; it must be a value here")
        return self.to_type(v, type, name, node)

    def runtime_if(self, stmt, cond):
        assigned = assigned_names(stmt.body) | assigned_names(stmt.orelse)
        saved = dict(self.env)
        then_block = self.em.open_block()
        self.statements(stmt.body)
        then_env = self.env
        self.em.close_block(then_block)
        self.env = dict(saved)
        else_block = self.em.open_block()
        self.statements(stmt.orelse)
        else_env = self.env
        self.em.close_block(else_block)
        line = stmt.lineno + self.src.line_offset
        merged, dropped = [], []
        for name in sorted(assigned):
            t, e = then_env.get(name), else_env.get(name)
            if t is None or e is None or isinstance(t, Poison) or isinstance(e, Poison):
                dropped.append(name)
            elif t is e or (not isinstance(t, Value) and not isinstance(e, Value) and type(t) is type(e)
                            and t == e):
                if t is not saved.get(name):
                    saved[name] = t  # the same on both paths: no result needed
            elif isinstance(t, Value) or isinstance(e, Value) or (
                    isinstance(t, (bool, int, float)) and isinstance(e, (bool, int, float))):
                merged.append(name)
            else:
                raise self.error(stmt, f"{name} is {describe(t)} on one branch and {describe(e)} on the "
                                       "other; a branch on a runtime condition can only merge values")
        types = []
        for name in merged:
            t, e = then_env[name], else_env[name]
            types.append(t.type if isinstance(t, Value) else e.type if isinstance(e, Value)
                         else self.materialize_type(t))
        for block, env in ((then_block, then_env), (else_block, else_env)):
            self.em.blocks.append(block)  # reopen, to end it with its yield
            self.env = env
            yields = [self.merge_value(env[n], ty, n, stmt) for n, ty in zip(merged, types)]
            self.emit("scf.yield", stmt, operands={"results": yields})
            self.em.close_block(block)
        has_else = bool(stmt.orelse) or merged
        self.poison_assigned(saved, dropped, "{name} is assigned on only one branch of the if at line "
                             + str(line) + " and is not defined after it")
        results = self.emit("scf.if", stmt, operands={"condition": [cond]},
                            results=[("results", types)],
                            regions=[("thenRegion", [then_block]),
                                     ("elseRegion", [else_block] if has_else else [])])
        for name, v in zip(merged, results):
            self.env[name] = v

    def materialize_type(self, x):
        return ir.I1 if isinstance(x, bool) else ir.I32 if is_py_int(x) else {"float": "f32"}

    # --- expressions -----------------------------------------------------

    def expr(self, node, target_name=None):
        method = getattr(self, "expr_" + type(node).__name__, None)
        if method is None:
            raise self.error(node, f"a {type(node).__name__} expression is not supported in a kernel")
        if isinstance(node, ast.Call):
            return method(node, target_name)
        return method(node)

    def lookup(self, name, node):
        if name in self.env:
            v = self.env[name]
            if isinstance(v, Poison):
                raise self.error(node, v.message)
            return v
        if name in self.outer:
            return self.outer[name]
        if hasattr(builtins, name):
            return getattr(builtins, name)
        raise self.error(node, f"unknown name {name}")

    def expr_Name(self, node):
        return self.lookup(node.id, node)

    def expr_Constant(self, node):
        return node.value

    def expr_List(self, node):
        return [self.expr(e) for e in node.elts]

    def expr_Tuple(self, node):
        return tuple(self.expr(e) for e in node.elts)

    def expr_Attribute(self, node):
        base = self.expr(node.value)
        if isinstance(base, Value):
            if node.attr == "shape" and ir.shape_of(base.type) is not None:
                return list(ir.shape_of(base.type))
            raise self.error(node, f"a value of type {ir.show(base.type)} has no attribute {node.attr}")
        try:
            return getattr(base, node.attr)
        except AttributeError:
            owner = getattr(base, "__name__", None) or type(base).__name__
            raise self.error(node, f"{owner} has no attribute {node.attr}") from None

    def expr_Subscript(self, node):
        base = self.expr(node.value)
        index = self.expr(node.slice)
        if isinstance(base, Value) or isinstance(index, Value):
            raise self.error(node, "indexing a value is not supported; use pl.read(tensor, offsets)")
        try:
            return base[index]
        except Exception as e:
            raise self.error(node, f"{describe(base)}[{index!r}] fails: {e}") from None

    def expr_Call(self, node, target_name=None):
        fn = self.expr(node.func)
        from ..kernel import Kernel
        if isinstance(fn, Kernel):
            from .ops import call_kernel
            return call_kernel(self, fn, node)
        if marker_key(fn) is not None:
            from .ops import lower_call
            return lower_call(self, fn, node, target_name)
        args = [self.expr(a) for a in node.args]
        kwargs = {kw.arg: self.expr(kw.value) for kw in node.keywords}
        if any(isinstance(a, ast.Starred) for a in node.args) or any(kw.arg is None for kw in node.keywords):
            raise self.error(node, "*args and **kwargs are not supported in a kernel")
        if _holds_value(args) or _holds_value(list(kwargs.values())):
            name = getattr(fn, "__name__", repr(fn))
            raise self.error(node, f"{name}(...) is plain Python, so it cannot take a runtime value; "
                                   "decorate it with @pl.jit.incore to call it as a kernel")
        try:
            return fn(*args, **kwargs)
        except Exception as e:
            raise self.error(node, f"{getattr(fn, '__name__', fn)}(...) failed at trace time: {e}") from None

    def expr_BinOp(self, node):
        return self.binop(node.op, self.expr(node.left), self.expr(node.right), node)

    def binop(self, op, a, b, node):
        if not isinstance(a, Value) and not isinstance(b, Value):
            return _python_binop(self, op, a, b, node)
        from .ops import elementwise, is_tile

        if (is_tile(a) or is_tile(b)) and type(op) in _TILE_ARITH:
            # `a + b`, `t * 2.0`, `2.0 * t`, `t - s`: pl.add or its
            # tile-scalar form, as the call would be.
            return elementwise(self, node, _TILE_ARITH[type(op)], a, b)
        a, b = self.unify(a, b, node)
        ops = _ARITH.get(type(op))
        name = None
        if ops:
            name = ops[1] if ir.is_float(a.type) else ops[0] if ir.is_integer_like(a.type) else None
        if name is None:
            raise self.error(node, f"the operator {type(op).__name__} is not supported on {ir.show(a.type)}")
        (r,) = self.emit(name, node, operands={"lhs": [a], "rhs": [b]}, results=[("result", [a.type])])
        return r

    def unify(self, a, b, node):
        """Two operands of one scalar type: a Python number takes the other's
        type; i32 meets index as index; narrower ints are widened."""
        if not isinstance(a, Value):
            return self.to_type(a, b.type, "the operand", node), b
        if not isinstance(b, Value):
            return a, self.to_type(b, a.type, "the operand", node)
        if a.type == b.type:
            return a, b
        if ir.is_integer_like(a.type) and ir.is_integer_like(b.type):
            if ir.is_index(a.type) or ir.is_index(b.type):
                return self.cast(a, ir.INDEX, node), self.cast(b, ir.INDEX, node)
            wide = a.type if a.type["int"] > b.type["int"] else b.type
            return self.cast(a, wide, node), self.cast(b, wide, node)
        raise self.error(node, f"cannot combine {ir.show(a.type)} with {ir.show(b.type)}")

    def expr_Compare(self, node):
        if len(node.ops) != 1:
            raise self.error(node, "chained comparisons are not supported; use and")
        a, b = self.expr(node.left), self.expr(node.comparators[0])
        op = node.ops[0]
        if not isinstance(a, Value) and not isinstance(b, Value):
            return _python_binop(self, op, a, b, node)
        if type(op) not in _CMP:
            raise self.error(node, f"the comparison {type(op).__name__} is not supported on values")
        a, b = self.unify(a, b, node)
        if not ir.is_integer_like(a.type):
            raise self.error(node, f"comparing {ir.show(a.type)} values is not supported")
        (r,) = self.emit("arith.cmpi", node, operands={"lhs": [a], "rhs": [b]},
                         attributes={"predicate": {"int": _CMP[type(op)], "type": ir.I64}},
                         results=[("result", [ir.I1])])
        return r

    def expr_BoolOp(self, node):
        is_and = isinstance(node.op, ast.And)
        result = None
        for operand in node.values:
            v = self.expr(operand)
            if not isinstance(v, Value):
                if bool(v) != is_and:
                    return v if result is None else (False if is_and else True)
                continue  # True in an and, False in an or: no effect
            v = self.to_i1(v, "an operand of " + ("and" if is_and else "or"), operand)
            if result is None:
                result = v
            else:
                (result,) = self.emit("arith.andi" if is_and else "arith.ori", node,
                                      operands={"lhs": [result], "rhs": [v]}, results=[("result", [ir.I1])])
        return is_and if result is None else result

    def expr_UnaryOp(self, node):
        v = self.expr(node.operand)
        if not isinstance(v, Value):
            return _python_unary(self, node, v)
        if isinstance(node.op, ast.UAdd):
            return v
        if isinstance(node.op, ast.Not):
            c = self.to_i1(v, "the operand of not", node)
            (r,) = self.emit("arith.xori", node, operands={"lhs": [c], "rhs": [self.const(1, ir.I1, node)]},
                             results=[("result", [ir.I1])])
            return r
        if isinstance(node.op, ast.USub) and ir.is_integer_like(v.type):
            zero = self.const(0, v.type, node)
            (r,) = self.emit("arith.subi", node, operands={"lhs": [zero], "rhs": [v]},
                             results=[("result", [v.type])])
            return r
        raise self.error(node, f"{type(node.op).__name__} is not supported on {ir.show(v.type)}")

    def expr_IfExp(self, node):
        cond = self.expr(node.test)
        if not isinstance(cond, Value):
            return self.expr(node.body if cond else node.orelse)
        c = self.to_i1(cond, "the condition", node.test)
        a, b = self.expr(node.body), self.expr(node.orelse)
        if not isinstance(a, Value) and not isinstance(b, Value):
            a = self.materialize(a, None, node)
        a, b = self.unify(a, b, node)
        (r,) = self.emit("arith.select", node,
                         operands={"condition": [c], "true_value": [a], "false_value": [b]},
                         results=[("result", [a.type])])
        return r


def _holds_value(xs):
    for x in xs:
        if isinstance(x, Value):
            return True
        if isinstance(x, (list, tuple)) and _holds_value(x):
            return True
        if isinstance(x, dict) and _holds_value(list(x.values())):
            return True
    return False


_PY_OPS = {
    ast.Add: lambda a, b: a + b, ast.Sub: lambda a, b: a - b, ast.Mult: lambda a, b: a * b,
    ast.FloorDiv: lambda a, b: a // b, ast.Mod: lambda a, b: a % b, ast.Div: lambda a, b: a / b,
    ast.Pow: lambda a, b: a ** b, ast.LShift: lambda a, b: a << b, ast.RShift: lambda a, b: a >> b,
    ast.BitAnd: lambda a, b: a & b, ast.BitOr: lambda a, b: a | b, ast.BitXor: lambda a, b: a ^ b,
    ast.Eq: lambda a, b: a == b, ast.NotEq: lambda a, b: a != b, ast.Lt: lambda a, b: a < b,
    ast.LtE: lambda a, b: a <= b, ast.Gt: lambda a, b: a > b, ast.GtE: lambda a, b: a >= b,
    ast.Is: lambda a, b: a is b, ast.IsNot: lambda a, b: a is not b,
    ast.In: lambda a, b: a in b, ast.NotIn: lambda a, b: a not in b,
}


def _python_binop(tracer, op, a, b, node):
    try:
        return _PY_OPS[type(op)](a, b)
    except KeyError:
        raise tracer.error(node, f"the operator {type(op).__name__} is not supported") from None
    except Exception as e:
        raise tracer.error(node, f"{e}") from None


def _python_unary(tracer, node, v):
    try:
        if isinstance(node.op, ast.Not):
            return not v
        if isinstance(node.op, ast.USub):
            return -v
        if isinstance(node.op, ast.UAdd):
            return +v
        return ~v
    except Exception as e:
        raise tracer.error(node, f"{e}") from None

//! Classes of structurally identical symbols: two top-level ops share a
//! class when they are the same op up to locations and their own names, and
//! the symbols they reference (a call's callee) share classes in turn. A
//! module generated from one template repeats a kernel and its host many
//! times under different names; a verdict that depends only on an op's
//! structure is made once per class.

use melior::ir::attribute::AttributeLike;
use melior::ir::operation::{OperationLike, OperationRef};
use pld_dialect::structure::{SYMBOL_REFERENCE, tokens};
use std::collections::HashMap;

/// The address of a symbol's name attribute: what a flat symbol
/// reference's token after [`SYMBOL_REFERENCE`] holds.
fn name_address(op: &OperationRef) -> Option<u64> {
    let name = op.attribute("sym_name").ok()?;
    Some(name.to_raw().ptr as u64)
}

/// Where a symbol's class stands.
#[derive(Clone, Copy)]
enum State {
    /// Being computed: a reference back to it is a recursion.
    Open,
    Done(Option<usize>),
}

/// The classes of a module's symbols, computed as asked.
pub struct Classes<'c, 'a> {
    symbols: HashMap<u64, OperationRef<'c, 'a>>,
    states: HashMap<u64, State>,
    interned: HashMap<Vec<u64>, usize>,
}

impl<'c, 'a> Classes<'c, 'a> {
    /// The classes of `symbols`, the module's top-level symbol ops (the
    /// ones references resolve to).
    pub fn new(symbols: impl IntoIterator<Item = OperationRef<'c, 'a>>) -> Self {
        Self {
            symbols: symbols
                .into_iter()
                .filter_map(|op| Some((name_address(&op)?, op)))
                .collect(),
            states: HashMap::new(),
            interned: HashMap::new(),
        }
    }

    /// The class of `op`; `None` when it has none to share (it is not a
    /// symbol, or it references itself through its callees: recursion is
    /// not compared).
    pub fn of(&mut self, op: &OperationRef<'c, 'a>) -> Option<usize> {
        let address = name_address(op)?;
        match self.states.get(&address) {
            Some(State::Done(class)) => return *class,
            Some(State::Open) => return None,
            None => {}
        }
        self.states.insert(address, State::Open);
        let class = self.compute(op);
        self.states.insert(address, State::Done(class));
        class
    }

    /// Interns `op`'s tokens with each reference to a symbol of the module
    /// replaced by the symbol's class; a reference to a name the module
    /// does not define keeps the name.
    fn compute(&mut self, op: &OperationRef<'c, 'a>) -> Option<usize> {
        let mut tokens = tokens(op);
        let mut position = 0;
        while position < tokens.len() {
            if tokens[position] == SYMBOL_REFERENCE {
                let target = tokens[position + 1];
                if let Some(symbol) = self.symbols.get(&target).copied() {
                    // Another marker: what follows is a class, not a
                    // name's address.
                    tokens[position] = SYMBOL_REFERENCE - 1;
                    tokens[position + 1] = self.of(&symbol)? as u64;
                }
                position += 2;
            } else {
                position += 1;
            }
        }
        let next = self.interned.len();
        Some(*self.interned.entry(tokens).or_insert(next))
    }
}

#[cfg(test)]
mod tests {
    use super::Classes;
    use melior::ir::{
        BlockLike, Module,
        operation::{OperationLike, OperationRef},
    };

    /// The class of each top-level op of `source`, in order.
    fn classes_of(source: &str) -> Vec<Option<usize>> {
        let context = pld_dialect::create_context();
        let module = Module::parse(&context, source).expect("the module parses");
        let mut ops: Vec<OperationRef> = Vec::new();
        let mut next = module.body().first_operation();
        while let Some(op) = next {
            next = op.next_in_block();
            ops.push(op);
        }
        let mut classes = Classes::new(ops.iter().copied());
        ops.iter().map(|op| classes.of(op)).collect()
    }

    #[test]
    fn names_and_locations_do_not_tell_ops_apart() {
        let classes = classes_of(
            r#"
            func.func @a(%x: index) -> index {
              %c = arith.constant 2 : index loc("a.py":1:1)
              %y = arith.addi %x, %c : index
              return %y : index
            }
            func.func @b(%x: index) -> index {
              %c = arith.constant 2 : index loc("b.py":7:3)
              %y = arith.addi %x, %c : index
              return %y : index
            }
            "#,
        );
        assert_eq!(classes[0], classes[1]);
        assert!(classes[0].is_some());
    }

    #[test]
    fn an_attribute_a_type_or_an_operand_does() {
        let classes = classes_of(
            r#"
            func.func @base(%x: index, %z: index) -> index {
              %c = arith.constant 2 : index
              %y = arith.addi %x, %c : index
              return %y : index
            }
            func.func @constant(%x: index, %z: index) -> index {
              %c = arith.constant 3 : index
              %y = arith.addi %x, %c : index
              return %y : index
            }
            func.func @operand(%x: index, %z: index) -> index {
              %c = arith.constant 2 : index
              %y = arith.addi %z, %c : index
              return %y : index
            }
            func.func @type(%x: i32, %z: index) -> i32 {
              %c = arith.constant 2 : i32
              %y = arith.addi %x, %c : i32
              return %y : i32
            }
            "#,
        );
        for other in &classes[1..] {
            assert_ne!(classes[0], *other);
        }
    }

    #[test]
    fn callees_compare_by_their_classes() {
        let classes = classes_of(
            r#"
            func.func @one() -> index {
              %c = arith.constant 1 : index
              return %c : index
            }
            func.func @also_one() -> index {
              %c = arith.constant 1 : index
              return %c : index
            }
            func.func @two() -> index {
              %c = arith.constant 2 : index
              return %c : index
            }
            func.func @calls_one() -> index {
              %r = func.call @one() : () -> index
              return %r : index
            }
            func.func @calls_also_one() -> index {
              %r = func.call @also_one() : () -> index
              return %r : index
            }
            func.func @calls_two() -> index {
              %r = func.call @two() : () -> index
              return %r : index
            }
            func.func @recursive() -> index {
              %r = func.call @recursive() : () -> index
              return %r : index
            }
            "#,
        );
        assert_eq!(classes[3], classes[4]);
        assert_ne!(classes[3], classes[5]);
        assert_eq!(classes[6], None);
    }
}

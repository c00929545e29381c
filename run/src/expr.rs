//! The EXPR language of `--init ARG=EXPR` and `--expect ARG=EXPR`.
//!
//! An expression is parsed once into an [`Expr`] and then evaluated for
//! every (rank, element) through an [`Env`]:
//!
//! | syntax | meaning |
//! |---|---|
//! | `12`, `1.5`, `.5`, `1e-3` | numbers; without `.` or exponent they are integers |
//! | `r`, `n` | this rank, the number of ranks |
//! | `l` | the launch, from 0 (`pld-run --launches`) |
//! | `i`, `i0`..`i7` | the row-major flat index, the index along one dimension |
//! | `a + b`, `a - b`, `a * b` | integer when both sides are, else float |
//! | `a / b`, `a % b` | integer division and remainder truncate when both sides are integers |
//! | `-a`, `(a)` | negation, grouping |
//! | `a < b`, `<=`, `>`, `>=`, `==`, `!=` | 1 if true, else 0 |
//! | `min(a, b)`, `max(a, b)` | integer when both are |
//! | `sum_r(e)`, `prod_r(e)`, `max_r(e)`, `min_r(e)` | `e` folded over every rank `r` in `0..n` |
//!
//! Precedence, loosest first: `== !=`, `< <= > >=`, `+ -`, `* / %`, unary
//! `-`; binary operators associate to the left (as in C).
//!
//! Errors, while parsing or evaluating, carry the 1-based column (in
//! characters) of the offending token and say what was expected. Integer
//! overflow and division by zero (integer or float) are errors, not
//! wrap-arounds, infinities or panics.

use std::fmt;
use std::str::FromStr;

/// A number an expression evaluates to.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Value {
    Int(i64),
    Float(f64),
}

impl Value {
    /// The value as an `f64` (integers above 2^53 round).
    pub fn as_f64(self) -> f64 {
        match self {
            Value::Int(i) => i as f64,
            Value::Float(x) => x,
        }
    }
}

impl fmt::Display for Value {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Value::Int(i) => write!(f, "{i}"),
            // Debug keeps the `.0` of integral floats and switches to
            // exponent notation for very large and small magnitudes.
            Value::Float(x) => write!(f, "{x:?}"),
        }
    }
}

/// What went wrong where, in an expression.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("column {column}: {message}")]
pub struct ExprError {
    /// 1-based column, in characters, of the token at fault (one past the
    /// end for "found end of input").
    pub column: usize,
    pub message: String,
}

impl ExprError {
    fn new(column: usize, message: impl Into<String>) -> ExprError {
        ExprError {
            column,
            message: message.into(),
        }
    }

    /// The message with the expression and a caret under the column:
    ///
    /// ```text
    /// column 3: expected a number, a name or `(`, found end of input
    ///   r+
    ///     ^
    /// ```
    pub fn render(&self, source: &str) -> String {
        format!(
            "{self}\n  {source}\n  {:>width$}",
            "^",
            width = self.column.max(1)
        )
    }
}

/// Where an expression is evaluated: which rank, of how many, and which
/// element of the argument.
#[derive(Clone, Copy, Debug)]
pub struct Env<'a> {
    /// `r`.
    pub rank: usize,
    /// `n`.
    pub ranks: usize,
    /// `l`: the launch, from 0 (`pld-run --launches`).
    pub launch: usize,
    /// `i`: the row-major flat index (0 for a scalar).
    pub flat: usize,
    /// `i0`, `i1`, ...: one index per dimension (empty for a scalar).
    pub index: &'a [usize],
}

/// A parsed expression.
#[derive(Clone, Debug, PartialEq)]
pub struct Expr {
    source: String,
    root: Node,
}

/// The highest `i<k>` this module knows; expressions name dimensions
/// `i0`..`i7`.
pub const MAX_DIMS: usize = 8;

// Deep enough for any hand-written expression, shallow enough that the
// recursive-descent parser and evaluator cannot overflow the stack.
const MAX_NESTING: usize = 200;

impl Expr {
    /// Parses `source`.
    pub fn parse(source: &str) -> Result<Expr, ExprError> {
        let tokens = lex(source)?;
        let mut parser = Parser {
            tokens,
            pos: 0,
            depth: 0,
        };
        let root = parser.expression()?;
        let next = parser.peek();
        if next.kind != Kind::End {
            return Err(ExprError::new(
                next.column,
                format!(
                    "expected an operator or end of input, found {}",
                    next.describe()
                ),
            ));
        }
        Ok(Expr {
            source: source.to_owned(),
            root,
        })
    }

    /// The text this was parsed from.
    pub fn source(&self) -> &str {
        &self.source
    }

    /// Evaluates the expression at one rank and element.
    pub fn eval(&self, env: &Env<'_>) -> Result<Value, ExprError> {
        eval(&self.root, env)
    }

    /// The highest dimension index `k` the expression reads as `i<k>`, with
    /// the column of one such use; `None` if it uses none. Lets pld-run
    /// reject `i2` on a 2-D argument before running anything.
    pub fn max_dimension(&self) -> Option<(usize, usize)> {
        let mut best: Option<(usize, usize)> = None;
        self.root.visit(&mut |node| {
            if let Node::Var(Var::Dim(k), column) = node
                && best.is_none_or(|(b, _)| *k > b)
            {
                best = Some((*k, *column));
            }
        });
        best
    }
}

impl FromStr for Expr {
    type Err = ExprError;

    fn from_str(s: &str) -> Result<Expr, ExprError> {
        Expr::parse(s)
    }
}

impl fmt::Display for Expr {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.source)
    }
}

// ---------------------------------------------------------------- tokens

#[derive(Clone, Debug, PartialEq)]
enum Kind {
    /// An integer literal; kept unsigned so that `-9223372036854775808`
    /// can be written.
    Int(u64),
    Float(f64),
    Name(String),
    Sym(&'static str),
    End,
}

#[derive(Clone, Debug)]
struct Token {
    kind: Kind,
    column: usize,
    text: String,
}

impl Token {
    fn describe(&self) -> String {
        match &self.kind {
            Kind::End => "end of input".to_owned(),
            Kind::Int(_) | Kind::Float(_) => format!("number `{}`", self.text),
            Kind::Name(_) | Kind::Sym(_) => format!("`{}`", self.text),
        }
    }

    fn is_sym(&self, sym: &str) -> bool {
        matches!(self.kind, Kind::Sym(s) if s == sym)
    }
}

const SYMBOLS: [&str; 15] = [
    "<=", ">=", "==", "!=", "<", ">", "+", "-", "*", "/", "%", "(", ")", ",", "=",
];

fn lex(source: &str) -> Result<Vec<Token>, ExprError> {
    let chars: Vec<char> = source.chars().collect();
    let mut tokens = Vec::new();
    let mut at = 0;
    while at < chars.len() {
        let c = chars[at];
        let column = at + 1;
        let start = at;
        if c.is_whitespace() {
            at += 1;
            continue;
        }
        let kind = if c.is_ascii_digit()
            || (c == '.' && chars.get(at + 1).is_some_and(char::is_ascii_digit))
        {
            at = scan_number(&chars, at)?;
            let text: String = chars[start..at].iter().collect();
            number(&text, column)?
        } else if c.is_ascii_alphabetic() || c == '_' {
            while chars
                .get(at)
                .is_some_and(|c| c.is_ascii_alphanumeric() || *c == '_')
            {
                at += 1;
            }
            Kind::Name(chars[start..at].iter().collect())
        } else {
            let rest: String = chars[at..chars.len().min(at + 2)].iter().collect();
            let Some(sym) = SYMBOLS.iter().find(|s| rest.starts_with(**s)) else {
                return Err(ExprError::new(
                    column,
                    format!("unexpected character `{c}`"),
                ));
            };
            if *sym == "=" {
                return Err(ExprError::new(
                    column,
                    "unexpected `=`; comparisons are written `==`",
                ));
            }
            at += sym.len();
            Kind::Sym(sym)
        };
        tokens.push(Token {
            kind,
            column,
            text: chars[start..at].iter().collect(),
        });
    }
    tokens.push(Token {
        kind: Kind::End,
        column: chars.len() + 1,
        text: String::new(),
    });
    Ok(tokens)
}

/// Returns the end of the number starting at `at`: digits, an optional
/// fraction, an optional exponent.
fn scan_number(chars: &[char], mut at: usize) -> Result<usize, ExprError> {
    let digits = |at: &mut usize| {
        while chars.get(*at).is_some_and(char::is_ascii_digit) {
            *at += 1;
        }
    };
    digits(&mut at);
    if chars.get(at) == Some(&'.') {
        at += 1;
        digits(&mut at);
    }
    if matches!(chars.get(at), Some('e' | 'E')) {
        let e = at;
        at += 1;
        if matches!(chars.get(at), Some('+' | '-')) {
            at += 1;
        }
        if !chars.get(at).is_some_and(char::is_ascii_digit) {
            return Err(ExprError::new(
                e + 1,
                "expected the exponent's digits after `e`",
            ));
        }
        digits(&mut at);
    }
    Ok(at)
}

fn number(text: &str, column: usize) -> Result<Kind, ExprError> {
    if text.contains(['.', 'e', 'E']) {
        let x: f64 = text
            .parse()
            .map_err(|_| ExprError::new(column, format!("malformed number `{text}`")))?;
        if !x.is_finite() {
            return Err(ExprError::new(
                column,
                format!("number `{text}` is out of range"),
            ));
        }
        Ok(Kind::Float(x))
    } else {
        text.parse().map(Kind::Int).map_err(|_| {
            ExprError::new(
                column,
                format!("integer `{text}` is out of range (at most {})", i64::MAX),
            )
        })
    }
}

// ---------------------------------------------------------------- syntax

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Var {
    Rank,
    Ranks,
    Launch,
    Flat,
    Dim(usize),
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum BinOp {
    Add,
    Sub,
    Mul,
    Div,
    Rem,
    Lt,
    Le,
    Gt,
    Ge,
    Eq,
    Ne,
    Min,
    Max,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Fold {
    Sum,
    Prod,
    Max,
    Min,
}

#[derive(Clone, Debug, PartialEq)]
enum Node {
    Num(Value),
    /// A variable and its column.
    Var(Var, usize),
    /// Negation and the column of its `-`.
    Neg(Box<Node>, usize),
    /// A binary operator or `min`/`max`, with the column of the operator
    /// or function name (where its errors point).
    Bin(BinOp, Box<Node>, Box<Node>, usize),
    /// A fold over ranks and the column of its name.
    Fold(Fold, Box<Node>, usize),
}

impl Node {
    fn visit(&self, f: &mut impl FnMut(&Node)) {
        f(self);
        match self {
            Node::Num(_) | Node::Var(..) => {}
            Node::Neg(x, _) | Node::Fold(_, x, _) => x.visit(f),
            Node::Bin(_, a, b, _) => {
                a.visit(f);
                b.visit(f);
            }
        }
    }
}

const NAMES_HINT: &str = "r, n, i, i0..i7, min, max, sum_r, prod_r, max_r or min_r";

struct Parser {
    tokens: Vec<Token>,
    pos: usize,
    depth: usize,
}

type Parsed = Result<Node, ExprError>;

impl Parser {
    fn peek(&self) -> &Token {
        &self.tokens[self.pos]
    }

    fn bump(&mut self) -> Token {
        let token = self.tokens[self.pos].clone();
        if token.kind != Kind::End {
            self.pos += 1;
        }
        token
    }

    /// Consumes the next token if it is one of `ops`, returning its operator
    /// and column.
    fn operator(&mut self, ops: &[(&str, BinOp)]) -> Option<(BinOp, usize)> {
        let token = self.peek();
        let &(_, op) = ops.iter().find(|(sym, _)| token.is_sym(sym))?;
        let column = token.column;
        self.pos += 1;
        Some((op, column))
    }

    /// One left-associative precedence level.
    fn level(&mut self, ops: &[(&str, BinOp)], next: fn(&mut Parser) -> Parsed) -> Parsed {
        let mut lhs = next(self)?;
        while let Some((op, column)) = self.operator(ops) {
            let rhs = next(self)?;
            lhs = Node::Bin(op, Box::new(lhs), Box::new(rhs), column);
        }
        Ok(lhs)
    }

    fn expression(&mut self) -> Parsed {
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ExprError::new(
                self.peek().column,
                format!("expression nested more than {MAX_NESTING} deep"),
            ));
        }
        let node = self.equality();
        self.depth -= 1;
        node
    }

    fn equality(&mut self) -> Parsed {
        self.level(&[("==", BinOp::Eq), ("!=", BinOp::Ne)], Parser::relational)
    }

    fn relational(&mut self) -> Parsed {
        self.level(
            &[
                ("<=", BinOp::Le),
                (">=", BinOp::Ge),
                ("<", BinOp::Lt),
                (">", BinOp::Gt),
            ],
            Parser::additive,
        )
    }

    fn additive(&mut self) -> Parsed {
        self.level(
            &[("+", BinOp::Add), ("-", BinOp::Sub)],
            Parser::multiplicative,
        )
    }

    fn multiplicative(&mut self) -> Parsed {
        self.level(
            &[("*", BinOp::Mul), ("/", BinOp::Div), ("%", BinOp::Rem)],
            Parser::unary,
        )
    }

    fn unary(&mut self) -> Parsed {
        if !self.peek().is_sym("-") {
            return self.primary();
        }
        let column = self.bump().column;
        // i64::MIN has no positive literal; accept it when negated directly.
        if let Kind::Int(v) = self.peek().kind
            && v == i64::MIN.unsigned_abs()
        {
            self.bump();
            return Ok(Node::Num(Value::Int(i64::MIN)));
        }
        self.depth += 1;
        if self.depth > MAX_NESTING {
            return Err(ExprError::new(
                column,
                format!("expression nested more than {MAX_NESTING} deep"),
            ));
        }
        let operand = self.unary();
        self.depth -= 1;
        Ok(Node::Neg(Box::new(operand?), column))
    }

    fn primary(&mut self) -> Parsed {
        let token = self.bump();
        match &token.kind {
            Kind::Int(v) => i64::try_from(*v)
                .map(|v| Node::Num(Value::Int(v)))
                .map_err(|_| {
                    ExprError::new(
                        token.column,
                        format!(
                            "integer `{}` is out of range (at most {})",
                            token.text,
                            i64::MAX
                        ),
                    )
                }),
            Kind::Float(x) => Ok(Node::Num(Value::Float(*x))),
            Kind::Sym("(") => {
                let inner = self.expression()?;
                self.close(token.column)?;
                Ok(inner)
            }
            Kind::Name(name) => self.name(name, token.column),
            _ => Err(ExprError::new(
                token.column,
                format!(
                    "expected a number, a name or `(`, found {}",
                    token.describe()
                ),
            )),
        }
    }

    /// Expects the `)` closing the `(` at `open`.
    fn close(&mut self, open: usize) -> Result<(), ExprError> {
        let token = self.bump();
        if token.is_sym(")") {
            Ok(())
        } else {
            Err(ExprError::new(
                token.column,
                format!(
                    "expected `)` to close the `(` at column {open}, found {}",
                    token.describe()
                ),
            ))
        }
    }

    fn name(&mut self, name: &str, column: usize) -> Parsed {
        let var = |v| Ok(Node::Var(v, column));
        match name {
            "r" => return var(Var::Rank),
            "n" => return var(Var::Ranks),
            "l" => return var(Var::Launch),
            "i" => return var(Var::Flat),
            _ => {}
        }
        if let Some(digits) = name.strip_prefix('i')
            && !digits.is_empty()
            && digits.bytes().all(|b| b.is_ascii_digit())
        {
            return match digits.parse::<usize>() {
                Ok(k) if k < MAX_DIMS && (digits == "0" || !digits.starts_with('0')) => {
                    var(Var::Dim(k))
                }
                _ => Err(ExprError::new(
                    column,
                    format!(
                        "unknown index `{name}`; dimensions are i0..i{}",
                        MAX_DIMS - 1
                    ),
                )),
            };
        }
        let (arity, make): (usize, Build) = match name {
            "min" => (2, |a, c| bin(BinOp::Min, a, c)),
            "max" => (2, |a, c| bin(BinOp::Max, a, c)),
            "sum_r" => (1, |a, c| fold(Fold::Sum, a, c)),
            "prod_r" => (1, |a, c| fold(Fold::Prod, a, c)),
            "max_r" => (1, |a, c| fold(Fold::Max, a, c)),
            "min_r" => (1, |a, c| fold(Fold::Min, a, c)),
            _ => {
                return Err(ExprError::new(
                    column,
                    format!("unknown name `{name}`; expected {NAMES_HINT}"),
                ));
            }
        };
        let open = self.bump();
        if !open.is_sym("(") {
            return Err(ExprError::new(
                open.column,
                format!("expected `(` after `{name}`, found {}", open.describe()),
            ));
        }
        let mut args = vec![self.expression()?];
        while self.peek().is_sym(",") {
            self.bump();
            args.push(self.expression()?);
        }
        self.close(open.column)?;
        if args.len() != arity {
            let plural = if arity == 1 { "argument" } else { "arguments" };
            return Err(ExprError::new(
                column,
                format!("`{name}` takes {arity} {plural}, found {}", args.len()),
            ));
        }
        Ok(make(args, column))
    }
}

/// Builds a call's node from its arguments and column.
type Build = fn(Vec<Node>, usize) -> Node;

fn bin(op: BinOp, args: Vec<Node>, column: usize) -> Node {
    let [a, b]: [Node; 2] = args.try_into().expect("arity checked");
    Node::Bin(op, Box::new(a), Box::new(b), column)
}

fn fold(kind: Fold, args: Vec<Node>, column: usize) -> Node {
    let [a]: [Node; 1] = args.try_into().expect("arity checked");
    Node::Fold(kind, Box::new(a), column)
}

// ---------------------------------------------------------------- evaluation

fn int(v: usize) -> Value {
    // Ranks are at most 64 and indices address elements held in memory, so
    // both fit an i64.
    Value::Int(i64::try_from(v).unwrap_or(i64::MAX))
}

fn eval(node: &Node, env: &Env<'_>) -> Result<Value, ExprError> {
    match node {
        Node::Num(v) => Ok(*v),
        Node::Var(var, column) => match var {
            Var::Rank => Ok(int(env.rank)),
            Var::Ranks => Ok(int(env.ranks)),
            Var::Launch => Ok(int(env.launch)),
            Var::Flat => Ok(int(env.flat)),
            Var::Dim(k) => env.index.get(*k).map(|&i| int(i)).ok_or_else(|| {
                ExprError::new(
                    *column,
                    format!(
                        "`i{k}` needs an argument with at least {} dimensions, this one has {}",
                        k + 1,
                        env.index.len()
                    ),
                )
            }),
        },
        Node::Neg(x, column) => match eval(x, env)? {
            Value::Int(i) => i
                .checked_neg()
                .map(Value::Int)
                .ok_or_else(|| ExprError::new(*column, "integer overflow")),
            Value::Float(x) => Ok(Value::Float(-x)),
        },
        Node::Bin(op, a, b, column) => {
            let a = eval(a, env)?;
            let b = eval(b, env)?;
            apply(*op, a, b).map_err(|message| ExprError::new(*column, message))
        }
        Node::Fold(kind, x, column) => {
            let op = match kind {
                Fold::Sum => BinOp::Add,
                Fold::Prod => BinOp::Mul,
                Fold::Max => BinOp::Max,
                Fold::Min => BinOp::Min,
            };
            let mut acc = None;
            for rank in 0..env.ranks {
                let v = eval(x, &Env { rank, ..*env })?;
                acc = Some(match acc {
                    None => v,
                    Some(acc) => {
                        apply(op, acc, v).map_err(|message| ExprError::new(*column, message))?
                    }
                });
            }
            acc.ok_or_else(|| ExprError::new(*column, "no ranks to fold over"))
        }
    }
}

/// Applies a binary operator: integer arithmetic when both sides are
/// integers (checked), float arithmetic otherwise.
fn apply(op: BinOp, a: Value, b: Value) -> Result<Value, String> {
    let overflow = || "integer overflow".to_owned();
    let truth = |t: bool| Value::Int(i64::from(t));
    if let (Value::Int(x), Value::Int(y)) = (a, b) {
        return Ok(match op {
            BinOp::Add => Value::Int(x.checked_add(y).ok_or_else(overflow)?),
            BinOp::Sub => Value::Int(x.checked_sub(y).ok_or_else(overflow)?),
            BinOp::Mul => Value::Int(x.checked_mul(y).ok_or_else(overflow)?),
            BinOp::Div | BinOp::Rem if y == 0 => return Err("division by zero".to_owned()),
            BinOp::Div => Value::Int(x.checked_div(y).ok_or_else(overflow)?),
            // i64::MIN % -1 is 0, which wrapping_rem returns.
            BinOp::Rem => Value::Int(x.wrapping_rem(y)),
            BinOp::Lt => truth(x < y),
            BinOp::Le => truth(x <= y),
            BinOp::Gt => truth(x > y),
            BinOp::Ge => truth(x >= y),
            BinOp::Eq => truth(x == y),
            BinOp::Ne => truth(x != y),
            BinOp::Min => Value::Int(x.min(y)),
            BinOp::Max => Value::Int(x.max(y)),
        });
    }
    let (x, y) = (a.as_f64(), b.as_f64());
    Ok(match op {
        BinOp::Add => Value::Float(x + y),
        BinOp::Sub => Value::Float(x - y),
        BinOp::Mul => Value::Float(x * y),
        BinOp::Div | BinOp::Rem if y == 0.0 => return Err("division by zero".to_owned()),
        BinOp::Div => Value::Float(x / y),
        BinOp::Rem => Value::Float(x % y),
        BinOp::Lt => truth(x < y),
        BinOp::Le => truth(x <= y),
        BinOp::Gt => truth(x > y),
        BinOp::Ge => truth(x >= y),
        BinOp::Eq => truth(x == y),
        BinOp::Ne => truth(x != y),
        // NaN propagates (f64::min/max would drop it).
        BinOp::Min | BinOp::Max if x.is_nan() || y.is_nan() => Value::Float(f64::NAN),
        BinOp::Min => Value::Float(x.min(y)),
        BinOp::Max => Value::Float(x.max(y)),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(src: &str, rank: usize, ranks: usize, index: &[usize], flat: usize) -> Value {
        let expr = Expr::parse(src).unwrap_or_else(|e| panic!("{}", e.render(src)));
        expr.eval(&Env {
            rank,
            ranks,
            launch: 0,
            flat,
            index,
        })
        .unwrap_or_else(|e| panic!("{}", e.render(src)))
    }

    fn val(src: &str) -> Value {
        at(src, 0, 1, &[], 0)
    }

    fn parse_err(src: &str) -> ExprError {
        Expr::parse(src).expect_err(src)
    }

    fn eval_err(src: &str) -> ExprError {
        Expr::parse(src)
            .unwrap()
            .eval(&Env {
                rank: 1,
                ranks: 4,
                launch: 0,
                flat: 0,
                index: &[0, 0],
            })
            .expect_err(src)
    }

    #[test]
    fn the_launch_is_l() {
        let expr = Expr::parse("l * 10 + r").unwrap();
        let env = Env {
            rank: 2,
            ranks: 4,
            launch: 3,
            flat: 0,
            index: &[],
        };
        assert_eq!(expr.eval(&env).unwrap(), Value::Int(32));
    }

    #[test]
    fn numbers() {
        assert_eq!(val("42"), Value::Int(42));
        assert_eq!(val("1.5"), Value::Float(1.5));
        assert_eq!(val(".5"), Value::Float(0.5));
        assert_eq!(val("1e-3"), Value::Float(1e-3));
        assert_eq!(val("2E3"), Value::Float(2000.0));
        assert_eq!(val("1.25e+2"), Value::Float(125.0));
        assert_eq!(val("3."), Value::Float(3.0));
        assert_eq!(val("9223372036854775807"), Value::Int(i64::MAX));
        assert_eq!(val("-9223372036854775808"), Value::Int(i64::MIN));
        assert_eq!(val("  7 "), Value::Int(7));
    }

    #[test]
    fn precedence() {
        assert_eq!(val("1 + 2 * 3"), Value::Int(7));
        assert_eq!(val("(1 + 2) * 3"), Value::Int(9));
        assert_eq!(val("-2 * 3"), Value::Int(-6));
        assert_eq!(val("2 * -3"), Value::Int(-6));
        assert_eq!(val("--3"), Value::Int(3));
        assert_eq!(val("1 + 2 < 4"), Value::Int(1));
        assert_eq!(val("1 < 2 == 2 < 3"), Value::Int(1));
        assert_eq!(val("7 - 2 * 3 % 4"), Value::Int(5));
        assert_eq!(val("-(2 + 3)"), Value::Int(-5));
    }

    #[test]
    fn left_associativity() {
        assert_eq!(val("10 - 3 - 2"), Value::Int(5));
        assert_eq!(val("64 / 4 / 2"), Value::Int(8));
        assert_eq!(val("17 % 10 % 4"), Value::Int(3));
        assert_eq!(val("2 - 1 + 1"), Value::Int(2));
        assert_eq!(val("3 > 2 > 1"), Value::Int(0));
    }

    #[test]
    fn integer_and_float_division() {
        assert_eq!(val("7 / 2"), Value::Int(3));
        assert_eq!(val("-7 / 2"), Value::Int(-3));
        assert_eq!(val("-7 % 2"), Value::Int(-1));
        assert_eq!(val("7 % -2"), Value::Int(1));
        assert_eq!(val("7.0 / 2"), Value::Float(3.5));
        assert_eq!(val("7 / 2.0"), Value::Float(3.5));
        assert_eq!(val("7.5 % 2"), Value::Float(1.5));
        assert_eq!(val("-9223372036854775808 % -1"), Value::Int(0));
        assert_eq!(val("1 + 0.5"), Value::Float(1.5));
        assert_eq!(val("2 * 3"), Value::Int(6));
    }

    #[test]
    fn comparisons() {
        for (src, want) in [
            ("1 < 2", 1),
            ("2 < 2", 0),
            ("2 <= 2", 1),
            ("3 > 2", 1),
            ("2 >= 3", 0),
            ("2 == 2", 1),
            ("2 != 2", 0),
            ("1 == 1.0", 1),
            ("0.1 + 0.2 == 0.3", 0),
            ("2.5 > 2", 1),
        ] {
            assert_eq!(val(src), Value::Int(want), "{src}");
        }
    }

    #[test]
    fn variables() {
        assert_eq!(at("r", 3, 8, &[], 0), Value::Int(3));
        assert_eq!(at("n", 3, 8, &[], 0), Value::Int(8));
        assert_eq!(at("i", 0, 1, &[1, 2], 6), Value::Int(6));
        assert_eq!(at("i0 * 100 + i1", 0, 1, &[1, 2], 6), Value::Int(102));
        assert_eq!(at("i7", 0, 1, &[0, 0, 0, 0, 0, 0, 0, 9], 0), Value::Int(9));
    }

    #[test]
    fn min_max() {
        assert_eq!(val("min(3, 2)"), Value::Int(2));
        assert_eq!(val("max(3, 2)"), Value::Int(3));
        assert_eq!(val("max(3, 2.5)"), Value::Float(3.0));
        assert_eq!(val("min(-1, 2.5)"), Value::Float(-1.0));
        assert_eq!(val("max(min(1, 2), 0)"), Value::Int(1));
    }

    #[test]
    fn folds_over_ranks() {
        for n in 1..=8 {
            let want = (n * (n - 1) / 2) as i64;
            assert_eq!(at("sum_r(r)", 0, n, &[], 0), Value::Int(want));
        }
        // r inside a fold is the folded rank, outside it is this rank.
        assert_eq!(at("sum_r(r) + r", 2, 4, &[], 0), Value::Int(8));
        assert_eq!(at("max_r(100 * r + i)", 1, 4, &[5], 5), Value::Int(305));
        assert_eq!(at("min_r(100 * r + i)", 1, 4, &[5], 5), Value::Int(5));
        assert_eq!(at("prod_r(r + 1)", 0, 5, &[], 0), Value::Int(120));
        assert_eq!(at("sum_r(0.5)", 0, 4, &[], 0), Value::Float(2.0));
        assert_eq!(at("sum_r(sum_r(1))", 0, 3, &[], 0), Value::Int(9));
        assert_eq!(at("sum_r(r == 2)", 0, 4, &[], 0), Value::Int(1));
    }

    #[test]
    fn parse_errors_have_columns_and_expectations() {
        let e = parse_err("r+");
        assert_eq!(e.column, 3);
        assert_eq!(
            e.message,
            "expected a number, a name or `(`, found end of input"
        );
        let e = parse_err("(1 + 2");
        assert_eq!(e.column, 7);
        assert!(
            e.message
                .contains("expected `)` to close the `(` at column 1"),
            "{e}"
        );
        let e = parse_err("1 2");
        assert_eq!(e.column, 3);
        assert_eq!(
            e.message,
            "expected an operator or end of input, found number `2`"
        );
        let e = parse_err("2r");
        assert_eq!(
            (e.column, e.message.as_str()),
            (2, "expected an operator or end of input, found `r`")
        );
        let e = parse_err("x + 1");
        assert_eq!(e.column, 1);
        assert!(
            e.message.starts_with("unknown name `x`; expected r, n, i"),
            "{e}"
        );
        assert_eq!(
            parse_err("i8").message,
            "unknown index `i8`; dimensions are i0..i7"
        );
        assert_eq!(parse_err("i01").column, 1);
        let e = parse_err("min(1)");
        assert_eq!(
            (e.column, e.message.as_str()),
            (1, "`min` takes 2 arguments, found 1")
        );
        let e = parse_err("sum_r(1, 2)");
        assert_eq!(e.message, "`sum_r` takes 1 argument, found 2");
        let e = parse_err("max 1");
        assert_eq!(
            (e.column, e.message.as_str()),
            (5, "expected `(` after `max`, found number `1`")
        );
        let e = parse_err("1 = 1");
        assert_eq!(e.column, 3);
        assert!(e.message.contains("`==`"));
        assert_eq!(parse_err("1 $ 2").message, "unexpected character `$`");
        assert_eq!(parse_err("1e").column, 2);
        assert_eq!(
            parse_err("1e+").message,
            "expected the exponent's digits after `e`"
        );
        assert!(
            parse_err("9223372036854775808")
                .message
                .contains("out of range")
        );
        assert!(
            parse_err("99999999999999999999")
                .message
                .contains("out of range")
        );
        assert!(parse_err("1e999").message.contains("out of range"));
        assert_eq!(
            parse_err("").message,
            "expected a number, a name or `(`, found end of input"
        );
        assert_eq!(parse_err("(").column, 2);
        assert_eq!(
            parse_err(")").message,
            "expected a number, a name or `(`, found `)`"
        );
        assert_eq!(parse_err("r(1)").column, 2);
        // Columns count characters, not bytes.
        assert_eq!(parse_err("1 + é").column, 5);
    }

    #[test]
    fn deep_nesting_is_an_error_not_a_crash() {
        let deep = format!("{}1{}", "(".repeat(10_000), ")".repeat(10_000));
        assert!(parse_err(&deep).message.contains("nested"));
        let negs = format!("{}1", "-".repeat(10_000));
        assert!(parse_err(&negs).message.contains("nested"));
        let ok = format!("{}1{}", "(".repeat(50), ")".repeat(50));
        assert_eq!(val(&ok), Value::Int(1));
    }

    #[test]
    fn evaluation_errors_point_at_the_operator() {
        let e = eval_err("1 + 4 / (r - 1)");
        assert_eq!((e.column, e.message.as_str()), (7, "division by zero"));
        assert_eq!(eval_err("5 % 0").column, 3);
        assert_eq!(eval_err("1.0 / 0").message, "division by zero");
        assert_eq!(eval_err("1 % 0.0").message, "division by zero");
        let e = eval_err("9223372036854775807 + 1");
        assert_eq!((e.column, e.message.as_str()), (21, "integer overflow"));
        assert_eq!(eval_err("-(-9223372036854775808)").column, 1);
        assert_eq!(
            eval_err("-9223372036854775808 / -1").message,
            "integer overflow"
        );
        let e = eval_err("i0 + i2");
        assert_eq!(e.column, 6);
        assert_eq!(
            e.message,
            "`i2` needs an argument with at least 3 dimensions, this one has 2"
        );
        let e = eval_err("sum_r(9223372036854775807)");
        assert_eq!((e.column, e.message.as_str()), (1, "integer overflow"));
        let e = eval_err("sum_r(1 / (r - 2))");
        assert_eq!(e.column, 9);
    }

    #[test]
    fn render_puts_a_caret_under_the_column() {
        let e = parse_err("r+");
        assert_eq!(
            e.render("r+"),
            "column 3: expected a number, a name or `(`, found end of input\n  r+\n    ^"
        );
    }

    #[test]
    fn max_dimension_finds_the_highest_index() {
        assert_eq!(Expr::parse("r + i").unwrap().max_dimension(), None);
        assert_eq!(
            Expr::parse("i1 + i3 * i0 + sum_r(i3)")
                .unwrap()
                .max_dimension(),
            Some((3, 6))
        );
    }

    #[test]
    fn values_display() {
        assert_eq!(Value::Int(-3).to_string(), "-3");
        assert_eq!(Value::Float(2.0).to_string(), "2.0");
        assert_eq!(Value::Float(1e-30).to_string(), "1e-30");
        assert_eq!(Expr::parse(" r+1").unwrap().to_string(), " r+1");
    }
}

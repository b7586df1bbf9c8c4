//! The typed form a script is lowered to: statements and expressions over numbered slots,
//! calls resolved to the native table, closures given to the list functions inlined as
//! loops. Every node keeps the Rhai position of the source it came from, so errors and
//! limits point where the interpreter's do.

use rhai::{Identifier, Position};

use super::value::{Entries, Val};

/// A lowered script.
#[derive(Debug)]
pub(crate) struct Program {
    /// The top-level statements.
    pub(crate) body: Vec<Stmt>,
    /// How many slots a run needs (the script's variables first, in binding order).
    pub(crate) slots: usize,
    /// The functions the script defines with `fn`, as its calls name them.
    pub(crate) functions: Vec<Function>,
}

/// A function the script defines with `fn`: it sees its parameters only, in a frame of
/// its own.
#[derive(Debug, Default)]
pub(crate) struct Function {
    pub(crate) name: Identifier,
    /// Its parameters take the first slots.
    pub(crate) params: usize,
    pub(crate) slots: usize,
    pub(crate) body: Vec<Stmt>,
}

/// A slot: a local variable's place in the run's frame.
pub(crate) type Slot = u32;

/// A statement.
#[derive(Debug)]
pub(crate) enum Stmt {
    Noop(Position),
    /// An expression as a statement, counted at `pos`, Rhai's position of the statement
    /// (the expression's start: `l` in `l.push(1)`). `call`: Rhai's function-call
    /// statement (`f(x);`), whose call is not counted a second time as an expression.
    Expr {
        value: Expr,
        pos: Position,
        call: bool,
    },
    /// `let` / `const`: `live` is how many variables are in scope before it (Rhai's
    /// variable limit counts them).
    Let {
        slot: Slot,
        value: Expr,
        live: usize,
        /// A closure kept in the variable: the variables it captures, which Rhai makes
        /// shared from here on.
        share: Vec<Slot>,
        pos: Position,
    },
    /// `target = value`, or `target op= value`.
    Assign {
        target: Place,
        op: Option<OpAssign>,
        value: Expr,
        pos: Position,
    },
    If {
        cond: Expr,
        then: Vec<Stmt>,
        otherwise: Vec<Stmt>,
        pos: Position,
    },
    /// `while cond { }`; `loop { }` has no condition.
    While {
        cond: Option<Expr>,
        body: Vec<Stmt>,
        /// Where an empty body's turns are counted (Rhai counts them at the body).
        body_pos: Position,
        pos: Position,
    },
    /// `do { } while cond` (`is_while`) or `do { } until cond`.
    Do {
        body: Vec<Stmt>,
        cond: Expr,
        is_while: bool,
        pos: Position,
    },
    For(Box<ForLoop>),
    /// `break` (`is_break`) or `continue`.
    Break {
        value: Option<Expr>,
        is_break: bool,
        pos: Position,
    },
    Return {
        value: Option<Expr>,
        pos: Position,
    },
    Throw {
        value: Option<Expr>,
        pos: Position,
    },
    Block(Vec<Stmt>, Position),
    Switch(Box<Switch>),
    /// `try { body } catch (var) { catch }`: `live` is how many variables are in scope
    /// before the catch's variable.
    TryCatch {
        body: Vec<Stmt>,
        var: Option<(Slot, Position)>,
        live: usize,
        catch: Vec<Stmt>,
        pos: Position,
    },
}

/// `switch value { ... }` as Rhai's parser leaves it: the arms in order, the arms of each
/// value case by the value's hash (Rhai's own), the integer ranges, the default arm.
#[derive(Debug)]
pub(crate) struct Switch {
    pub(crate) value: Expr,
    pub(crate) arms: Vec<Arm>,
    pub(crate) cases: std::collections::BTreeMap<u64, Vec<usize>>,
    pub(crate) ranges: Vec<rhai::RangeCase>,
    pub(crate) default: Option<usize>,
    pub(crate) pos: Position,
}

/// One arm of a `switch`: its condition (`x if cond => ...`) and its value.
#[derive(Debug)]
pub(crate) struct Arm {
    /// `Err(b)`: a constant condition, not evaluated (Rhai does not count it).
    pub(crate) cond: Result<Expr, bool>,
    pub(crate) value: Expr,
}

impl Stmt {
    /// The position Rhai counts an operation at for this statement.
    pub(crate) fn position(&self) -> Position {
        match self {
            Stmt::Noop(pos)
            | Stmt::Expr { pos, .. }
            | Stmt::Let { pos, .. }
            | Stmt::Assign { pos, .. }
            | Stmt::If { pos, .. }
            | Stmt::While { pos, .. }
            | Stmt::Do { pos, .. }
            | Stmt::Break { pos, .. }
            | Stmt::Return { pos, .. }
            | Stmt::Throw { pos, .. }
            | Stmt::Block(_, pos)
            | Stmt::TryCatch { pos, .. } => *pos,
            Stmt::Switch(switch) => switch.pos,
            Stmt::For(for_loop) => for_loop.pos,
        }
    }
}

/// `for var in iter { body }`, or `for (var, counter) in iter { body }`.
#[derive(Debug)]
pub(crate) struct ForLoop {
    pub(crate) var: Slot,
    pub(crate) counter: Option<Slot>,
    pub(crate) iter: Expr,
    pub(crate) body: Vec<Stmt>,
    pub(crate) live: usize,
    pub(crate) var_pos: Position,
    /// Where an empty body's turns are counted.
    pub(crate) body_pos: Position,
    pub(crate) pos: Position,
}

/// An op-assignment: `+=` and its underlying `+`.
#[derive(Debug)]
pub(crate) struct OpAssign {
    pub(crate) op_assign: &'static str,
    pub(crate) op: &'static str,
}

/// Something assigned to: a local, or a local's part (`m.count`, `list[0]`).
#[derive(Debug)]
pub(crate) struct Place {
    pub(crate) slot: Slot,
    pub(crate) slot_pos: Position,
    /// Properties and indexes, none a method call.
    pub(crate) links: Vec<Link>,
    /// How Rhai counts each link before the variable: [`Chain::nodes`].
    pub(crate) nodes: Vec<Option<Position>>,
}

/// An expression.
#[derive(Debug)]
pub(crate) enum Expr {
    Const(Val, Position),
    Local(Slot, Position),
    Interpolated(Vec<Expr>, Position),
    Array(Vec<Expr>, Position),
    /// A map literal: the template holds every key, the expressions fill them in.
    Map(Vec<(Identifier, Expr)>, Box<Entries>, Position),
    And(Vec<Expr>, Position),
    Or(Vec<Expr>, Position),
    Coalesce(Vec<Expr>, Position),
    Call(Box<Call>),
    /// `root.link.link[index]...`
    Chain(Box<Chain>),
    /// A block used as a value (`{ let a = 1; a + 1 }`).
    Block(Vec<Stmt>, Position),
    /// `list.filter(|x| ...)` and its siblings, as a loop.
    ListLoop(Box<ListLoop>),
    /// `f.call(args)` / `call(f, args)` of a closure kept in a variable, its body inline.
    Inline(Box<Inline>),
    /// A closure kept in a variable, which makes no value here (its calls are lowered
    /// inline): `()`, counted at each place Rhai counts evaluating the closure (see
    /// `lower::Closure`), the first as any expression is.
    Closure(Vec<Position>),
}

/// How many links a plain argument's chain may have ([`Expr::is_plain`]).
pub(crate) const PLAIN_LINKS: usize = 2;

impl Expr {
    /// A constant, a local, or a part of a local reached by at most [`PLAIN_LINKS`]
    /// properties and indexes whose keys are constants or locals (`e[1]`, `g[0][2]`,
    /// `vars.target`): reading it changes nothing. A part the evaluator cannot read in place
    /// (through a property getter, at an index out of range) is read as any chain is.
    pub(crate) fn is_plain(&self) -> bool {
        match self {
            Expr::Const(..) | Expr::Local(..) => true,
            Expr::Chain(chain) => {
                matches!(chain.root, Root::Local(..))
                    && (1..=PLAIN_LINKS).contains(&chain.links.len())
                    && chain.links.iter().all(|link| match link {
                        Link::Prop(..) => true,
                        Link::Index(key, _) => matches!(key, Expr::Const(..) | Expr::Local(..)),
                        _ => false,
                    })
            }
            _ => false,
        }
    }

    pub(crate) fn position(&self) -> Position {
        match self {
            Expr::Const(_, pos)
            | Expr::Local(_, pos)
            | Expr::Interpolated(_, pos)
            | Expr::Array(_, pos)
            | Expr::Map(_, _, pos)
            | Expr::And(_, pos)
            | Expr::Or(_, pos)
            | Expr::Coalesce(_, pos)
            | Expr::Block(_, pos) => *pos,
            Expr::Call(call) => call.pos,
            Expr::Chain(chain) => chain.pos,
            Expr::ListLoop(list_loop) => list_loop.pos,
            Expr::Inline(inline) => inline.pos,
            Expr::Closure(counts) => counts.first().copied().unwrap_or(Position::NONE),
        }
    }
}

/// What the evaluator may answer itself for a call, read from the call's name once, where
/// the call is lowered: an operator on Rhai's own values, or one of the standard library's
/// functions it does as Rhai does them. (`Minus` is `-` with one operand or two.)
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Builtin {
    Not,
    Minus,
    Plus,
    Times,
    Divide,
    Modulo,
    Equal,
    NotEqual,
    Less,
    LessOrEqual,
    Greater,
    GreaterOrEqual,
    BitAnd,
    BitOr,
    BitXor,
    ShiftLeft,
    ShiftRight,
    Range,
    RangeInclusive,
    Len,
    IsEmpty,
    TypeOf,
    Contains,
    IndexOf,
    Push,
    /// Nothing the evaluator answers itself.
    None,
}

impl Builtin {
    /// The builtin of a call to `name` (an operator's symbol when `operator`).
    pub(crate) fn of(name: &str, operator: bool) -> Builtin {
        if operator {
            return match name {
                "!" => Builtin::Not,
                "-" => Builtin::Minus,
                "+" => Builtin::Plus,
                "*" => Builtin::Times,
                "/" => Builtin::Divide,
                "%" => Builtin::Modulo,
                "==" => Builtin::Equal,
                "!=" => Builtin::NotEqual,
                "<" => Builtin::Less,
                "<=" => Builtin::LessOrEqual,
                ">" => Builtin::Greater,
                ">=" => Builtin::GreaterOrEqual,
                "&" => Builtin::BitAnd,
                "|" => Builtin::BitOr,
                "^" => Builtin::BitXor,
                "<<" => Builtin::ShiftLeft,
                ">>" => Builtin::ShiftRight,
                ".." => Builtin::Range,
                "..=" => Builtin::RangeInclusive,
                _ => Builtin::None,
            };
        }
        match name {
            "len" => Builtin::Len,
            "is_empty" => Builtin::IsEmpty,
            "type_of" => Builtin::TypeOf,
            "contains" => Builtin::Contains,
            "index_of" => Builtin::IndexOf,
            "push" => Builtin::Push,
            _ => Builtin::None,
        }
    }

    /// `==`, `!=`, `<`, `<=`, `>`, `>=`.
    pub(crate) fn compares(self) -> bool {
        matches!(
            self,
            Builtin::Equal
                | Builtin::NotEqual
                | Builtin::Less
                | Builtin::LessOrEqual
                | Builtin::Greater
                | Builtin::GreaterOrEqual
        )
    }
}

/// A call of a function or an operator.
#[derive(Debug)]
pub(crate) struct Call {
    pub(crate) name: Box<str>,
    /// What the evaluator may answer itself, from `name`.
    pub(crate) builtin: Builtin,
    /// The table's overloads of this name and arity, most exact first (empty: resolved by
    /// Rhai at run time, as the standard library's functions are).
    pub(crate) natives: Vec<usize>,
    pub(crate) args: Vec<Expr>,
    /// An operator (`+`, `==`, `!`): Rhai's built-in operators come first for its own types.
    pub(crate) operator: bool,
    /// The script's own function of this name and arity, which Rhai calls before any native.
    pub(crate) script: Option<usize>,
    /// Every argument is plain ([`Expr::is_plain`]): evaluating them changes nothing, so a
    /// native may be given them borrowed, in place, rather than copies.
    pub(crate) plain_args: bool,
    /// Some plain argument is a part of a local (a chain), read where it is.
    pub(crate) plain_parts: bool,
    /// `f(x, ...)` with a variable first (neither an operator nor the script's own
    /// function): Rhai passes the variable itself to a function taking it by reference.
    pub(crate) first_by_ref: bool,
    /// A call of the one native of its name and arity, which reads its arguments borrowed
    /// and never asks, with arguments that are constants and locals: the evaluator calls it
    /// directly when the arguments are of its types ([`Call::direct_native`]).
    pub(crate) direct: Option<u32>,
    pub(crate) pos: Position,
}

impl Call {
    /// The native a call may make directly, if any: not an operator, not the script's own
    /// function, one overload that borrows its arguments and never asks, every argument a
    /// constant or a local.
    pub(crate) fn direct_native(&self, natives: &super::natives::Natives) -> Option<u32> {
        let [index] = self.natives.as_slice() else {
            return None;
        };
        let native = &natives.list[*index];
        // Plain arguments none of which is a part of a local: constants and locals.
        (!self.operator
            && self.script.is_none()
            && self.plain_args
            && !self.plain_parts
            && native.borrowed.is_some()
            && !native.asks)
            .then(|| u32::try_from(*index).ok())
            .flatten()
    }
}

/// A chain of properties, indexes and method calls on a root.
#[derive(Debug)]
pub(crate) struct Chain {
    pub(crate) root: Root,
    pub(crate) links: Vec<Link>,
    /// For each link, where Rhai's pass over the chain's arguments (before the root)
    /// counts it: the node it heads; then its index or its arguments are evaluated.
    /// `None`: not counted, for `?.` and for a lone property, a lone literal index (whose
    /// key is then not counted either) or a lone method call without arguments.
    pub(crate) nodes: Vec<Option<Position>>,
    pub(crate) pos: Position,
}

/// What a chain starts from.
#[derive(Debug)]
pub(crate) enum Root {
    /// A local, reached in place (a method may change it: `list.push(x)`).
    Local(Slot, Position),
    /// Any other value.
    Value(Expr),
}

/// A property of a chain: an entry of a map, or else a getter of a game value (`h.q`).
#[derive(Debug)]
pub(crate) struct Property {
    /// Its name, ready to be a map's key (no copy of the text when read).
    pub(crate) name: rhai::ImmutableString,
    pub(crate) pos: Position,
    /// The getter `get$name`, its natives resolved once, at compile time.
    pub(crate) getter: Call,
}

/// One step of a chain.
#[derive(Debug)]
pub(crate) enum Link {
    Prop(Box<Property>),
    Index(Expr, Position),
    Method(Call),
    /// `?.` / `?[`: the chain is `()` from here if the value so far is `()`.
    NullCheck,
    /// `f.call(args)` where `f` keeps a closure: only ever a chain's first link.
    Inline(Box<Inline>),
}

/// Which list function a loop stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ListKind {
    Filter,
    Some,
    All,
    Map,
}

impl ListKind {
    pub(crate) fn of(name: &str) -> Option<ListKind> {
        match name {
            "filter" => Some(ListKind::Filter),
            "some" => Some(ListKind::Some),
            "all" => Some(ListKind::All),
            "map" => Some(ListKind::Map),
            _ => None,
        }
    }

    pub(crate) fn name(self) -> &'static str {
        match self {
            ListKind::Filter => "filter",
            ListKind::Some => "some",
            ListKind::All => "all",
            ListKind::Map => "map",
        }
    }
}

/// `list.filter(|item| body)` (or `|item, index|`) as a loop over the list.
#[derive(Debug)]
pub(crate) struct ListLoop {
    pub(crate) kind: ListKind,
    /// The list, a local reached in place (as Rhai passes it) or a value.
    pub(crate) list: Root,
    pub(crate) item: Slot,
    pub(crate) index: Option<Slot>,
    /// The closure's body.
    pub(crate) body: Vec<Stmt>,
    /// Where Rhai counts the evaluation of the closure argument (one place for a closure
    /// that captures nothing, more for one that captures: see `lower::Closure`).
    pub(crate) closure_counts: Vec<Position>,
    /// Called as a method (`list.filter(...)`): where Rhai's pass over the chain's
    /// arguments counts the call's node, if it does ([`Chain::nodes`]); the closure is then
    /// evaluated before the list, as Rhai evaluates a chain's arguments before its root.
    /// Called as a function (`filter(list, ...)`): `None`, and the list comes first.
    pub(crate) method: Option<Option<Position>>,
    /// How many variables are in scope in the closure's body before its parameters.
    pub(crate) live: usize,
    /// The list is a local the closure captures: Rhai refuses the call (a data race).
    pub(crate) race: bool,
    /// The variables the closure captures (Rhai makes each one shared).
    pub(crate) shared: Vec<Slot>,
    /// The closure's function (`anon$...`), as errors inside it name it.
    pub(crate) name: Identifier,
    /// Where the list function is called (a method call's name).
    pub(crate) call_pos: Position,
    /// The expression's position (the `.` of a method call).
    pub(crate) pos: Position,
}

/// A call of a closure kept in a variable, lowered where it is called: its parameters are
/// slots of the frame, its captured variables the enclosing scope's own slots (Rhai shares
/// a captured variable, so the closure sees and changes the variable itself).
#[derive(Debug)]
pub(crate) struct Inline {
    /// The closure's function (`anon$...`), as errors inside it name it.
    pub(crate) name: Identifier,
    pub(crate) params: Vec<Slot>,
    pub(crate) args: Vec<Expr>,
    pub(crate) body: Vec<Stmt>,
    /// How many variables the call's scope starts with (captured and parameters).
    pub(crate) variables: usize,
    /// Called as `call(f, args)`: the position of `f`, which Rhai evaluates (and counts)
    /// before the arguments; `None` for `f.call(args)`.
    pub(crate) variable: Option<Position>,
    pub(crate) pos: Position,
}

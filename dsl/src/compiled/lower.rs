//! Lowering: a checked, optimised Rhai AST to the typed form of [`super::ir`].
//!
//! Anything the evaluator does not cover yet is refused with the reason, and the script
//! runs on Rhai ([`super::Lowered`]); nothing is guessed.

use std::rc::Rc;

use rhai::{AST, ASTFlags, Expr as RExpr, FnCallExpr, Identifier, Position, Stmt as RStmt};

use super::ir::{
    Arm, Builtin, Call, Chain, Expr, ForLoop, Function, Inline, Link, ListKind, ListLoop, OpAssign,
    Place, Program, Property, Root, Slot, Stmt, Switch,
};
use super::natives::Natives;
use super::value::Val;

/// The start of the names Rhai gives closures.
const ANONYMOUS: &str = "anon$";

/// Why a script is not lowered.
pub(crate) type Refusal = String;

type Lowering<T> = Result<T, Refusal>;

struct Lowerer<'a> {
    ast: &'a AST,
    natives: &'a Natives,
    /// The names in scope, innermost last, with their slots (or the closures they hold).
    scope: Vec<(Identifier, Binding)>,
    slots: usize,
    /// The script's `fn` functions lowered so far, by name and arity.
    functions: Vec<Function>,
    function_index: std::collections::BTreeMap<(String, usize), usize>,
    /// Every slot a variable was resolved to, in order (a list function's closure that
    /// reads its own list is found by it).
    touched: std::cell::RefCell<Vec<Slot>>,
}

/// Lowers `ast`, whose variables (bound by the caller, in order) are `variables`.
pub(crate) fn lower(ast: &AST, variables: &[String], natives: &Natives) -> Lowering<Program> {
    let mut lowerer = Lowerer {
        ast,
        natives,
        scope: Vec::new(),
        slots: 0,
        functions: Vec::new(),
        function_index: std::collections::BTreeMap::new(),
        touched: std::cell::RefCell::default(),
    };
    for name in variables {
        let slot = lowerer.new_slot();
        lowerer
            .scope
            .push((name.as_str().into(), Binding::Slot(slot)));
    }
    let body = lowerer.block(ast.statements())?;
    Ok(Program {
        body,
        slots: lowerer.slots,
        functions: lowerer.functions,
    })
}

impl Lowerer<'_> {
    fn new_slot(&mut self) -> Slot {
        let slot = self.slots as Slot;
        self.slots += 1;
        slot
    }

    fn lookup(&self, name: &str, pos: Position) -> Lowering<Slot> {
        match self.binding(name, pos)? {
            Binding::Slot(slot) => Ok(slot),
            Binding::Closure(_) => Err(format!(
                "the closure `{name}` used other than by `{name}.call(...)` or `call({name}, ...)`"
            )),
        }
    }

    /// What `name` stands for here.
    fn binding(&self, name: &str, pos: Position) -> Lowering<Binding> {
        self.scope
            .iter()
            .rev()
            .find(|(known, _)| known.as_str() == name)
            .map(|(_, binding)| {
                if let Binding::Slot(slot) = binding {
                    self.touched.borrow_mut().push(*slot);
                }
                binding.clone()
            })
            .ok_or_else(|| format!("variable `{name}` at {pos} is not in scope"))
    }

    /// The closure a variable expression holds, if it is one.
    fn closure_variable(&self, expr: &RExpr) -> Option<Rc<Closure>> {
        match expr {
            RExpr::Variable(var, _, pos) => match self.binding(var.1.as_str(), *pos) {
                Ok(Binding::Closure(closure)) => Some(closure),
                _ => None,
            },
            _ => None,
        }
    }

    /// A block: its names leave scope at its end.
    fn block(&mut self, statements: &[RStmt]) -> Lowering<Vec<Stmt>> {
        let depth = self.scope.len();
        let result = statements.iter().map(|s| self.stmt(s)).collect();
        self.scope.truncate(depth);
        result
    }

    fn stmt(&mut self, stmt: &RStmt) -> Lowering<Stmt> {
        Ok(match stmt {
            RStmt::Noop(pos) => Stmt::Noop(*pos),
            RStmt::Expr(expr) => Stmt::Expr {
                value: self.expr(expr)?,
                pos: stmt.position(),
                call: false,
            },
            RStmt::FnCall(call, pos) => Stmt::Expr {
                value: self.call(call, *pos)?,
                pos: stmt.position(),
                call: true,
            },
            RStmt::Block(block) => Stmt::Block(self.block(block.statements())?, block.position()),
            RStmt::Var(var, flags, pos) => {
                let (ident, value, _) = &**var;
                if flags.contains(ASTFlags::EXPORTED) {
                    return Err("`export`".into());
                }
                let live = self.scope.len();
                if let Some(closure) = self.closure(value)? {
                    // A closure kept in a variable: no value is made; each `.call` of it
                    // is lowered inline, its captured variables the slots they name here.
                    let slot = self.new_slot();
                    let name = ident.name.as_str();
                    let share = shared_slots(&closure.captured);
                    let counts = closure.counts.clone();
                    self.scope
                        .push((name.into(), Binding::Closure(Rc::new(closure))));
                    return Ok(Stmt::Let {
                        slot,
                        value: Expr::Closure(counts),
                        live,
                        share,
                        pos: *pos,
                    });
                }
                let value = self.expr(value)?;
                let slot = self.new_slot();
                self.scope
                    .push((ident.name.as_str().into(), Binding::Slot(slot)));
                Stmt::Let {
                    slot,
                    value,
                    live,
                    share: Vec::new(),
                    pos: *pos,
                }
            }
            RStmt::Assignment(assignment) => {
                let (op, binary) = &**assignment;
                let pos = op.position();
                let op = op
                    .get_op_assignment_info()
                    .map(|(_, _, _, op_assign, _, op)| OpAssign { op_assign, op });
                let value = self.expr(&binary.rhs)?;
                let target = self.place(&binary.lhs)?;
                Stmt::Assign {
                    target,
                    op,
                    value,
                    pos,
                }
            }
            RStmt::If(flow, pos) => Stmt::If {
                cond: self.expr(&flow.expr)?,
                then: self.block(flow.body.statements())?,
                otherwise: self.block(flow.branch.statements())?,
                pos: *pos,
            },
            RStmt::While(flow, pos) => Stmt::While {
                cond: match &flow.expr {
                    RExpr::Unit(..) | RExpr::BoolConstant(true, ..) => None,
                    cond => Some(self.expr(cond)?),
                },
                body: self.block(flow.body.statements())?,
                body_pos: flow.body.position(),
                pos: *pos,
            },
            RStmt::Do(flow, flags, pos) => Stmt::Do {
                body: self.block(flow.body.statements())?,
                cond: self.expr(&flow.expr)?,
                is_while: !flags.contains(ASTFlags::NEGATED),
                pos: *pos,
            },
            RStmt::For(for_loop, pos) => {
                let (var, counter, flow) = &**for_loop;
                let iter = self.expr(&flow.expr)?;
                let depth = self.scope.len();
                let live = depth;
                let counter = match counter {
                    Some(counter) => {
                        let slot = self.new_slot();
                        self.scope
                            .push((counter.name.as_str().into(), Binding::Slot(slot)));
                        Some(slot)
                    }
                    None => None,
                };
                let slot = self.new_slot();
                self.scope
                    .push((var.name.as_str().into(), Binding::Slot(slot)));
                let body = self.block(flow.body.statements());
                self.scope.truncate(depth);
                Stmt::For(Box::new(ForLoop {
                    var: slot,
                    counter,
                    iter,
                    body: body?,
                    live,
                    var_pos: var.pos,
                    body_pos: flow.body.position(),
                    pos: *pos,
                }))
            }
            RStmt::BreakLoop(value, flags, pos) => Stmt::Break {
                value: value.as_deref().map(|v| self.expr(v)).transpose()?,
                is_break: flags.contains(ASTFlags::BREAK),
                pos: *pos,
            },
            RStmt::Return(value, flags, pos) => {
                let value = value.as_deref().map(|v| self.expr(v)).transpose()?;
                if flags.contains(ASTFlags::BREAK) {
                    Stmt::Throw { value, pos: *pos }
                } else {
                    Stmt::Return { value, pos: *pos }
                }
            }
            RStmt::Switch(switch, pos) => Stmt::Switch(Box::new(self.switch(switch, *pos)?)),
            RStmt::TryCatch(flow, pos) => {
                let body = self.block(flow.body.statements())?;
                let depth = self.scope.len();
                let var = match &flow.expr {
                    RExpr::Unit(_) => None,
                    RExpr::Variable(var, _, var_pos) => {
                        let slot = self.new_slot();
                        self.scope
                            .push((var.1.as_str().into(), Binding::Slot(slot)));
                        Some((slot, *var_pos))
                    }
                    other => return Err(format!("a `catch` of {other:?}")),
                };
                let catch = self.block(flow.branch.statements());
                self.scope.truncate(depth);
                Stmt::TryCatch {
                    body,
                    var,
                    live: depth,
                    catch: catch?,
                    pos: *pos,
                }
            }
            RStmt::Share(..) => return Err("a closure outside `filter`/`some`/`all`/`map`".into()),
            #[allow(unreachable_patterns)]
            other => return Err(format!("statement {other:?}")),
        })
    }

    /// A `switch`: its arms lowered in order, its value cases kept by Rhai's hash of the
    /// value (the evaluator hashes the switch's value the same way).
    fn switch(
        &mut self,
        switch: &(RExpr, rhai::SwitchCasesCollection),
        pos: Position,
    ) -> Lowering<Switch> {
        let (value, collection) = switch;
        if !collection.cases.is_empty() && !super::eval::switch_hash_agrees() {
            return Err("a `switch` on values: Rhai's value hash is not reproduced here".into());
        }
        let value = self.expr(value)?;
        let arms = collection
            .expressions
            .iter()
            .map(|arm| {
                Ok(Arm {
                    cond: match &arm.lhs {
                        RExpr::BoolConstant(b, _) => Err(*b),
                        cond => Ok(self.expr(cond)?),
                    },
                    value: self.expr(&arm.rhs)?,
                })
            })
            .collect::<Lowering<Vec<_>>>()?;
        Ok(Switch {
            value,
            arms,
            cases: collection
                .cases
                .iter()
                .map(|(hash, list)| (*hash, list.blocks.to_vec()))
                .collect(),
            ranges: collection.ranges.to_vec(),
            default: collection.def_case,
            pos,
        })
    }

    /// An assignment's target.
    fn place(&mut self, expr: &RExpr) -> Lowering<Place> {
        match expr {
            RExpr::Variable(var, _, pos) => Ok(Place {
                slot: self.lookup(var.1.as_str(), *pos)?,
                slot_pos: *pos,
                links: Vec::new(),
                nodes: Vec::new(),
            }),
            RExpr::Dot(..) | RExpr::Index(..) => {
                let chain = self.chain(expr)?;
                match chain.root {
                    Root::Local(slot, slot_pos)
                        if chain.links.iter().all(|l| {
                            !matches!(l, Link::Method(_) | Link::NullCheck | Link::Inline(_))
                        }) =>
                    {
                        Ok(Place {
                            slot,
                            slot_pos,
                            links: chain.links,
                            nodes: chain.nodes,
                        })
                    }
                    _ => Err("an assignment to a method's result or to a value".into()),
                }
            }
            _ => Err("an assignment to something other than a variable".into()),
        }
    }

    fn exprs(&mut self, exprs: &[RExpr]) -> Lowering<Vec<Expr>> {
        exprs.iter().map(|e| self.expr(e)).collect()
    }

    fn expr(&mut self, expr: &RExpr) -> Lowering<Expr> {
        Ok(match expr {
            RExpr::DynamicConstant(value, pos) => {
                if value.is_fnptr() {
                    return Err("a closure outside `filter`/`some`/`all`/`map`".into());
                }
                Expr::Const(Val::from_dynamic((**value).clone()), *pos)
            }
            RExpr::BoolConstant(value, pos) => Expr::Const(Val::Bool(*value), *pos),
            RExpr::IntegerConstant(value, pos) => Expr::Const(Val::Int(*value), *pos),
            RExpr::CharConstant(value, pos) => {
                Expr::Const(Val::from_dynamic((*value).into()), *pos)
            }
            RExpr::StringConstant(value, pos) => Expr::Const(Val::Str(value.clone()), *pos),
            RExpr::Unit(pos) => Expr::Const(Val::Unit, *pos),
            RExpr::InterpolatedString(parts, pos) => Expr::Interpolated(self.exprs(parts)?, *pos),
            RExpr::Array(items, pos) => Expr::Array(self.exprs(items)?, *pos),
            RExpr::Map(map, pos) => {
                let (entries, template) = &**map;
                let entries = entries
                    .iter()
                    .map(|(key, value)| Ok((key.name.as_str().into(), self.expr(value)?)))
                    .collect::<Lowering<Vec<_>>>()?;
                let template = template
                    .iter()
                    .map(|(key, value)| (key.clone(), Val::from_dynamic(value.clone())))
                    .collect();
                Expr::Map(entries, Box::new(template), *pos)
            }
            RExpr::Variable(var, _, pos) => Expr::Local(self.lookup(var.1.as_str(), *pos)?, *pos),
            RExpr::And(items, pos) => Expr::And(self.exprs(items)?, *pos),
            RExpr::Or(items, pos) => Expr::Or(self.exprs(items)?, *pos),
            RExpr::Coalesce(items, pos) => Expr::Coalesce(self.exprs(items)?, *pos),
            RExpr::FnCall(call, pos) => self.call(call, *pos)?,
            RExpr::Stmt(block) => Expr::Block(self.block(block.statements())?, block.position()),
            RExpr::Dot(..) | RExpr::Index(..) => {
                let chain = self.chain(expr)?;
                if chain.links.is_empty() {
                    match chain.root {
                        Root::Value(value) => value,
                        Root::Local(slot, pos) => Expr::Local(slot, pos),
                    }
                } else {
                    Expr::Chain(Box::new(chain))
                }
            }
            RExpr::ThisPtr(..) => return Err("`this`".into()),
            RExpr::MethodCall(..) | RExpr::Property(..) => {
                return Err("a method call or property outside a chain".into());
            }
            #[allow(unreachable_patterns)]
            other => return Err(format!("expression {other:?}")),
        })
    }

    /// A function or operator call.
    fn call(&mut self, call: &FnCallExpr, pos: Position) -> Lowering<Expr> {
        if call.capture_parent_scope {
            return Err("a call with `!` (capturing the caller's scope)".into());
        }
        let name = call.name.as_str();
        if let ([first, rest @ ..], "call") = (call.args.as_slice(), name) {
            if let Some(closure) = self.closure_variable(first) {
                return self.inline_call(&closure, rest, Some(first.position()), pos);
            }
        }
        if matches!(
            name,
            "Fn" | "call" | "curry" | "is_def_var" | "is_def_fn" | "is_shared" | "eval"
        ) {
            return Err(format!("`{name}`"));
        }
        if let (Some(kind), [list, closure]) = (ListKind::of(name), call.args.as_slice()) {
            if let Some(closure) = self.closure(closure)? {
                let list = match list {
                    RExpr::Variable(var, _, var_pos) => {
                        Root::Local(self.lookup(var.1.as_str(), *var_pos)?, *var_pos)
                    }
                    other => Root::Value(self.expr(other)?),
                };
                return self.list_loop(kind, list, closure, None, pos, pos);
            }
        }
        let args = self.exprs(&call.args)?;
        let script = if call.op_token.is_none() {
            self.script_function(name, args.len())?
        } else {
            None
        };
        let mut lowered = self.resolve(call, args, 0, pos);
        lowered.first_by_ref = script.is_none()
            && !lowered.operator
            && matches!(lowered.args.first(), Some(Expr::Local(..)));
        lowered.script = script;
        lowered.direct = lowered.direct_native(self.natives);
        Ok(Expr::Call(Box::new(lowered)))
    }

    /// The script's own function `name` of `arity` parameters, lowered (once) into a frame
    /// of its own; `None` if the script defines none.
    fn script_function(&mut self, name: &str, arity: usize) -> Lowering<Option<usize>> {
        if let Some(index) = self.function_index.get(&(name.to_owned(), arity)) {
            return Ok(Some(*index));
        }
        let Some(def) = self.ast.iter_fn_def().find(|def| {
            def.name.as_str() == name
                && def.params.len() == arity
                && !def.name.as_str().starts_with(ANONYMOUS)
        }) else {
            return Ok(None);
        };
        let params: Vec<Identifier> = def.params.iter().map(|p| p.as_str().into()).collect();
        let index = self.functions.len();
        self.functions.push(Function::default());
        self.function_index.insert((name.to_owned(), arity), index);
        let outer_scope = std::mem::take(&mut self.scope);
        let outer_slots = std::mem::replace(&mut self.slots, 0);
        for param in &params {
            let slot = self.new_slot();
            self.scope.push((param.clone(), Binding::Slot(slot)));
        }
        let body = self.function_body(name, arity);
        let slots = std::mem::replace(&mut self.slots, outer_slots);
        self.scope = outer_scope;
        self.functions[index] = Function {
            name: name.into(),
            params: params.len(),
            slots,
            body: body?,
        };
        Ok(Some(index))
    }

    /// A property link: its name as a map's key, and its getter resolved now, once.
    fn property(&self, name: &str, pos: Position) -> Property {
        let getter = format!("get${name}");
        let natives = self
            .natives
            .overloads(&getter, 1)
            .map(<[usize]>::to_vec)
            .unwrap_or_default();
        Property {
            name: name.into(),
            pos,
            getter: Call {
                builtin: Builtin::None,
                name: getter.into(),
                natives,
                args: Vec::new(),
                operator: false,
                script: None,
                plain_args: false,
                plain_parts: false,
                first_by_ref: false,
                direct: None,
                pos,
            },
        }
    }

    /// The call's natives: resolved now, once (`extra` counts a method's receiver).
    fn resolve(&self, call: &FnCallExpr, args: Vec<Expr>, extra: usize, pos: Position) -> Call {
        let arity = args.len() + extra;
        Call {
            script: None,
            plain_args: args.iter().all(Expr::is_plain),
            plain_parts: args.iter().any(|arg| matches!(arg, Expr::Chain(_))),
            name: call.name.as_str().into(),
            builtin: Builtin::of(call.name.as_str(), call.op_token.is_some()),
            natives: self
                .natives
                .overloads(call.name.as_str(), arity)
                .map(<[usize]>::to_vec)
                .unwrap_or_default(),
            args,
            operator: call.op_token.is_some(),
            first_by_ref: false,
            direct: None,
            pos,
        }
    }

    /// A closure given to a list function, if `expr` is one: its definition, its captured
    /// variables (as outer slots) and where evaluating it is counted.
    fn closure(&self, expr: &RExpr) -> Lowering<Option<Closure>> {
        let mut counts = vec![expr.position()];
        let (pointer, captured) = match expr {
            RExpr::DynamicConstant(value, _) if value.is_fnptr() => (&**value, Vec::new()),
            RExpr::Stmt(block) => {
                let curry = match block.statements() {
                    [share @ RStmt::Share(_), call_stmt @ RStmt::FnCall(call, _)] => {
                        counts.extend([share.position(), call_stmt.position()]);
                        &**call
                    }
                    [share @ RStmt::Share(_), expr_stmt @ RStmt::Expr(expr)] => match &**expr {
                        RExpr::FnCall(call, _) => {
                            counts.extend([
                                share.position(),
                                expr_stmt.position(),
                                expr.position(),
                            ]);
                            &**call
                        }
                        _ => return Ok(None),
                    },
                    _ => return Ok(None),
                };
                counts.extend(curry.args.iter().map(RExpr::start_position));
                if curry.name.as_str() != "curry" {
                    return Ok(None);
                }
                match curry.args.split_first() {
                    Some((RExpr::DynamicConstant(value, _), rest)) if value.is_fnptr() => {
                        let mut captured = Vec::new();
                        for arg in rest {
                            match arg {
                                RExpr::Variable(var, _, var_pos) => captured
                                    .push((var.1.clone(), self.binding(var.1.as_str(), *var_pos)?)),
                                _ => return Ok(None),
                            }
                        }
                        (&**value, captured)
                    }
                    _ => return Ok(None),
                }
            }
            _ => return Ok(None),
        };
        let Some(pointer) = pointer.read_lock::<rhai::FnPtr>() else {
            return Ok(None);
        };
        let name = pointer.fn_name().to_owned();
        if !pointer.curry().is_empty() {
            return Ok(None);
        }
        let Some(def) = self.ast.iter_fn_def().find(|def| def.name.as_str() == name) else {
            return Err(format!("closure `{name}` has no definition"));
        };
        let params: Vec<Identifier> = def.params.iter().map(|p| p.as_str().into()).collect();
        if params.len() < captured.len()
            || params[..captured.len()]
                .iter()
                .zip(&captured)
                .any(|(param, (name, _))| param.as_str() != name.as_str())
        {
            return Err("a closure whose captured variables do not match its parameters".into());
        }
        Ok(Some(Closure {
            params: params[captured.len()..].to_vec(),
            captured: captured
                .into_iter()
                .map(|(name, slot)| (name.as_str().into(), slot))
                .collect(),
            name,
            counts,
        }))
    }

    /// `f.call(args)` or `call(f, args)` of a closure kept in a variable: its body lowered
    /// here, its parameters new slots, its captured variables the slots they were.
    fn inline_call(
        &mut self,
        closure: &Closure,
        args: &[RExpr],
        variable: Option<Position>,
        pos: Position,
    ) -> Lowering<Expr> {
        if args.len() != closure.params.len() {
            return Err(format!(
                "a closure of {} parameters called with {} arguments",
                closure.params.len(),
                args.len()
            ));
        }
        let args = self.exprs(args)?;
        let arity = closure.params.len() + closure.captured.len();
        let outer = std::mem::replace(&mut self.scope, closure.captured.clone());
        let mut params = Vec::with_capacity(closure.params.len());
        for name in &closure.params {
            let slot = self.new_slot();
            self.scope.push((name.clone(), Binding::Slot(slot)));
            params.push(slot);
        }
        let body = self.function_body(&closure.name, arity);
        self.scope = outer;
        Ok(Expr::Inline(Box::new(Inline {
            name: closure.name.as_str().into(),
            params,
            args,
            body: body?,
            variables: arity,
            variable,
            pos,
        })))
    }

    fn list_loop(
        &mut self,
        kind: ListKind,
        list: Root,
        closure: Closure,
        method: Option<Option<Position>>,
        call_pos: Position,
        pos: Position,
    ) -> Lowering<Expr> {
        if closure.params.is_empty() || closure.params.len() > 2 {
            return Err(format!(
                "a closure with {} parameters given to `{}`",
                closure.params.len(),
                kind.name()
            ));
        }
        let arity = closure.params.len() + closure.captured.len();
        let race = matches!(list, Root::Local(slot, _)
            if closure.captured.iter().any(|(_, captured)| matches!(captured, Binding::Slot(s) if *s == slot)));
        // The closure sees its captured variables and its parameters, nothing else.
        let outer = std::mem::replace(&mut self.scope, closure.captured.clone());
        let live = self.scope.len();
        let item = self.new_slot();
        self.scope
            .push((closure.params[0].clone(), Binding::Slot(item)));
        let index = match closure.params.get(1) {
            Some(name) => {
                let slot = self.new_slot();
                self.scope.push((name.clone(), Binding::Slot(slot)));
                Some(slot)
            }
            None => None,
        };
        let start = self.touched.borrow().len();
        let body = self.function_body(&closure.name, arity);
        self.scope = outer;
        if let Root::Local(slot, _) = list {
            if !race && self.touched.borrow()[start..].contains(&slot) {
                return Err(format!(
                    "`{}` on a variable its closure reads through another closure (Rhai \
                     reports a data race on the shared variable)",
                    kind.name()
                ));
            }
        }
        Ok(Expr::ListLoop(Box::new(ListLoop {
            shared: shared_slots(&closure.captured),
            name: closure.name.as_str().into(),
            kind,
            list,
            item,
            index,
            body: body?,
            closure_counts: closure.counts.clone(),
            method,
            live,
            race,
            call_pos,
            pos,
        })))
    }

    /// The statements of function `name` of `arity` parameters (a closure's or a `fn`'s),
    /// lowered in the current scope. Rhai's API does not
    /// name the type of a function's body, so the body is reached by walking an AST that
    /// holds that one function: its top-level statements are the walk's nodes at depth one.
    fn function_body(&mut self, name: &str, arity: usize) -> Lowering<Vec<Stmt>> {
        // (`AST::clone_functions_only_filtered` would do, but Rhai 1.27 ignores its filter
        // when the new module is empty, and copies every function.)
        let mut module = rhai::Module::new();
        for def in self.ast.iter_fn_def() {
            if def.name.as_str() == name && def.params.len() == arity {
                module.set_script_fn(def.clone());
            }
        }
        let only = AST::new(std::iter::empty(), module);
        let depth = self.scope.len();
        let mut body = Vec::new();
        let mut failed = None;
        only.walk(&mut |path: &[rhai::ASTNode]| {
            if let [rhai::ASTNode::Stmt(stmt)] = path {
                match self.stmt(stmt) {
                    Ok(stmt) => body.push(stmt),
                    Err(why) => {
                        failed = Some(why);
                        return false;
                    }
                }
            }
            true
        });
        self.scope.truncate(depth);
        match failed {
            Some(why) => Err(why),
            None => Ok(body),
        }
    }

    /// A `.`/`[]` chain, flattened: its root and its links in order. A list function with a
    /// closure inside the chain ends the chain so far as its list.
    fn chain(&mut self, expr: &RExpr) -> Lowering<Chain> {
        let (binary, pos) = match expr {
            RExpr::Dot(binary, _, pos) | RExpr::Index(binary, _, pos) => (binary, *pos),
            _ => unreachable!("chain of a non-chain expression"),
        };
        // The links as Rhai nests them: each nested node's left side is a link of its
        // parent's kind (`?.`/`?[` if the parent is marked NEGATED); a node marked BREAK
        // ends the chain.
        // With each link, the position of the node Rhai's argument pass counts for it: the
        // node the link heads (its `.` or `[` onwards), the link itself for the last one.
        let mut raw: Vec<(bool, bool, &RExpr, Position)> = Vec::new();
        let mut parent = expr;
        let mut rest = &binary.rhs;
        loop {
            let dotting = matches!(parent, RExpr::Dot(..));
            let (breaks, null_safe) = match parent {
                RExpr::Dot(_, flags, _) | RExpr::Index(_, flags, _) => (
                    flags.contains(ASTFlags::BREAK),
                    flags.contains(ASTFlags::NEGATED),
                ),
                _ => (true, false),
            };
            match rest {
                RExpr::Dot(next, _, _) | RExpr::Index(next, _, _) if !breaks => {
                    raw.push((dotting, null_safe, &next.lhs, rest.position()));
                    parent = rest;
                    rest = &next.rhs;
                }
                _ => {
                    raw.push((dotting, null_safe, rest, rest.position()));
                    break;
                }
            }
        }
        // Rhai's argument pass counts nothing for a lone property, a lone index that is a
        // literal, or a lone method call without arguments (and does not evaluate the
        // literal index).
        let counts = match raw.as_slice() {
            [(true, _, RExpr::Property(..), _)] => false,
            [(true, _, RExpr::MethodCall(call, _), _)] => !call.args.is_empty(),
            [(false, _, link, _)] => link.get_literal_value(None).is_none(),
            _ => true,
        };
        let mut raw = raw.as_slice();
        let mut first = None;
        let root = match (&binary.lhs, raw) {
            (
                lhs @ RExpr::Variable(_, _, var_pos),
                [
                    (true, false, RExpr::MethodCall(call, call_pos), node),
                    rest @ ..,
                ],
            ) if call.name.as_str() == "call" && self.closure_variable(lhs).is_some() => {
                // `f.call(args)`: the closure's variable holds no value here; the call is
                // the chain's first link, its arguments evaluated in their turn.
                let closure = self.closure_variable(lhs).expect("a closure variable");
                raw = rest;
                let Expr::Inline(inline) =
                    self.inline_call(&closure, &call.args, None, *call_pos)?
                else {
                    unreachable!("an inline call lowers to `Expr::Inline`")
                };
                first = Some((Link::Inline(inline), counts.then_some(*node)));
                Root::Value(Expr::Const(Val::Unit, *var_pos))
            }
            (RExpr::Variable(var, _, var_pos), _) => {
                Root::Local(self.lookup(var.1.as_str(), *var_pos)?, *var_pos)
            }
            (other, _) => Root::Value(self.expr(other)?),
        };
        let (links, nodes) = first.into_iter().unzip();
        let mut chain = Chain {
            root,
            links,
            nodes,
            pos,
        };
        for &(dotting, null_safe, link, node) in raw {
            if null_safe {
                chain.links.push(Link::NullCheck);
                chain.nodes.push(None);
            }
            let node = counts.then_some(node);
            if dotting {
                match link {
                    RExpr::Property(property, prop_pos) => {
                        chain.links.push(Link::Prop(Box::new(
                            self.property(property.2.as_str(), *prop_pos),
                        )));
                        chain.nodes.push(node);
                    }
                    RExpr::MethodCall(..) if null_safe => {
                        // (Rhai 1.27 does not find some methods after `?.`, `len` of a
                        // string among them: left to Rhai.)
                        return Err("a method call after `?.`".into());
                    }
                    RExpr::MethodCall(call, call_pos) => {
                        if let (Some(kind), [closure], false) = (
                            ListKind::of(call.name.as_str()),
                            call.args.as_slice(),
                            null_safe || chain.links.iter().any(|l| matches!(l, Link::NullCheck)),
                        ) {
                            if let Some(closure) = self.closure(closure)? {
                                let list = if chain.links.is_empty() {
                                    chain.root
                                } else {
                                    Root::Value(Expr::Chain(Box::new(chain)))
                                };
                                chain = Chain {
                                    root: Root::Value(self.list_loop(
                                        kind,
                                        list,
                                        closure,
                                        Some(node),
                                        *call_pos,
                                        pos,
                                    )?),
                                    links: Vec::new(),
                                    nodes: Vec::new(),
                                    pos,
                                };
                                continue;
                            }
                        }
                        if call.capture_parent_scope {
                            return Err("a method call with `!`".into());
                        }
                        if matches!(call.name.as_str(), "call" | "curry" | "is_shared") {
                            return Err(format!("`.{}`", call.name));
                        }
                        if self
                            .ast
                            .iter_fn_def()
                            .any(|def| def.name == call.name && def.params.len() == call.args.len())
                        {
                            return Err(format!(
                                "a method call of the script's own function `{}` (`this`)",
                                call.name
                            ));
                        }
                        let args = self.exprs(&call.args)?;
                        chain
                            .links
                            .push(Link::Method(self.resolve(call, args, 1, *call_pos)));
                        chain.nodes.push(node);
                    }
                    other => return Err(format!("`.` followed by {other:?}")),
                }
            } else {
                let index = self.expr(link)?;
                let index_pos = link.start_position();
                chain.links.push(Link::Index(index, index_pos));
                chain.nodes.push(node);
            }
        }
        Ok(chain)
    }
}

/// A closure literal: given to a list function, or kept in a variable.
#[derive(Clone, Debug)]
struct Closure {
    /// Its own parameters (after the captured ones).
    params: Vec<Identifier>,
    /// The captured variables, by name, as what they are in the enclosing scope.
    captured: Vec<(Identifier, Binding)>,
    /// Its function's name (`anon$...`).
    name: String,
    /// Where Rhai counts an operation when it evaluates the closure, in order: the
    /// closure's own position for one that captures nothing; for one that captures, the
    /// block Rhai makes of it, the statement sharing the variables, the call of `curry`,
    /// its function and each captured variable.
    counts: Vec<Position>,
}

/// The slots among a closure's captured variables (Rhai makes each one shared).
fn shared_slots(captured: &[(Identifier, Binding)]) -> Vec<Slot> {
    captured
        .iter()
        .filter_map(|(_, binding)| match binding {
            Binding::Slot(slot) => Some(*slot),
            Binding::Closure(_) => None,
        })
        .collect()
}

/// What a name in scope stands for.
#[derive(Clone, Debug)]
enum Binding {
    /// A local in a slot.
    Slot(Slot),
    /// A closure kept in a variable, called only through `.call`/`call` and lowered inline
    /// at each call.
    Closure(Rc<Closure>),
}

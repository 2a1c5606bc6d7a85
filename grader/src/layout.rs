//! The crate's own layout, measured from its sources (parsed with syn, as the style check parses
//! students'): the imports between its files, which make no circle, and the walk of one
//! submission from `grade class` to its feedback file, which stays short. Tests only: the
//! measure is of the code as written, read where it lies.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::Path;

use proc_macro2::{Delimiter, TokenStream, TokenTree};
use syn::visit::{self, Visit};
use syn::{Attribute, Expr, ImplItemFn, Item, ItemFn, ItemImpl, ItemTrait, Meta, TraitItemFn};
use syn::{ExprCall, ExprMethodCall, ExprPath, ItemUse, Type, UseTree, Visibility};

/// A module's path from the crate's root: `["kit", "rubric"]`.
type Module = Vec<String>;

/// A path as written: `["super", "late", "LatePolicy"]`.
type Written = Vec<String>;

/// The layers, lowest first, as lib.rs's header lists them.
const LAYERS: [&str; 7] = [
    "process",
    "kit",
    "judge",
    "similarity",
    "store",
    "report",
    "commands",
];

/// A call in a function's body.
enum Call {
    /// By path, or a function passed by its path: `f(..)`, `Type::f`, `module::f(..)`.
    Path(Written),
    /// A method on a value, and whether the value is `self`: `.f(..)`.
    Method(String, bool),
}

/// A function of the crate, with what its body calls in the order written.
struct Function {
    /// Its module.
    module: Module,
    /// The type (or trait) of the `impl` it is in, none for a free function.
    owner: Option<String>,
    name: String,
    /// Whether it takes `self`.
    method: bool,
    calls: Vec<Call>,
}

/// What one module holds, as far as its imports and calls go; tests are left out.
#[derive(Default)]
struct Holds {
    /// Its file, from `src/`: `kit/rubric.rs`.
    file: String,
    /// Its modules, in files of their own or inline.
    children: BTreeSet<String>,
    /// The names its `use` items bring in: the path as written, and whether it is re-exported.
    imports: BTreeMap<String, (Written, bool)>,
    /// The paths its code names, `use` items left out.
    paths: Vec<Written>,
    /// Every name in those paths and its imports: the types it can call a method of.
    named: BTreeSet<String>,
}

/// The crate: each module and each function.
#[derive(Default)]
struct Crate {
    modules: BTreeMap<Module, Holds>,
    functions: Vec<Function>,
}

/// A path's segments, as written.
fn written(path: &syn::Path) -> Written {
    path.segments.iter().map(|s| s.ident.to_string()).collect()
}

/// Whether an item is a test's or only built for tests.
fn tested(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("test")
            || (a.path().is_ident("cfg")
                && matches!(&a.meta, Meta::List(l) if l.tokens.to_string() == "test"))
    })
}

/// An item's attributes, for the kinds of item a test may be.
fn attrs(item: &Item) -> &[Attribute] {
    match item {
        Item::Fn(i) => &i.attrs,
        Item::Mod(i) => &i.attrs,
        Item::Use(i) => &i.attrs,
        Item::Impl(i) => &i.attrs,
        Item::Const(i) => &i.attrs,
        Item::Static(i) => &i.attrs,
        Item::Struct(i) => &i.attrs,
        Item::Enum(i) => &i.attrs,
        Item::Macro(i) => &i.attrs,
        Item::Trait(i) => &i.attrs,
        _ => &[],
    }
}

/// The name a type is known by: the last segment of its path (`Vec<T>` is `Vec`).
fn type_name(ty: &Type) -> Option<String> {
    match ty {
        Type::Path(p) => p.path.segments.last().map(|s| s.ident.to_string()),
        _ => None,
    }
}

impl Crate {
    /// The crate whose sources are in `src`, from `lib.rs` down its `mod` items.
    fn read(src: &Path) -> Crate {
        let mut krate = Crate::default();
        krate.read_file(src, "lib.rs", Vec::new());
        krate
    }

    /// Reads `file` (from `src/`), the module `module`.
    fn read_file(&mut self, src: &Path, file: &str, module: Module) {
        let text = fs::read_to_string(src.join(file)).unwrap();
        let parsed = syn::parse_file(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        self.read_items(src, file, module, &parsed.items);
    }

    /// Reads `items`, the module `module` in `file`, and the modules they declare.
    fn read_items(&mut self, src: &Path, file: &str, module: Module, items: &[Item]) {
        let mut reader = Reader {
            module: module.clone(),
            ..Reader::default()
        };
        let mut children = BTreeSet::new();
        for item in items.iter().filter(|item| !tested(attrs(item))) {
            let Item::Mod(declared) = item else {
                reader.visit_item(item);
                continue;
            };
            let name = declared.ident.to_string();
            children.insert(name.clone());
            let inner = [module.clone(), vec![name.clone()]].concat();
            match &declared.content {
                Some((_, items)) => self.read_items(src, file, inner, items),
                None => {
                    // A folder's `mod.rs` (and `lib.rs`) declares its neighbours, `a.rs` those in `a/`.
                    let dir = match file.rsplit_once('/') {
                        _ if file == "lib.rs" => String::new(),
                        Some((dir, "mod.rs")) => format!("{dir}/"),
                        _ => format!("{}/", file.trim_end_matches(".rs")),
                    };
                    let flat = format!("{dir}{name}.rs");
                    let child = match src.join(&flat).is_file() {
                        true => flat,
                        false => format!("{dir}{name}/mod.rs"),
                    };
                    self.read_file(src, &child, inner);
                }
            }
        }
        self.functions.append(&mut reader.functions);
        self.modules.insert(
            module,
            Holds {
                file: file.to_string(),
                children,
                named: (reader.paths.iter().flatten().chain(reader.imports.keys()))
                    .cloned()
                    .collect(),
                imports: reader.imports,
                paths: reader.paths,
            },
        );
    }

    /// The path `path`, written in `module`, from the crate's root; none when it is not of this
    /// crate (the standard library's, another crate's, or a name of `module`'s own).
    fn absolute(&self, module: &[String], path: &[String], depth: usize) -> Option<Module> {
        let (first, _) = path.split_first()?;
        let holds = self.modules.get(module)?;
        let (mut at, mut rest) = match first.as_str() {
            "crate" => (Vec::new(), &path[1..]),
            "self" => (module.to_vec(), &path[1..]),
            "super" => (module.to_vec(), path),
            name if holds.imports.contains_key(name) && depth < 16 => {
                let (to, _) = &holds.imports[name];
                let at = self.absolute(module, to, depth + 1)?;
                (at, &path[1..])
            }
            name if holds.children.contains(name) => (module.to_vec(), path),
            _ => return None,
        };
        while let Some(("super", tail)) = rest.split_first().map(|(s, t)| (s.as_str(), t)) {
            at.pop()?;
            rest = tail;
        }
        at.extend(rest.iter().cloned());
        Some(at)
    }

    /// Where the item at `path` (from the root) is: its module and what is left of the path
    /// (`["Type", "method"]`), re-exports followed to the module that defines it.
    fn locate(&self, path: &[String], depth: usize) -> Option<(Module, Written)> {
        let at = (0..=path.len())
            .rev()
            .find(|&n| self.modules.contains_key(&path[..n]))?;
        let (module, rest) = path.split_at(at);
        let holds = &self.modules[module];
        match rest.split_first() {
            Some((name, tail)) if holds.imports.contains_key(name) && depth < 16 => {
                let (to, _) = &holds.imports[name];
                let mut to = self.absolute(module, to, 0)?;
                to.extend(tail.iter().cloned());
                self.locate(&to, depth + 1)
            }
            _ => Some((module.to_vec(), rest.to_vec())),
        }
    }

    /// The file that defines what `path`, written in `module`, names, if it is of this crate.
    fn file_of(&self, module: &[String], path: &[String]) -> Option<&str> {
        let (at, _) = self.locate(&self.absolute(module, path, 0)?, 0)?;
        Some(&self.modules[&at].file)
    }

    /// The files each file imports: every path its code names (the `use` items that are not
    /// re-exports included) that leads to another file, re-exports followed to the file that
    /// defines the item.
    fn imports(&self) -> BTreeMap<&str, BTreeSet<&str>> {
        let mut edges: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
        for (module, holds) in &self.modules {
            let used = holds.imports.values().filter(|(_, public)| !public);
            let paths = used.map(|(path, _)| path).chain(&holds.paths);
            let targets = paths.filter_map(|path| self.file_of(module, path));
            let from = holds.file.as_str();
            let others = targets.filter(|&to| to != from);
            edges.entry(from).or_default().extend(others);
        }
        edges
    }

    /// The functions `call`, made in `function`, may be: by its path, imports and re-exports
    /// followed; a method by its name, among the methods of the types its module names (and of
    /// its own type, on `self`). A method on a value whose type the module never names is not
    /// followed (a reader loses the trail there too), nor a call of the standard library's or
    /// another crate's; one whose name several named types share is followed to each.
    fn callees(&self, function: &Function, call: &Call) -> Vec<usize> {
        let find = |module: Option<&Module>, owner: Option<&str>, name: &str| -> Vec<usize> {
            let found = self.functions.iter().enumerate().filter(|(_, f)| {
                module.is_none_or(|m| &f.module == m)
                    && f.owner.as_deref() == owner
                    && f.name == name
            });
            found.map(|(i, _)| i).collect()
        };
        match call {
            Call::Path(path) if path.first().is_some_and(|s| s == "Self") => {
                let owner = function.owner.as_deref();
                path.get(1)
                    .map_or(Vec::new(), |name| find(None, owner, name))
            }
            Call::Path(path) => {
                let at = self.absolute(&function.module, path, 0);
                let at = at.and_then(|at| self.locate(&at, 0));
                let (module, rest) = at.unwrap_or_else(|| (function.module.clone(), path.clone()));
                match rest.as_slice() {
                    [name] => find(Some(&module), None, name),
                    [owner, name] => find(None, Some(owner.as_str()), name),
                    _ => Vec::new(),
                }
            }
            Call::Method(name, true) if function.owner.is_some() => {
                let own = find(None, function.owner.as_deref(), name);
                match own.is_empty() {
                    true => self.callees(function, &Call::Method(name.clone(), false)),
                    false => own,
                }
            }
            Call::Method(name, _) => {
                let named = &self.modules[&function.module].named;
                let methods = self.functions.iter().enumerate();
                let of_named = methods.filter(|(_, f)| {
                    f.method
                        && &f.name == name
                        && f.owner.as_ref().is_some_and(|o| named.contains(o))
                });
                of_named.map(|(i, _)| i).collect()
            }
        }
    }

    /// The function `name` of `module` (`owner` for a method).
    fn function(&self, module: &[&str], owner: Option<&str>, name: &str) -> usize {
        let found = self
            .functions
            .iter()
            .position(|f| f.module == module && f.owner.as_deref() == owner && f.name == name);
        found.unwrap_or_else(|| panic!("no function {name} in {module:?}"))
    }

    /// The walk from the function `from` to the functions `to`: every function on a chain of
    /// calls from one to any of the others, and all that those call in turn, followed in the
    /// order the calls are written; its files in the order they are first reached.
    fn walk(&self, from: usize, to: &[usize]) -> Vec<&str> {
        let calls: Vec<Vec<usize>> = (self.functions.iter())
            .map(|f| f.calls.iter().flat_map(|c| self.callees(f, c)).collect())
            .collect();
        // What `to` call in turn, and what calls any of them.
        let mut after: BTreeSet<usize> = to.iter().copied().collect();
        let mut queue: Vec<usize> = to.to_vec();
        while let Some(f) = queue.pop() {
            queue.extend(calls[f].iter().filter(|&&g| after.insert(g)));
        }
        let mut before: BTreeSet<usize> = to.iter().copied().collect();
        loop {
            let more: Vec<usize> = (0..calls.len())
                .filter(|f| !before.contains(f) && calls[*f].iter().any(|g| before.contains(g)))
                .collect();
            if more.is_empty() {
                break;
            }
            before.extend(more);
        }
        before.extend(after);
        let mut files: Vec<&str> = Vec::new();
        let mut seen = BTreeSet::new();
        let mut stack = vec![from];
        while let Some(f) = stack.pop() {
            if !seen.insert(f) {
                continue;
            }
            let file = self.modules[&self.functions[f].module].file.as_str();
            if !files.contains(&file) {
                files.push(file);
            }
            let next = calls[f].iter().rev().filter(|&g| before.contains(g));
            stack.extend(next);
        }
        files
    }
}

/// Reads one module's items (its nested modules left to [`Crate::read_items`]).
#[derive(Default)]
struct Reader {
    module: Module,
    imports: BTreeMap<String, (Written, bool)>,
    paths: Vec<Written>,
    functions: Vec<Function>,
    /// The type or trait of the `impl` being read.
    owner: Option<String>,
    /// The functions being read, innermost last.
    open: Vec<Function>,
}

impl Reader {
    /// Keeps the names `tree` brings in under `prefix`.
    fn import(&mut self, tree: &UseTree, prefix: &[String], public: bool) {
        let with = |name: &syn::Ident| {
            let mut path = prefix.to_vec();
            path.push(name.to_string());
            path
        };
        let (name, path) = match tree {
            UseTree::Path(p) => return self.import(&p.tree, &with(&p.ident), public),
            UseTree::Group(g) => {
                for tree in &g.items {
                    self.import(tree, prefix, public);
                }
                return;
            }
            UseTree::Glob(_) => return,
            UseTree::Name(n) if n.ident == "self" => match prefix.last() {
                Some(last) => (last.clone(), prefix.to_vec()),
                None => return,
            },
            UseTree::Name(n) => (n.ident.to_string(), with(&n.ident)),
            UseTree::Rename(r) if r.ident == "self" => (r.rename.to_string(), prefix.to_vec()),
            UseTree::Rename(r) => (r.rename.to_string(), with(&r.ident)),
        };
        if name != "_" {
            self.imports.insert(name, (path, public));
        }
    }

    /// Keeps a call, within the function being read.
    fn call(&mut self, call: Call) {
        if let Some(function) = self.open.last_mut() {
            function.calls.push(call);
        }
    }

    /// Reads a function's body with `read`.
    fn function(&mut self, name: &syn::Ident, method: bool, read: impl FnOnce(&mut Self)) {
        self.open.push(Function {
            module: self.module.clone(),
            owner: self.owner.clone(),
            name: name.to_string(),
            method,
            calls: Vec::new(),
        });
        read(self);
        self.functions.extend(self.open.pop());
    }

    /// The paths and calls in tokens no syntax tree is made of (a macro's, an attribute's):
    /// `a::b` a path, followed by `(..)` a call, `.f(..)` a method's call, and a string
    /// `"crate::a::b"` (serde's `with`) a path.
    fn tokens(&mut self, tokens: TokenStream) {
        let tokens: Vec<TokenTree> = tokens.into_iter().collect();
        let called = |at: usize| matches!(tokens.get(at), Some(TokenTree::Group(g)) if g.delimiter() == Delimiter::Parenthesis);
        let colons = |at: usize| {
            let colon = |at: usize| matches!(tokens.get(at), Some(TokenTree::Punct(p)) if p.as_char() == ':');
            colon(at) && colon(at + 1) && matches!(tokens.get(at + 2), Some(TokenTree::Ident(_)))
        };
        let mut at = 0;
        while let Some(token) = tokens.get(at) {
            at += 1;
            match token {
                TokenTree::Group(g) => self.tokens(g.stream()),
                TokenTree::Punct(p) if p.as_char() == '.' => {
                    if let Some(TokenTree::Ident(name)) = tokens.get(at) {
                        let on_self = matches!(tokens.get(at.wrapping_sub(2)), Some(TokenTree::Ident(s)) if s == "self");
                        if called(at + 1) {
                            self.call(Call::Method(name.to_string(), on_self));
                        }
                        at += 1;
                    }
                }
                TokenTree::Ident(first) => {
                    let mut path = vec![first.to_string()];
                    while colons(at) {
                        if let Some(TokenTree::Ident(next)) = tokens.get(at + 2) {
                            path.push(next.to_string());
                        }
                        at += 3;
                    }
                    if called(at) {
                        self.call(Call::Path(path.clone()));
                    }
                    self.paths.push(path);
                }
                TokenTree::Literal(literal) => {
                    let text = literal.to_string();
                    let inner = text.strip_prefix('"').and_then(|t| t.strip_suffix('"'));
                    let pathlike = |t: &&str| {
                        t.contains("::")
                            && t.chars()
                                .all(|c| c == ':' || c == '_' || c.is_alphanumeric())
                    };
                    if let Some(inner) = inner.filter(pathlike) {
                        self.paths
                            .push(inner.split("::").map(String::from).collect());
                    }
                }
                TokenTree::Punct(_) => {}
            }
        }
    }
}

impl<'ast> Visit<'ast> for Reader {
    fn visit_item(&mut self, item: &'ast Item) {
        if !tested(attrs(item)) {
            visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, item: &'ast ItemUse) {
        let public = !matches!(item.vis, Visibility::Inherited);
        self.import(&item.tree, &[], public);
    }

    fn visit_item_fn(&mut self, item: &'ast ItemFn) {
        let method = item.sig.receiver().is_some();
        let owner = self.owner.take();
        self.function(&item.sig.ident, method, |r| visit::visit_item_fn(r, item));
        self.owner = owner;
    }

    fn visit_item_impl(&mut self, item: &'ast ItemImpl) {
        let owner = std::mem::replace(&mut self.owner, type_name(&item.self_ty));
        visit::visit_item_impl(self, item);
        self.owner = owner;
    }

    fn visit_item_trait(&mut self, item: &'ast ItemTrait) {
        let owner = self.owner.replace(item.ident.to_string());
        visit::visit_item_trait(self, item);
        self.owner = owner;
    }

    fn visit_impl_item_fn(&mut self, item: &'ast ImplItemFn) {
        if !tested(&item.attrs) {
            let method = item.sig.receiver().is_some();
            self.function(&item.sig.ident, method, |r| {
                visit::visit_impl_item_fn(r, item)
            });
        }
    }

    fn visit_trait_item_fn(&mut self, item: &'ast TraitItemFn) {
        let method = item.sig.receiver().is_some();
        self.function(&item.sig.ident, method, |r| {
            visit::visit_trait_item_fn(r, item)
        });
    }

    /// `pub(super)` names a module, but imports nothing from it.
    fn visit_vis_restricted(&mut self, _: &'ast syn::VisRestricted) {}

    fn visit_path(&mut self, path: &'ast syn::Path) {
        self.paths.push(written(path));
        visit::visit_path(self, path);
    }

    fn visit_expr_path(&mut self, expr: &'ast ExprPath) {
        // A function passed by its path (`Type::f`, `module::f`); one named alone is a call's.
        if expr.path.segments.len() > 1 {
            self.call(Call::Path(written(&expr.path)));
        }
        visit::visit_expr_path(self, expr);
    }

    fn visit_expr_call(&mut self, expr: &'ast ExprCall) {
        if let Expr::Path(f) = &*expr.func {
            if f.path.segments.len() == 1 {
                self.call(Call::Path(written(&f.path)));
            }
        }
        visit::visit_expr_call(self, expr);
    }

    fn visit_expr_method_call(&mut self, expr: &'ast ExprMethodCall) {
        let on_self = matches!(&*expr.receiver, Expr::Path(p) if p.path.is_ident("self"));
        self.call(Call::Method(expr.method.to_string(), on_self));
        visit::visit_expr_method_call(self, expr);
    }

    fn visit_macro(&mut self, mac: &'ast syn::Macro) {
        self.tokens(mac.tokens.clone());
        visit::visit_macro(self, mac);
    }

    fn visit_attribute(&mut self, attr: &'ast Attribute) {
        if let Meta::List(list) = &attr.meta {
            self.tokens(list.tokens.clone());
        }
    }
}

/// The circles among `edges`: each set of files that import each other, in turn.
fn circles<'a>(edges: &BTreeMap<&'a str, BTreeSet<&'a str>>) -> Vec<BTreeSet<&'a str>> {
    let reach = |from: &'a str| {
        let mut seen = BTreeSet::new();
        let mut queue = vec![from];
        while let Some(file) = queue.pop() {
            let next = edges.get(file).into_iter().flatten();
            queue.extend(next.filter(|&&to| seen.insert(to)));
        }
        seen
    };
    let reached: BTreeMap<&str, BTreeSet<&str>> = edges.keys().map(|&f| (f, reach(f))).collect();
    let mut circles: Vec<BTreeSet<&str>> = Vec::new();
    for (&file, from) in &reached {
        let circle: BTreeSet<&str> = (from.iter().copied())
            .filter(|to| reached[to].contains(file))
            .collect();
        if circle.len() > 1 && !circles.contains(&circle) {
            circles.push(circle);
        }
    }
    circles
}

/// How many times `files`, read in turn, climb back up a layer.
fn climbs(files: &[&str]) -> usize {
    let layer = |file: &&str| {
        let top = file.split('/').next().unwrap_or_default();
        LAYERS
            .iter()
            .position(|l| top.trim_end_matches(".rs") == *l)
    };
    let layers: Vec<Option<usize>> = files.iter().map(layer).collect();
    layers.windows(2).filter(|w| w[1] > w[0]).count()
}

fn krate() -> Crate {
    Crate::read(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

#[test]
fn no_file_imports_one_that_imports_it_back() {
    let krate = krate();
    let edges = krate.imports();
    assert!(edges.len() > 100, "the crate read: {} files", edges.len());
    // The test sees an import across files: kit/mod.rs's Kit holds the rubric.
    assert!(edges["kit/mod.rs"].contains("kit/rubric.rs"));
    let circles = circles(&edges);
    let within = |circle: &BTreeSet<&str>| -> Vec<String> {
        let inside = |(from, to): (&&str, &&str)| circle.contains(from) && circle.contains(to);
        let imports = edges
            .iter()
            .flat_map(|(from, tos)| tos.iter().map(move |to| (from, to)));
        imports
            .filter(|&edge| inside(edge))
            .map(|(from, to)| format!("{from} -> {to}"))
            .collect()
    };
    let said: Vec<Vec<String>> = circles.iter().map(within).collect();
    assert!(
        circles.is_empty(),
        "import circles between files: {said:#?}"
    );
}

#[test]
fn a_circle_is_found() {
    let edges = BTreeMap::from([
        ("a.rs", BTreeSet::from(["b.rs"])),
        ("b.rs", BTreeSet::from(["c.rs"])),
        ("c.rs", BTreeSet::from(["a.rs", "d.rs"])),
        ("d.rs", BTreeSet::new()),
    ]);
    assert_eq!(circles(&edges), [BTreeSet::from(["a.rs", "b.rs", "c.rs"])]);
}

/// The walk of one submission from `grade class` to its feedback file: every function on a
/// chain of calls from `commands/class/mod.rs`'s `run` to `commands/publish.rs`'s `feedback`
/// (which makes a student's feedback and writes its files), and all that `feedback` calls in
/// turn, each call followed as [`Crate::callees`] says, in the order they are written; its
/// files in the order they are first reached, and the climbs back up a layer between one file
/// and the next. The grading itself is not on that path: a student's result reaches their
/// feedback through the store, whose record `feedback` is given.
#[test]
fn the_walk_of_one_submission_to_its_feedback_is_at_most_20_files_and_10_climbs() {
    let krate = krate();
    let run = krate.function(&["commands", "class"], None, "run");
    let feedback = krate.function(&["commands", "publish"], None, "feedback");
    let files = krate.walk(run, &[feedback]);
    let said = format!(
        "{} files, {} climbs: {files:#?}",
        files.len(),
        climbs(&files)
    );
    // The walk gets there: the feedback's words, and its file written.
    for file in [
        "commands/publish.rs",
        "report/feedback.rs",
        "commands/files.rs",
    ] {
        assert!(files.contains(&file), "{file} is not in the walk of {said}");
    }
    assert!(files.len() <= 20 && climbs(&files) <= 10, "{said}");
}

#[test]
fn climbs_count_each_step_back_up_a_layer() {
    let files = [
        "commands/a.rs",
        "judge/b.rs",
        "process/c.rs",
        "judge/d.rs",
        "report/e.rs",
    ];
    assert_eq!(climbs(&files), 2);
}

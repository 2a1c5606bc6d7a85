//! Disguises of a submission, as students hide a copy: every user-defined name renamed
//! consistently, functions and methods reordered, comments and layout changed, code moved
//! between files, dead statements inserted every two or three lines, loops rewritten and
//! conditions turned round, helpers inlined; each alone or all together. The similarity
//! check's test class ([`crate::classroom`]) is made of such copies, so that the check is tried
//! against what students actually do.
//!
//! Each disguise works on the syntax tree of the tree-sitter grammar of its language (Rust,
//! Java, Python: the grammars the check itself parses with), rewrites the text by byte ranges
//! of that tree, and keeps the result parsing: Python's indentation stays meaningful. A seed
//! decides every choice (new names, orders, layouts), so a class is the same at every run.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::ops::Range;
use std::path::{Path, PathBuf};

use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{RngExt, SeedableRng};
use tree_sitter::{Node, Parser, Tree};

/// A submission's sources: each file's path (relative to the submission) and text.
pub type Sources = BTreeMap<PathBuf, String>;

/// The languages a submission may be written in, told by a file's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Language {
    Rust,
    Java,
    Python,
}

impl Language {
    /// The language of a file, or `None` for a file of none of them (left as it is).
    pub fn of(path: &Path) -> Option<Language> {
        match path.extension()?.to_str()? {
            "rs" => Some(Language::Rust),
            "java" => Some(Language::Java),
            "py" => Some(Language::Python),
            _ => None,
        }
    }

    fn grammar(self) -> tree_sitter::Language {
        match self {
            Language::Rust => tree_sitter_rust::LANGUAGE.into(),
            Language::Java => tree_sitter_java::LANGUAGE.into(),
            Language::Python => tree_sitter_python::LANGUAGE.into(),
        }
    }

    fn extension(self) -> &'static str {
        match self {
            Language::Rust => "rs",
            Language::Java => "java",
            Language::Python => "py",
        }
    }

    /// The leaf kinds that name something.
    fn is_name(self, kind: &str) -> bool {
        match self {
            Language::Rust => matches!(
                kind,
                "identifier"
                    | "type_identifier"
                    | "field_identifier"
                    | "shorthand_field_identifier"
            ),
            Language::Java => matches!(kind, "identifier" | "type_identifier"),
            Language::Python => kind == "identifier",
        }
    }

    /// Names never renamed even where the submission defines them: what the language, its
    /// library or the course's supplied crate calls by that name (a trait's method, `run` of
    /// a thread, a dunder method), so that a renamed copy still reads as a program would.
    fn reserved(self, name: &str) -> bool {
        #[rustfmt::skip]
        const RUST: &[&str] = &[
            "main", "new", "default", "from", "into", "fmt", "drop", "clone", "eq", "cmp",
            "next", "len", "get", "iter", "map", "min", "max", "run", "self", "Self", "crate",
            "super", "Some", "None", "Ok", "Err", "count", "sum", "any", "all", "filter", "take",
            "lock", "wait", "send", "recv", "join", "spawn", "push", "pop", "col", "rows", "cols",
            "depth", "threads", "first", "checker", "turn", "play", "outcome", "computer_move", "new_game", "heuristic",
            "scores", "stop_signal", "winning_line", "is_over", "opponent", "index", "name",
            "letter", "lib", "mod",
        ];
        #[rustfmt::skip]
        const JAVA: &[&str] = &[
            "main", "run", "call", "close", "get", "put", "take", "add", "size", "length",
            "toString", "equals", "hashCode", "compareTo", "clone", "start", "join", "submit",
            "apply", "accept", "compare", "args",
        ];
        #[rustfmt::skip]
        const PYTHON: &[&str] = &[
            "self", "cls", "get", "put", "append", "pop", "join", "start", "run", "copy",
            "items", "keys", "values", "split", "strip", "lower", "upper", "count", "index",
            "insert", "remove", "clear", "sort", "wait", "notify", "notify_all", "target",
            "daemon", "name", "key", "flush", "args", "kwargs",
        ];
        let list = match self {
            Language::Rust => RUST,
            Language::Java => JAVA,
            Language::Python => PYTHON,
        };
        list.contains(&name) || (name.starts_with("__") && name.ends_with("__"))
    }
}

/// The ways a copy is disguised, each alone, and all of them together.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Disguise {
    /// Every user-defined name renamed to another, consistently across the files.
    Rename,
    /// Top-level items, and the items inside impl and class bodies, in another order.
    Reorder,
    /// Comments dropped and others added, indentation changed, lines joined and split.
    Reformat,
    /// A file's items split into a new file, and two files merged into one.
    Move,
    /// A dead statement (an unused variable) inserted every two or three lines of code.
    Dead,
    /// Counting loops rewritten as while loops, and if/else turned round (the condition
    /// negated, the branches swapped).
    Rewrite,
    /// Each helper of one expression put in place of its calls, and removed.
    Inline,
    /// All of the above, one after the other.
    All,
}

impl Disguise {
    /// Every disguise, the single kinds first.
    pub const EVERY: [Disguise; 8] = [
        Disguise::Rename,
        Disguise::Reorder,
        Disguise::Reformat,
        Disguise::Move,
        Disguise::Dead,
        Disguise::Rewrite,
        Disguise::Inline,
        Disguise::All,
    ];

    /// Its name in a folder's name: `rename`, `reorder`, `reformat`, `move`, `dead`,
    /// `rewrite`, `inline`, `all`.
    pub fn name(self) -> &'static str {
        match self {
            Disguise::Rename => "rename",
            Disguise::Reorder => "reorder",
            Disguise::Reformat => "reformat",
            Disguise::Move => "move",
            Disguise::Dead => "dead",
            Disguise::Rewrite => "rewrite",
            Disguise::Inline => "inline",
            Disguise::All => "all",
        }
    }
}

/// `sources` disguised the way `kind` says, every choice made by `seed`.
pub fn disguise(sources: &Sources, kind: Disguise, seed: u64) -> Sources {
    match kind {
        Disguise::Rename => rename(sources, seed),
        Disguise::Reorder => reorder(sources, seed),
        Disguise::Reformat => reformat(sources, seed),
        Disguise::Move => move_code(sources, seed),
        Disguise::Dead => dead_code(sources, seed),
        Disguise::Rewrite => rewrite(sources),
        Disguise::Inline => inline(sources),
        Disguise::All => {
            let moved = move_code(sources, seed);
            let renamed = rename(&moved, seed.wrapping_add(1));
            let reordered = reorder(&renamed, seed.wrapping_add(2));
            let rewritten = rewrite(&inline(&reordered));
            let dead = dead_code(&rewritten, seed.wrapping_add(4));
            reformat(&dead, seed.wrapping_add(3))
        }
    }
}

/// The sources of the three languages under `dir`, by path relative to it.
pub fn read_sources(dir: &Path) -> Sources {
    fn walk(root: &Path, dir: &Path, out: &mut Sources) {
        let mut entries: Vec<_> = fs::read_dir(dir)
            .unwrap_or_else(|e| panic!("{}: {e}", dir.display()))
            .map(|entry| entry.expect("a directory entry").path())
            .collect();
        entries.sort();
        for path in entries {
            if path.is_dir() {
                walk(root, &path, out);
            } else if Language::of(&path).is_some() {
                let text =
                    fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
                let relative = path.strip_prefix(root).expect("inside the root");
                out.insert(relative.to_path_buf(), text);
            }
        }
    }
    let mut out = Sources::new();
    walk(dir, dir, &mut out);
    out
}

/// Disguises the sources under `dir` in place: the old files removed, the new ones written
/// (their paths may differ: a renamed class's file, a file split off, a file merged away).
pub fn disguise_folder(dir: &Path, kind: Disguise, seed: u64) {
    let before = read_sources(dir);
    let after = disguise(&before, kind, seed);
    for path in before.keys() {
        fs::remove_file(dir.join(path)).unwrap();
    }
    for (path, text) in &after {
        let path = dir.join(path);
        fs::create_dir_all(path.parent().expect("a file's folder")).unwrap();
        fs::write(&path, text).unwrap();
    }
}

/// Whether `text`, as the language of `path`, parses with no error and nothing missing.
pub fn parses_cleanly(path: &Path, text: &str) -> bool {
    let language = Language::of(path).expect("a source file");
    !parse(language, text).root_node().has_error()
}

fn parse(language: Language, text: &str) -> Tree {
    let mut parser = Parser::new();
    parser
        .set_language(&language.grammar())
        .expect("the grammar matches the tree-sitter version");
    parser.parse(text, None).expect("parsing is not cancelled")
}

/// Every node of the tree, parents before their children, in the order of the text.
fn nodes(tree: &Tree) -> Vec<Node<'_>> {
    fn visit<'t>(node: Node<'t>, out: &mut Vec<Node<'t>>) {
        out.push(node);
        for i in 0..node.child_count() {
            visit(node.child(i).expect("a child in range"), out);
        }
    }
    let mut out = Vec::new();
    visit(tree.root_node(), &mut out);
    out
}

fn children(node: Node<'_>) -> Vec<Node<'_>> {
    (0..node.child_count())
        .map(|i| node.child(i).expect("a child in range"))
        .collect()
}

fn text<'s>(node: Node<'_>, source: &'s str) -> &'s str {
    &source[node.byte_range()]
}

/// `source` with each range replaced by its text; the ranges do not overlap.
fn apply(source: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(range, _)| (range.start, range.end));
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for (range, replacement) in edits {
        assert!(
            range.start >= at,
            "overlapping edits at byte {}",
            range.start
        );
        out.push_str(&source[at..range.start]);
        out.push_str(&replacement);
        at = range.end;
    }
    out.push_str(&source[at..]);
    out
}

// --- (a) renaming ---------------------------------------------------------------------------

/// Every name the submission defines (functions, types, fields, variables, parameters,
/// modules and classes), except the reserved ones, renamed to a new name everywhere it occurs,
/// in every file (but not a library's member of the same name: `random.choice`, `System.out`);
/// a file named after a renamed class or module is renamed with it. The renamed copies of the
/// class's Rust, Java and Python solutions still build and answer as before.
pub fn rename(sources: &Sources, seed: u64) -> Sources {
    let mut defined = BTreeSet::new();
    let mut taken = BTreeSet::new();
    for (path, source) in sources {
        let Some(language) = Language::of(path) else {
            continue;
        };
        let tree = parse(language, source);
        for node in nodes(&tree) {
            if language.is_name(node.kind()) {
                taken.insert(text(node, source).to_string());
            }
            for name in definitions(language, node, source) {
                if !language.reserved(&name) {
                    defined.insert(name);
                }
            }
        }
        if language == Language::Python {
            let stem = path.file_stem().and_then(|s| s.to_str()).unwrap_or("");
            if taken.contains(stem) && !language.reserved(stem) {
                defined.insert(stem.to_string());
            }
        }
    }
    let names = new_names(&defined, &taken, seed);
    sources
        .iter()
        .map(|(path, source)| {
            let Some(language) = Language::of(path) else {
                return (path.clone(), source.clone());
            };
            let tree = parse(language, source);
            let edits = nodes(&tree)
                .into_iter()
                .filter(|node| language.is_name(node.kind()) && node.child_count() == 0)
                .filter(|node| !library_member(language, *node, source, &names))
                .filter_map(|node| {
                    let new = names.get(text(node, source))?;
                    Some((node.byte_range(), new.clone()))
                })
                .collect();
            (renamed_path(path, &names), apply(source, edits))
        })
        .collect()
}

/// Whether `node` names a member of something the submission does not define (`random.choice`,
/// `System.out`, `Vec::new`): the library's name, kept even where the submission defines the
/// same name for something of its own.
fn library_member(
    language: Language,
    node: Node<'_>,
    source: &str,
    names: &BTreeMap<String, String>,
) -> bool {
    let Some(parent) = node.parent() else {
        return false;
    };
    let (owner, member) = match (language, parent.kind()) {
        (Language::Python, "attribute") => ("object", "attribute"),
        (Language::Java, "field_access") => ("object", "field"),
        (Language::Java, "method_invocation") => ("object", "name"),
        (Language::Rust, "scoped_identifier" | "scoped_type_identifier") => ("path", "name"),
        _ => return false,
    };
    let Some(owner) = parent.child_by_field_name(owner) else {
        return false;
    };
    let own = matches!(
        text(owner, source),
        "self" | "this" | "Self" | "crate" | "super"
    );
    parent.child_by_field_name(member) == Some(node)
        && language.is_name(owner.kind())
        && !own
        && !names.contains_key(text(owner, source))
}

/// The names `node` defines, if it is a definition.
fn definitions(language: Language, node: Node<'_>, source: &str) -> Vec<String> {
    let kind = node.kind();
    let field = |name: &str| node.child_by_field_name(name);
    let mut found: Vec<Node<'_>> = Vec::new();
    match language {
        Language::Rust => match kind {
            "function_item" | "function_signature_item" => {
                let in_trait_impl =
                    node.parent()
                        .and_then(|list| list.parent())
                        .is_some_and(|item| {
                            item.kind() == "impl_item"
                                && item.child_by_field_name("trait").is_some()
                        });
                if !in_trait_impl {
                    found.extend(field("name"));
                }
            }
            "struct_item" | "enum_item" | "enum_variant" | "field_declaration" | "const_item"
            | "static_item" | "type_item" | "trait_item" | "mod_item" => {
                found.extend(field("name"))
            }
            "identifier" => {
                let Some(parent) = node.parent() else {
                    return Vec::new();
                };
                let is_field = |name: &str| parent.child_by_field_name(name) == Some(node);
                let binding = match parent.kind() {
                    "let_declaration" | "parameter" | "for_expression" => is_field("pattern"),
                    "tuple_struct_pattern" => !is_field("type"),
                    "closure_parameters" | "tuple_pattern" | "mut_pattern"
                    | "reference_pattern" | "ref_pattern" | "slice_pattern"
                    | "captured_pattern" => true,
                    _ => false,
                };
                let name = text(node, source);
                if binding && name.starts_with(|c: char| c.is_lowercase() || c == '_') {
                    found.push(node);
                }
            }
            _ => {}
        },
        Language::Java => match kind {
            "class_declaration"
            | "interface_declaration"
            | "enum_declaration"
            | "record_declaration"
            | "variable_declarator"
            | "formal_parameter"
            | "catch_formal_parameter"
            | "enum_constant"
            | "enhanced_for_statement" => found.extend(field("name")),
            "method_declaration" => {
                let overrides = children(node).into_iter().any(|child| {
                    child.kind() == "modifiers" && text(child, source).contains("@Override")
                });
                if !overrides {
                    found.extend(field("name"));
                }
            }
            "lambda_expression" => {
                if let Some(parameters) = field("parameters") {
                    if parameters.kind() == "identifier" {
                        found.push(parameters);
                    } else if parameters.kind() == "inferred_parameters" {
                        found.extend(
                            children(parameters)
                                .into_iter()
                                .filter(|c| c.kind() == "identifier"),
                        );
                    }
                }
            }
            _ => {}
        },
        Language::Python => match kind {
            "function_definition" | "class_definition" => found.extend(field("name")),
            "parameters" | "lambda_parameters" => {
                for parameter in children(node) {
                    match parameter.kind() {
                        "identifier" => found.push(parameter),
                        "default_parameter" | "typed_parameter" | "typed_default_parameter" => {
                            found.extend(parameter.child_by_field_name("name"));
                            found.extend(
                                children(parameter)
                                    .into_iter()
                                    .take(1)
                                    .filter(|c| c.kind() == "identifier"),
                            );
                        }
                        _ => {}
                    }
                }
            }
            "assignment" | "augmented_assignment" | "for_statement" | "for_in_clause" => {
                if let Some(left) = field("left") {
                    found.extend(targets(left));
                }
            }
            "as_pattern_target" | "global_statement" => {
                found.extend(
                    children(node)
                        .into_iter()
                        .filter(|c| c.kind() == "identifier"),
                );
            }
            _ => {}
        },
    }
    found
        .into_iter()
        .filter(|n| language.is_name(n.kind()))
        .map(|n| text(n, source).to_string())
        .collect()
}

/// The names a Python assignment target binds: plain names, the attributes of `self`, and
/// the names inside tuples and lists of targets.
fn targets(node: Node<'_>) -> Vec<Node<'_>> {
    match node.kind() {
        "identifier" => vec![node],
        "attribute" => node.child_by_field_name("attribute").into_iter().collect(),
        "pattern_list"
        | "tuple_pattern"
        | "list_pattern"
        | "tuple"
        | "list"
        | "parenthesized_expression" => children(node).into_iter().flat_map(targets).collect(),
        _ => Vec::new(),
    }
}

/// A new name for each of `defined`, none of them already `taken`, in the style of the old one
/// (a type's capital, a constant's capitals, a private name's underscore).
fn new_names(
    defined: &BTreeSet<String>,
    taken: &BTreeSet<String>,
    seed: u64,
) -> BTreeMap<String, String> {
    #[rustfmt::skip]
    const WORDS: &[&str] = &[
        "amber", "basil", "cedar", "delta", "ember", "fable", "garnet", "harbor", "island",
        "jasper", "kettle", "lantern", "meadow", "nectar", "orbit", "pepper", "quartz", "raven",
        "saffron", "tundra", "umber", "velvet", "willow", "yonder", "zephyr", "acorn", "breeze",
        "canyon", "dune", "falcon", "glacier", "hazel", "ivory", "juniper", "kelp", "lotus",
        "maple", "nimbus", "onyx", "prairie", "quill", "ripple", "summit", "thistle", "upland",
        "vista", "walnut", "yarrow", "zinnia", "anchor", "bramble", "comet", "drift", "fern",
    ];
    let mut rng = StdRng::seed_from_u64(seed);
    let mut words: Vec<&str> = WORDS.to_vec();
    words.shuffle(&mut rng);
    let mut used: BTreeSet<String> = taken.clone();
    let mut names = BTreeMap::new();
    for (i, old) in defined.iter().enumerate() {
        let word = words[i % words.len()];
        let mut suffix = i / words.len();
        let styled = |suffix: usize| {
            let base = if suffix == 0 {
                word.to_string()
            } else {
                format!("{word}{suffix}")
            };
            style_like(old, &base)
        };
        let mut new = styled(suffix);
        while used.contains(&new) {
            suffix += 1;
            new = styled(suffix);
        }
        used.insert(new.clone());
        names.insert(old.clone(), new);
    }
    names
}

fn style_like(old: &str, word: &str) -> String {
    let underscores = old.len() - old.trim_start_matches('_').len();
    let bare = old.trim_start_matches('_');
    let styled = if bare.len() > 1 && bare.chars().all(|c| !c.is_lowercase()) {
        word.to_uppercase()
    } else if bare.starts_with(char::is_uppercase) {
        let mut chars = word.chars();
        chars
            .next()
            .map(|c| c.to_uppercase().chain(chars).collect())
            .unwrap_or_default()
    } else {
        word.to_string()
    };
    format!("{}{styled}", "_".repeat(underscores))
}

/// `path` with each folder or file stem that is a renamed name renamed too.
fn renamed_path(path: &Path, names: &BTreeMap<String, String>) -> PathBuf {
    let extension = path.extension().map(|e| e.to_os_string());
    let mut out = PathBuf::new();
    let parts: Vec<_> = path.iter().collect();
    for (i, part) in parts.iter().enumerate() {
        let part = part.to_str().expect("a UTF-8 path");
        if i + 1 == parts.len() {
            let stem = Path::new(part)
                .file_stem()
                .and_then(|s| s.to_str())
                .unwrap();
            let stem = names.get(stem).map_or(stem, String::as_str);
            let mut file = PathBuf::from(stem);
            if let Some(extension) = &extension {
                file.set_extension(extension);
            }
            out.push(file);
        } else {
            out.push(names.get(part).map_or(part, String::as_str));
        }
    }
    out
}

// --- (b) reordering -------------------------------------------------------------------------

/// The items of every file, and of every impl, trait and class body, in another order: each
/// body's functions, methods and types shuffled among the places they held, each with the
/// comments and attributes just above it; everything else stays where it was.
pub fn reorder(sources: &Sources, seed: u64) -> Sources {
    let mut rng = StdRng::seed_from_u64(seed);
    each_file(sources, |language, source| {
        let movable = |node: Node<'_>, text: &str| {
            let units = movable_units(language, node, text);
            (units.len() >= 2).then_some(units)
        };
        let shuffled = |units: Vec<Range<usize>>, text: &str| {
            let mut order: Vec<usize> = (0..units.len()).collect();
            while order.iter().enumerate().all(|(i, &o)| i == o) {
                order.shuffle(&mut rng);
            }
            units
                .iter()
                .zip(&order)
                .map(|(slot, &from)| (slot.clone(), text[units[from].clone()].to_string()))
                .collect()
        };
        last_first(language, source, movable, shuffled)
    })
}

/// `sources` with each file of a language changed as `change` says (the others as they are).
fn each_file(sources: &Sources, mut change: impl FnMut(Language, &str) -> String) -> Sources {
    sources
        .iter()
        .map(|(path, source)| match Language::of(path) {
            Some(language) => (path.clone(), change(language, source)),
            None => (path.clone(), source.clone()),
        })
        .collect()
}

/// `source` edited node by node from the last in the text to the first: the last node that
/// `found` finds something in (starting before the one edited before it) edited as `edit`
/// says, and parsed again. An edit changes only text from its node's start on, so the nodes
/// before it are where they were, and those inside it move along, already edited.
fn last_first<T>(
    language: Language,
    source: &str,
    found: impl Fn(Node<'_>, &str) -> Option<T>,
    mut edit: impl FnMut(T, &str) -> Vec<(Range<usize>, String)>,
) -> String {
    let mut text = source.to_string();
    let mut before = text.len() + 1;
    loop {
        let tree = parse(language, &text);
        let next = nodes(&tree)
            .into_iter()
            .filter(|n| n.start_byte() < before)
            .filter_map(|n| Some((n.start_byte(), found(n, &text)?)))
            .max_by_key(|(start, _)| *start);
        let Some((start, what)) = next else {
            return text;
        };
        let edits = edit(what, &text);
        text = apply(&text, edits);
        before = start;
    }
}

/// The byte ranges of the items of `container` that may move, each with the comments and
/// attributes directly above it (no blank line between); empty for a node that holds none.
fn movable_units(language: Language, container: Node<'_>, source: &str) -> Vec<Range<usize>> {
    let (holds, movable): (&[&str], &[&str]) = match language {
        Language::Rust => (
            &["source_file", "declaration_list"],
            &[
                "function_item",
                "impl_item",
                "struct_item",
                "enum_item",
                "trait_item",
                "const_item",
                "static_item",
                "type_item",
            ],
        ),
        Language::Java => (
            &[
                "program",
                "class_body",
                "interface_body",
                "enum_body_declarations",
            ],
            &[
                "method_declaration",
                "constructor_declaration",
                "class_declaration",
                "interface_declaration",
                "enum_declaration",
                "record_declaration",
            ],
        ),
        Language::Python => (
            &["module", "block"],
            &[
                "function_definition",
                "class_definition",
                "decorated_definition",
            ],
        ),
    };
    if !holds.contains(&container.kind())
        || (language == Language::Python
            && container.kind() == "block"
            && container
                .parent()
                .is_none_or(|p| p.kind() != "class_definition"))
    {
        return Vec::new();
    }
    let kids = children(container);
    let mut units = Vec::new();
    for (i, kid) in kids.iter().enumerate() {
        if !movable.contains(&kid.kind()) {
            continue;
        }
        let mut start = kid.start_byte();
        for above in kids[..i].iter().rev() {
            let gap = &source[above.end_byte()..start];
            let attached = match above.kind() {
                "attribute_item" => true,
                "line_comment" | "block_comment" | "comment" => {
                    let comment = text(*above, source);
                    !comment.starts_with("//!") && !comment.starts_with("/*!")
                }
                _ => false,
            };
            if !attached || gap.matches('\n').count() > 1 || !gap.trim().is_empty() {
                break;
            }
            if language == Language::Python
                && above.start_position().column != kid.start_position().column
            {
                break;
            }
            start = above.start_byte();
        }
        units.push(start..kid.end_byte());
    }
    units
}

// --- (c) comments and layout ----------------------------------------------------------------

/// Remarks a student might scatter through a copy.
const REMARKS: &[&str] = &[
    "check this again before handing in",
    "helper for the search",
    "see the handout, section 7",
    "this part was tricky",
    "edge case: the board edge",
    "works, do not touch",
    "compute the value here",
    "loop over the columns",
];

/// Comments dropped and others added, and the layout changed: Rust and Java printed again
/// from their tokens (lines joined and split, another indentation); Python's comments and
/// docstrings dropped, short blocks joined onto their header line, long calls split after a
/// comma, and every block indented by another width.
pub fn reformat(sources: &Sources, seed: u64) -> Sources {
    let mut rng = StdRng::seed_from_u64(seed);
    sources
        .iter()
        .map(|(path, source)| {
            let text = match Language::of(path) {
                Some(Language::Python) => python_reformat(source, &mut rng),
                Some(language) => braces_reformat(language, source, &mut rng),
                None => source.clone(),
            };
            (path.clone(), text)
        })
        .collect()
}

/// A Rust or Java file printed again from its tokens, without its comments: a line per
/// statement and brace, indented by another width, with remarks added between statements.
fn braces_reformat(language: Language, source: &str, rng: &mut StdRng) -> String {
    const ATOMS: &[&str] = &[
        "string_literal",
        "raw_string_literal",
        "char_literal",
        "character_literal",
        "text_block",
        "lifetime",
        "label",
    ];
    let tree = parse(language, source);
    let mut tokens = Vec::new();
    let mut skip_until = 0;
    for node in nodes(&tree) {
        if node.start_byte() < skip_until {
            continue;
        }
        let kind = node.kind();
        if kind.ends_with("comment") {
            skip_until = node.end_byte();
        } else if ATOMS.contains(&kind) || node.child_count() == 0 {
            skip_until = node.end_byte();
            if node.end_byte() > node.start_byte() {
                tokens.push(text(node, source));
            }
        }
    }
    let indent = ["  ", "\t", "   ", "        "][rng.random_range(0..4)];
    let mut out = String::new();
    let (mut depth, mut parens) = (0usize, 0usize);
    let mut line_start = true;
    for (i, token) in tokens.iter().enumerate() {
        let next = tokens.get(i + 1).copied().unwrap_or("");
        if *token == "}" {
            depth = depth.saturating_sub(1);
            if !line_start {
                out.push('\n');
                line_start = true;
            }
        }
        if line_start {
            if depth > 0 && rng.random_range(0..9) == 0 {
                let remark = REMARKS[rng.random_range(0..REMARKS.len())];
                out.push_str(&format!("{}// {remark}\n", indent.repeat(depth)));
            }
            out.push_str(&indent.repeat(depth));
        } else if spaced(tokens[i - 1], token) {
            out.push(' ');
        }
        out.push_str(token);
        line_start = false;
        match *token {
            "(" | "[" => parens += 1,
            ")" | "]" => parens = parens.saturating_sub(1),
            "{" => depth += 1,
            _ => {}
        }
        let breaks = match *token {
            ";" => parens == 0,
            "{" => true,
            "}" => !matches!(next, "," | ";" | ")" | "." | "else" | "catch" | "finally"),
            _ => false,
        };
        if breaks {
            out.push('\n');
            if *token == "}" && depth <= 1 {
                out.push('\n');
            }
            line_start = true;
        }
    }
    out
}

/// Whether a space goes between two tokens printed on one line.
fn spaced(before: &str, after: &str) -> bool {
    let tight_after = matches!(before, "(" | "[" | "." | "::" | "@" | "#" | "!" | "&");
    let tight_before = matches!(
        after,
        ")" | "]" | "," | ";" | "." | "::" | "?" | ":" | "(" | "["
    );
    let word = |s: &str| s.chars().all(|c| c.is_alphanumeric() || c == '_');
    if matches!(after, "(" | "[") && !word(before) {
        return !matches!(before, ")" | "]" | ">" | "!" | "(" | "[");
    }
    if before == "&" || before == "!" || (after == "!" && word(before)) {
        return false;
    }
    if matches!(after, "++" | "--") && (word(before) || matches!(before, ")" | "]")) {
        return false;
    }
    !(tight_after || tight_before)
}

/// A Python file with its comments and docstrings dropped, short blocks joined onto their
/// header, calls of three or more arguments split after their first comma, blocks indented
/// by another width, and remarks added above some statements. Each step parses the result
/// of the one before.
fn python_reformat(source: &str, rng: &mut StdRng) -> String {
    let dropped = python_drop_comments(source);
    let joined = python_join_and_split(&dropped);
    let width = [2usize, 3, 8][rng.random_range(0..3)];
    let indented = python_reindent(&joined, width);
    python_add_remarks(&indented, rng)
}

/// Lines made only of whitespace once a range is cut out are cut out whole.
fn cut_lines(source: &str, ranges: Vec<Range<usize>>) -> String {
    let edits = ranges
        .into_iter()
        .map(|range| {
            let line_start = source[..range.start].rfind('\n').map_or(0, |i| i + 1);
            let line_end = source[range.end..]
                .find('\n')
                .map_or(source.len(), |i| range.end + i + 1);
            let whole = source[line_start..range.start].trim().is_empty()
                && source[range.end..line_end].trim().is_empty();
            if whole {
                (line_start..line_end, String::new())
            } else {
                (range, String::new())
            }
        })
        .collect();
    apply(source, edits)
}

fn python_drop_comments(source: &str) -> String {
    let tree = parse(Language::Python, source);
    let mut cuts = Vec::new();
    for node in nodes(&tree) {
        if node.kind() == "comment" {
            cuts.push(node.byte_range());
        }
        if matches!(node.kind(), "module" | "block") {
            let statements = children(node);
            let docstring = statements.first().is_some_and(|first| {
                first.kind() == "expression_statement"
                    && first.named_child_count() == 1
                    && first.named_child(0).is_some_and(|s| s.kind() == "string")
            });
            if docstring && statements.len() > 1 {
                cuts.push(statements[0].byte_range());
            }
        }
    }
    cut_lines(source, cuts)
}

fn python_join_and_split(source: &str) -> String {
    let tree = parse(Language::Python, source);
    let mut edits = Vec::new();
    for node in nodes(&tree) {
        let joinable = matches!(
            node.kind(),
            "if_statement" | "for_statement" | "while_statement" | "with_statement"
        ) && node.child_by_field_name("alternative").is_none();
        if joinable {
            let body = node
                .child_by_field_name("body")
                .or_else(|| node.child_by_field_name("consequence"));
            if let Some(body) = body {
                let statements = children(body);
                let simple = statements.len() == 1
                    && matches!(
                        statements[0].kind(),
                        "return_statement"
                            | "expression_statement"
                            | "pass_statement"
                            | "break_statement"
                            | "continue_statement"
                            | "raise_statement"
                    )
                    && !text(statements[0], source).contains('\n');
                let colon = body.prev_sibling().filter(|c| c.kind() == ":");
                if let (true, Some(colon)) = (simple, colon) {
                    let gap = colon.end_byte()..body.start_byte();
                    if source[gap.clone()].trim().is_empty() {
                        edits.push((gap, " ".to_string()));
                    }
                }
            }
        }
        if node.kind() == "argument_list" && node.named_child_count() >= 3 {
            let comma = children(node).into_iter().find(|c| c.kind() == ",");
            if let Some(comma) = comma {
                let line_start = source[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
                let indent = source[line_start..].len() - source[line_start..].trim_start().len();
                let gap = comma.end_byte()..comma.end_byte() + 1;
                if &source[gap.clone()] == " " {
                    edits.push((gap, format!("\n{}", " ".repeat(indent + 8))));
                }
            }
        }
    }
    apply(source, edits)
}

/// Every line that starts a statement or a bracketed continuation (not a line inside a
/// string) indented by `width` per level of four spaces.
fn python_reindent(source: &str, width: usize) -> String {
    let tree = parse(Language::Python, source);
    let in_string: Vec<Range<usize>> = nodes(&tree)
        .into_iter()
        .filter(|n| n.kind() == "string")
        .map(|n| n.byte_range())
        .collect();
    let mut out = String::with_capacity(source.len());
    let mut at = 0;
    for line in source.split_inclusive('\n') {
        let inside = in_string.iter().any(|r| r.start < at && at < r.end);
        let spaces = line.len() - line.trim_start_matches(' ').len();
        if inside || line.trim().is_empty() {
            out.push_str(line);
        } else {
            out.push_str(&" ".repeat(spaces / 4 * width + spaces % 4));
            out.push_str(&line[spaces..]);
        }
        at += line.len();
    }
    out
}

fn python_add_remarks(source: &str, rng: &mut StdRng) -> String {
    let tree = parse(Language::Python, source);
    let mut edits = Vec::new();
    let mut seen = BTreeSet::new();
    for node in nodes(&tree) {
        let Some(parent) = node.parent() else {
            continue;
        };
        if !matches!(parent.kind(), "module" | "block") || !node.is_named() {
            continue;
        }
        let line_start = source[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
        let indent = &source[line_start..node.start_byte()];
        if !indent.trim().is_empty() || !seen.insert(line_start) {
            continue;
        }
        if rng.random_range(0..6) == 0 {
            let remark = REMARKS[rng.random_range(0..REMARKS.len())];
            edits.push((line_start..line_start, format!("{indent}# {remark}\n")));
        }
    }
    apply(source, edits)
}

// --- (d) moving code between files ----------------------------------------------------------

/// Code moved between files: the last half of the movable items of the largest file split
/// off into a new file, which the old one brings in again (`mod` and `use`, `from ...
/// import *`, or a class of its own for Java's methods), and, for a submission of two files
/// or more, the smallest file merged into another (Rust: inlined as `mod name { ... }`).
pub fn move_code(sources: &Sources, seed: u64) -> Sources {
    let mut rng = StdRng::seed_from_u64(seed);
    let mut out = sources.clone();
    let language_files = |out: &Sources| -> Vec<PathBuf> {
        out.keys()
            .filter(|p| Language::of(p).is_some())
            .cloned()
            .collect()
    };
    let files = language_files(&out);
    if files.len() >= 2 {
        merge(&mut out, &files, &mut rng);
    }
    let files = language_files(&out);
    if let Some(largest) = files.iter().max_by_key(|p| out[*p].len()) {
        split(&mut out, largest, &mut rng);
    }
    out
}

fn stem(path: &Path) -> &str {
    path.file_stem()
        .and_then(|s| s.to_str())
        .expect("a UTF-8 file name")
}

/// The top-level import lines of a file, as text.
fn imports(language: Language, source: &str) -> Vec<Range<usize>> {
    let tree = parse(language, source);
    let kinds: &[&str] = match language {
        Language::Rust => &["use_declaration"],
        Language::Java => &["import_declaration"],
        Language::Python => &[
            "import_statement",
            "import_from_statement",
            "future_import_statement",
        ],
    };
    children(tree.root_node())
        .into_iter()
        .filter(|n| kinds.contains(&n.kind()))
        .map(|n| n.byte_range())
        .collect()
}

fn merge(out: &mut Sources, files: &[PathBuf], rng: &mut StdRng) {
    let language = Language::of(&files[0]).expect("a source file");
    match language {
        Language::Rust => {
            // A module declared `mod name;` whose file is here: its text moves into the
            // declaration, `mod name { ... }`, and its file goes.
            let mut candidates = Vec::new();
            for (path, source) in out.iter() {
                let tree = parse(language, source);
                for item in children(tree.root_node()) {
                    let body = item.child_by_field_name("body");
                    if item.kind() != "mod_item" || body.is_some() {
                        continue;
                    }
                    let name = text(item.child_by_field_name("name").unwrap(), source);
                    let dir = path.parent().unwrap_or(Path::new(""));
                    let dir = if matches!(stem(path), "main" | "lib" | "mod") {
                        dir.to_path_buf()
                    } else {
                        dir.join(stem(path))
                    };
                    let file = dir.join(format!("{name}.rs"));
                    if out.contains_key(&file) {
                        candidates.push((path.clone(), item.byte_range(), name.to_string(), file));
                    }
                }
            }
            if candidates.is_empty() {
                return;
            }
            let (host, range, name, file) =
                candidates.swap_remove(rng.random_range(0..candidates.len()));
            let inner = out.remove(&file).expect("the module's file");
            let source = out[&host].clone();
            let declaration = &source[range.clone()];
            let visibility = declaration.split("mod").next().unwrap_or("");
            let merged = apply(
                &source,
                vec![(range, format!("{visibility}mod {name} {{\n{inner}\n}}"))],
            );
            out.insert(host, merged);
        }
        Language::Java | Language::Python => {
            let mut by_size: Vec<&PathBuf> = files.iter().collect();
            by_size.sort_by_key(|p| out[*p].len());
            let (from, into) = (by_size[0].clone(), by_size[1].clone());
            let moved = out.remove(&from).expect("the file merged away");
            let host = out[&into].clone();
            let merged = if language == Language::Java {
                java_merge(&host, &moved)
            } else {
                let gone = stem(&from).to_string();
                let kept = stem(&into).to_string();
                let merged = format!("{host}\n\n{moved}");
                python_drop_self_imports(&python_rename_module(&merged, &gone, &kept), &kept)
            };
            out.insert(into.clone(), merged);
            let (gone, kept) = (stem(&from).to_string(), stem(&into).to_string());
            if language == Language::Python {
                for (path, source) in out.iter_mut() {
                    if *path != into {
                        *source = python_rename_module(source, &gone, &kept);
                    }
                }
            }
        }
    }
}

/// The second Java file's imports joined to the first's, and its type declarations (never
/// `public`: one public class a file) after the first's.
fn java_merge(host: &str, moved: &str) -> String {
    let host_imports = imports(Language::Java, host);
    let moved_imports = imports(Language::Java, moved);
    let tree = parse(Language::Java, moved);
    let mut declarations = String::new();
    for item in children(tree.root_node()) {
        if item.kind().ends_with("_declaration")
            && !item.kind().starts_with("import")
            && item.kind() != "package_declaration"
        {
            let mut body = text(item, moved).to_string();
            if let Some(rest) = body.strip_prefix("public ") {
                body = rest.to_string();
            }
            declarations.push_str("\n\n");
            declarations.push_str(&body);
        }
    }
    let extra: String = moved_imports
        .iter()
        .map(|r| format!("{}\n", &moved[r.clone()]))
        .filter(|line| !host.contains(line.trim()))
        .collect();
    let at = host_imports.last().map_or(0, |r| r.end + 1);
    let at = at.min(host.len());
    let mut merged = format!("{}{}{}", &host[..at], extra, &host[at..]);
    merged.push_str(&declarations);
    merged.push('\n');
    merged
}

/// `import gone` and `from gone import ...` made to name `kept`, and `gone.x` references.
fn python_rename_module(source: &str, gone: &str, kept: &str) -> String {
    let tree = parse(Language::Python, source);
    let edits = nodes(&tree)
        .into_iter()
        .filter(|n| n.kind() == "identifier" && text(*n, source) == gone)
        .filter(|n| n.parent().is_some_and(|p| p.kind() == "dotted_name"))
        .map(|n| (n.byte_range(), kept.to_string()))
        .collect();
    apply(source, edits)
}

/// A module's imports of itself cut out.
fn python_drop_self_imports(source: &str, module: &str) -> String {
    let tree = parse(Language::Python, source);
    let cuts = children(tree.root_node())
        .into_iter()
        .filter(|n| {
            let name = n
                .child_by_field_name("module_name")
                .or_else(|| n.child_by_field_name("name"));
            matches!(n.kind(), "import_statement" | "import_from_statement")
                && name.is_some_and(|m| text(m, source) == module)
        })
        .map(|n| n.byte_range())
        .collect();
    cut_lines(source, cuts)
}

fn split(out: &mut Sources, path: &Path, rng: &mut StdRng) {
    let language = Language::of(path).expect("a source file");
    let source = out[path].clone();
    let tree = parse(language, &source);
    let word = ["helpers", "extra", "parts", "util", "more"][rng.random_range(0..5)];
    let container = match language {
        Language::Java => children(tree.root_node())
            .into_iter()
            .filter(|n| n.kind() == "class_declaration")
            .max_by_key(|n| n.byte_range().len())
            .and_then(|class| class.child_by_field_name("body")),
        _ => Some(tree.root_node()),
    };
    let Some(container) = container else {
        return;
    };
    let mut units = movable_units(language, container, &source);
    if language == Language::Java {
        units.retain(|r| {
            let item = &source[r.clone()];
            !item.contains("static void main(") && !is_constructor(container, r)
        });
    }
    if units.is_empty() {
        return;
    }
    let moved: Vec<Range<usize>> = units.split_off(units.len() / 2);
    let moved_text: Vec<&str> = moved.iter().map(|r| &source[r.clone()]).collect();
    let import_text: Vec<&str> = imports(language, &source)
        .into_iter()
        .map(|r| &source[r])
        .collect();
    let dir = path.parent().unwrap_or(Path::new("")).to_path_buf();
    let name = stem(path);
    let (new_path, new_text, bring_in) = match language {
        Language::Rust => {
            let module = format!("{name}_{word}");
            let module_dir = if matches!(name, "main" | "lib" | "mod") {
                dir
            } else {
                dir.join(name)
            };
            let text = format!(
                "use super::*;\n{}\n\n{}\n",
                import_text.join("\n"),
                moved_text.join("\n\n")
            );
            (
                module_dir.join(format!("{module}.rs")),
                text,
                format!("mod {module};\nuse {module}::*;\n"),
            )
        }
        Language::Java => {
            let class = format!("{name}{}", style_like("X", word));
            let text = format!(
                "{}\n\nfinal class {class} {{\n    {}\n}}\n",
                import_text.join("\n"),
                moved_text.join("\n\n    ")
            );
            (dir.join(format!("{class}.java")), text, String::new())
        }
        Language::Python => {
            let module = format!("{name}_{word}");
            let text = format!(
                "{}\n\n\n{}\n",
                import_text.join("\n"),
                moved_text.join("\n\n\n")
            );
            (
                dir.join(format!("{module}.py")),
                text,
                format!("from {module} import *\n"),
            )
        }
    };
    let mut edits: Vec<(Range<usize>, String)> =
        moved.iter().map(|r| (r.clone(), String::new())).collect();
    if !bring_in.is_empty() {
        let at = imports(language, &source).last().map_or(0, |r| {
            source[r.end..]
                .find('\n')
                .map_or(source.len(), |i| r.end + i + 1)
        });
        let at = if at == 0 {
            leading_header(language, &source)
        } else {
            at
        };
        edits.push((at..at, bring_in));
    }
    let kept = apply(&source, edits);
    out.insert(path.to_path_buf(), kept);
    out.insert(new_path.with_extension(language.extension()), new_text);
}

fn is_constructor(container: Node<'_>, range: &Range<usize>) -> bool {
    children(container)
        .into_iter()
        .any(|n| n.kind() == "constructor_declaration" && range.end == n.end_byte())
}

/// Where a file's code starts after its header: Rust's inner doc comments and attributes, a
/// Python module's docstring.
fn leading_header(language: Language, source: &str) -> usize {
    let tree = parse(language, source);
    let mut at = 0;
    for node in children(tree.root_node()) {
        let header = match language {
            Language::Rust => {
                let t = text(node, source);
                t.starts_with("//!") || t.starts_with("#!")
            }
            Language::Python => {
                node.kind() == "comment"
                    || (node.kind() == "expression_statement"
                        && node.named_child(0).is_some_and(|s| s.kind() == "string"))
            }
            Language::Java => node.kind() == "package_declaration",
        };
        if !header {
            break;
        }
        at = source[node.end_byte()..]
            .find('\n')
            .map_or(source.len(), |i| node.end_byte() + i + 1);
    }
    at
}

// --- (e) dead statements -------------------------------------------------------------------

/// A dead statement (a variable assigned and never read) inserted, in the block's indentation,
/// before a statement of a block every two or three lines.
pub fn dead_code(sources: &Sources, seed: u64) -> Sources {
    let mut rng = StdRng::seed_from_u64(seed);
    each_file(sources, |language, source| {
        let blocks: &[&str] = match language {
            Language::Java => &["block", "constructor_body"],
            Language::Rust | Language::Python => &["block"],
        };
        let tree = parse(language, source);
        let mut edits = Vec::new();
        let (mut next_row, mut count) = (2, 0);
        for node in nodes(&tree) {
            let in_block = node.parent().is_some_and(|p| blocks.contains(&p.kind()));
            // Java's `super(...)` and `this(...)` must come first in a constructor.
            let first_only = node.kind() == "explicit_constructor_invocation";
            if !in_block || !node.is_named() || node.kind().contains("comment") || first_only {
                continue;
            }
            let line_start = source[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
            let indent = &source[line_start..node.start_byte()];
            let row = node.start_position().row;
            if !indent.trim().is_empty() || row < next_row {
                continue;
            }
            count += 1;
            let forms: [String; 3] = match language {
                Language::Rust => [
                    format!("let _unused{count} = {count};"),
                    format!("let _spare{count}: i64 = {count} * 2;"),
                    format!("let _ = {count} + 1;"),
                ],
                Language::Java => [
                    format!("int unused{count} = {count};"),
                    format!("long spare{count} = {count} * 2L;"),
                    format!("String note{count} = \"{count}\";"),
                ],
                Language::Python => [
                    format!("_unused{count} = {count}"),
                    format!("_spare{count} = {count} * 2"),
                    format!("_note{count} = \"{count}\""),
                ],
            };
            let statement = &forms[rng.random_range(0..forms.len())];
            edits.push((line_start..line_start, format!("{indent}{statement}\n")));
            next_row = row + rng.random_range(2..=3);
        }
        apply(source, edits)
    })
}

// --- (f) loops and conditions rewritten -----------------------------------------------------

/// Counting loops rewritten as while loops (Rust's `for i in a..b`, Java's three-part `for`,
/// Python's `for i in range(...)`), and each `if` with a plain `else` turned round (its
/// condition negated, its branches swapped), from the last in the text to the first.
pub fn rewrite(sources: &Sources) -> Sources {
    each_file(sources, |language, source| {
        let found = |node: Node<'_>, text: &str| rewritten(language, node, text);
        last_first(language, source, found, |edits, _| edits)
    })
}

/// The edits that rewrite `node`, if it is a counting loop or an `if` with a plain `else`.
fn rewritten(
    language: Language,
    node: Node<'_>,
    source: &str,
) -> Option<Vec<(Range<usize>, String)>> {
    let field = |name: &str| node.child_by_field_name(name);
    let line_start = source[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    let indent = &source[line_start..node.start_byte()];
    if !indent.trim().is_empty() {
        return None;
    }
    match (language, node.kind()) {
        (Language::Rust, "for_expression") => {
            let (pattern, range, body) = (field("pattern")?, field("value")?, field("body")?);
            if pattern.kind() != "identifier" || range.kind() != "range_expression" {
                return None;
            }
            let parts = children(range);
            let [from, op, to] = parts.as_slice() else {
                return None;
            };
            let compare = if text(*op, source) == "..=" {
                "<="
            } else {
                "<"
            };
            let name = text(pattern, source);
            let inner = &source[body.start_byte() + 1..body.end_byte() - 1];
            Some(vec![(
                node.byte_range(),
                format!(
                    "let mut {name} = {};\n{indent}while {name} {compare} {} {{{inner}    {name} += 1;\n{indent}}}",
                    text(*from, source),
                    text(*to, source)
                ),
            )])
        }
        (Language::Java, "for_statement") => {
            let (init, condition, body) = (field("init")?, field("condition")?, field("body")?);
            let updates: Vec<Node<'_>> = {
                let mut cursor = node.walk();
                node.children_by_field_name("update", &mut cursor).collect()
            };
            let [update] = updates.as_slice() else {
                return None;
            };
            if body.kind() != "block" {
                return None;
            }
            let init = text(init, source);
            let semicolon = if init.ends_with(';') { "" } else { ";" };
            let inner = &source[body.start_byte() + 1..body.end_byte() - 1];
            Some(vec![(
                node.byte_range(),
                format!(
                    "{{\n{indent}    {init}{semicolon}\n{indent}    while ({}) {{{inner}    {};\n{indent}    }}\n{indent}}}",
                    text(condition, source),
                    text(*update, source)
                ),
            )])
        }
        (Language::Python, "for_statement") => {
            let (left, right, body) = (field("left")?, field("right")?, field("body")?);
            let function = right.child_by_field_name("function")?;
            let arguments = right.child_by_field_name("arguments")?;
            let bounds: Vec<&str> = children(arguments)
                .into_iter()
                .filter(|a| a.is_named())
                .map(|a| text(a, source))
                .collect();
            let (from, to) = match bounds.as_slice() {
                [to] => ("0", *to),
                [from, to] => (*from, *to),
                _ => return None,
            };
            let header_end = body.prev_sibling()?.end_byte();
            let gap = &source[header_end..body.start_byte()];
            if left.kind() != "identifier"
                || text(function, source) != "range"
                || field("alternative").is_some()
                || !gap.contains('\n')
                || bounds.iter().any(|b| b.contains('='))
            {
                return None;
            }
            let body_indent = gap.rsplit('\n').next().unwrap_or("");
            let name = text(left, source);
            Some(vec![(
                node.byte_range(),
                format!(
                    "{name} = {from}\n{indent}while {name} < {to}:{gap}{}\n{body_indent}{name} += 1",
                    text(body, source)
                ),
            )])
        }
        (_, "if_expression" | "if_statement") => {
            let (condition, consequence) = (field("condition")?, field("consequence")?);
            let alternatives: Vec<Node<'_>> = {
                let mut cursor = node.walk();
                node.children_by_field_name("alternative", &mut cursor)
                    .collect()
            };
            let [alternative] = alternatives.as_slice() else {
                return None;
            };
            let other = match alternative.kind() {
                "else_clause" => alternative
                    .child_by_field_name("body")
                    .or_else(|| alternative.named_child(0))?,
                _ => *alternative,
            };
            let blocks = ["block"];
            let plain = blocks.contains(&consequence.kind()) && blocks.contains(&other.kind());
            let negated = match language {
                Language::Rust if !condition.kind().starts_with("let") => {
                    format!("!({})", text(condition, source))
                }
                Language::Java => format!("(!{})", text(condition, source)),
                Language::Python => format!("not ({})", text(condition, source)),
                Language::Rust => return None,
            };
            let own_lines = language != Language::Python
                || [consequence, other].iter().all(|b| {
                    let start = source[..b.start_byte()].rfind('\n').map_or(0, |i| i + 1);
                    source[start..b.start_byte()].trim().is_empty()
                });
            if !plain || !own_lines {
                return None;
            }
            Some(vec![
                (condition.byte_range(), negated),
                (consequence.byte_range(), text(other, source).to_string()),
                (other.byte_range(), text(consequence, source).to_string()),
            ])
        }
        _ => None,
    }
}

// --- (g) helpers inlined --------------------------------------------------------------------

/// A helper that can be inlined: its parameters, whether it takes `self`, its body's one
/// expression (as text, with where each parameter and `self` occur in it), and its definition's
/// place, to remove it once no call of it is left.
struct Helper {
    file: PathBuf,
    definition: Range<usize>,
    parameters: Vec<String>,
    receiver: bool,
    body: String,
    holes: Vec<(Range<usize>, Hole)>,
    /// The names its body calls.
    calls: Vec<String>,
    /// Whether its definition can go without leaving an empty Python block.
    removable: bool,
}

/// What goes in at one place of a helper's body: an argument, or the call's receiver.
#[derive(Clone, Copy)]
enum Hole {
    Argument(usize),
    Receiver,
}

/// Each helper whose body is one expression (Rust's tail expression, a lone `return` in Java
/// and Python), with plain parameters, defined once in the submission and calling no other
/// such helper, put in place of each of its calls, in parentheses, the call's arguments for its
/// parameters and the call's receiver for `self` or `this`; a helper that nothing names any
/// more is removed, as a student who inlines the helpers tidies up.
pub fn inline(sources: &Sources) -> Sources {
    let trees: BTreeMap<&PathBuf, (Language, Tree)> = sources
        .iter()
        .filter_map(|(path, source)| {
            let language = Language::of(path)?;
            Some((path, (language, parse(language, source))))
        })
        .collect();
    let mut defined: BTreeMap<String, Vec<Option<Helper>>> = BTreeMap::new();
    for (path, (language, tree)) in &trees {
        let source = &sources[*path];
        for node in nodes(tree) {
            if !matches!(
                node.kind(),
                "function_item" | "method_declaration" | "function_definition"
            ) {
                continue;
            }
            let Some(name) = node.child_by_field_name("name") else {
                continue;
            };
            let helper = helper(*language, node, source).map(|mut helper| {
                helper.file = (*path).clone();
                helper
            });
            let name = text(name, source).to_string();
            defined.entry(name).or_default().push(helper);
        }
    }
    let mut helpers: BTreeMap<String, Helper> = defined
        .into_iter()
        .filter(|(name, found)| {
            found.len() == 1 && !trees.values().any(|(language, _)| language.reserved(name))
        })
        .filter_map(|(name, mut found)| Some((name, found.pop().flatten()?)))
        .collect();
    let calling: BTreeSet<String> = helpers
        .iter()
        .filter(|(_, helper)| helper.calls.iter().any(|name| helpers.contains_key(name)))
        .map(|(name, _)| name.clone())
        .collect();
    helpers.retain(|name, _| !calling.contains(name));
    let mut edits: BTreeMap<PathBuf, Vec<(Range<usize>, String)>> = BTreeMap::new();
    let mut inlined: BTreeMap<&str, usize> = BTreeMap::new();
    let mut named: BTreeMap<&str, usize> = BTreeMap::new();
    for (path, (language, tree)) in &trees {
        let source = &sources[*path];
        // A call inside an argument of a call already inlined stays as it is.
        let mut covered = 0;
        for node in nodes(tree) {
            if node.child_count() == 0 {
                if let Some((name, _)) = helpers.get_key_value(text(node, source)) {
                    *named.entry(name).or_default() += 1;
                }
            }
            let Some((name, receiver, arguments)) = callee(node, source) else {
                continue;
            };
            if node.start_byte() < covered {
                continue;
            }
            let Some((name, helper)) = helpers.get_key_value(name) else {
                continue;
            };
            let arguments: Vec<&str> = arguments.iter().map(|a| text(*a, source)).collect();
            let unbound = helper.receiver && receiver.is_none() && *language == Language::Python;
            if arguments.len() != helper.parameters.len() || unbound {
                continue;
            }
            let mut body = helper.body.clone();
            for (range, hole) in helper.holes.iter().rev() {
                let put = match hole {
                    Hole::Argument(i) => bracketed(arguments[*i]),
                    Hole::Receiver => match receiver {
                        Some(receiver) => bracketed(text(receiver, source)),
                        None => continue,
                    },
                };
                body.replace_range(range.clone(), &put);
            }
            edits
                .entry((*path).clone())
                .or_default()
                .push((node.byte_range(), bracketed(&body)));
            covered = node.end_byte();
            *inlined.entry(name).or_default() += 1;
        }
    }
    for (name, helper) in &helpers {
        let calls = inlined.get(name.as_str()).copied().unwrap_or(0);
        // The definition's own name is the one mention left where every call was inlined.
        if calls == 0 || named.get(name.as_str()) != Some(&(calls + 1)) || !helper.removable {
            continue;
        }
        let file = edits.entry(helper.file.clone()).or_default();
        let clear = |(range, _): &(Range<usize>, String)| {
            range.end <= helper.definition.start || range.start >= helper.definition.end
        };
        if file.iter().all(clear) {
            file.push((helper.definition.clone(), String::new()));
        }
    }
    sources
        .iter()
        .map(|(path, source)| match edits.remove(path) {
            Some(edits) => (path.clone(), apply(source, edits)),
            None => (path.clone(), source.clone()),
        })
        .collect()
}

/// `code` in brackets, unless it is a name, a number or a path of names (as a student who
/// inlines by hand writes it).
fn bracketed(code: &str) -> String {
    match code
        .chars()
        .all(|c| c.is_alphanumeric() || c == '_' || c == '.')
    {
        true => code.to_string(),
        false => format!("({code})"),
    }
}

/// `node` as a [`Helper`] (its file left empty), if it is one: a function or method that no
/// trait or decorator depends on, with plain parameters and a body of one expression.
fn helper(language: Language, node: Node<'_>, source: &str) -> Option<Helper> {
    let parameters = node.child_by_field_name("parameters")?;
    let body = node.child_by_field_name("body")?;
    let statements: Vec<Node<'_>> = children(body)
        .into_iter()
        .filter(|c| c.is_named() && !c.kind().contains("comment"))
        .collect();
    let [only] = statements[..] else {
        return None;
    };
    let expression = match language {
        Language::Rust => {
            let in_trait = node
                .parent()
                .and_then(|list| list.parent())
                .is_some_and(|item| {
                    item.kind() == "trait_item"
                        || (item.kind() == "impl_item"
                            && item.child_by_field_name("trait").is_some())
                });
            let statement = only.kind().ends_with("statement")
                || only.kind().ends_with("declaration")
                || only.kind().ends_with("item");
            (!in_trait && !statement).then_some(only)?
        }
        Language::Java | Language::Python => {
            let decorated = node
                .parent()
                .is_some_and(|p| p.kind() == "decorated_definition");
            let returned = only.kind() == "return_statement" && !decorated;
            returned.then(|| only.named_child(0)).flatten()?
        }
    };
    let mut names = Vec::new();
    let mut receiver = false;
    for (index, parameter) in children(parameters)
        .into_iter()
        .filter(|c| c.is_named() && !c.kind().contains("comment"))
        .enumerate()
    {
        let name = match (language, parameter.kind()) {
            (Language::Rust, "self_parameter") => {
                receiver = true;
                continue;
            }
            (Language::Rust, "parameter") => parameter.child_by_field_name("pattern")?,
            (Language::Java, "formal_parameter") => parameter.child_by_field_name("name")?,
            (Language::Python, "identifier") => parameter,
            _ => return None,
        };
        let name = text(name, source);
        let is_self = language == Language::Python && index == 0 && name == "self";
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return None;
        }
        match is_self {
            true => receiver = true,
            false => names.push(name.to_string()),
        }
    }
    let start = expression.start_byte();
    let mut holes = Vec::new();
    let mut calls = Vec::new();
    let mut inside = expression.walk();
    let mut pending = vec![expression];
    while let Some(node) = pending.pop() {
        pending.extend(node.children(&mut inside));
        calls.extend(callee(node, source).map(|(name, _, _)| name.to_string()));
        let word = text(node, source);
        let member = node.parent().is_some_and(|parent| {
            ["field", "attribute", "name"]
                .iter()
                .any(|field| parent.child_by_field_name(field) == Some(node))
        });
        let hole = match node.kind() {
            "self" | "this" => Some(Hole::Receiver),
            "identifier" if language == Language::Python && word == "self" => Some(Hole::Receiver),
            "identifier" if !member => names.iter().position(|n| n == word).map(Hole::Argument),
            _ => None,
        };
        if let Some(hole) = hole {
            holes.push((node.start_byte() - start..node.end_byte() - start, hole));
        }
    }
    holes.sort_by_key(|(range, _)| range.start);
    let line_start = source[..node.start_byte()].rfind('\n').map_or(0, |i| i + 1);
    let line_end = source[node.end_byte()..]
        .find('\n')
        .map_or(source.len(), |i| node.end_byte() + i + 1);
    let alone = node.parent().is_some_and(|block| {
        children(block)
            .iter()
            .filter(|c| c.is_named() && !c.kind().contains("comment"))
            .count()
            == 1
    });
    Some(Helper {
        file: PathBuf::new(),
        calls,
        removable: !(language == Language::Python && alone),
        definition: line_start..line_end,
        parameters: names,
        receiver,
        body: text(expression, source).to_string(),
        holes,
    })
}

/// The name `node` calls, its receiver (`x` of `x.name(...)`) and its arguments, if it is a
/// call of a name.
fn callee<'t>(
    node: Node<'t>,
    source: &'t str,
) -> Option<(&'t str, Option<Node<'t>>, Vec<Node<'t>>)> {
    let (name, receiver, arguments) = match node.kind() {
        "call_expression" | "call" => {
            let function = node.child_by_field_name("function")?;
            let arguments = node.child_by_field_name("arguments")?;
            match function.kind() {
                "identifier" => (function, None, arguments),
                "scoped_identifier" => (function.child_by_field_name("name")?, None, arguments),
                "field_expression" => (
                    function.child_by_field_name("field")?,
                    function.child_by_field_name("value"),
                    arguments,
                ),
                "attribute" => (
                    function.child_by_field_name("attribute")?,
                    function.child_by_field_name("object"),
                    arguments,
                ),
                _ => return None,
            }
        }
        "method_invocation" => (
            node.child_by_field_name("name")?,
            node.child_by_field_name("object"),
            node.child_by_field_name("arguments")?,
        ),
        _ => return None,
    };
    let arguments: Vec<Node<'t>> = children(arguments)
        .into_iter()
        .filter(|c| c.is_named() && !c.kind().contains("comment"))
        .collect();
    let plain = arguments.iter().all(|a| {
        !matches!(
            a.kind(),
            "keyword_argument" | "list_splat" | "dictionary_splat" | "spread_element"
        )
    });
    plain.then_some((text(name, source), receiver, arguments))
}

// --- (h) a part taken -----------------------------------------------------------------------

/// The functions and methods of `source` named `names`, as a file of their own: its name and
/// text, the methods in a type of their own (`Copied`).
pub fn items_named(language: Language, source: &str, names: &[&str]) -> (String, String) {
    let kinds = ["function_item", "method_declaration", "function_definition"];
    let tree = parse(language, source);
    let items: Vec<&str> = nodes(&tree)
        .into_iter()
        .filter(|n| kinds.contains(&n.kind()))
        .filter(|n| {
            n.child_by_field_name("name")
                .is_some_and(|name| names.contains(&text(name, source)))
        })
        .map(|n| text(n, source))
        .collect();
    assert_eq!(items.len(), names.len(), "each of {names:?} is found once");
    let methods = items.join("\n\n    ");
    let text = match language {
        Language::Rust => format!("impl Copied {{\n    {methods}\n}}\n"),
        Language::Java => format!("final class Copied {{\n    {methods}\n}}\n"),
        Language::Python => format!("{}\n", items.join("\n\n\n")),
    };
    let name = match language {
        Language::Java => "Copied.java".to_string(),
        _ => format!("copied.{}", language.extension()),
    };
    (name, text)
}

/// Each solution of the test class's sources (a starter project's `src/` only), by name.
fn class_sources() -> Vec<(&'static str, Sources)> {
    let dir = tempfile::tempdir().unwrap();
    crate::classroom::solutions()
        .into_iter()
        .map(|solution| {
            let (name, folder) = (solution.name, dir.path().join(solution.name));
            (solution.write)(&folder);
            let part = if folder.join("supplied").is_dir() {
                folder.join("src")
            } else {
                folder
            };
            (name, read_sources(&part))
        })
        .collect()
}

#[test]
fn every_disguise_of_every_solution_parses_cleanly_and_differs_from_it() {
    for (name, sources) in class_sources() {
        assert!(!sources.is_empty(), "{name} has no sources");
        for (path, text) in &sources {
            assert!(
                parses_cleanly(path, text),
                "{name}/{} does not parse as given",
                path.display()
            );
        }
        for kind in Disguise::EVERY {
            let disguised = disguise(&sources, kind, 7);
            assert_ne!(disguised, sources, "{name} {kind:?} changed nothing");
            for (path, text) in &disguised {
                assert!(
                    parses_cleanly(path, text),
                    "{name} {kind:?}: {} does not parse:\n{text}",
                    path.display()
                );
            }
            assert_eq!(
                disguise(&sources, kind, 7),
                disguised,
                "{name} {kind:?} is not seeded"
            );
        }
    }
}

#[test]
fn renaming_replaces_every_defined_name_consistently_and_keeps_the_reserved_ones() {
    let source = "class Board:\n    def __init__(self, rows):\n        self.rows = rows\n\n    \
                  def count(self):\n        return len(self.rows)\n\n\ndef helper(board):\n    \
                  return board.rows\n";
    let sources = Sources::from([(PathBuf::from("game.py"), source.to_string())]);
    let renamed = rename(&sources, 1);
    let text = &renamed[Path::new("game.py")];
    for gone in ["Board", "rows", "helper", "board"] {
        assert!(!text.contains(gone), "{gone} is still in:\n{text}");
    }
    for kept in ["__init__", "self", "count", "len"] {
        assert!(text.contains(kept), "{kept} was renamed:\n{text}");
    }
    // One new name for each old one, used everywhere the old one was.
    assert_eq!(
        text.matches("self.").count(),
        source.matches("self.").count()
    );
    assert!(parses_cleanly(Path::new("game.py"), text));
}

#[test]
fn a_renamed_java_class_renames_its_file_and_moving_code_makes_and_merges_files() {
    let sources = Sources::from([
        (PathBuf::from("Board.java"), "final class Board {\n    int cells;\n    int a() { return 1; }\n    int b() { return 2; }\n}\n".to_string()),
        (PathBuf::from("Main.java"), "import java.util.List;\n\npublic class Main {\n    public static void main(String[] args) { new Board(); }\n}\n".to_string()),
    ]);
    let renamed = rename(&sources, 3);
    assert!(
        !renamed.contains_key(Path::new("Board.java")),
        "{renamed:?}"
    );
    assert_eq!(renamed.len(), 2);
    // Board.java, the smaller, is merged into Main.java, whose largest class (Board's) then
    // has its last method split off into a class of its own.
    let moved = move_code(&sources, 3);
    assert!(!moved.contains_key(Path::new("Board.java")), "{moved:#?}");
    let merged = &moved[Path::new("Main.java")];
    assert!(merged.starts_with("import java.util.List;"), "{merged}");
    assert!(
        merged.contains("public class Main") && merged.contains("class Board"),
        "{merged}"
    );
    assert!(
        merged.contains("int a()") && !merged.contains("int b()"),
        "{merged}"
    );
    let split: Vec<&String> = moved.values().filter(|t| t.contains("int b()")).collect();
    assert_eq!(split.len(), 1, "{moved:#?}");
    assert!(
        split[0].contains("final class MainHelpers") || split[0].contains("final class Main"),
        "{moved:#?}"
    );
}

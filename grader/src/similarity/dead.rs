//! Statements that do nothing, left out of the tokens the similarity check compares: a local
//! variable that nothing reads, set from literals, names and operators alone (`let _spare =
//! 3 * 2;`, `int unused = 3;`, `_note = "3"` inside a function), or such an expression alone as
//! a statement. Students hide a copy by sprinkling them between its lines, which breaks every
//! k-gram across them; taking them out before hashing (as JPlag normalises token sequences
//! against inserted dead code) gives the copy its fragments back. What has an effect (a call,
//! an assignment to something read elsewhere, a field read that may run code) always stays.

use std::collections::HashMap;

use tree_sitter::{Node, Tree};

use crate::kit::style::Language;

/// The dead statements of one file: which names it mentions only once.
pub struct Dead<'t> {
    language: Language,
    text: &'t str,
    mentions: HashMap<&'t str, usize>,
}

impl<'t> Dead<'t> {
    /// What tells the dead statements of `tree`, a `language` file of `text`.
    pub fn of(tree: &Tree, text: &'t str, language: Language) -> Dead<'t> {
        let mut mentions = HashMap::new();
        let mut cursor = tree.walk();
        'walk: loop {
            let node = cursor.node();
            if node.child_count() == 0 && node.kind().ends_with("identifier") {
                *mentions.entry(&text[node.byte_range()]).or_insert(0) += 1;
            }
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        Dead {
            language,
            text,
            mentions,
        }
    }

    /// Whether `node` is a statement that does nothing.
    pub fn holds(&self, node: &Node) -> bool {
        let field = |name: &str| node.child_by_field_name(name);
        match (self.language, node.kind()) {
            (Language::Rust, "let_declaration") => {
                field("alternative").is_none()
                    && field("pattern").is_some_and(|p| self.unread(&p))
                    && field("value").is_some_and(|v| self.pure(&v))
            }
            (Language::Rust, "expression_statement") => self.only_child_pure(node),
            (Language::Java, "local_variable_declaration") => {
                let mut declared = named_children(node)
                    .filter(|c| c.kind() == "variable_declarator")
                    .peekable();
                declared.peek().is_some()
                    && declared.all(|d| {
                        d.child_by_field_name("name")
                            .is_some_and(|n| self.unread(&n))
                            && d.child_by_field_name("value").is_none_or(|v| self.pure(&v))
                    })
            }
            (Language::Python, "expression_statement") => {
                let in_function = node.parent().is_some_and(|p| p.kind() == "block");
                let mut children = named_children(node);
                match (children.next(), children.next()) {
                    (Some(only), None) if only.kind() == "assignment" => {
                        let left = only.child_by_field_name("left");
                        let right = only.child_by_field_name("right");
                        in_function
                            && left.is_some_and(|l| self.unread(&l))
                            && right.is_some_and(|r| self.pure(&r))
                    }
                    (Some(only), None) => in_function && self.pure(&only),
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// Whether `pattern` binds a name that is nowhere else in the file (or none: `_`).
    fn unread(&self, pattern: &Node) -> bool {
        let name = &self.text[pattern.byte_range()];
        name == "_"
            || (pattern.kind() == "identifier" && self.mentions.get(name).copied() == Some(1))
    }

    /// Whether `node`'s one child is a pure expression.
    fn only_child_pure(&self, node: &Node) -> bool {
        let mut children = named_children(node);
        matches!((children.next(), children.next()), (Some(only), None) if self.pure(&only))
    }

    /// Whether evaluating `node` can have no effect: literals, names, operators and brackets
    /// only (and Rust's casts to a primitive type). Walked by a cursor: a literal may nest
    /// deeper than a stack.
    fn pure(&self, node: &Node) -> bool {
        let mut cursor = node.walk();
        'walk: loop {
            let here = cursor.node();
            if here.is_named() && !allowed(here.kind()) {
                return false;
            }
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if cursor.node() == *node {
                    break 'walk;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break 'walk;
                }
            }
        }
        true
    }
}

/// The named children of `node`, comments left out.
fn named_children<'t>(node: &Node<'t>) -> impl Iterator<Item = Node<'t>> {
    let mut cursor = node.walk();
    let children: Vec<Node<'t>> = node.named_children(&mut cursor).collect();
    children
        .into_iter()
        .filter(|c| !c.kind().contains("comment"))
}

/// Whether a node of `kind` may be part of an expression that has no effect.
fn allowed(kind: &str) -> bool {
    kind.ends_with("identifier")
        || kind.ends_with("literal")
        || kind.ends_with("_operator")
        || matches!(
            kind,
            "binary_expression"
                | "unary_expression"
                | "parenthesized_expression"
                | "type_cast_expression"
                | "primitive_type"
                | "integer"
                | "float"
                | "string"
                | "string_start"
                | "string_content"
                | "string_fragment"
                | "string_end"
                | "escape_sequence"
                | "true"
                | "false"
                | "none"
                | "boolean_operator"
                | "comparison_operator"
                | "not_operator"
        )
}

#[cfg(test)]
mod tests {
    use tree_sitter::Parser;

    use super::*;

    /// The texts of the statements of `text` that do nothing.
    fn dead(text: &str, language: Language) -> Vec<String> {
        let mut parser = Parser::new();
        parser
            .set_language(&super::super::tokens::grammar(language))
            .unwrap();
        let tree = parser.parse(text, None).unwrap();
        let dead = Dead::of(&tree, text, language);
        let mut found = Vec::new();
        let mut pending = vec![tree.root_node()];
        while let Some(node) = pending.pop() {
            if dead.holds(&node) {
                found.push(text[node.byte_range()].to_string());
            }
            let mut cursor = node.walk();
            pending.extend(node.children(&mut cursor));
        }
        found.sort();
        found
    }

    #[test]
    fn unread_locals_set_from_literals_are_dead_in_each_language() {
        let rust = "fn f(x: i32) -> i32 {\n    let _spare: i64 = 3 * 2;\n    let _ = 4 + 1;\n    let y = x + 1;\n    y\n}\n";
        assert_eq!(
            dead(rust, Language::Rust),
            ["let _ = 4 + 1;", "let _spare: i64 = 3 * 2;"]
        );
        let java = "class A { int f(int x) { int unused = 3; String note = \"3\"; int y = x; return y; } }";
        assert_eq!(
            dead(java, Language::Java),
            ["String note = \"3\";", "int unused = 3;"]
        );
        let python = "def f(x):\n    _note = \"3\"\n    y = x * 2\n    return y\n";
        assert_eq!(dead(python, Language::Python), ["_note = \"3\""]);
    }

    #[test]
    fn anything_with_an_effect_or_read_elsewhere_stays() {
        let rust = "fn f(tx: Sender<i32>) {\n    let _ = tx.send(1);\n    let n = 2;\n    let m = n;\n    let _k = m;\n    let _s = self.rows;\n}\n";
        // `let _k = m;` is the one dead: `m` is read there, `n` by `m`.
        assert_eq!(dead(rust, Language::Rust), ["let _k = m;"]);
        let java = "class A { void f() { int x = g(); int y = x++; Object o = new Object(); } }";
        assert!(dead(java, Language::Java).is_empty());
        let python = "ROWS = 6\n\ndef f(board):\n    seen = board.rows\n    total = len(board)\n    print(1)\n";
        assert!(dead(python, Language::Python).is_empty());
    }
}

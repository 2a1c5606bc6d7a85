//! A source file as the syntax tokens the similarity check compares: parsed with the
//! language's tree-sitter grammar, comments left out, every name one token and every literal of
//! a kind one token (so that renaming, reformatting and rewording comments change nothing),
//! every keyword and operator itself, and statements that do nothing left out
//! ([`super::dead`]). Each token keeps its bytes in the file, for the pages that show the
//! matched fragments.

use std::ops::Range;

use tree_sitter::{Language as Grammar, Node, Parser};

use super::dead::Dead;
use crate::kit::style::Language;

/// One token of a file: its kind (hashed, the language's own hashes) and its bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Token {
    /// The kind's hash: equal kinds, equal hashes, within one language.
    pub kind: u64,
    /// Where it is in the file's text.
    pub bytes: Range<usize>,
}

/// Why a file could not be read as tokens.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TokenError {
    /// The parser gave no tree.
    Unparsed,
}

/// The most tokens taken from one file: a file of a million `;` is not a program.
pub const MAX_TOKENS: usize = 200_000;

/// The tokens of `text`, a `language` source, in order (at most [`MAX_TOKENS`]).
pub fn tokens(text: &str, language: Language) -> Result<Vec<Token>, TokenError> {
    let mut parser = Parser::new();
    parser
        .set_language(&grammar(language))
        .map_err(|_| TokenError::Unparsed)?;
    let tree = parser.parse(text, None).ok_or(TokenError::Unparsed)?;
    let dead = Dead::of(&tree, text, language);
    let seed = fnv(language_name(language).as_bytes(), FNV_OFFSET);
    let mut found = Vec::new();
    let mut cursor = tree.root_node().walk();
    // Depth first, by the cursor (no recursion: a file can nest deeper than a stack).
    'walk: loop {
        let node = cursor.node();
        let descend = match gives(&node, &dead) {
            Gives::Skipped => false,
            Gives::Whole(name) => {
                found.push(token(seed, name, &node));
                false
            }
            Gives::Inner => node.child_count() > 0,
        };
        if found.len() >= MAX_TOKENS {
            break;
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        while !cursor.goto_next_sibling() {
            if !cursor.goto_parent() {
                break 'walk;
            }
        }
    }
    Ok(found)
}

/// What a node gives: nothing (a comment, a node the parser made up), one token for the whole
/// of it (a leaf, a name, a literal), or what its children give.
enum Gives<'a> {
    Skipped,
    Whole(&'a str),
    Inner,
}

/// What `node` gives (see [`Gives`]).
fn gives<'a>(node: &Node<'a>, dead: &Dead) -> Gives<'a> {
    let kind = node.kind();
    if node.is_missing() || kind.contains("comment") || dead.holds(node) {
        return Gives::Skipped;
    }
    if is_literal(kind) {
        return Gives::Whole("literal");
    }
    if node.child_count() > 0 {
        return Gives::Inner;
    }
    match kind {
        _ if !node.is_named() => Gives::Whole(kind),
        _ if kind.ends_with("identifier") => Gives::Whole("name"),
        _ if is_number(kind) => Gives::Whole("literal"),
        _ => Gives::Whole(kind),
    }
}

/// Whether a node of `kind` is a string or character literal: one token however it is written
/// inside (its parts are the grammar's detail).
fn is_literal(kind: &str) -> bool {
    matches!(
        kind,
        "string"
            | "string_literal"
            | "raw_string_literal"
            | "char_literal"
            | "character_literal"
            | "text_block"
            | "concatenated_string"
    )
}

/// Whether a leaf of `kind` is a number.
fn is_number(kind: &str) -> bool {
    ["integer", "float", "decimal", "hex", "octal", "binary"]
        .iter()
        .any(|number| kind.contains(number))
}

/// A token of kind `name` for `node`.
fn token(seed: u64, name: &str, node: &Node) -> Token {
    Token {
        kind: fnv(name.as_bytes(), seed),
        bytes: node.byte_range(),
    }
}

/// The grammar of `language`.
pub(super) fn grammar(language: Language) -> Grammar {
    match language {
        Language::Rust => tree_sitter_rust::LANGUAGE.into(),
        Language::Java => tree_sitter_java::LANGUAGE.into(),
        Language::Python => tree_sitter_python::LANGUAGE.into(),
    }
}

/// The language's name, which seeds its kinds' hashes: no two languages share a token.
fn language_name(language: Language) -> &'static str {
    match language {
        Language::Rust => "rust",
        Language::Java => "java",
        Language::Python => "python",
    }
}

/// FNV-1a's offset basis.
const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// The 64-bit FNV-1a hash of `bytes` from `seed`: stable across runs and builds, unlike the
/// standard library's hasher.
fn fnv(bytes: &[u8], seed: u64) -> u64 {
    bytes.iter().fold(seed, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kinds(text: &str, language: Language) -> Vec<u64> {
        tokens(text, language)
            .unwrap()
            .into_iter()
            .map(|t| t.kind)
            .collect()
    }

    #[test]
    fn names_literals_comments_and_layout_do_not_change_the_tokens() {
        let first = "fn score(board: &Board) -> i32 {\n    // the heuristic\n    board.count(4) * 32 + \"x\".len() as i32\n}\n";
        let second =
            "/// Scores.\nfn value(b:&Grid)->i32{b.tally(7)*32+\"long text\".len() as i32}";
        assert_eq!(kinds(first, Language::Rust), kinds(second, Language::Rust));
        let python = "def f(x):\n    # add\n    return x + 1\n";
        let renamed = "def g(y):\n    return y + 2  # two\n";
        assert_eq!(
            kinds(python, Language::Python),
            kinds(renamed, Language::Python)
        );
    }

    #[test]
    fn keywords_and_operators_are_themselves() {
        assert_ne!(
            kinds("int f() { return a + b; }", Language::Java),
            kinds("int f() { return a - b; }", Language::Java)
        );
    }

    #[test]
    fn each_token_keeps_its_bytes_and_comments_give_none() {
        let text = "x = 1 # one\n";
        let found = tokens(text, Language::Python).unwrap();
        let shown: Vec<&str> = found.iter().map(|t| &text[t.bytes.clone()]).collect();
        assert_eq!(shown, ["x", "=", "1"]);
    }

    #[test]
    fn the_same_text_in_two_languages_shares_no_token() {
        let rust = kinds("a + b", Language::Rust);
        let python = kinds("a + b", Language::Python);
        assert!(!rust.is_empty() && !python.is_empty());
        assert!(rust.iter().all(|kind| !python.contains(kind)));
    }

    #[test]
    fn a_file_that_is_not_the_language_still_gives_tokens_and_deep_nesting_no_overflow() {
        assert!(!kinds("}}} fn ( let", Language::Rust).is_empty());
        let deep = format!("x = {}1{}\n", "(".repeat(5000), ")".repeat(5000));
        assert!(kinds(&deep, Language::Python).len() > 1000);
    }
}

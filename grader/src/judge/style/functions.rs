//! The functions of a Rust file and their lengths, parsed with `syn`: free functions, methods
//! (named after their type or trait) and trait methods with a default body, nested ones too.
//! Tests are left out (`#[test]` functions and `#[cfg(test)]` modules): a long test says
//! nothing of the program's design.

use syn::visit::{self, Visit};
use syn::{
    Attribute, Block, ImplItemFn, ItemFn, ItemImpl, ItemMod, ItemTrait, Meta, Signature,
    TraitItemFn, Type,
};

use crate::judge::result::style::Function;

/// Every function of the Rust source `text` of the file `path`, or syn's reason (with its line)
/// when it does not parse.
pub(super) fn functions(path: &str, text: &str) -> Result<Vec<Function>, String> {
    let file = syn::parse_file(text).map_err(|e| {
        let line = e.span().start().line;
        format!("line {line}: {e}")
    })?;
    let mut finder = Finder {
        path,
        owners: Vec::new(),
        found: Vec::new(),
    };
    finder.visit_file(&file);
    Ok(finder.found)
}

/// Walks a file's syntax tree, gathering its functions.
struct Finder<'a> {
    /// The file's path.
    path: &'a str,
    /// The types and traits whose items are being walked, innermost last.
    owners: Vec<String>,
    /// What has been found.
    found: Vec<Function>,
}

impl Finder<'_> {
    /// Adds the function with `sig` and `body`.
    fn add(&mut self, sig: &Signature, body: &Block) {
        let first = sig.fn_token.span.start().line;
        let last = body.brace_token.span.close().end().line;
        let name = match self.owners.last() {
            Some(owner) => format!("{owner}::{}", sig.ident),
            None => sig.ident.to_string(),
        };
        self.found.push(Function {
            path: self.path.to_string(),
            name,
            line: first,
            lines: last.saturating_sub(first) + 1,
        });
    }

    /// Walks a function's body with `walk`: a function nested in a method is not the type's.
    fn within(&mut self, walk: impl FnOnce(&mut Self)) {
        let owners = std::mem::take(&mut self.owners);
        walk(self);
        self.owners = owners;
    }
}

/// Whether `attrs` mark a test: `#[test]` (or a runtime's, `#[tokio::test]`) or `#[cfg(test)]`.
fn is_test(attrs: &[Attribute]) -> bool {
    attrs.iter().any(|attr| match &attr.meta {
        Meta::Path(path) => path.segments.last().is_some_and(|s| s.ident == "test"),
        Meta::List(list) => list.path.is_ident("cfg") && list.tokens.to_string() == "test",
        Meta::NameValue(_) => false,
    })
}

impl<'ast> Visit<'ast> for Finder<'_> {
    fn visit_item_mod(&mut self, item: &'ast ItemMod) {
        if !is_test(&item.attrs) {
            visit::visit_item_mod(self, item);
        }
    }

    fn visit_item_fn(&mut self, item: &'ast ItemFn) {
        if is_test(&item.attrs) {
            return;
        }
        self.add(&item.sig, &item.block);
        self.within(|finder| visit::visit_item_fn(finder, item));
    }

    fn visit_item_impl(&mut self, item: &'ast ItemImpl) {
        let owner = match &*item.self_ty {
            Type::Path(path) => path.path.segments.last().map(|s| s.ident.to_string()),
            _ => None,
        };
        self.owners.push(owner.unwrap_or_else(|| "impl".into()));
        visit::visit_item_impl(self, item);
        self.owners.pop();
    }

    fn visit_impl_item_fn(&mut self, item: &'ast ImplItemFn) {
        self.add(&item.sig, &item.block);
        self.within(|finder| visit::visit_impl_item_fn(finder, item));
    }

    fn visit_item_trait(&mut self, item: &'ast ItemTrait) {
        self.owners.push(item.ident.to_string());
        visit::visit_item_trait(self, item);
        self.owners.pop();
    }

    fn visit_trait_item_fn(&mut self, item: &'ast TraitItemFn) {
        if let Some(body) = &item.default {
            self.add(&item.sig, body);
        }
        self.within(|finder| visit::visit_trait_item_fn(finder, item));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `(name, line, lines)` of each function found in `text`.
    fn found(text: &str) -> Vec<(String, usize, usize)> {
        functions("src/a.rs", text)
            .unwrap()
            .into_iter()
            .map(|f| (f.name, f.line, f.lines))
            .collect()
    }

    #[test]
    fn functions_methods_and_default_bodies_are_measured_from_fn_to_brace() {
        let text = "/// Doc.\npub fn one() {}\n\nimpl Game {\n    fn play(&self) {\n        \
                    let x = 1;\n        fn inner() {\n        }\n    }\n}\n\
                    trait T {\n    fn f();\n    fn g() {\n    }\n}\n\
                    impl T for Vec<u8> {\n    fn f() {}\n}\n";
        assert_eq!(
            found(text),
            [
                ("one".to_string(), 2, 1),
                ("Game::play".to_string(), 5, 5),
                ("inner".to_string(), 7, 2),
                ("T::g".to_string(), 13, 2),
                ("Vec::f".to_string(), 17, 1),
            ]
        );
    }

    #[test]
    fn tests_are_left_out() {
        let text = "fn kept() {}\n#[test]\nfn a() {}\n#[tokio::test]\nasync fn b() {}\n\
                    #[cfg(test)]\nmod tests {\n    fn helper() {}\n}\n\
                    #[cfg(feature = \"gui\")]\nmod gui {\n    fn shown() {}\n}\n";
        let names: Vec<String> = found(text).into_iter().map(|f| f.0).collect();
        assert_eq!(names, ["kept", "shown"]);
    }

    #[test]
    fn source_that_does_not_parse_says_where() {
        let error = functions("src/a.rs", "fn a() {}\nfn b( {\n").unwrap_err();
        assert!(error.starts_with("line 2: "), "{error}");
    }
}

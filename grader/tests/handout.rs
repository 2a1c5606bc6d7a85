//! Keeps `handout.md` true: every example in it is run against the real `connect_four` binary,
//! the code it shows is compared with `src/`, and its rubric with `grading/rubric.toml`. The
//! README's examples follow the same conventions and are run the same way.
//!
//! Students are told that every command and output in the handout comes from the reference, so
//! this file checks exactly that. The conventions in `handout.md`:
//!
//! - A ```` ```console ```` block holds shell commands and their output. A line starting with
//!   `$ ` is a command; the lines after it, up to the next `$ ` line or the end of the block, are
//!   its expected output, standard output and standard error merged, compared exactly line by
//!   line. A last line `[exit N]` gives the expected exit status; without it the status must be 0.
//!   Every command must run `connect_four` (as a word of its own), which is replaced by the path
//!   of the binary under test; the command then runs as `sh -c '{ COMMAND; } 2>&1'`.
//! - A ```` ```protocol ```` block is a grading-protocol session. Its first line is
//!   `$ connect_four ARGS`. After it, a line starting with `> ` is a line sent to the program
//!   (without the `> `); every other line is expected output. All the input is sent at once; the
//!   program's standard output must equal the expected lines, its standard error must be empty
//!   and it must exit with 0. Each input line must be followed in the block by exactly the one
//!   framed response it gets (none for blank and `#` lines), so the transcript reads truthfully.
//! - A ```` ```rust ```` block must be a complete item copied verbatim (trailing white space
//!   aside) from `src/checker.rs` or `src/playable.rs`, doc comments and attributes included.
//!   The handout must show `enum Checker` and `trait Playable` that way.
//! - Other blocks (```` ```sh ````, ```` ```text ````) are illustrations and are never run.
//! - The table under the `## ... rubric` heading lists `| Category | Points | ... |` rows and a
//!   bold total; if `grading/rubric.toml` exists, its categories and points must match.

mod support;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use support::{reference, repository, run_program};

/// The protocol's commands, each of which the handout documents and exercises.
const COMMANDS: [&str; 9] = connect_four_supplied::protocol::COMMAND_WORDS;

/// The protocol's failure payloads, each of which an executed example shows.
const ERRORS: [&str; 6] = [
    "? illegal column",
    "? column full",
    "? game over",
    "? unknown command",
    "? illegal depth",
    "? illegal player",
];

/// One fenced block of the handout.
#[derive(Debug)]
struct Block {
    /// The info string after the opening fence: `console`, `protocol`, `rust`...
    lang: String,
    /// The 1-based line number of the opening fence, for messages.
    line: usize,
    /// The lines between the fences.
    body: Vec<String>,
}

fn root() -> PathBuf {
    repository()
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn handout() -> String {
    read(&root().join("handout.md"))
}

/// The fenced blocks of `text`, in order.
fn blocks(text: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut open: Option<Block> = None;
    for (i, line) in text.lines().enumerate() {
        match (&mut open, line.strip_prefix("```")) {
            (None, Some(info)) => {
                open = Some(Block {
                    lang: info.trim().to_string(),
                    line: i + 1,
                    body: Vec::new(),
                })
            }
            (Some(_), Some("")) => blocks.extend(open.take()),
            (Some(block), _) => block.body.push(line.to_string()),
            (None, None) => {}
        }
    }
    assert!(open.is_none(), "handout.md ends inside a fenced block");
    blocks
}

/// Panics listing every failure, if there are any.
fn report(failures: Vec<String>) {
    assert!(
        failures.is_empty(),
        "handout.md is out of date:\n\n{}",
        failures.join("\n\n")
    );
}

/// `lines` as the text a program prints: each line ended by a newline.
fn as_output(lines: &[String]) -> String {
    lines.iter().map(|l| format!("{l}\n")).collect()
}

/// `command` with every word `connect_four` replaced by the quoted path of the binary.
fn with_binary(command: &str) -> Option<String> {
    let binary = reference().display().to_string();
    let quoted = format!("'{}'", binary.replace('\'', r"'\''"));
    let words: Vec<&str> = command.split(' ').collect();
    words.contains(&"connect_four").then(|| {
        words
            .iter()
            .map(|&w| if w == "connect_four" { &quoted } else { w })
            .collect::<Vec<_>>()
            .join(" ")
    })
}

/// Runs one console block; returns its failures.
fn check_console(block: &Block) -> Vec<String> {
    let mut failures = Vec::new();
    let mut lines = block.body.iter().peekable();
    while let Some(first) = lines.next() {
        let Some(command) = first.strip_prefix("$ ") else {
            failures.push(format!(
                "line {}: a console block must start with a `$ ` command, not {first:?}",
                block.line
            ));
            break;
        };
        let mut expected = Vec::new();
        while let Some(line) = lines.next_if(|l| !l.starts_with("$ ")) {
            expected.push(line.clone());
        }
        let status = match expected.last().and_then(|l| l.strip_prefix("[exit ")) {
            Some(code) => {
                let code = code.trim_end_matches(']').parse::<i32>();
                expected.pop();
                code.unwrap_or(-1)
            }
            None => 0,
        };
        let Some(shell) = with_binary(command) else {
            failures.push(format!(
                "line {}: `{command}` does not run connect_four",
                block.line
            ));
            continue;
        };
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("{{ {shell}; }} 2>&1"))
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let actual = String::from_utf8_lossy(&output.stdout);
        let want = as_output(&expected);
        if actual != want {
            failures.push(format!(
                "line {}: `{command}`\n--- expected\n{want}--- actual\n{actual}---",
                block.line
            ));
        }
        if output.status.code() != Some(status) {
            failures.push(format!(
                "line {}: `{command}` exited with {:?}, the handout says {status}",
                block.line,
                output.status.code()
            ));
        }
    }
    failures
}

/// Whether the protocol ignores `input` (a blank line or a comment).
fn ignored(input: &str) -> bool {
    let input = input.trim();
    input.is_empty() || input.starts_with('#')
}

/// Checks that each input line of a transcript is followed by exactly its one framed response.
fn check_framing(block: &Block) -> Vec<String> {
    let mut failures = Vec::new();
    let body = &block.body[1..];
    let mut i = 0;
    while i < body.len() {
        let Some(input) = body[i].strip_prefix("> ") else {
            failures.push(format!(
                "line {}: output {:?} answers no input line",
                block.line, body[i]
            ));
            break;
        };
        let answer: Vec<&String> = body[i + 1..]
            .iter()
            .take_while(|l| !l.starts_with("> "))
            .collect();
        let framed = answer.len() >= 2
            && (answer[0].starts_with('=') || answer[0].starts_with('?'))
            && answer.last().is_some_and(|l| l.is_empty())
            && answer[..answer.len() - 1].iter().all(|l| !l.is_empty());
        if ignored(input) != answer.is_empty() || (!ignored(input) && !framed) {
            failures.push(format!(
                "line {}: input {input:?} must be followed by {}, not {answer:?}",
                block.line,
                if ignored(input) {
                    "no answer"
                } else {
                    "exactly one framed answer"
                }
            ));
        }
        i += 1 + answer.len();
    }
    failures
}

/// Runs one protocol session; returns its failures.
fn check_protocol(block: &Block) -> Vec<String> {
    let Some(args) = block
        .body
        .first()
        .and_then(|l| l.strip_prefix("$ connect_four "))
    else {
        return vec![format!(
            "line {}: a protocol block must start with `$ connect_four ARGS`",
            block.line
        )];
    };
    let (input, expected): (Vec<String>, Vec<String>) = block.body[1..]
        .iter()
        .cloned()
        .partition(|l| l.starts_with("> "));
    let input: Vec<String> = input.iter().map(|l| l[2..].to_string()).collect();
    let words: Vec<&str> = args.split_whitespace().collect();
    let output = run_program(reference(), &words, &as_output(&input));
    let mut failures = check_framing(block);
    let (actual, want) = (
        String::from_utf8_lossy(&output.stdout),
        as_output(&expected),
    );
    if actual != want {
        failures.push(format!(
            "line {}: protocol session `connect_four {args}`\n--- expected\n{want}--- actual\n{actual}---",
            block.line
        ));
    }
    if !output.status.success() || !output.stderr.is_empty() {
        failures.push(format!(
            "line {}: `connect_four {args}` exited with {:?} and wrote to stderr: {}",
            block.line,
            output.status.code(),
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    failures
}

/// Checks every console and protocol block of `text`.
fn check_examples(text: &str) -> Vec<String> {
    blocks(text)
        .iter()
        .flat_map(|block| match block.lang.as_str() {
            "console" => check_console(block),
            "protocol" => check_protocol(block),
            _ => Vec::new(),
        })
        .collect()
}

#[test]
fn every_example_matches_the_binary() {
    let text = handout();
    let all = blocks(&text);
    let run = |lang| all.iter().filter(|b| b.lang == lang).count();
    assert!(
        run("console") >= 3 && run("protocol") >= 1,
        "the handout should show command-line and protocol examples"
    );
    report(check_examples(&text));
}

#[test]
fn every_readme_example_matches_the_binary() {
    let text = read(&root().join("README.md"));
    assert!(
        blocks(&text).iter().any(|b| b.lang == "console"),
        "the README should show a command-line example"
    );
    report(check_examples(&text));
}

#[test]
fn the_worked_example_adds_up_to_nineteen() {
    let text = handout();
    let shown = blocks(&text).into_iter().any(|b| {
        b.lang == "console"
            && b.body
                .first()
                .is_some_and(|c| c.contains(r"heuristic 3\n") && c.contains("connect_four 6 7"))
            && b.body.iter().any(|l| l == "= 19")
    });
    assert!(
        shown,
        "the worked example's protocol check (= 19) is missing"
    );
    assert!(text.contains("13 + 4 + 1 + 1 = **19**"));
}

#[test]
fn a_broken_example_is_caught() {
    let good = "```console\n$ connect_four 0 7 5 2\nerror: invalid value '0' for '<ROWS>': \
                must be a whole number from 1 to 32\n\nFor more information, try '--help'.\n\
                [exit 2]\n```\n";
    assert_eq!(check_examples(good), Vec::<String>::new());
    let wrong_status = good.replace("[exit 2]", "[exit 0]");
    assert_eq!(check_examples(&wrong_status).len(), 1);
    let wrong_output = good.replace("from 1 to 32", "from 1 to 33");
    assert_eq!(check_examples(&wrong_output).len(), 1);
    let session = "```protocol\n$ connect_four 6 7 2 1 --protocol\n> new red\n= red\n\n> play 3\n= 5\n\n```\n";
    assert_eq!(check_examples(session), Vec::<String>::new());
    assert!(!check_examples(&session.replace("= 5", "= 0")).is_empty());
    // The right output in the wrong place: both answers under the first command.
    let misplaced = "```protocol\n$ connect_four 6 7 2 1 --protocol\n> new red\n= red\n\n= 5\n\n> play 3\n```\n";
    assert_eq!(check_examples(misplaced).len(), 2);
}

/// `text`'s lines without trailing white space.
fn trimmed(text: &str) -> Vec<String> {
    text.lines().map(|l| l.trim_end().to_string()).collect()
}

/// Whether `block` is a complete item in `source`: its lines appear there consecutively, preceded
/// by no doc comment or attribute the block left out, and it ends with the item's closing brace.
fn complete_item_in(block: &[String], source: &[String]) -> bool {
    block.last().is_some_and(|l| l == "}")
        && source.windows(block.len()).enumerate().any(|(i, w)| {
            w == block
                && (i == 0 || {
                    let before = source[i - 1].trim_start();
                    !before.starts_with("///") && !before.starts_with("#[")
                })
        })
}

#[test]
fn rust_blocks_are_verbatim_from_src() {
    let sources: Vec<(&str, Vec<String>)> = [
        "starter/supplied/src/checker.rs",
        "starter/supplied/src/playable.rs",
    ]
    .into_iter()
    .map(|p| (p, trimmed(&read(&root().join(p)))))
    .collect();
    let text = handout();
    let rust: Vec<Block> = blocks(&text)
        .into_iter()
        .filter(|b| b.lang == "rust")
        .collect();
    let mut failures = Vec::new();
    for block in &rust {
        let body: Vec<String> = block
            .body
            .iter()
            .map(|l| l.trim_end().to_string())
            .collect();
        if !sources.iter().any(|(_, s)| complete_item_in(&body, s)) {
            failures.push(format!(
                "line {}: this rust block is not a complete item copied verbatim from {}",
                block.line,
                sources.iter().map(|s| s.0).collect::<Vec<_>>().join(" or ")
            ));
        }
    }
    for (header, file) in [
        ("pub enum Checker {", "starter/supplied/src/checker.rs"),
        ("pub trait Playable {", "starter/supplied/src/playable.rs"),
    ] {
        let (_, source) = sources.iter().find(|s| s.0 == file).expect("listed");
        let shown = rust.iter().any(|b| {
            let body = trimmed(&b.body.join("\n"));
            body.iter().any(|l| l == header) && complete_item_in(&body, source)
        });
        if !shown {
            failures.push(format!("the handout must show `{header}` from {file}"));
        }
    }
    report(failures);
}

#[test]
fn every_protocol_command_is_documented_and_exercised() {
    let text = handout();
    let all = blocks(&text);
    let sent: Vec<String> = all
        .iter()
        .filter(|b| b.lang == "protocol")
        .flat_map(|b| b.body.iter().filter_map(|l| l.strip_prefix("> ")))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_ascii_lowercase)
        .collect();
    let shown: Vec<&String> = all
        .iter()
        .filter(|b| b.lang == "protocol" || b.lang == "console")
        .flat_map(|b| &b.body)
        .collect();
    let mut failures = Vec::new();
    for command in COMMANDS {
        if !text.contains(&format!("| `{command}")) {
            failures.push(format!("the protocol table has no row for `{command}`"));
        }
        if !sent.iter().any(|s| s == command) {
            failures.push(format!("no protocol session sends `{command}`"));
        }
    }
    for error in ERRORS {
        if !text.contains(&format!("`{error}`")) {
            failures.push(format!("the protocol table does not mention `{error}`"));
        }
        if !shown.iter().any(|l| *l == error) {
            failures.push(format!("no executed example shows `{error}`"));
        }
    }
    report(failures);
}

/// A category name for comparison: lower case, `_` and `-` read as spaces.
fn normal(name: &str) -> String {
    name.trim_matches('*')
        .trim()
        .to_ascii_lowercase()
        .replace(['_', '-'], " ")
}

/// The handout's rubric: (category, points) rows and the stated total.
fn handout_rubric(text: &str) -> (Vec<(String, i64)>, Option<i64>) {
    let mut rows = Vec::new();
    let mut total = None;
    let section = text
        .lines()
        .skip_while(|l| !(l.starts_with("## ") && l.to_ascii_lowercase().contains("rubric")))
        .skip(1)
        .take_while(|l| !l.starts_with("## "));
    for line in section.filter(|l| l.starts_with('|')) {
        let cells: Vec<&str> = line.split('|').map(str::trim).collect();
        let Some(points) = cells.get(2).and_then(|p| p.trim_matches('*').parse().ok()) else {
            continue;
        };
        if normal(cells[1]) == "total" {
            total = Some(points);
        } else {
            rows.push((normal(cells[1]), points));
        }
    }
    (rows, total)
}

/// Every (category, points) pair `value` names: tables with a name and a points field, and keys
/// of whole numbers named like one of `known`.
fn toml_categories(value: &toml::Value, known: &[String], found: &mut Vec<(String, i64)>) {
    match value {
        toml::Value::Table(table) => {
            let name = ["name", "title", "category"]
                .iter()
                .find_map(|k| table.get(*k).and_then(toml::Value::as_str));
            let points = ["points", "max_points", "max", "weight"]
                .iter()
                .find_map(|k| table.get(*k).and_then(toml::Value::as_integer));
            if let (Some(name), Some(points)) = (name, points) {
                found.push((normal(name), points));
            }
            for (key, item) in table {
                match item.as_integer() {
                    Some(points) if known.contains(&normal(key)) => {
                        found.push((normal(key), points))
                    }
                    _ => toml_categories(item, known, found),
                }
            }
        }
        toml::Value::Array(items) => {
            for item in items {
                toml_categories(item, known, found);
            }
        }
        _ => {}
    }
}

#[test]
fn the_rubric_adds_up_and_matches_the_grading_kit() {
    let (rows, total) = handout_rubric(&handout());
    assert_eq!(
        rows.len(),
        5,
        "the rubric table should have five categories"
    );
    assert_eq!(total, Some(100), "the rubric's total should be 100");
    assert_eq!(rows.iter().map(|r| r.1).sum::<i64>(), 100);
    let path = root().join("grading/rubric.toml");
    if !path.exists() {
        println!(
            "note: {} does not exist yet; the rubric was not compared with it",
            path.display()
        );
        return;
    }
    let rubric = toml::from_str::<toml::Table>(&read(&path))
        .map(toml::Value::Table)
        .unwrap_or_else(|e| panic!("{} is not TOML: {e}", path.display()));
    let known: Vec<String> = rows.iter().map(|r| r.0.clone()).collect();
    let mut found = Vec::new();
    toml_categories(&rubric, &known, &mut found);
    found.sort();
    found.dedup();
    let mut expected = rows.clone();
    expected.sort();
    assert_eq!(
        found,
        expected,
        "the rubric in handout.md (right) and in {} (left) differ",
        path.display()
    );
}

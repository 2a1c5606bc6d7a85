//! Keeps `handout.md` true: every example in it is run against the real `connect_four` binary,
//! the code it shows is compared with the supplied crate, its rubric and threading credit with
//! the grading kit, and its build and grading commands with the starter and the `grade` program.
//! The README's examples follow the same conventions and are run the same way; the `grade`
//! command lines of the README and of the kit's guide are checked as the handout's are.
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
//! - A ```` ```rust ```` block must be one or more complete items copied verbatim (trailing white
//!   space aside) from a file under `starter/supplied/src/`, doc comments and attributes
//!   included. The handout must show `enum Checker` and `trait Playable` that way.
//! - Other blocks (```` ```sh ````, ```` ```text ````, ```` ```toml ````) are illustrations and
//!   are never run as they stand, except that every command line of a ```` ```sh ```` block
//!   that runs `grade` (the word, or a path ending in `/grade`) must parse: it is run with
//!   `--help` appended (a `for` loop's variable standing for its first value). An inline
//!   `` `grade WORD ...` `` must name a subcommand of `grade --help`. The README and the kit's
//!   guide (`grading/README.md`) are held to the same.
//! - The `## N. Title` headings are numbered 1, 2, 3... and the Contents list links every `## `
//!   heading, in order, by its GitHub anchor.
//! - The table under the `## ... rubric` heading lists `| Category | Points | ... |` rows and a
//!   bold total, which must match `grading/rubric.toml` (read with the kit's own `Rubric`); the
//!   same section quotes every hand-graded checklist item as a `- ITEM` line.
//! - What threading earns is stated only between `<!-- BEGIN threading credit` and
//!   `<!-- END threading credit` lines: the points of the consistency and speed-up cases, their
//!   thread counts, how the depth is chosen, how many rounds are timed, the columns the uneven
//!   position fills, and the gains that earn full credit and none, as the kit has them. The
//!   full-credit gain appears nowhere else.
//! - The commands that the starter's `Cargo.toml` gives for building and grading appear in the
//!   handout, the autograder's build command in a ```` ```sh ```` block of the Submitting
//!   section, and the per-command time limits of the kit's cases in the words
//!   `from MIN to MAX seconds` (and `N seconds` for the speed-up case).
//! - The example file header (a block with `//! Name: ...` lines) has the labels that every file
//!   under `starter/src/` carries.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use connect_four_grader::kit::case::{Case, Kind};
use connect_four_grader::kit::style::Language;
use connect_four_grader::kit::Rubric;

use crate::support::{grade, kit, kit_cases, reference, repository};

/// The protocol's commands, each of which the handout documents and exercises.
const COMMANDS: [&str; 9] = connect_four_supplied::protocol::COMMAND_WORDS;

/// The protocol's optional commands (not graded), each of which the handout exercises too.
const OPTIONAL: [&str; 2] = connect_four_supplied::protocol::OPTIONAL_WORDS;

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

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()))
}

fn handout() -> String {
    read(&repository().join("handout.md"))
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
    // assert_cmd writes the input on a thread of its own, so a long answer cannot block it.
    let output = assert_cmd::Command::new(reference())
        .args(&words)
        .write_stdin(as_output(&input))
        .output()
        .expect("connect_four runs");
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
    let text = read(&repository().join("README.md"));
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

/// Every `.rs` file below `dir`, added to `found`.
fn rust_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let entries =
        std::fs::read_dir(dir).unwrap_or_else(|e| panic!("cannot read {}: {e}", dir.display()));
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            rust_files(&path, found);
        } else if path.extension().is_some_and(|e| e == "rs") {
            found.push(path);
        }
    }
}

/// The supplied crate's sources, the only code the handout may quote: (path below the
/// repository, lines without trailing white space), sorted by path.
fn supplied_sources() -> Vec<(String, Vec<String>)> {
    let mut paths = Vec::new();
    rust_files(&repository().join(SUPPLIED_SRC), &mut paths);
    paths.sort();
    assert!(!paths.is_empty(), "no sources under {SUPPLIED_SRC}");
    paths
        .iter()
        .map(|path| {
            let shown = path
                .strip_prefix(repository())
                .unwrap_or(path)
                .display()
                .to_string();
            (shown, trimmed(&read(path)))
        })
        .collect()
}

/// Where the supplied crate's sources are, below the repository.
const SUPPLIED_SRC: &str = "starter/supplied/src";

/// The ```rust blocks of `text` that are not complete items copied from `sources`, and the
/// required items (`header` line, file) that no block shows.
fn rust_block_failures(text: &str, sources: &[(String, Vec<String>)]) -> Vec<String> {
    let rust: Vec<Block> = blocks(text)
        .into_iter()
        .filter(|b| b.lang == "rust")
        .collect();
    let mut failures = Vec::new();
    for block in &rust {
        let body = trimmed(&block.body.join("\n"));
        if !sources.iter().any(|(_, s)| complete_item_in(&body, s)) {
            failures.push(format!(
                "line {}: this rust block is not a complete item copied verbatim from a file under \
                 {SUPPLIED_SRC}/",
                block.line
            ));
        }
    }
    for (header, file) in [
        ("pub enum Checker {", "starter/supplied/src/checker.rs"),
        ("pub trait Playable {", "starter/supplied/src/playable.rs"),
    ] {
        let Some((_, source)) = sources.iter().find(|s| Path::new(&s.0) == Path::new(file)) else {
            failures.push(format!("{file} is missing"));
            continue;
        };
        let shown = rust.iter().any(|b| {
            let body = trimmed(&b.body.join("\n"));
            body.iter().any(|l| l == header) && complete_item_in(&body, source)
        });
        if !shown {
            failures.push(format!("the handout must show `{header}` from {file}"));
        }
    }
    failures
}

#[test]
fn rust_blocks_are_verbatim_from_the_supplied_crate() {
    report(rust_block_failures(&handout(), &supplied_sources()));
}

#[test]
fn a_changed_rust_block_is_caught() {
    let sources = supplied_sources();
    let text = handout();
    assert_eq!(rust_block_failures(&text, &sources), Vec::<String>::new());
    // A doc comment reworded in the handout only.
    let reworded = text.replacen(
        "/// The column is not on the board.",
        "/// No such column.",
        1,
    );
    assert_ne!(reworded, text, "the handout no longer shows MoveError");
    assert_eq!(rust_block_failures(&reworded, &sources).len(), 1);
    // An item cut short: Checker without its last variant.
    let cut = text.replacen("    /// No checker.\n    Empty,\n", "", 1);
    assert_ne!(cut, text, "the handout no longer shows Checker");
    assert_eq!(rust_block_failures(&cut, &sources).len(), 2);
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
    for command in OPTIONAL {
        if !sent.iter().any(|s| s == command) {
            failures.push(format!(
                "no protocol session sends the optional `{command}`"
            ));
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

/// The lines of `text`'s `## ` section whose heading contains `word` (any case), heading
/// excluded; empty if there is none.
fn section<'a>(text: &'a str, word: &str) -> Vec<&'a str> {
    text.lines()
        .skip_while(|l| {
            !(l.starts_with("## ") && l.to_ascii_lowercase().contains(&word.to_ascii_lowercase()))
        })
        .skip(1)
        .take_while(|l| !l.starts_with("## "))
        .collect()
}

/// The handout's rubric: (category, points) rows and the stated total.
fn handout_rubric(text: &str) -> (Vec<(String, i64)>, Option<i64>) {
    let mut rows = Vec::new();
    let mut total = None;
    for line in section(text, "rubric")
        .iter()
        .filter(|l| l.starts_with('|'))
    {
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

/// The kit's rubric, read as `grade` reads it.
fn kit_rubric() -> Rubric {
    let path = kit().join("rubric.toml");
    Rubric::load(&path).unwrap_or_else(|e| panic!("the kit's rubric does not load: {e}"))
}

/// Points as the handout writes them: `30`, `1.5`.
fn points(value: f64) -> String {
    format!("{value}")
}

/// How the rubric in `text` differs from `rubric`: the categories and their points, the total,
/// and the checklists of the categories graded by hand, each item quoted as a `- ITEM` line.
fn rubric_mismatches(text: &str, rubric: &Rubric) -> Vec<String> {
    let mut failures = Vec::new();
    let (rows, total) = handout_rubric(text);
    let mut shown: Vec<(String, String)> = rows
        .iter()
        .map(|(name, p)| (name.clone(), p.to_string()))
        .collect();
    let mut kit: Vec<(String, String)> = rubric
        .categories
        .iter()
        .map(|c| (normal(&c.name), points(c.points)))
        .collect();
    shown.sort();
    kit.sort();
    if shown != kit {
        failures.push(format!(
            "the rubric table's categories and points {shown:?} are not the kit's {kit:?}"
        ));
    }
    let sum: f64 = rubric.categories.iter().map(|c| c.points).sum();
    if total.map(|t| t.to_string()) != Some(points(sum)) {
        failures.push(format!(
            "the rubric table's total is {total:?}, the kit's categories add up to {sum}"
        ));
    }
    let quoted = section(text, "rubric");
    for category in rubric.categories.iter().filter(|c| !c.is_automatic()) {
        // The handout is the Rust students': each item in Rust's words.
        for (most, text) in category.items(Some(Language::Rust)) {
            let item = format!("({}) {text}", points(most));
            if !quoted.iter().any(|l| l.trim_end() == format!("- {item}")) {
                failures.push(format!(
                    "the rubric section does not quote the {} checklist item `- {item}`",
                    category.name
                ));
            }
        }
    }
    failures
}

#[test]
fn the_rubric_adds_up_and_matches_the_grading_kit() {
    let text = handout();
    let (rows, total) = handout_rubric(&text);
    assert_eq!(
        rows.len(),
        5,
        "the rubric table should have five categories"
    );
    assert_eq!(total, Some(100), "the rubric's total should be 100");
    assert_eq!(rows.iter().map(|r| r.1).sum::<i64>(), 100);
    report(rubric_mismatches(&text, &kit_rubric()));
}

#[test]
fn a_wrong_rubric_is_caught() {
    let rubric = kit_rubric();
    let text = handout();
    assert_eq!(rubric_mismatches(&text, &rubric), Vec::<String>::new());
    for (from, to) in [
        ("| AI | 30 |", "| AI | 25 |"),
        ("| **Total** | **100** |", "| **Total** | **90** |"),
        ("- (3) A modal dialog", "- (2) A modal dialog"),
    ] {
        let changed = text.replacen(from, to, 1);
        assert_ne!(changed, text, "the handout no longer says {from:?}");
        assert!(
            !rubric_mismatches(&changed, &rubric).is_empty(),
            "{from:?} changed to {to:?} went unnoticed"
        );
    }
}

/// The delimiters of the one place that says what threading earns.
const CREDIT_BEGIN: &str = "<!-- BEGIN threading credit";
const CREDIT_END: &str = "<!-- END threading credit";

/// `1, 2, 4 and 8`.
fn spoken_list(numbers: &[usize]) -> String {
    let words: Vec<String> = numbers.iter().map(usize::to_string).collect();
    match words.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        _ => words.join(""),
    }
}

/// How the threading credit in `text` differs from the kit's: it must be stated once, between
/// the delimiters, with the kit's numbers, and no speed-up threshold may appear outside.
fn credit_mismatches(text: &str, rubric: &Rubric, cases: &[Case]) -> Vec<String> {
    let begins = text.matches(CREDIT_BEGIN).count();
    let ends = text.matches(CREDIT_END).count();
    let (Some(begin), Some(end)) = (text.find(CREDIT_BEGIN), text.find(CREDIT_END)) else {
        return vec![format!(
            "the threading credit must be between `{CREDIT_BEGIN}` and `{CREDIT_END}` lines"
        )];
    };
    if begins != 1 || ends != 1 || end < begin {
        return vec![format!(
            "`{CREDIT_BEGIN}` and `{CREDIT_END}` must each appear once, in that order"
        )];
    }
    // Phrases are looked for across line breaks.
    let flat = |part: &str| part.split_whitespace().collect::<Vec<_>>().join(" ");
    let inside = flat(&text[begin..end]);
    let outside = flat(&format!("{}{}", &text[..begin], &text[end..]));
    let mut wanted = Vec::new();
    let threading: Vec<&Case> = cases
        .iter()
        .filter(|c| normal(&c.category) == "threading")
        .collect();
    let consistency: Vec<&Case> = threading
        .iter()
        .copied()
        .filter(|c| matches!(c.kind, Kind::Consistency(_)))
        .collect();
    let timing: Vec<&Case> = threading
        .iter()
        .copied()
        .filter(|c| c.is_timing())
        .collect();
    if let Some(category) = rubric
        .categories
        .iter()
        .find(|c| normal(&c.name) == "threading")
    {
        wanted.push(format!("({} points)", points(category.points)));
        if category.manual_points() > 0.0 {
            wanted.push(format!("**{} points", points(category.manual_points())));
        }
    }
    if !consistency.is_empty() {
        let sum: f64 = consistency.iter().map(|c| c.points).sum();
        // Worth points of their own, or a condition on the speed-up's.
        wanted.push(if sum > 0.0 {
            format!("**{} points", points(sum))
        } else {
            "**only when**".to_string()
        });
        for case in &consistency {
            if let Kind::Consistency(threads) = &case.kind {
                wanted.push(spoken_list(threads));
            }
        }
    }
    let timing_points: f64 = timing.iter().map(|c| c.points).sum();
    if !timing.is_empty() {
        wanted.push(format!("**{} points", points(timing_points)));
    }
    for case in &timing {
        if let Kind::Timing(speedup) = &case.kind {
            let filled = speedup.filled(case.rows);
            if !filled.is_empty() {
                wanted.push(format!("columns {} are full", spoken_list(&filled)));
            }
            wanted.push(format!("from depth {}", speedup.start_depth));
            wanted.push(format!("{} second", speedup.target_seconds));
            wanted.push(format!(
                "with {} and with {} threads, {} times each",
                case.threads, speedup.threads, speedup.rounds
            ));
            wanted.push(format!("up to {}", speedup.most_rounds()));
        }
    }
    let rule = &rubric.speedup;
    let full = format!("at least {}%", percent(rule.full_gain));
    wanted.push(format!("{full} earns all {} points", points(timing_points)));
    wanted.push(format!("{}% or less earns nothing", percent(rule.no_gain)));
    wanted.push("in proportion".into());
    wanted.push(format!(
        "unsure by more than {}",
        points(rule.busy_credit_range * timing_points)
    ));
    // The refusals and the fixed division's flag, as the judge has them.
    wanted.push(format!(
        "more than {} times the CPU time",
        connect_four_grader::judge::speedup::NO_BASELINE
    ));
    let idle = connect_four_grader::judge::design::BUSY_IDLE;
    wanted.push(if idle == 0.5 {
        "more than half a thread ready to run".to_string()
    } else {
        format!("more than {idle} threads ready to run")
    });
    wanted.push(format!(
        "{}% or more of the work",
        percent(connect_four_grader::judge::design::FIXED_SHARE)
    ));
    let mut failures: Vec<String> = wanted
        .iter()
        .filter(|w| !inside.contains(w.as_str()))
        .map(|w| format!("the threading credit does not say `{w}`, as the kit has it"))
        .collect();
    if outside.contains(&format!("gain of {full}")) {
        failures.push(format!(
            "the full-credit gain `{full}` appears outside the threading credit section"
        ));
    }
    failures
}

/// A share as a percentage, as the handout writes it: `55` for 0.55, `32.5` for 0.325.
fn percent(share: f64) -> String {
    points((share * 1000.0).round() / 10.0)
}

#[test]
fn the_threading_credit_is_stated_once_as_the_kit_has_it() {
    report(credit_mismatches(&handout(), &kit_rubric(), &kit_cases()));
}

#[test]
fn a_wrong_threading_credit_is_caught() {
    let (rubric, cases) = (kit_rubric(), kit_cases());
    let text = handout();
    assert_eq!(
        credit_mismatches(&text, &rubric, &cases),
        Vec::<String>::new()
    );
    let nothing = format!("{}% or less", percent(rubric.speedup.no_gain));
    let changed = text.replacen(&nothing, "45% or less", 1);
    assert_ne!(changed, text);
    assert!(!credit_mismatches(&changed, &rubric, &cases).is_empty());
    let full = percent(rubric.speedup.full_gain);
    let elsewhere = format!("{text}\nA gain of at least {full}% is plenty.\n");
    assert!(!credit_mismatches(&elsewhere, &rubric, &cases).is_empty());
    let undelimited = text.replacen(CREDIT_END, "<!-- end -->", 1);
    assert!(!credit_mismatches(&undelimited, &rubric, &cases).is_empty());
}

/// GitHub's anchor for a heading: lower case, punctuation dropped, spaces as hyphens.
fn anchor(heading: &str) -> String {
    heading
        .to_lowercase()
        .chars()
        .filter(|c| c.is_alphanumeric() || matches!(c, ' ' | '-' | '_'))
        .map(|c| if c == ' ' { '-' } else { c })
        .collect()
}

/// `N. Title` as (N, Title), if it is numbered.
fn numbered(heading: &str) -> Option<(usize, &str)> {
    let (number, title) = heading.split_once(". ")?;
    Some((number.parse().ok()?, title))
}

/// How the Contents list of `text` differs from its `## ` headings.
fn contents_mismatches(text: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let headings: Vec<&str> = text
        .lines()
        .filter_map(|l| l.strip_prefix("## "))
        .filter(|h| *h != "Contents")
        .collect();
    let numbers: Vec<usize> = headings
        .iter()
        .filter_map(|h| numbered(h))
        .map(|n| n.0)
        .collect();
    if numbers != (1..=numbers.len()).collect::<Vec<_>>() {
        failures.push(format!(
            "the sections are numbered {numbers:?}, not 1, 2, 3..."
        ));
    }
    // Each entry: an optional `N. `, then `[Title](#anchor)`.
    let entries: Vec<(Option<usize>, String, String)> = section(text, "contents")
        .iter()
        .filter_map(|line| {
            let (number, link) = match numbered(line.trim()) {
                Some((n, rest)) => (Some(n), rest),
                None => (None, line.trim()),
            };
            let (title, target) = link.strip_prefix('[')?.split_once("](#")?;
            Some((
                number,
                title.to_string(),
                target.strip_suffix(')')?.to_string(),
            ))
        })
        .collect();
    let expected: Vec<(Option<usize>, String, String)> = headings
        .iter()
        .map(|h| match numbered(h) {
            Some((n, title)) => (Some(n), title.to_string(), anchor(h)),
            None => (None, h.to_string(), anchor(h)),
        })
        .collect();
    if entries != expected {
        failures.push(format!(
            "the Contents list\n{entries:#?}\ndoes not link the headings, in order:\n{expected:#?}"
        ));
    }
    failures
}

#[test]
fn the_contents_list_matches_the_headings() {
    report(contents_mismatches(&handout()));
}

#[test]
fn a_stale_contents_list_is_caught() {
    let text = handout();
    assert_eq!(contents_mismatches(&text), Vec::<String>::new());
    let renamed = text.replacen("## 4. The game", "## 4. The rules", 1);
    assert_ne!(renamed, text);
    assert_eq!(contents_mismatches(&renamed).len(), 1);
    let renumbered = text.replacen("## 5. ", "## 6. ", 1);
    assert_eq!(contents_mismatches(&renumbered).len(), 2);
}

/// The spans between backticks in the comment lines of a TOML file.
fn commented_commands(toml_text: &str) -> Vec<String> {
    toml_text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix('#'))
        .flat_map(|comment| {
            comment
                .split('`')
                .skip(1)
                .step_by(2)
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect()
}

/// How the build and grading commands in `text` differ from what `manifest_text` (the
/// starter's `Cargo.toml`) says: its package name, every `cargo ...` or `target/release/...`
/// command its comments give, and the course's `--locked` build as a line of a ```sh block in
/// the Submitting section, where the student can copy it.
fn command_mismatches(text: &str, manifest_text: &str) -> Vec<String> {
    let manifest: toml::Table = toml::from_str(manifest_text).expect("the starter's manifest");
    let name = manifest
        .get("package")
        .and_then(|p| p.get("name"))
        .and_then(toml::Value::as_str)
        .expect("the starter's package has a name");
    let mut failures = Vec::new();
    for shown in [
        format!("target/release/{name}"),
        format!("must be called `{name}`"),
    ] {
        if !text.contains(&shown) {
            failures.push(format!("the handout does not say `{shown}`"));
        }
    }
    let commands: Vec<String> = commented_commands(manifest_text)
        .into_iter()
        .filter(|c| c.starts_with("cargo ") || c.contains("target/release/"))
        .collect();
    assert!(
        commands.iter().any(|c| c.contains("--locked")),
        "starter/Cargo.toml no longer says how the course builds a submission: {commands:?}"
    );
    for command in &commands {
        if !text.contains(command.as_str()) {
            failures.push(format!(
                "starter/Cargo.toml says `{command}`, the handout never does"
            ));
        }
    }
    let submitting = section(text, "submitting").join("\n");
    for command in commands.iter().filter(|c| c.contains("--locked")) {
        let in_block = blocks(&submitting)
            .iter()
            .any(|b| b.lang == "sh" && b.body.iter().any(|l| l.trim() == command));
        if !in_block {
            failures.push(format!(
                "the Submitting section has no ```sh block with the line `{command}`"
            ));
        }
    }
    failures
}

fn starter_manifest() -> String {
    read(&repository().join("starter/Cargo.toml"))
}

#[test]
fn build_and_grading_commands_match_the_starter() {
    report(command_mismatches(&handout(), &starter_manifest()));
}

/// `line` up to its first comment (a `#` starting a word) or shell operator (`;`, `|`, `&`,
/// `>`), quotes respected.
fn command_part(line: &str) -> &str {
    let mut quote = None;
    let mut previous = ' ';
    for (i, c) in line.char_indices() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => {}
            None if c == '\'' || c == '"' => quote = Some(c),
            None if c == '#' && previous.is_whitespace() => return &line[..i],
            None if ";|&>".contains(c) => return &line[..i],
            None => {}
        }
        previous = c;
    }
    line
}

/// A command line of a ```sh block that runs `grade`.
struct GradeLine {
    /// The block's opening line, for messages.
    line: usize,
    /// What follows `grade`.
    arguments: String,
    /// Shell assignments that bind the variable of each `for` loop of the block to the loop's
    /// first value: `a='0'; `.
    loops: String,
}

/// Every command line of a ```sh block of `text` that runs `grade` (the word `grade`, or a path
/// ending in `/grade`), a `\` at the end of a line continuing it.
fn grade_lines(text: &str) -> Vec<GradeLine> {
    let mut found = Vec::new();
    for block in blocks(text).iter().filter(|b| b.lang == "sh") {
        let joined = block.body.join("\n").replace("\\\n", " ");
        let words: Vec<&str> = joined.split_whitespace().collect();
        let loops: String = words
            .windows(4)
            .filter(|w| w[0] == "for" && w[2] == "in")
            .map(|w| format!("{}='{}'; ", w[1], w[3].trim_end_matches(';')))
            .collect();
        for line in joined.lines().map(command_part) {
            let mut start = 0;
            for word in line.split_whitespace() {
                let at = start + line[start..].find(word).expect("a word of the line");
                start = at + word.len();
                if word == "grade" || word.ends_with("/grade") {
                    found.push(GradeLine {
                        line: block.line,
                        arguments: line[start..].trim().to_string(),
                        loops: loops.clone(),
                    });
                    break;
                }
            }
        }
    }
    found
}

/// `text` without its fenced blocks: the prose and its inline code.
fn prose(text: &str) -> String {
    let mut fenced = false;
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| {
            fenced ^= l.starts_with("```");
            !fenced && !l.starts_with("```")
        })
        .collect();
    lines.join("\n")
}

/// The subcommands that `help` (the output of `grade --help`) lists.
pub(crate) fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        // A subcommand's line starts with two spaces and its name; a wrapped description's
        // continuation starts further in.
        .filter(|l| !l.starts_with("   "))
        .filter_map(|l| l.split_whitespace().next())
        .map(str::to_string)
        .collect()
}

/// How the `grade` commands of `text` differ from the real `grade`: each command line of a
/// ```sh block must parse (it is run with `--help` appended, which prints the help of its
/// subcommand once every argument before it has parsed), and each inline `` `grade WORD ...` ``
/// must name a subcommand that `help` (the output of `grade --help`) lists, or an option.
fn grade_failures(text: &str, help: &str) -> Vec<String> {
    let mut failures = Vec::new();
    let binary = env!("CARGO_BIN_EXE_grade").replace('\'', r"'\''");
    for GradeLine {
        line,
        arguments,
        loops,
    } in grade_lines(text)
    {
        let output = Command::new("sh")
            .arg("-c")
            .arg(format!("{loops}'{binary}' {arguments} --help"))
            .stdin(Stdio::null())
            .output()
            .expect("sh runs");
        let help = String::from_utf8_lossy(&output.stdout);
        if !output.status.success() || !help.contains("Usage: grade") {
            failures.push(format!(
                "line {line}: `grade {arguments}` does not parse:\n{}",
                String::from_utf8_lossy(&output.stderr)
            ));
        }
    }
    let subcommands = subcommands(help);
    for span in prose(text).split('`').skip(1).step_by(2) {
        let words: Vec<&str> = span.split_whitespace().collect();
        let Some(at) = words
            .iter()
            .position(|w| *w == "grade" || w.ends_with("/grade"))
        else {
            continue;
        };
        match words.get(at + 1) {
            Some(word) if !word.starts_with('-') && !subcommands.iter().any(|s| s == word) => {
                failures.push(format!(
                    "`{span}`: `{word}` is not a subcommand of grade ({})",
                    subcommands.join(", ")
                ))
            }
            Some(option) if option.starts_with('-') && *option != "--help" => failures.push(
                format!("`{span}`: grade takes a subcommand before any option but --help"),
            ),
            _ => {}
        }
    }
    failures
}

fn grade_help() -> String {
    let help = grade().arg("--help").output().expect("grade runs");
    String::from_utf8_lossy(&help.stdout).to_string()
}

#[test]
fn every_grade_option_in_the_handout_exists() {
    let text = handout();
    assert!(
        grade_lines(&text)
            .iter()
            .any(|g| g.arguments.contains("student") && g.arguments.contains("--skip-timing")),
        "the handout should show how to run `grade student ... --skip-timing`"
    );
    report(grade_failures(&text, &grade_help()));
}

#[test]
fn every_grade_command_in_the_readmes_parses() {
    let help = grade_help();
    assert_eq!(
        subcommands(&help),
        [
            "student", "class", "gallery", "feedback", "generate", "check", "pack", "handout",
            "match", "export", "similar", "help"
        ],
        "{help}"
    );
    for file in ["README.md", "grading/README.md"] {
        let text = read(&repository().join(file));
        assert!(
            grade_lines(&text).len() >= 3,
            "{file} should show how to run grade"
        );
        let failures = grade_failures(&text, &help);
        assert!(
            failures.is_empty(),
            "{file} is out of date:\n\n{}",
            failures.join("\n\n")
        );
    }
}

/// The kit's per-command time limits that `text` does not give: `from MIN to MAX seconds` for
/// the correctness cases, `N seconds` for each timing case.
fn time_limit_mismatches(text: &str, cases: &[Case]) -> Vec<String> {
    let limits = |timing: bool| -> Vec<f64> {
        cases
            .iter()
            .filter(|c| c.is_timing() == timing)
            .map(|c| c.time_limit.as_secs_f64())
            .collect()
    };
    let plain = limits(false);
    let least = plain.iter().copied().fold(f64::INFINITY, f64::min);
    let most = plain.iter().copied().fold(0.0, f64::max);
    let mut wanted = vec![format!("from {least} to {most} seconds")];
    wanted.extend(limits(true).iter().map(|t| format!("{t} seconds")));
    wanted
        .into_iter()
        .filter(|w| !text.contains(w.as_str()))
        .map(|w| format!("the handout should give the kit's time limits: `{w}`"))
        .collect()
}

#[test]
fn the_time_limits_are_the_kits() {
    report(time_limit_mismatches(&handout(), &kit_cases()));
}

/// The kit's resource limits that `text` does not give, in the FAQ's words.
fn resource_limit_mismatches(text: &str, rubric: &Rubric) -> Vec<String> {
    let limits = &rubric.limits;
    [
        format!("{} MiB of memory", limits.memory_mib),
        format!("{} processes at once", limits.processes),
        format!("{} seconds of CPU time", limits.cpu_seconds),
        format!("files of {} MiB", limits.file_size_mib),
    ]
    .into_iter()
    .filter(|w| !text.contains(w.as_str()))
    .map(|w| format!("the handout should give the kit's resource limits: `{w}`"))
    .collect()
}

#[test]
fn the_resource_limits_are_the_kits() {
    let (text, rubric) = (handout(), kit_rubric());
    report(resource_limit_mismatches(&text, &rubric));
    let changed = text.replacen("600 seconds of CPU time", "60 seconds of CPU time", 1);
    assert_ne!(changed, text);
    assert!(!resource_limit_mismatches(&changed, &rubric).is_empty());
}

#[test]
fn wrong_commands_options_and_time_limits_are_caught() {
    let text = handout();
    let manifest = starter_manifest();
    assert_eq!(command_mismatches(&text, &manifest), Vec::<String>::new());
    let unlocked = text.replace(
        "cargo build --release --no-default-features --locked",
        "cargo build --release --no-default-features",
    );
    assert!(!command_mismatches(&unlocked, &manifest).is_empty());
    let renamed = manifest.replacen("name = \"connect_four\"", "name = \"four\"", 1);
    assert_ne!(renamed, manifest);
    assert!(!command_mismatches(&text, &renamed).is_empty());

    let help = grade_help();
    assert_eq!(grade_failures(&text, &help), Vec::<String>::new());
    for (from, to) in [
        ("connect_four --skip-timing", "connect_four --no-timing"),
        // The flags `grade` had before its subcommands.
        (
            " student ./target/release/connect_four",
            " --student ./target/release/connect_four",
        ),
        ("`grade class`", "`grade --class`"),
        ("`grade class`", "`grade classes`"),
    ] {
        let changed = text.replacen(from, to, 1);
        assert_ne!(changed, text, "the handout no longer says {from:?}");
        assert_eq!(
            grade_failures(&changed, &help).len(),
            1,
            "{from:?} changed to {to:?}"
        );
    }
    // A loop's variable is bound to its first value: without it, the player would not parse.
    let looped = "```sh\nfor a in 3 4; do\n  grade match reference:$a reference:1\ndone\n```\n";
    assert_eq!(grade_failures(looped, &help), Vec::<String>::new());
    let unbound = looped.replace("for a in", "for b in");
    assert_eq!(grade_failures(&unbound, &help).len(), 1);

    let cases = kit_cases();
    assert_eq!(time_limit_mismatches(&text, &cases), Vec::<String>::new());
    let mut slower = cases.clone();
    slower[0].time_limit *= 100;
    assert!(!time_limit_mismatches(&text, &slower).is_empty());
}

#[test]
fn the_starter_files_carry_the_header_the_handout_asks_for() {
    let text = handout();
    // The labels of the handout's example header: `//! Name: ...` and the like.
    let labels: Vec<String> = blocks(&text)
        .iter()
        .filter(|b| b.body.iter().any(|l| l.starts_with("//! Name:")))
        .flat_map(|b| {
            b.body
                .iter()
                .filter_map(|l| l.strip_prefix("//! ")?.split_once(": "))
                .filter(|(label, _)| !label.contains(' '))
                .map(|(label, _)| label.to_string())
                .collect::<Vec<_>>()
        })
        .collect();
    assert!(
        ["Name", "Course", "Project", "Date"]
            .iter()
            .all(|l| labels.iter().any(|x| x == l)),
        "the handout should show the file header with Name, Course, Project and Date: {labels:?}"
    );
    let mut files = Vec::new();
    rust_files(&repository().join("starter/src"), &mut files);
    files.sort();
    let mut failures = Vec::new();
    for file in &files {
        let source = read(file);
        let says_what_it_holds = source
            .lines()
            .next()
            .is_some_and(|l| l.starts_with("//! ") && l.len() > 4);
        let missing: Vec<&String> = labels
            .iter()
            .filter(|label| {
                !source
                    .lines()
                    .any(|l| l.starts_with(&format!("//! {label}:")))
            })
            .collect();
        if !says_what_it_holds || !missing.is_empty() {
            failures.push(format!(
                "{} does not start with the header the handout asks for (missing: {missing:?})",
                file.display()
            ));
        }
    }
    report(failures);
}

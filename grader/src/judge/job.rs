//! A student as the judge runs them: how their program starts ([`Student`]), and a [`Job`]: the
//! student with the sandbox their processes run in, which starts their program.

use std::path::{Path, PathBuf};

use crate::process::sandbox::Prepared;
use crate::process::{Failure, Limits, Program};

/// How to start one student's program: a shell command (the grader appends
/// `ROWS COLS DEPTH THREADS --protocol`), the directory to run it in and its resource limits.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Student {
    /// A name for reports: the submission directory's name, or the command.
    pub name: String,
    /// The shell command that starts the program.
    pub command: String,
    /// The working directory, if not the grader's own.
    pub dir: Option<PathBuf>,
    /// The limits every run of the program is under: the kit's, or the command line's.
    pub limits: Limits,
}

impl Student {
    /// A name for this student's files (`<stem>.md`, `<stem>.build.log`): letters, digits and
    /// `-_.` kept, anything else made `_`.
    pub fn file_stem(&self) -> String {
        file_stem(&self.name)
    }

    /// `template` (a shell command) with `{dir}` replaced by `dir`, quoted for the shell
    /// where it stands: bare, in `'...'` or in `"..."`. A submission folder named with spaces
    /// or shell characters (`Ann Lee`, `$(reboot)`) stays one word and runs nothing, whether
    /// the template quotes `{dir}` or not.
    pub fn with_dir(template: &str, dir: &Path) -> String {
        let dir = dir.to_string_lossy();
        let (mut out, mut rest) = (String::with_capacity(template.len()), template);
        // The quote the shell is inside at this point of the template, if any.
        let mut quote = None;
        while let Some(c) = rest.chars().next() {
            if let Some(after) = rest.strip_prefix("{dir}") {
                out.push_str(&quoted(&dir, quote));
                rest = after;
                continue;
            }
            let mut taken = c.len_utf8();
            match (quote, c) {
                (None, '\'' | '"') => quote = Some(c),
                (Some(open), c) if c == open => quote = None,
                // A backslash outside single quotes takes the next character with it.
                (None | Some('"'), '\\') => {
                    taken += rest[1..].chars().next().map_or(0, char::len_utf8);
                }
                _ => {}
            }
            out.push_str(&rest[..taken]);
            rest = &rest[taken..];
        }
        out
    }
}

/// `dir` written to stand for itself inside `quote` (none, `'` or `"`) of a shell command.
fn quoted(dir: &str, quote: Option<char>) -> String {
    match quote {
        None => shlex::try_quote(dir).map_or_else(|_| dir.into(), |q| q.into_owned()),
        Some('\'') => dir.replace('\'', r"'\''"),
        Some(_) => dir
            .chars()
            .flat_map(|c| {
                let escape = matches!(c, '"' | '\\' | '$' | '`').then_some('\\');
                escape.into_iter().chain([c])
            })
            .collect(),
    }
}

/// A name for the files of the student named `name`: letters, digits and `-_.` kept, anything
/// else made `_`.
pub fn file_stem(name: &str) -> String {
    let safe: String = name
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    // A leading dot would hide the file (`./target/...` makes `._target...`).
    match safe.trim_start_matches(['.', '_']) {
        "" => "student".into(),
        stem => stem.into(),
    }
}

/// A student being graded: how their program starts, and the sandbox it runs in.
#[derive(Clone, Copy, Debug)]
pub struct Job<'a> {
    /// The student.
    pub student: &'a Student,
    /// Their sandbox, if they have one.
    pub sandbox: Option<&'a Prepared>,
}

impl Job<'_> {
    /// Starts the student's program with `arguments`, in their directory, under their limits,
    /// in their sandbox.
    pub fn start(&self, arguments: &str) -> Result<Program, Failure> {
        self.start_with(arguments, &[])
    }

    /// [`Job::start`] with the variables `env` set as well (`DISPLAY` for a window).
    pub fn start_with(&self, arguments: &str, env: &[(&str, &str)]) -> Result<Program, Failure> {
        let student = self.student;
        Program::start_with(
            &student.command,
            arguments,
            student.dir.as_deref(),
            &student.limits,
            self.sandbox,
            env,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_stems_keep_only_safe_characters() {
        assert_eq!(file_stem("ann lee/../x"), "ann_lee_.._x");
        assert_eq!(
            file_stem("./target/release/connect_four"),
            "target_release_connect_four"
        );
        assert_eq!(file_stem("../.."), "student");
        assert_eq!(file_stem("Zoë-2.b_c"), "Zoë-2.b_c");
        assert_eq!(
            Student::with_dir("cd {dir} && {dir}/run", Path::new("/s")),
            "cd /s && /s/run"
        );
    }

    /// What `sh` makes of `command`'s words, each printed on a line of its own.
    fn words(command: &str) -> Vec<String> {
        let output = std::process::Command::new("sh")
            .arg("-c")
            .arg(format!("printf '%s\\n' {command}"))
            .output()
            .unwrap();
        assert!(output.status.success(), "{command}");
        String::from_utf8(output.stdout)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect()
    }

    #[test]
    fn a_folder_with_shell_characters_stays_one_word_wherever_dir_stands() {
        let dir = "/c/Ann Lee's $(echo x) `y` \\ \"q\"";
        for (template, want) in [
            ("{dir}/run", format!("{dir}/run")),
            ("\"{dir}/run\"", format!("{dir}/run")),
            ("'{dir}/run'", format!("{dir}/run")),
            ("a\\ b{dir}", format!("a b{dir}")),
            ("\"it's {dir}\"", format!("it's {dir}")),
        ] {
            let command = Student::with_dir(template, Path::new(dir));
            assert_eq!(words(&command), [want], "{template} -> {command}");
        }
    }
}
